package ast

import (
	"strconv"

	"eddy/engine/types"
)

// ColumnKind tells physical, computed and metadata columns apart.
type ColumnKind uint8

// Column kinds.
const (
	PhysicalColumn ColumnKind = iota // name type
	ComputedColumn                   // name AS expr
	MetadataColumn                   // name type METADATA [FROM 'key'] [VIRTUAL]
	NameOnlyColumn                   // name: a CTAS/RTAS column list that only orders columns
)

// ColumnDef is one column of CREATE TABLE or ALTER TABLE ADD/MODIFY.
type ColumnDef struct {
	Pos         Pos
	Name        *Ident
	Kind        ColumnKind
	Type        *types.Type // physical and metadata columns
	Expr        Expr        // computed columns
	MetadataKey *string     // METADATA FROM 'key'; nil when FROM is absent
	Virtual     bool
	PrimaryKey  *TableConstraint // inline [CONSTRAINT n] PRIMARY KEY [NOT] ENFORCED, or nil
	Comment     *string
	Placement   *ColumnPosition // ALTER TABLE ADD/MODIFY only, or nil
}

// ColumnPosition is FIRST or AFTER col in ALTER TABLE ADD/MODIFY.
type ColumnPosition struct {
	Pos   Pos
	First bool
	After *Ident // when not First
}

// Enforcement is the optional [NOT] ENFORCED of a constraint.
type Enforcement uint8

// Enforcement values; the parser keeps what was written and the engine
// rejects everything but NOT ENFORCED.
const (
	EnforcementUnset Enforcement = iota
	Enforced
	NotEnforced
)

// TableConstraint is [CONSTRAINT name] PRIMARY KEY (cols) [NOT] ENFORCED, or
// UNIQUE (cols). Inline is set for a column constraint, whose column list
// is the column itself and is not printed.
type TableConstraint struct {
	Pos         Pos
	Name        *Ident // or nil
	Unique      bool   // UNIQUE instead of PRIMARY KEY
	Columns     []*Ident
	Enforcement Enforcement
	Inline      bool
}

// Watermark is WATERMARK FOR rowtime AS expr.
type Watermark struct {
	Pos    Pos
	Column *ObjectName
	Expr   Expr
}

// Distribution is DISTRIBUTED BY [HASH|RANGE] (cols) [INTO n BUCKETS], or
// DISTRIBUTED INTO n BUCKETS.
type Distribution struct {
	Pos     Pos
	Kind    string // "", "HASH" or "RANGE"
	Columns []*Ident
	Buckets int // 0 when INTO n BUCKETS is absent
}

// LikeOption is one INCLUDING|EXCLUDING|OVERWRITING feature option of
// CREATE TABLE ... LIKE.
type LikeOption struct {
	Pos      Pos
	Strategy string // INCLUDING, EXCLUDING or OVERWRITING
	Feature  string // ALL, CONSTRAINTS, DISTRIBUTION, GENERATED, METADATA, OPTIONS, PARTITIONS, WATERMARKS
}

// TableLike is the LIKE source [(options)] clause of CREATE TABLE.
type TableLike struct {
	Pos     Pos
	Source  *ObjectName
	Options []*LikeOption
}

// CreateTable is CREATE [TEMPORARY] TABLE, CREATE TABLE ... AS query (CTAS)
// and [CREATE OR] REPLACE TABLE ... AS query (RTAS).
type CreateTable struct {
	Pos          Pos
	Replace      bool // REPLACE TABLE or CREATE OR REPLACE TABLE
	OrReplace    bool // CREATE OR REPLACE (with Replace)
	Temporary    bool
	IfNotExists  bool
	Name         *ObjectName
	Columns      []*ColumnDef
	Watermarks   []*Watermark       // Flink allows one; the parser reports more
	Constraints  []*TableConstraint // table constraints
	HasElements  bool               // a (...) element list was written
	Comment      *string
	Distribution *Distribution
	PartitionBy  []*Ident    // nil when absent
	Options      []*Property // nil when WITH was absent
	Like         *TableLike
	Query        Query // CTAS/RTAS, or nil
	QuerySpan    Span  // where the query stands in the statement text
}

// DropTable is DROP [TEMPORARY] TABLE [IF EXISTS] name.
type DropTable struct {
	Pos       Pos
	Temporary bool
	IfExists  bool
	Name      *ObjectName
}

// AlterTable is ALTER TABLE [IF EXISTS] name action.
type AlterTable struct {
	Pos      Pos
	IfExists bool
	Name     *ObjectName
	Action   AlterTableAction
}

// AlterTableAction is what an ALTER TABLE does.
type AlterTableAction interface {
	Node
	alterTableAction()
}

