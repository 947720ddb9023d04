package catalogs

import (
	"context"
	"maps"
	"strings"

	"eddy/engine/types"
)

// CatalogDescriptor is a catalog definition: its name, the options given
// to CREATE CATALOG (including 'type') and its comment (Flink's
// CatalogDescriptor).
type CatalogDescriptor struct {
	Name    string
	Options map[string]string
	Comment string
}

// Type returns the 'type' option.
func (d CatalogDescriptor) Type() string { return d.Options[OptionType] }

// Copy returns a deep copy.
func (d CatalogDescriptor) Copy() CatalogDescriptor {
	return CatalogDescriptor{Name: d.Name, Options: maps.Clone(d.Options), Comment: d.Comment}
}

// CatalogStore keeps the definitions of catalogs made with CREATE CATALOG
// so that they come back when a new session starts (Flink's CatalogStore).
type CatalogStore interface {
	// StoreCatalog saves a new definition; an existing name is
	// ErrCatalogAlreadyExist.
	StoreCatalog(ctx context.Context, desc CatalogDescriptor) error
	// ReplaceCatalog overwrites an existing definition (ALTER CATALOG).
	ReplaceCatalog(ctx context.Context, desc CatalogDescriptor) error
	// RemoveCatalog deletes a definition.
	RemoveCatalog(ctx context.Context, name string, ignoreIfNotExists bool) error
	// GetCatalog returns a definition; ok is false when there is none.
	GetCatalog(ctx context.Context, name string) (desc CatalogDescriptor, ok bool, err error)
	// ListCatalogs returns the stored names, sorted.
	ListCatalogs(ctx context.Context) ([]string, error)
	// Contains reports whether a definition exists.
	Contains(ctx context.Context, name string) (bool, error)
}

// sensitiveKeys are the parts of an option key that mark its value as a
// credential: Flink's list (GlobalConfiguration.SENSITIVE_KEYS, which
// also covers Kafka's sasl.jaas.config and the ssl.*.password options)
// with "api-key" and "api_key" added, which Flink spells only as "apikey".
var sensitiveKeys = []string{
	"password", "secret", "fs.azure.account.key", "apikey", "api-key", "api_key",
	"auth-params", "service-key", "token", "basic-auth", "jaas.config", "http-headers",
}

// HiddenValue is what a sensitive option's value shows as.
const HiddenValue = "****"

