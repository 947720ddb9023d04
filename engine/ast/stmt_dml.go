package ast

// Insert is INSERT INTO|OVERWRITE table [PARTITION (...)] [(cols)] query, or
// UPSERT INTO. The source (a query or VALUES) is a Query.
type Insert struct {
	Pos       Pos
	Upsert    bool // UPSERT INTO
	Overwrite bool
	Table     *ObjectName
	Hints     []*Hint           // /*+ ... */ table hints after the name
	Partition []*PartitionValue // nil when absent
	Columns   []*Ident          // nil when absent
	Source    Query
}

// StatementSet is STATEMENT SET BEGIN insert; ... END, the body of EXECUTE
// STATEMENT SET and EXPLAIN STATEMENT SET.
type StatementSet struct {
	Pos     Pos
	Inserts []*Insert
}

// Execute is EXECUTE statement: an INSERT, a statement set or a query.
type Execute struct {
	Pos  Pos
	Stmt Statement
}

// BeginStatementSet is the client's BEGIN STATEMENT SET.
type BeginStatementSet struct{ Pos Pos }

// End is the client's END that closes a statement set.
type End struct{ Pos Pos }

// Truncate is TRUNCATE TABLE name.
type Truncate struct {
	Pos   Pos
	Table *ObjectName
}

// Delete is DELETE FROM table [[AS] alias] [WHERE cond].
type Delete struct {
	Pos   Pos
	Table *ObjectName
	Alias *Ident // or nil
	Where Expr   // or nil
}

// Assignment is col = expr in UPDATE ... SET.
type Assignment struct {
	Pos    Pos
	Column *Ident
	Value  Expr
}

// Update is UPDATE table [[AS] alias] SET col = expr, ... [WHERE cond].
type Update struct {
	Pos         Pos
	Table       *ObjectName
	Alias       *Ident
	Assignments []*Assignment
	Where       Expr
}

var (
	_ Statement = (*Insert)(nil)
	_ Statement = (*StatementSet)(nil)
	_ Statement = (*Execute)(nil)
	_ Statement = (*BeginStatementSet)(nil)
	_ Statement = (*End)(nil)
	_ Statement = (*Truncate)(nil)
	_ Statement = (*Delete)(nil)
	_ Statement = (*Update)(nil)
)

func (s *Insert) Position() Pos            { return s.Pos }
func (s *StatementSet) Position() Pos      { return s.Pos }
func (s *Execute) Position() Pos           { return s.Pos }
func (s *BeginStatementSet) Position() Pos { return s.Pos }
func (s *End) Position() Pos               { return s.Pos }
func (s *Truncate) Position() Pos          { return s.Pos }
func (s *Delete) Position() Pos            { return s.Pos }
func (a *Assignment) Position() Pos        { return a.Pos }
func (s *Update) Position() Pos            { return s.Pos }

func (*Insert) stmtNode()            {}
func (*StatementSet) stmtNode()      {}
func (*Execute) stmtNode()           {}
func (*BeginStatementSet) stmtNode() {}
func (*End) stmtNode()               {}
func (*Truncate) stmtNode()          {}
func (*Delete) stmtNode()            {}
func (*Update) stmtNode()            {}

func (s *Insert) Format(p *Printer) {
	switch {
	case s.Upsert:
		p.Keyword("UPSERT INTO ")
	case s.Overwrite:
		p.Keyword("INSERT OVERWRITE ")
	default:
		p.Keyword("INSERT INTO ")
	}
	p.Node(s.Table)
	if len(s.Hints) > 0 {
		p.Write(" ")
		formatHints(p, s.Hints)
	}
	if s.Partition != nil {
		p.Write(" ")
		formatPartitionSpec(p, s.Partition)
	}
	if s.Columns != nil {
		p.Write(" (")
		formatIdents(p, s.Columns)
		p.Write(")")
	}
	p.Newline()
	p.Node(s.Source)
}

func (s *StatementSet) Format(p *Printer) {
	p.Keyword("STATEMENT SET BEGIN")
	for _, ins := range s.Inserts {
		p.Newline()
		p.Node(ins)
		p.Write(";")
	}
	p.Newline()
	p.Keyword("END")
}

func (s *Execute) Format(p *Printer) {
	p.Keyword("EXECUTE ")
	p.Node(s.Stmt)
}

func (s *BeginStatementSet) Format(p *Printer) { p.Keyword("BEGIN STATEMENT SET") }
func (s *End) Format(p *Printer)               { p.Keyword("END") }

func (s *Truncate) Format(p *Printer) {
	p.Keyword("TRUNCATE TABLE ")
	p.Node(s.Table)
}

func (s *Delete) Format(p *Printer) {
	p.Keyword("DELETE FROM ")
	p.Node(s.Table)
	if s.Alias != nil {
		p.Keyword(" AS ")
		p.Node(s.Alias)
	}
	if s.Where != nil {
		p.Keyword(" WHERE ")
		p.Node(s.Where)
	}
}

func (a *Assignment) Format(p *Printer) {
	p.Node(a.Column)
	p.Write(" = ")
	p.Node(a.Value)
}

func (s *Update) Format(p *Printer) {
	p.Keyword("UPDATE ")
	p.Node(s.Table)
	if s.Alias != nil {
		p.Keyword(" AS ")
		p.Node(s.Alias)
	}
	p.Keyword(" SET ")
	for i, a := range s.Assignments {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(a)
	}
	if s.Where != nil {
		p.Keyword(" WHERE ")
		p.Node(s.Where)
	}
}
