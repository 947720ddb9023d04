package ast

// ShowKind says what a Show statement lists.
type ShowKind uint8

// The listings of SHOW.
const (
	ShowCatalogs ShowKind = iota
	ShowDatabases
	ShowTables
	ShowViews
	ShowFunctions
	ShowUserFunctions
	ShowProcedures
	ShowColumns
	ShowModules
	ShowFullModules
	ShowJars
	ShowJobs
	ShowPartitions
	ShowModels
)

var showKindWords = [...]string{
	ShowCatalogs: "CATALOGS", ShowDatabases: "DATABASES", ShowTables: "TABLES", ShowViews: "VIEWS",
	ShowFunctions: "FUNCTIONS", ShowUserFunctions: "USER FUNCTIONS", ShowProcedures: "PROCEDURES",
	ShowColumns: "COLUMNS", ShowModules: "MODULES", ShowFullModules: "FULL MODULES", ShowJars: "JARS",
	ShowJobs: "JOBS", ShowPartitions: "PARTITIONS", ShowModels: "MODELS",
}

var (
	_ Statement = (*Show)(nil)
	_ Statement = (*ShowCurrent)(nil)
	_ Statement = (*ShowCreate)(nil)
	_ Statement = (*Describe)(nil)
)

func (k ShowKind) String() string { return showKindWords[k] }

// Show is one of the SHOW listings:
//
//	SHOW CATALOGS [[NOT] LIKE|ILIKE 'p']
//	SHOW DATABASES [FROM|IN catalog] [[NOT] LIKE|ILIKE 'p']
//	SHOW TABLES|VIEWS|[USER] FUNCTIONS|PROCEDURES [FROM|IN [catalog.]db] [[NOT] LIKE|ILIKE 'p']
//	SHOW COLUMNS FROM|IN [[catalog.]db.]table [[NOT] LIKE|ILIKE 'p']
//	SHOW PARTITIONS [[catalog.]db.]table [PARTITION (k = v, ...)]
//	SHOW [FULL] MODULES, SHOW JARS, SHOW JOBS
type Show struct {
	Pos       Pos
	Kind      ShowKind
	In        bool        // IN was written instead of FROM
	From      *ObjectName // or nil
	Like      *LikePattern
	Partition []*PartitionValue // SHOW PARTITIONS only; nil when absent
}

// ShowCurrent is SHOW CURRENT CATALOG or SHOW CURRENT DATABASE.
type ShowCurrent struct {
	Pos      Pos
	Database bool // false: CATALOG
}

// ObjectKind names the kind of object a SHOW CREATE or DESCRIBE is about.
type ObjectKind uint8

// Object kinds.
const (
	ObjectTable ObjectKind = iota
	ObjectView
	ObjectCatalog
	ObjectDatabase
	ObjectFunction
	ObjectJob
	ObjectModel
)

var objectKindWords = [...]string{
	ObjectTable: "TABLE", ObjectView: "VIEW", ObjectCatalog: "CATALOG", ObjectDatabase: "DATABASE",
	ObjectFunction: "FUNCTION", ObjectJob: "JOB", ObjectModel: "MODEL",
}

func (k ObjectKind) String() string { return objectKindWords[k] }

// ShowCreate is SHOW CREATE TABLE|VIEW|CATALOG name.
type ShowCreate struct {
	Pos  Pos
	Kind ObjectKind // ObjectTable, ObjectView or ObjectCatalog
	Name *ObjectName
}

// Describe is {DESCRIBE | DESC} [EXTENDED] table, or DESCRIBE CATALOG |
// DATABASE | FUNCTION [EXTENDED] name, or DESCRIBE JOB 'id'.
type Describe struct {
	Pos      Pos
	Kind     ObjectKind
	Extended bool
	Name     *ObjectName // nil for a job
	JobID    string      // ObjectJob only
}

func (s *Show) Position() Pos        { return s.Pos }
func (s *ShowCurrent) Position() Pos { return s.Pos }
func (s *ShowCreate) Position() Pos  { return s.Pos }
func (s *Describe) Position() Pos    { return s.Pos }

func (*Show) stmtNode()        {}
func (*ShowCurrent) stmtNode() {}
func (*ShowCreate) stmtNode()  {}
func (*Describe) stmtNode()    {}

func (s *Show) Format(p *Printer) {
	p.Keyword("SHOW ")
	p.Keyword(s.Kind.String())
	if s.From != nil {
		switch {
		case s.Kind == ShowPartitions:
			p.Write(" ")
		case s.In:
			p.Keyword(" IN ")
		default:
			p.Keyword(" FROM ")
		}
		p.Node(s.From)
	}
	if s.Partition != nil {
		p.Write(" ")
		formatPartitionSpec(p, s.Partition)
	}
	if s.Like != nil {
		p.Write(" ")
		p.Node(s.Like)
	}
}

func (s *ShowCurrent) Format(p *Printer) {
	if s.Database {
		p.Keyword("SHOW CURRENT DATABASE")
	} else {
		p.Keyword("SHOW CURRENT CATALOG")
	}
}

func (s *ShowCreate) Format(p *Printer) {
	p.Keyword("SHOW CREATE ")
	p.Keyword(s.Kind.String())
	p.Write(" ")
	p.Node(s.Name)
}

func (s *Describe) Format(p *Printer) {
	p.Keyword("DESCRIBE ")
	if s.Kind != ObjectTable {
		p.Keyword(s.Kind.String())
		p.Write(" ")
	}
	if s.Extended {
		p.Keyword("EXTENDED ")
	}
	if s.Kind == ObjectJob {
		p.String(s.JobID)
		return
	}
	p.Node(s.Name)
}