// IsSensitiveOption reports whether an option's value is a credential that
// must never be shown or stored in clear (SHOW CREATE, DESCRIBE, EXPLAIN,
// errors, SET, the history file): its key contains, in any case, one of
// Flink's sensitive key parts (password, secret, fs.azure.account.key,
// apikey, auth-params, service-key, token, basic-auth, jaas.config,
// http-headers) or api-key. It is the one rule every surface uses.
func IsSensitiveOption(key string) bool {
	k := strings.ToLower(key)
	for _, s := range sensitiveKeys {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// MaskOption returns value, or HiddenValue when key is sensitive.
func MaskOption(key, value string) string {
	if IsSensitiveOption(key) {
		return HiddenValue
	}
	return value
}

// TableVersion identifies a stored table as a statement saw it when it
// was planned. ID changes when the table is dropped (and a table of the
// same name created again); Schema when ALTER TABLE changes its physical
// columns. Both are zero for a table stored before versions were kept,
// until the first DDL that touches it.
type TableVersion struct {
	ID, Schema int64
}

// RowTarget is a table bound for writing: its path, the names and types
// of its physical columns and the version they belong to. Rows written to
// a target land in that table and no other: a write whose table was
// dropped, created again or altered since it was bound fails and writes
// nothing (a row never lands by position in a reshaped table, nor in a
// new table that took the old one's name).
type RowTarget struct {
	Path    ObjectPath
	Names   []string
	Types   []*types.Type
	Version TableVersion
}

// ErrTableChanged is the kind of error of a write whose table was
// dropped and created again, or altered, after the statement was planned.
var ErrTableChanged = NewKind("table changed while a statement wrote to it", "TableException")

// RowStore is the storage contract of catalogs that keep the rows of their
// managed tables themselves (the sqlite catalog). Rows are engine values
// of the given column types. Each method writes in a transaction of its
// own; a WriteGroup opened with BeginWriteGroup lets several statements
// share one (group commit).
type RowStore interface {
	// ReadRows calls fn for at most limit rows (limit <= 0: all) after the
	// row position after (0: from the start) and returns the position of
	// the last row read.
	ReadRows(ctx context.Context, path ObjectPath, cols []*types.Type, after int64, limit int,
		fn func(row []any) error) (int64, error)
	// WriteRows stores every row produce emits in one transaction
	// (replacing the table's rows when overwrite is set): when the
	// producer or the store fails nothing is written.
	WriteRows(ctx context.Context, path ObjectPath, cols []*types.Type, overwrite bool,
		produce func(emit func(row []any) error) error) error
	// BindRows returns the target of writes into the table at path as a
	// statement planned them: its current identity and schema version,
	// after checking that its physical columns are still named names and
	// typed cols (ErrTableChanged otherwise; ErrTableNotExist when it is
	// gone).
	BindRows(ctx context.Context, path ObjectPath, names []string, cols []*types.Type) (RowTarget, error)
	// WriteTarget is WriteRows bound to the table t was bound to: inside
	// the write transaction it checks that the table still has t's
	// identity and schema version, and fails with ErrTableChanged or
	// ErrTableNotExist, writing nothing, when it has not.
	WriteTarget(ctx context.Context, t RowTarget, overwrite bool,
		produce func(emit func(row []any) error) error) error
	// ApplyTarget is WriteTarget for a changelog: changes emits, in
	// order, rows to store (put: for a table with a primary key, a row
	// that replaces the row of its key) and rows whose key to delete
	// (del: the row of that primary key is removed; only the key's
	// values are read). Applied in one transaction, checked as
	// WriteTarget is: when changes or the store fails nothing is
	// applied. A del into a table without a primary key is an error.
	ApplyTarget(ctx context.Context, t RowTarget, overwrite bool, changes Changes) error
	// TruncateRows removes every row of a table.
	TruncateRows(ctx context.Context, path ObjectPath) error
	// BeginWriteGroup opens a write group on the store that keeps the
	// catalog's rows. The group holds the store's write lock until it
	// ends: its owner must commit or roll it back.
	BeginWriteGroup(ctx context.Context) (WriteGroup, error)
}

// Changes produces the changes of one write into a managed table, in the
// order they apply: put stores a row; del removes the row with the
// primary key of row (a table with a primary key keeps one row per key,
// so a put replaces the key's row and a del of a key without a row does
// nothing). A changelog maps onto it as Flink's table store applies one:
// +I and +U put, -U and -D del.
type Changes func(put, del func(row []any) error) error

// Inserts returns the changes that put every row produce emits.
func Inserts(produce func(emit func(row []any) error) error) Changes {
	return func(put, _ func(row []any) error) error { return produce(put) }
}

// RowStager is a RowStore that can hold the rows of a long statement
// outside memory until the statement commits: a batch INSERT of more
// rows than its memory budget stays all or nothing.
type RowStager interface {
	// StageRows opens a stage of rows for the table t is bound to.
	StageRows(ctx context.Context, t RowTarget) (RowStage, error)
}

// RowStage holds rows of one statement that no reader sees and that take
// no write lock of the store, until Commit writes them into the table in
// one transaction (checked against the target's version, as WriteTarget
// is). Its owner must Commit or Discard it.
type RowStage interface {
	// Append stages the changes (see ApplyTarget).
	Append(ctx context.Context, changes Changes) error
	// Commit applies the staged changes, then the given ones, to the
	// table in one transaction (replacing its rows when overwrite is
	// set), and ends the stage. On error nothing is written.
	Commit(ctx context.Context, overwrite bool, changes Changes) error
	// Discard drops the staged rows and ends the stage.
	Discard() error
}

// WriteGroup is an open write transaction of a row store that several
// statements share. Each WriteRows is a statement of its own inside it (a
// failed one leaves nothing behind and the group goes on); every
// statement becomes durable at Commit, none before. Whoever opens a group
// must not acknowledge one of its statements before Commit returned nil.
type WriteGroup interface {
	// Holds reports whether the rows of rs live in the group's store, so
	// that WriteRows can write them.
	Holds(rs RowStore) bool
	// WriteRows is rs.WriteRows inside the group, for a catalog rs the
	// group holds.
	WriteRows(ctx context.Context, rs RowStore, path ObjectPath, cols []*types.Type, overwrite bool,
		produce func(emit func(row []any) error) error) error
	// WriteTarget is rs.WriteTarget inside the group.
	WriteTarget(ctx context.Context, rs RowStore, t RowTarget, overwrite bool,
		produce func(emit func(row []any) error) error) error
	// ApplyTarget is rs.ApplyTarget inside the group: a statement of its
	// own, as WriteRows is.
	ApplyTarget(ctx context.Context, rs RowStore, t RowTarget, overwrite bool, changes Changes) error
	// Commit ends the group, storing every statement that succeeded in
	// it. An error means none of them was stored.
	Commit(ctx context.Context) error
	// Rollback ends the group and discards every statement of it.
	Rollback() error
}

// VersionedGroup is a WriteGroup that knows the version of its store's
// definitions as its transaction sees them: the version moves with every
// change to any definition, so a transaction that finds the version
// another one ended with sees the same catalogs, databases, tables and
// views.
type VersionedGroup interface {
	WriteGroup
	// DefinitionsVersion returns the version, and false when the store
	// does not know it.
	DefinitionsVersion() (int64, bool)
}
