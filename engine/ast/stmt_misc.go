package ast

// This file holds the statement nodes that fit no object family: session
// configuration, modules, jars, procedures, EXPLAIN, plan compilation and
// the client commands, plus the small printing functions the statement files
// share.

// Set is SET, or SET 'key' = 'value'. Key is nil for the bare SET that
// lists the session configuration.
type Set struct {
	Pos   Pos
	Key   *string
	Value string
}

// Reset is RESET, or RESET 'key'. Key is nil for the bare RESET that
// restores every default. Flink also takes the key unquoted
// (sql-gateway/set.q: reset table.resources.download-dir).
type Reset struct {
	Pos Pos
	Key *string
}

// LoadModule is LOAD MODULE name [WITH (...)].
type LoadModule struct {
	Pos     Pos
	Name    *Ident
	Options []*Property // nil when WITH was absent
}

// UnloadModule is UNLOAD MODULE name.
type UnloadModule struct {
	Pos  Pos
	Name *Ident
}

// UseModules is USE MODULES a [, b ...].
type UseModules struct {
	Pos   Pos
	Names []*Ident
}

// AddJar is ADD JAR 'path'.
type AddJar struct {
	Pos  Pos
	Path string
}

// RemoveJar is REMOVE JAR 'path'.
type RemoveJar struct {
	Pos  Pos
	Path string
}

// Call is CALL [catalog.][db.]procedure(args).
type Call struct {
	Pos       Pos
	Procedure *ObjectName
	Args      []Expr
}

// StopJob is STOP JOB 'id' [WITH SAVEPOINT] [WITH DRAIN].
type StopJob struct {
	Pos       Pos
	JobID     string
	Savepoint bool
	Drain     bool
}

// Explain is EXPLAIN [PLAN FOR | detail, ...] statement. The statement is a
// query, an INSERT, a statement set, or an Execute of one of those.
type Explain struct {
	Pos     Pos
	PlanFor bool     // EXPLAIN PLAN FOR
	Details []string // upper-case: ESTIMATED_COST, CHANGELOG_MODE, PLAN_ADVICE, JSON_EXECUTION_PLAN
	Stmt    Statement
}

// CompilePlan is COMPILE PLAN 'file' [IF NOT EXISTS] FOR statement, the
// statement being an INSERT or a statement set.
type CompilePlan struct {
	Pos         Pos
	File        string
	IfNotExists bool
	Stmt        Statement
}

// CompileAndExecutePlan is COMPILE AND EXECUTE PLAN 'file' FOR statement.
type CompileAndExecutePlan struct {
	Pos  Pos
	File string
	Stmt Statement
}

// ExecutePlan is EXECUTE PLAN 'file'.
type ExecutePlan struct {
	Pos  Pos
	File string
}

// ClientCommand is a command of the SQL client itself: HELP, QUIT, EXIT or
// CLEAR. The parser returns it so that the REPL shares one splitter and one
// parser with the engine.
type ClientCommand struct {
	Pos  Pos
	Name string // upper-case
}

var (
	_ Statement = (*Set)(nil)
	_ Statement = (*Reset)(nil)
	_ Statement = (*LoadModule)(nil)
	_ Statement = (*UnloadModule)(nil)
	_ Statement = (*UseModules)(nil)
	_ Statement = (*AddJar)(nil)
	_ Statement = (*RemoveJar)(nil)
	_ Statement = (*Call)(nil)
	_ Statement = (*StopJob)(nil)
	_ Statement = (*Explain)(nil)
	_ Statement = (*CompilePlan)(nil)
	_ Statement = (*CompileAndExecutePlan)(nil)
	_ Statement = (*ExecutePlan)(nil)
	_ Statement = (*ClientCommand)(nil)
)

