package ast

// ViewColumn is one name of a CREATE VIEW column list, with its comment.
type ViewColumn struct {
	Pos     Pos
	Name    *Ident
	Comment *string
}

// CreateView is CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] name
// [(cols)] [COMMENT 'c'] AS query. The parser accepts OR REPLACE together
// with IF NOT EXISTS; the engine rejects the pair.
type CreateView struct {
	Pos         Pos
	OrReplace   bool
	Temporary   bool
	IfNotExists bool
	Name        *ObjectName
	Columns     []*ViewColumn // nil when absent
	Comment     *string
	Query       Query
	QuerySpan   Span // where the query stands in the statement text: the catalog stores it as written
}

// DropView is DROP [TEMPORARY] VIEW [IF EXISTS] name.
type DropView struct {
	Pos       Pos
	Temporary bool
	IfExists  bool
	Name      *ObjectName
}

// AlterViewRename is ALTER VIEW name RENAME TO new_name.
type AlterViewRename struct {
	Pos     Pos
	Name    *ObjectName
	NewName *ObjectName
}

// AlterViewAs is ALTER VIEW name AS query.
type AlterViewAs struct {
	Pos       Pos
	Name      *ObjectName
	Query     Query
	QuerySpan Span
}

var (
	_ Statement = (*CreateView)(nil)
	_ Statement = (*DropView)(nil)
	_ Statement = (*AlterViewRename)(nil)
	_ Statement = (*AlterViewAs)(nil)
)

func (c *ViewColumn) Position() Pos      { return c.Pos }
func (s *CreateView) Position() Pos      { return s.Pos }
func (s *DropView) Position() Pos        { return s.Pos }
func (s *AlterViewRename) Position() Pos { return s.Pos }
func (s *AlterViewAs) Position() Pos     { return s.Pos }

func (*CreateView) stmtNode()      {}
func (*DropView) stmtNode()        {}
func (*AlterViewRename) stmtNode() {}
func (*AlterViewAs) stmtNode()     {}

func (c *ViewColumn) Format(p *Printer) {
	p.Node(c.Name)
	formatComment(p, c.Comment)
}

// Format prints the layout of Flink's SHOW CREATE VIEW: the column list
// on its own line, then "AS" and the query.
func (s *CreateView) Format(p *Printer) {
	p.Keyword("CREATE ")
	if s.OrReplace {
		p.Keyword("OR REPLACE ")
	}
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("VIEW ")
	if s.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	p.Node(s.Name)
	if s.Columns != nil {
		p.Write(" (")
		p.Indent()
		for i, c := range s.Columns {
			if i > 0 {
				p.Write(",")
			}
			p.Newline()
			p.Node(c)
		}
		p.Dedent()
		p.Newline()
		p.Write(")")
	}
	if s.Comment != nil {
		p.Newline()
		p.Keyword("COMMENT ")
		p.String(*s.Comment)
	}
	p.Newline()
	p.Keyword("AS ")
	p.Node(s.Query)
}

func (s *DropView) Format(p *Printer) {
	p.Keyword("DROP ")
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("VIEW ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
}

func (s *AlterViewRename) Format(p *Printer) {
	p.Keyword("ALTER VIEW ")
	p.Node(s.Name)
	p.Keyword(" RENAME TO ")
	p.Node(s.NewName)
}

func (s *AlterViewAs) Format(p *Printer) {
	p.Keyword("ALTER VIEW ")
	p.Node(s.Name)
	p.Keyword(" AS ")
	p.Node(s.Query)
}
