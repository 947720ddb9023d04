package ast

// CreateCatalog is CREATE CATALOG [IF NOT EXISTS] name [COMMENT 'c']
// [WITH (...)]. The name is a single part.
type CreateCatalog struct {
	Pos         Pos
	IfNotExists bool
	Name        *Ident
	Comment     *string     // nil when absent
	Options     []*Property // nil when WITH was absent
}

// DropCatalog is DROP CATALOG [IF EXISTS] name.
type DropCatalog struct {
	Pos      Pos
	IfExists bool
	Name     *Ident
}

// AlterCatalogAction says which form of ALTER CATALOG a statement is.
type AlterCatalogAction uint8

// The ALTER CATALOG forms.
const (
	AlterCatalogSet     AlterCatalogAction = iota // SET ('k' = 'v', ...)
	AlterCatalogReset                             // RESET ('k', ...)
	AlterCatalogComment                           // COMMENT 'c'
)

// AlterCatalog is ALTER CATALOG name SET (...) | RESET (...) | COMMENT 'c'.
type AlterCatalog struct {
	Pos       Pos
	Name      *Ident
	Action    AlterCatalogAction
	Options   []*Property // SET
	ResetKeys []string    // RESET; may be empty (the engine rejects it)
	Comment   string      // COMMENT
}

// UseCatalog is USE CATALOG name.
type UseCatalog struct {
	Pos  Pos
	Name *Ident
}

var (
	_ Statement = (*CreateCatalog)(nil)
	_ Statement = (*DropCatalog)(nil)
	_ Statement = (*AlterCatalog)(nil)
	_ Statement = (*UseCatalog)(nil)
)

func (s *CreateCatalog) Position() Pos { return s.Pos }
func (s *DropCatalog) Position() Pos   { return s.Pos }
func (s *AlterCatalog) Position() Pos  { return s.Pos }
func (s *UseCatalog) Position() Pos    { return s.Pos }

func (*CreateCatalog) stmtNode() {}
func (*DropCatalog) stmtNode()   {}
func (*AlterCatalog) stmtNode()  {}
func (*UseCatalog) stmtNode()    {}

func (s *CreateCatalog) Format(p *Printer) {
	p.Keyword("CREATE CATALOG ")
	if s.IfNotExists {
		p.Keyword("IF NOT EXISTS ")
	}
	p.Node(s.Name)
	formatComment(p, s.Comment)
	if s.Options != nil {
		p.Keyword(" WITH ")
		formatProperties(p, s.Options)
	}
}

func (s *DropCatalog) Format(p *Printer) {
	p.Keyword("DROP CATALOG ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
}

func (s *AlterCatalog) Format(p *Printer) {
	p.Keyword("ALTER CATALOG ")
	p.Node(s.Name)
	switch s.Action {
	case AlterCatalogSet:
		p.Keyword(" SET ")
		formatProperties(p, s.Options)
	case AlterCatalogReset:
		p.Keyword(" RESET ")
		formatStrings(p, s.ResetKeys)
	case AlterCatalogComment:
		p.Keyword(" COMMENT ")
		p.String(s.Comment)
	}
}

func (s *UseCatalog) Format(p *Printer) {
	p.Keyword("USE CATALOG ")
	p.Node(s.Name)
}