func (s *Set) Position() Pos                   { return s.Pos }
func (s *Reset) Position() Pos                 { return s.Pos }
func (s *LoadModule) Position() Pos            { return s.Pos }
func (s *UnloadModule) Position() Pos          { return s.Pos }
func (s *UseModules) Position() Pos            { return s.Pos }
func (s *AddJar) Position() Pos                { return s.Pos }
func (s *RemoveJar) Position() Pos             { return s.Pos }
func (s *Call) Position() Pos                  { return s.Pos }
func (s *StopJob) Position() Pos               { return s.Pos }
func (s *Explain) Position() Pos               { return s.Pos }
func (s *CompilePlan) Position() Pos           { return s.Pos }
func (s *CompileAndExecutePlan) Position() Pos { return s.Pos }
func (s *ExecutePlan) Position() Pos           { return s.Pos }
func (s *ClientCommand) Position() Pos         { return s.Pos }

func (*Set) stmtNode()                   {}
func (*Reset) stmtNode()                 {}
func (*LoadModule) stmtNode()            {}
func (*UnloadModule) stmtNode()          {}
func (*UseModules) stmtNode()            {}
func (*AddJar) stmtNode()                {}
func (*RemoveJar) stmtNode()             {}
func (*Call) stmtNode()                  {}
func (*StopJob) stmtNode()               {}
func (*Explain) stmtNode()               {}
func (*CompilePlan) stmtNode()           {}
func (*CompileAndExecutePlan) stmtNode() {}
func (*ExecutePlan) stmtNode()           {}
func (*ClientCommand) stmtNode()         {}

func (s *Set) Format(p *Printer) {
	p.Keyword("SET")
	if s.Key != nil {
		p.Write(" ")
		p.String(*s.Key)
		p.Write(" = ")
		p.String(s.Value)
	}
}

func (s *Reset) Format(p *Printer) {
	p.Keyword("RESET")
	if s.Key != nil {
		p.Write(" ")
		p.String(*s.Key)
	}
}

func (s *LoadModule) Format(p *Printer) {
	p.Keyword("LOAD MODULE ")
	p.Node(s.Name)
	if s.Options != nil {
		p.Keyword(" WITH ")
		formatProperties(p, s.Options)
	}
}

func (s *UnloadModule) Format(p *Printer) {
	p.Keyword("UNLOAD MODULE ")
	p.Node(s.Name)
}

func (s *UseModules) Format(p *Printer) {
	p.Keyword("USE MODULES ")
	formatIdents(p, s.Names)
}

func (s *AddJar) Format(p *Printer) {
	p.Keyword("ADD JAR ")
	p.String(s.Path)
}

func (s *RemoveJar) Format(p *Printer) {
	p.Keyword("REMOVE JAR ")
	p.String(s.Path)
}

func (s *Call) Format(p *Printer) {
	p.Keyword("CALL ")
	p.Node(s.Procedure)
	p.Write("(")
	for i, a := range s.Args {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(a)
	}
	p.Write(")")
}

func (s *StopJob) Format(p *Printer) {
	p.Keyword("STOP JOB ")
	p.String(s.JobID)
	if s.Savepoint {
		p.Keyword(" WITH SAVEPOINT")
	}
	if s.Drain {
		p.Keyword(" WITH DRAIN")
	}
}

func (s *Explain) Format(p *Printer) {
	p.Keyword("EXPLAIN ")
	if s.PlanFor {
		p.Keyword("PLAN FOR ")
	}
	for i, d := range s.Details {
		if i > 0 {
			p.Write(", ")
		}
		p.Keyword(d)
	}
	if len(s.Details) > 0 {
		p.Write(" ")
	}
	p.Node(s.Stmt)
}

func (s *CompilePlan) Format(p *Printer) {
	p.Keyword("COMPILE PLAN ")
	p.String(s.File)
	if s.IfNotExists {
		p.Keyword(" IF NOT EXISTS")
	}
	p.Keyword(" FOR ")
	p.Node(s.Stmt)
}