// RenameTable is RENAME TO new_name.
type RenameTable struct {
	Pos     Pos
	NewName *ObjectName
}

// SetTableOptions is SET ('k' = 'v', ...).
type SetTableOptions struct {
	Pos     Pos
	Options []*Property
}

// ResetTableOptions is RESET ('k', ...); Keys may be empty.
type ResetTableOptions struct {
	Pos  Pos
	Keys []string
}

// AlterSchema is ADD or MODIFY of columns, a primary key, a watermark or a
// distribution. Each item is a *ColumnDef, *TableConstraint, *Watermark or
// *Distribution.
type AlterSchema struct {
	Pos    Pos
	Modify bool // MODIFY instead of ADD
	Paren  bool // the items were in (...)
	Items  []Node
}

// DropSchemaKind says what ALTER TABLE DROP removes.
type DropSchemaKind uint8

// What ALTER TABLE DROP removes.
const (
	DropColumns DropSchemaKind = iota
	DropPrimaryKey
	DropConstraint
	DropWatermark
	DropDistribution
)

// DropSchema is DROP col | (cols) | PRIMARY KEY | CONSTRAINT n | WATERMARK
// | DISTRIBUTION.
type DropSchema struct {
	Pos        Pos
	Kind       DropSchemaKind
	Columns    []*ObjectName // DropColumns
	Paren      bool          // DropColumns: the names were in (...)
	Constraint *Ident        // DropConstraint
}

// RenameColumn is RENAME col TO new_col.
type RenameColumn struct {
	Pos     Pos
	Column  *ObjectName
	NewName *Ident
}

// CompactTable is [PARTITION (...)] COMPACT.
type CompactTable struct {
	Pos       Pos
	Partition []*PartitionValue // nil when absent
}

var (
	_ Statement = (*CreateTable)(nil)
	_ Statement = (*DropTable)(nil)
	_ Statement = (*AlterTable)(nil)
	_ Statement = (*AnalyzeTable)(nil)
)

var (
	_ AlterTableAction = (*RenameTable)(nil)
	_ AlterTableAction = (*SetTableOptions)(nil)
	_ AlterTableAction = (*ResetTableOptions)(nil)
	_ AlterTableAction = (*AlterSchema)(nil)
	_ AlterTableAction = (*DropSchema)(nil)
	_ AlterTableAction = (*RenameColumn)(nil)
	_ AlterTableAction = (*CompactTable)(nil)
)

func (s *CreateTable) Position() Pos       { return s.Pos }
func (s *DropTable) Position() Pos         { return s.Pos }
func (s *AlterTable) Position() Pos        { return s.Pos }
func (c *ColumnDef) Position() Pos         { return c.Pos }
func (c *ColumnPosition) Position() Pos    { return c.Pos }
func (c *TableConstraint) Position() Pos   { return c.Pos }
func (w *Watermark) Position() Pos         { return w.Pos }
func (d *Distribution) Position() Pos      { return d.Pos }
func (o *LikeOption) Position() Pos        { return o.Pos }
func (l *TableLike) Position() Pos         { return l.Pos }
func (a *RenameTable) Position() Pos       { return a.Pos }
func (a *SetTableOptions) Position() Pos   { return a.Pos }
func (a *ResetTableOptions) Position() Pos { return a.Pos }
func (a *AlterSchema) Position() Pos       { return a.Pos }
func (a *DropSchema) Position() Pos        { return a.Pos }
func (a *RenameColumn) Position() Pos      { return a.Pos }
func (a *CompactTable) Position() Pos      { return a.Pos }

func (*CreateTable) stmtNode() {}
func (*DropTable) stmtNode()   {}
func (*AlterTable) stmtNode()  {}

func (*RenameTable) alterTableAction()       {}
func (*SetTableOptions) alterTableAction()   {}
func (*ResetTableOptions) alterTableAction() {}
func (*AlterSchema) alterTableAction()       {}
func (*DropSchema) alterTableAction()        {}
func (*RenameColumn) alterTableAction()      {}
func (*CompactTable) alterTableAction()      {}

func (c *ColumnDef) Format(p *Printer) {
	p.Node(c.Name)
	switch c.Kind {
	case ComputedColumn:
		p.Keyword(" AS ")
		p.Node(c.Expr)
	case MetadataColumn:
		p.Write(" ")
		p.Write(c.Type.SerializableString())
		p.Keyword(" METADATA")
		if c.MetadataKey != nil {
			p.Keyword(" FROM ")
			p.String(*c.MetadataKey)
		}
		if c.Virtual {
			p.Keyword(" VIRTUAL")
		}
	case NameOnlyColumn:
	default:
		p.Write(" ")
		p.Write(c.Type.SerializableString())
	}
	if c.PrimaryKey != nil {
		p.Write(" ")
		p.Node(c.PrimaryKey)
	}
	formatComment(p, c.Comment)
	if c.Placement != nil {
		p.Write(" ")
		p.Node(c.Placement)
	}
}

