package catalogs

import (
	"strings"
)

// Identifier is the fully qualified name of a table, view or function:
// catalog, database and object name (Flink's ObjectIdentifier).
type Identifier struct {
	Catalog  string
	Database string
	Object   string
}

// NewIdentifier returns the identifier c.d.o.
func NewIdentifier(catalog, database, object string) Identifier {
	return Identifier{Catalog: catalog, Database: database, Object: object}
}

// SummaryString returns c.d.o without quoting (ObjectIdentifier.asSummaryString).
func (id Identifier) SummaryString() string {
	return id.Catalog + "." + id.Database + "." + id.Object
}

// String returns `c`.`d`.`o` with backticks inside names doubled
// (ObjectIdentifier.asSerializableString and toString).
func (id Identifier) String() string {
	return quote(id.Catalog) + "." + quote(id.Database) + "." + quote(id.Object)
}

// Path returns the database-relative path of the object.
func (id Identifier) Path() ObjectPath {
	return ObjectPath{Database: id.Database, Object: id.Object}
}

// ObjectPath names an object inside one catalog (Flink's ObjectPath).
type ObjectPath struct {
	Database string
	Object   string
}

// NewObjectPath returns the path db.o.
func NewObjectPath(database, object string) ObjectPath {
	return ObjectPath{Database: database, Object: object}
}

// FullName returns db.o (ObjectPath.getFullName), the form Flink's catalog
// exceptions print.
func (p ObjectPath) FullName() string { return p.Database + "." + p.Object }

// String returns the full name.
func (p ObjectPath) String() string { return p.FullName() }

func quote(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
