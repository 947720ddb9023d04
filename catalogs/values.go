package catalogs

import (
	"maps"
	"slices"

	"eddy/engine/types"
)

// CatalogDatabase is a database's stored definition.
type CatalogDatabase struct {
	Comment string
	Options map[string]string // or nil
}

// Copy returns a deep copy.
func (d *CatalogDatabase) Copy() *CatalogDatabase {
	if d == nil {
		return nil
	}
	return &CatalogDatabase{Comment: d.Comment, Options: maps.Clone(d.Options)}
}

// ColumnKind says how a column gets its value.
type ColumnKind uint8

// Column kinds (Flink's Column.PhysicalColumn, ComputedColumn, MetadataColumn).
const (
	Physical ColumnKind = iota
	Computed
	Metadata
)

// String returns PHYSICAL, COMPUTED or METADATA.
func (k ColumnKind) String() string {
	switch k {
	case Computed:
		return "COMPUTED"
	case Metadata:
		return "METADATA"
	}
	return "PHYSICAL"
}

// Column is one column of a table or view schema.
type Column struct {
	Name        string
	Kind        ColumnKind
	Type        *types.Type // for computed columns the type the engine derived, or nil
	Expr        string      // computed: the expression as SQL text (Flink's summary string)
	MetadataKey string      // metadata: the FROM key, or "" when none was given
	Virtual     bool        // metadata: VIRTUAL
	Comment     string      // or ""
}

// PrimaryKey is a table's primary key constraint (always NOT ENFORCED).
type PrimaryKey struct {
	Name    string // the constraint name; Flink's default is PK_ + columns joined by _
	Columns []string
}

// WatermarkSpec declares the rowtime column and its watermark expression.
type WatermarkSpec struct {
	RowtimeColumn string
	Expr          string // SQL text
}

// Schema is an ordered list of columns with optional constraints.
type Schema struct {
	Columns    []Column
	PrimaryKey *PrimaryKey // or nil
	Watermarks []WatermarkSpec
}

// Column returns the column named name, or nil.
func (s *Schema) Column(name string) *Column {
	for i := range s.Columns {
		if s.Columns[i].Name == name {
			return &s.Columns[i]
		}
	}
	return nil
}

// Copy returns a deep copy.
func (s Schema) Copy() Schema {
	out := Schema{Columns: slices.Clone(s.Columns), Watermarks: slices.Clone(s.Watermarks)}
	if s.PrimaryKey != nil {
		out.PrimaryKey = &PrimaryKey{Name: s.PrimaryKey.Name, Columns: slices.Clone(s.PrimaryKey.Columns)}
	}
	return out
}

// DistributionKind is the algorithm of DISTRIBUTED BY.
type DistributionKind uint8

// Distribution kinds (Flink's TableDistribution.Kind).
const (
	DistUnknown DistributionKind = iota // DISTRIBUTED BY (k) or DISTRIBUTED INTO n BUCKETS
	DistHash
	DistRange
)

// String returns UNKNOWN, HASH or RANGE.
func (k DistributionKind) String() string {
	switch k {
	case DistHash:
		return "HASH"
	case DistRange:
		return "RANGE"
	}
	return "UNKNOWN"
}

// Distribution is a table's DISTRIBUTED BY clause.
type Distribution struct {
	Kind    DistributionKind
	Keys    []string
	Buckets int // 0 when no INTO n BUCKETS was given
}

// TableKind tells tables and views apart.
type TableKind uint8

// Table kinds (CatalogBaseTable.TableKind).
const (
	KindTable TableKind = iota + 1
	KindView
)

// String returns TABLE or VIEW.
func (k TableKind) String() string {
	if k == KindView {
		return "VIEW"
	}
	return "TABLE"
}

// BaseTable is what a catalog stores under a table name: a *CatalogTable
// or a *CatalogView (Flink's CatalogBaseTable).
type BaseTable interface {
	TableKind() TableKind
	GetComment() string
	GetOptions() map[string]string
	// CopyBase returns a deep copy.
	CopyBase() BaseTable
	baseTable()
}

// CatalogTable is a table's stored definition.
type CatalogTable struct {
	Schema        Schema
	PartitionKeys []string
	Distribution  *Distribution // or nil
	Options       map[string]string
	Comment       string
}

// TableKind returns KindTable.
func (t *CatalogTable) TableKind() TableKind { return KindTable }

// GetComment returns the comment.
func (t *CatalogTable) GetComment() string { return t.Comment }

// GetOptions returns the WITH options.
func (t *CatalogTable) GetOptions() map[string]string { return t.Options }

// CopyBase returns a deep copy.
func (t *CatalogTable) CopyBase() BaseTable { return t.Copy() }

// Copy returns a deep copy.
func (t *CatalogTable) Copy() *CatalogTable {
	if t == nil {
		return nil
	}
	out := &CatalogTable{
		Schema:        t.Schema.Copy(),
		PartitionKeys: slices.Clone(t.PartitionKeys),
		Options:       maps.Clone(t.Options),
		Comment:       t.Comment,
	}
	if t.Distribution != nil {
		out.Distribution = &Distribution{Kind: t.Distribution.Kind, Keys: slices.Clone(t.Distribution.Keys), Buckets: t.Distribution.Buckets}
	}
	return out
}

func (t *CatalogTable) baseTable() {}

// CatalogView is a view's stored definition: the query as typed, the
// expanded query (every name fully qualified, SELECT * expanded) that
// readers use, and the columns frozen when the view was created or altered.
type CatalogView struct {
	OriginalQuery string
	ExpandedQuery string
	Columns       []Column // physical columns: names and types
	Comment       string
	Options       map[string]string
}

// TableKind returns KindView.
func (v *CatalogView) TableKind() TableKind { return KindView }

// GetComment returns the comment.
func (v *CatalogView) GetComment() string { return v.Comment }

// GetOptions returns the options.
func (v *CatalogView) GetOptions() map[string]string { return v.Options }

// CopyBase returns a deep copy.
func (v *CatalogView) CopyBase() BaseTable { return v.Copy() }

// Copy returns a deep copy.
func (v *CatalogView) Copy() *CatalogView {
	if v == nil {
		return nil
	}
	return &CatalogView{
		OriginalQuery: v.OriginalQuery,
		ExpandedQuery: v.ExpandedQuery,
		Columns:       slices.Clone(v.Columns),
		Comment:       v.Comment,
		Options:       maps.Clone(v.Options),
	}
}

func (v *CatalogView) baseTable() {}

var (
	_ BaseTable = (*CatalogTable)(nil)
	_ BaseTable = (*CatalogView)(nil)
)

// FunctionLanguage is the language of a catalog function.
type FunctionLanguage string

// Function languages accepted by CREATE FUNCTION ... LANGUAGE.
const (
	LangJava   FunctionLanguage = "JAVA"
	LangScala  FunctionLanguage = "SCALA"
	LangPython FunctionLanguage = "PYTHON"
	LangSQL    FunctionLanguage = "SQL"
)

// Resource is one USING JAR '...' entry of CREATE FUNCTION.
type Resource struct {
	Type string // JAR, FILE or ARCHIVE
	URI  string
}

// CatalogFunction is a function's stored definition: the class name given
// in CREATE FUNCTION ... AS 'class'.
type CatalogFunction struct {
	ClassName string
	Language  FunctionLanguage // "" means JAVA
	Resources []Resource
}

// Copy returns a deep copy.
func (f *CatalogFunction) Copy() *CatalogFunction {
	if f == nil {
		return nil
	}
	return &CatalogFunction{ClassName: f.ClassName, Language: f.Language, Resources: slices.Clone(f.Resources)}
}
