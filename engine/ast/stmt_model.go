package ast

// Flink 2.x's model and materialized-table statements. Models are catalog
// objects; eddy's engine runs no refresh jobs, so the DDL executor answers
// what Flink answers when no materialized table exists and refuses the
// statements that would create one.

// CreateModel is CREATE [TEMPORARY] MODEL [IF NOT EXISTS] name
// [INPUT (columns)] [OUTPUT (columns)] [COMMENT 'c'] [WITH (options)].
type CreateModel struct {
	Pos         Pos
	Temporary   bool
	IfNotExists bool
	Name        *ObjectName
	Input       []*ColumnDef
	Output      []*ColumnDef
	Comment     *string
	Options     []*Property // nil when WITH is absent
}

// DropModel is DROP [TEMPORARY] MODEL [IF EXISTS] name.
type DropModel struct {
	Pos       Pos
	Temporary bool
	IfExists  bool
	Name      *ObjectName
}

// AlterModelAction says what an ALTER MODEL changes.
type AlterModelAction uint8

// ALTER MODEL actions.
const (
	AlterModelSet    AlterModelAction = iota + 1 // SET (options)
	AlterModelReset                              // RESET (keys)
	AlterModelRename                             // RENAME TO name
)

// AlterModel is ALTER MODEL [IF EXISTS] name SET (...) | RESET (...) |
// RENAME TO name.
type AlterModel struct {
	Pos       Pos
	IfExists  bool
	Name      *ObjectName
	Action    AlterModelAction
	Options   []*Property // SET
	ResetKeys []string    // RESET
	NewName   *ObjectName // RENAME TO
}

// MaterializedTable is CREATE [OR ALTER] MATERIALIZED TABLE, DROP
// MATERIALIZED TABLE [IF EXISTS] or ALTER MATERIALIZED TABLE: Verb is
// "CREATE", "DROP" or "ALTER"; Options are the WITH options of a CREATE.
type MaterializedTable struct {
	Pos      Pos
	Verb     string
	IfExists bool
	Name     *ObjectName
	Options  []*Property
}

var (
	_ Statement = (*CreateModel)(nil)
	_ Statement = (*DropModel)(nil)
	_ Statement = (*AlterModel)(nil)
	_ Statement = (*MaterializedTable)(nil)
)

func (s *CreateModel) Position() Pos       { return s.Pos }
func (s *DropModel) Position() Pos         { return s.Pos }
func (s *AlterModel) Position() Pos        { return s.Pos }
func (s *MaterializedTable) Position() Pos { return s.Pos }

func (*CreateModel) stmtNode()       {}
func (*DropModel) stmtNode()         {}
func (*AlterModel) stmtNode()        {}
func (*MaterializedTable) stmtNode() {}

func (s *CreateModel) Format(p *Printer) {
	p.Keyword("CREATE ")
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("MODEL ")
	if s.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	p.Node(s.Name)
	cols := func(word string, cs []*ColumnDef) {
		if cs == nil {
			return
		}
		p.Keyword(" " + word + " (")
		for i, c := range cs {
			if i > 0 {
				p.Write(", ")
			}
			p.Node(c)
		}
		p.Write(")")
	}
	cols("INPUT", s.Input)
	cols("OUTPUT", s.Output)
	if s.Comment != nil {
		p.Keyword(" COMMENT ")
		p.String(*s.Comment)
	}
	if s.Options != nil {
		p.Keyword(" WITH ")
		formatProperties(p, s.Options)
	}
}

func (s *DropModel) Format(p *Printer) {
	p.Keyword("DROP ")
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("MODEL ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
}

func (s *AlterModel) Format(p *Printer) {
	p.Keyword("ALTER MODEL ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
	switch s.Action {
	case AlterModelSet:
		p.Keyword(" SET ")
		formatProperties(p, s.Options)
	case AlterModelReset:
		p.Keyword(" RESET ")
		p.Write("(")
		for i, k := range s.ResetKeys {
			if i > 0 {
				p.Write(", ")
			}
			p.String(k)
		}
		p.Write(")")
	case AlterModelRename:
		p.Keyword(" RENAME TO ")
		p.Node(s.NewName)
	}
}

func (s *MaterializedTable) Format(p *Printer) {
	p.Keyword(s.Verb + " MATERIALIZED TABLE ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
	if s.Options != nil {
		p.Keyword(" WITH ")
		formatProperties(p, s.Options)
	}
}

// ModelCall is ML_PREDICT(...) or ML_EVALUATE(...) in FROM: a table
// function over a model (Flink 2.1+), e.g. ML_PREDICT(TABLE t, MODEL m,
// DESCRIPTOR(a, b)).
type ModelCall struct {
	Pos   Pos
	Func  string // ML_PREDICT or ML_EVALUATE, upper-case
	Args  []*ModelArg
	Alias *Alias
}

// ModelArg is one argument of a ModelCall: TABLE name, MODEL name or an
// expression (a DESCRIPTOR, a MAP of options, a literal).
type ModelArg struct {
	Table *ObjectName
	Model *ObjectName
	Expr  Expr
}

var _ TableExpr = (*ModelCall)(nil)

func (t *ModelCall) Position() Pos { return t.Pos }
func (*ModelCall) tableNode()      {}
func (t *ModelCall) Format(p *Printer) {
	p.Keyword(t.Func)
	p.Write("(")
	for i, a := range t.Args {
		if i > 0 {
			p.Write(", ")
		}
		switch {
		case a.Table != nil:
			p.Keyword("TABLE ")
			p.Node(a.Table)
		case a.Model != nil:
			p.Keyword("MODEL ")
			p.Node(a.Model)
		default:
			a.Expr.Format(p)
		}
	}
	p.Write(")")
	formatAlias(p, t.Alias)
}