func (s *CompileAndExecutePlan) Format(p *Printer) {
	p.Keyword("COMPILE AND EXECUTE PLAN ")
	p.String(s.File)
	p.Keyword(" FOR ")
	p.Node(s.Stmt)
}

func (s *ExecutePlan) Format(p *Printer) {
	p.Keyword("EXECUTE PLAN ")
	p.String(s.File)
}

func (s *ClientCommand) Format(p *Printer) { p.Keyword(s.Name) }

// formatProperties prints ('k' = 'v', ...) on one line.
func formatProperties(p *Printer, props []*Property) {
	p.Write("(")
	for i, pr := range props {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(pr)
	}
	p.Write(")")
}

// formatPropertiesBlock prints WITH-style options one per line, as Flink's
// SHOW CREATE TABLE does:
//
//	(
//	  'k' = 'v'
//	)
func formatPropertiesBlock(p *Printer, props []*Property) {
	p.Write("(")
	p.Indent()
	for i, pr := range props {
		if i > 0 {
			p.Write(",")
		}
		p.Newline()
		p.Node(pr)
	}
	p.Dedent()
	p.Newline()
	p.Write(")")
}

// formatStrings prints ('a', 'b', ...), the key list of RESET (...).
func formatStrings(p *Printer, keys []string) {
	p.Write("(")
	for i, k := range keys {
		if i > 0 {
			p.Write(", ")
		}
		p.String(k)
	}
	p.Write(")")
}

// formatIdents prints a, b, c.
func formatIdents(p *Printer, ids []*Ident) {
	for i, id := range ids {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(id)
	}
}

// formatNames prints a, b.c, d.
func formatNames(p *Printer, names []*ObjectName) {
	for i, n := range names {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(n)
	}
}

// formatComment prints " COMMENT 'c'" when c is set.
func formatComment(p *Printer, c *string) {
	if c != nil {
		p.Keyword(" COMMENT ")
		p.String(*c)
	}
}

// LikePattern is the [NOT] LIKE|ILIKE 'pattern' filter of the SHOW
// statements.
type LikePattern struct {
	Pos     Pos
	Not     bool
	ILike   bool
	Pattern string
}

func (l *LikePattern) Position() Pos { return l.Pos }

func (l *LikePattern) Format(p *Printer) {
	if l.Not {
		p.Keyword("NOT ")
	}
	if l.ILike {
		p.Keyword("ILIKE ")
	} else {
		p.Keyword("LIKE ")
	}
	p.String(l.Pattern)
}

// PartitionValue is one key = literal pair of a PARTITION (...) spec. In
// ANALYZE TABLE the value may be absent (nil).
type PartitionValue struct {
	Pos   Pos
	Key   *Ident
	Value Expr
}

func (pv *PartitionValue) Position() Pos { return pv.Pos }

func (pv *PartitionValue) Format(p *Printer) {
	p.Node(pv.Key)
	if pv.Value != nil {
		p.Write(" = ")
		p.Node(pv.Value)
	}
}

// formatPartitionSpec prints PARTITION (k = v, ...).
func formatPartitionSpec(p *Printer, spec []*PartitionValue) {
	p.Keyword("PARTITION ")
	p.Write("(")
	for i, pv := range spec {
		if i > 0 {
			p.Write(", ")
		}
		p.Node(pv)
	}
	p.Write(")")
}

// Span is a stretch of the parsed text, from Start up to End (exclusive).
// Statements keep the span of a query the catalog stores as written (CREATE
// VIEW); being made of positions, it is ignored by Equal.
type Span struct {
	Start Pos
	End   Pos
}

// Text returns the spanned text of src, the text the statement was parsed
// from.
func (s Span) Text(src string) string {
	if s.Start.Offset < 0 || s.End.Offset > len(src) || s.Start.Offset > s.End.Offset {
		return ""
	}
	return src[s.Start.Offset:s.End.Offset]
}
