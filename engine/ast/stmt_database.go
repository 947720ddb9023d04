package ast

// CreateDatabase is CREATE DATABASE [IF NOT EXISTS] [catalog.]db
// [COMMENT 'c'] [WITH (...)].
type CreateDatabase struct {
	Pos         Pos
	IfNotExists bool
	Name        *ObjectName
	Comment     *string
	Options     []*Property // nil when WITH was absent
}

// DropBehavior is the optional RESTRICT or CASCADE of DROP DATABASE.
type DropBehavior uint8

// The drop behaviours; DropDefault (neither written) means RESTRICT.
const (
	DropDefault DropBehavior = iota
	DropRestrict
	DropCascade
)

// DropDatabase is DROP DATABASE [IF EXISTS] [catalog.]db [RESTRICT|CASCADE].
type DropDatabase struct {
	Pos      Pos
	IfExists bool
	Name     *ObjectName
	Behavior DropBehavior
}

// AlterDatabase is ALTER DATABASE [catalog.]db SET (...).
type AlterDatabase struct {
	Pos     Pos
	Name    *ObjectName
	Options []*Property
}

// UseDatabase is USE [catalog.]db.
type UseDatabase struct {
	Pos  Pos
	Name *ObjectName
}

var (
	_ Statement = (*CreateDatabase)(nil)
	_ Statement = (*DropDatabase)(nil)
	_ Statement = (*AlterDatabase)(nil)
	_ Statement = (*UseDatabase)(nil)
)

func (s *CreateDatabase) Position() Pos { return s.Pos }
func (s *DropDatabase) Position() Pos   { return s.Pos }
func (s *AlterDatabase) Position() Pos  { return s.Pos }
func (s *UseDatabase) Position() Pos    { return s.Pos }

func (*CreateDatabase) stmtNode() {}
func (*DropDatabase) stmtNode()   {}
func (*AlterDatabase) stmtNode()  {}
func (*UseDatabase) stmtNode()    {}

func (s *CreateDatabase) Format(p *Printer) {
	p.Keyword("CREATE DATABASE ")
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

func (s *DropDatabase) Format(p *Printer) {
	p.Keyword("DROP DATABASE ")
	if s.IfExists {
		p.Keyword("IF EXISTS ")
	}
	p.Node(s.Name)
	switch s.Behavior {
	case DropRestrict:
		p.Keyword(" RESTRICT")
	case DropCascade:
		p.Keyword(" CASCADE")
	}
}

func (s *AlterDatabase) Format(p *Printer) {
	p.Keyword("ALTER DATABASE ")
	p.Node(s.Name)
	p.Keyword(" SET ")
	formatProperties(p, s.Options)
}

func (s *UseDatabase) Format(p *Printer) {
	p.Keyword("USE ")
	p.Node(s.Name)
}
