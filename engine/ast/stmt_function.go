package ast

// CreateFunction is CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS]
// name AS 'class' [LANGUAGE JAVA|SCALA|PYTHON|SQL] [USING JAR 'p' [, JAR 'q']].
type CreateFunction struct {
	Pos         Pos
	Temporary   bool
	System      bool
	IfNotExists bool
	Name        *ObjectName
	ClassName   string
	Language    string   // upper-case, or "" when absent
	Jars        []string // USING JAR paths
}

// DropFunction is DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name.
type DropFunction struct {
	Pos       Pos
	Temporary bool
	System    bool
	IfExists  bool
	Name      *ObjectName
}

// AlterFunction is ALTER [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] name AS
// 'class' [LANGUAGE ...].
type AlterFunction struct {
	Pos       Pos
	Temporary bool
	System    bool
	IfExists  bool
	Name      *ObjectName
	ClassName string
	Language  string
}

var (
	_ Statement = (*CreateFunction)(nil)
	_ Statement = (*DropFunction)(nil)
	_ Statement = (*AlterFunction)(nil)
)

func (s *CreateFunction) Position() Pos { return s.Pos }
func (s *DropFunction) Position() Pos   { return s.Pos }
func (s *AlterFunction) Position() Pos  { return s.Pos }

func (*CreateFunction) stmtNode() {}
func (*DropFunction) stmtNode()   {}
func (*AlterFunction) stmtNode()  {}

func formatFunctionScope(p *Printer, temporary, system bool) {
	if temporary {
		p.Keyword("TEMPORARY ")
	}
	if system {
		p.Keyword("SYSTEM ")
	}
	p.Keyword("FUNCTION ")
}

func (s *CreateFunction) Format(p *Printer) {
	p.Keyword("CREATE ")
	formatFunctionScope(p, s.Temporary, s.System)
	if s.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	p.Node(s.Name)
	p.Keyword(" AS ")
	p.String(s.ClassName)
	if s.Language != "" {
		p.Keyword(" LANGUAGE ")
		p.Keyword(s.Language)
	}
	for i, j := range s.Jars {
		if i == 0 {
			p.Keyword(" USING JAR ")
		} else {
			p.Keyword(", JAR ")
		}
		p.String(j)
	}
}

func (s *DropFunction) Format(p *Printer) {
	p.Keyword("DROP ")
	formatFunctionScope(p, s.Temporary, s.System)
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
}

func (s *AlterFunction) Format(p *Printer) {
	p.Keyword("ALTER ")
	formatFunctionScope(p, s.Temporary, s.System)
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
	p.Keyword(" AS ")
	p.String(s.ClassName)
	if s.Language != "" {
		p.Keyword(" LANGUAGE ")
		p.Keyword(s.Language)
	}
}