func (c *ColumnPosition) Format(p *Printer) {
	if c.First {
		p.Keyword("FIRST")
		return
	}
	p.Keyword("AFTER ")
	p.Node(c.After)
}

func (c *TableConstraint) Format(p *Printer) {
	if c.Name != nil {
		p.Keyword("CONSTRAINT ")
		p.Node(c.Name)
		p.Write(" ")
	}
	if c.Unique {
		p.Keyword("UNIQUE")
	} else {
		p.Keyword("PRIMARY KEY")
	}
	if !c.Inline {
		p.Write(" (")
		formatIdents(p, c.Columns)
		p.Write(")")
	}
	switch c.Enforcement {
	case Enforced:
		p.Keyword(" ENFORCED")
	case NotEnforced:
		p.Keyword(" NOT ENFORCED")
	}
}

func (w *Watermark) Format(p *Printer) {
	p.Keyword("WATERMARK FOR ")
	p.Node(w.Column)
	p.Keyword(" AS ")
	p.Node(w.Expr)
}

func (d *Distribution) Format(p *Printer) { d.format(p, "DISTRIBUTED") }

// format prints the distribution after kw: DISTRIBUTED in CREATE TABLE,
// DISTRIBUTION in ALTER TABLE ADD/MODIFY.
func (d *Distribution) format(p *Printer, kw string) {
	p.Keyword(kw)
	if d.Columns != nil {
		p.Keyword(" BY ")
		p.Keyword(d.Kind)
		p.Write("(")
		formatIdents(p, d.Columns)
		p.Write(")")
	}
	if d.Buckets > 0 {
		p.Keyword(" INTO ")
		p.Write(strconv.Itoa(d.Buckets))
		p.Keyword(" BUCKETS")
	}
}

func (o *LikeOption) Format(p *Printer) {
	p.Keyword(o.Strategy)
	p.Write(" ")
	p.Keyword(o.Feature)
}

func (l *TableLike) Format(p *Printer) {
	p.Keyword("LIKE ")
	p.Node(l.Source)
	if len(l.Options) > 0 {
		p.Write(" (")
		p.Indent()
		for _, o := range l.Options {
			p.Newline()
			p.Node(o)
		}
		p.Dedent()
		p.Newline()
		p.Write(")")
	}
}

// Format prints the statement in the layout of Flink's SHOW CREATE TABLE:
// one element a line, then ")" and each clause on lines of their own.
func (s *CreateTable) Format(p *Printer) {
	switch {
	case s.OrReplace:
		p.Keyword("CREATE OR REPLACE ")
	case s.Replace:
		p.Keyword("REPLACE ")
	default:
		p.Keyword("CREATE ")
	}
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("TABLE ")
	if s.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	p.Node(s.Name)
	if s.HasElements {
		p.Write(" (")
		p.Indent()
		first := true
		elem := func(n Node) {
			if !first {
				p.Write(",")
			}
			first = false
			p.Newline()
			p.Node(n)
		}
		for _, c := range s.Columns {
			elem(c)
		}
		for _, w := range s.Watermarks {
			elem(w)
		}
		for _, c := range s.Constraints {
			elem(c)
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
	if s.Distribution != nil {
		p.Newline()
		p.Node(s.Distribution)
	}
	if s.PartitionBy != nil {
		p.Newline()
		p.Keyword("PARTITIONED BY (")
		formatIdents(p, s.PartitionBy)
		p.Write(")")
	}
	if s.Options != nil {
		p.Newline()
		p.Keyword("WITH ")
		formatPropertiesBlock(p, s.Options)
	}
	if s.Like != nil {
		p.Newline()
		p.Node(s.Like)
	}
	if s.Query != nil {
		p.Newline()
		p.Keyword("AS ")
		p.Node(s.Query)
	}
}

func (s *DropTable) Format(p *Printer) {
	p.Keyword("DROP ")
	if s.Temporary {
		p.Keyword("TEMPORARY ")
	}
	p.Keyword("TABLE ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
}

func (s *AlterTable) Format(p *Printer) {
	p.Keyword("ALTER TABLE ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
	p.Write(" ")
	p.Node(s.Action)
}

func (a *RenameTable) Format(p *Printer) {
	p.Keyword("RENAME TO ")
	p.Node(a.NewName)
}

func (a *SetTableOptions) Format(p *Printer) {
	p.Keyword("SET ")
	formatProperties(p, a.Options)
}

func (a *ResetTableOptions) Format(p *Printer) {
	p.Keyword("RESET ")
	formatStrings(p, a.Keys)
}

func (a *AlterSchema) Format(p *Printer) {
	if a.Modify {
		p.Keyword("MODIFY ")
	} else {
		p.Keyword("ADD ")
	}
	if a.Paren {
		p.Write("(")
	}
	for i, it := range a.Items {
		if i > 0 {
			p.Write(", ")
		}
		if d, ok := it.(*Distribution); ok {
			d.format(p, "DISTRIBUTION")
			continue
		}
		p.Node(it)
	}
	if a.Paren {
		p.Write(")")
	}
}

func (a *DropSchema) Format(p *Printer) {
	p.Keyword("DROP ")
	switch a.Kind {
	case DropPrimaryKey:
		p.Keyword("PRIMARY KEY")
	case DropConstraint:
		p.Keyword("CONSTRAINT ")
		p.Node(a.Constraint)
	case DropWatermark:
		p.Keyword("WATERMARK")
	case DropDistribution:
		p.Keyword("DISTRIBUTION")
	default:
		if a.Paren {
			p.Write("(")
		}
		formatNames(p, a.Columns)
		if a.Paren {
			p.Write(")")
		}
	}
}

func (a *RenameColumn) Format(p *Printer) {
	p.Keyword("RENAME ")
	p.Node(a.Column)
	p.Keyword(" TO ")
	p.Node(a.NewName)
}

func (a *CompactTable) Format(p *Printer) {
	if a.Partition != nil {
		formatPartitionSpec(p, a.Partition)
		p.Write(" ")
	}
	p.Keyword("COMPACT")
}

// AnalyzeTable is ANALYZE TABLE name [PARTITION (k [= v], ...)] COMPUTE
// STATISTICS [FOR COLUMNS a, b | FOR ALL COLUMNS].
type AnalyzeTable struct {
	Pos        Pos
	Name       *ObjectName
	Partition  []*PartitionValue // a value may be nil: PARTITION (k)
	ForColumns []*Ident          // or nil
	AllColumns bool
}

func (s *AnalyzeTable) Position() Pos { return s.Pos }
func (*AnalyzeTable) stmtNode()       {}

func (s *AnalyzeTable) Format(p *Printer) {
	p.Keyword("ANALYZE TABLE ")
	p.Node(s.Name)
	if s.Partition != nil {
		p.Write(" ")
		formatPartitionSpec(p, s.Partition)
	}
	p.Keyword(" COMPUTE STATISTICS")
	switch {
	case s.AllColumns:
		p.Keyword(" FOR ALL COLUMNS")
	case s.ForColumns != nil:
		p.Keyword(" FOR COLUMNS ")
		formatIdents(p, s.ForColumns)
	}
}

// AddPartitions is ADD [IF NOT EXISTS] PARTITION (...) [WITH (...)] ...,
// one or more partitions.
type AddPartitions struct {
	Pos         Pos
	IfNotExists bool
	Partitions  [][]*PartitionValue
	Options     [][]*Property // per partition; nil when it has no WITH
}

// DropPartitions is DROP [IF EXISTS] PARTITION (...) [, PARTITION (...)].
type DropPartitions struct {
	Pos        Pos
	IfExists   bool
	Partitions [][]*PartitionValue
}

var (
	_ AlterTableAction = (*AddPartitions)(nil)
	_ AlterTableAction = (*DropPartitions)(nil)
)

func (a *AddPartitions) Position() Pos    { return a.Pos }
func (a *DropPartitions) Position() Pos   { return a.Pos }
func (*AddPartitions) alterTableAction()  {}
func (*DropPartitions) alterTableAction() {}

func (a *AddPartitions) Format(p *Printer) {
	p.Keyword("ADD ")
	if a.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	for i, spec := range a.Partitions {
		if i > 0 {
			p.Write(" ")
		}
		formatPartitionSpec(p, spec)
		if i < len(a.Options) && a.Options[i] != nil {
			p.Keyword(" WITH ")
			formatProperties(p, a.Options[i])
		}
	}
}

func (a *DropPartitions) Format(p *Printer) {
	p.Keyword("DROP ")
	if a.IfExists {
		p.Keyword("IF EXISTS ")
	}
	for i, spec := range a.Partitions {
		if i > 0 {
			p.Write(", ")
		}
		formatPartitionSpec(p, spec)
	}
}
