package catalogs

import (
	"context"
	"errors"
	"maps"
	"slices"
)

// TableEntry is a table or view found by name.
type TableEntry struct {
	ID        Identifier
	Table     BaseTable // *CatalogTable or *CatalogView; a copy the caller owns
	Temporary bool
}

// GetTable returns the table or view at id, a temporary one first (it
// shadows a permanent one of the same identifier). A missing object (or
// catalog) is ErrTableNotExist.
func (m *Manager) GetTable(ctx context.Context, id Identifier) (TableEntry, error) {
	e, ok, err := m.lookupTable(ctx, id)
	if err != nil {
		return TableEntry{}, err
	}
	if !ok {
		return TableEntry{}, TableNotExist(id.Catalog, id.Path())
	}
	return e, nil
}

// TableExists reports whether a temporary or permanent table or view
// exists at id.
func (m *Manager) TableExists(ctx context.Context, id Identifier) (bool, error) {
	_, ok, err := m.lookupTable(ctx, id)
	return ok, err
}

func (m *Manager) lookupTable(ctx context.Context, id Identifier) (TableEntry, bool, error) {
	if t, ok := m.temporaryTable(id); ok {
		return TableEntry{ID: id, Table: t.CopyBase(), Temporary: true}, true, nil
	}
	return m.lookupPermanent(ctx, id)
}

// temporaryTable returns the temporary table or view at id. Stored values
// are never changed, only replaced, so the caller may read it unlocked.
func (m *Manager) temporaryTable(id Identifier) (BaseTable, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.temporary[id]
	return t, ok
}

func (m *Manager) lookupPermanent(ctx context.Context, id Identifier) (TableEntry, bool, error) {
	r, ok, err := m.getCatalog(ctx, id.Catalog)
	if err != nil || !ok {
		return TableEntry{}, false, err
	}
	t, err := r.catalog.GetTable(ctx, id.Path())
	if errors.Is(err, ErrTableNotExist) || errors.Is(err, ErrDatabaseNotExist) {
		return TableEntry{}, false, nil
	}
	if err != nil {
		return TableEntry{}, false, err
	}
	return TableEntry{ID: id, Table: t}, true, nil
}

// viewDDL refuses view DDL in catalogs that do not support views.
func (m *Manager) viewDDL(name string, r *registered) error {
	if vs, ok := r.catalog.(ViewSupport); ok && !vs.SupportsViews() {
		if vr, ok := r.catalog.(ViewRefusal); ok {
			return validation(ErrViewsUnsupported, "%s", vr.ViewDDLRefusal(name))
		}
		kind := r.desc.Type()
		if t, ok := r.catalog.(Typed); ok && kind == "" {
			kind = t.Type()
		}
		return validation(ErrViewsUnsupported, "View DDL is not supported on %s catalog '%s'", kind, name)
	}
	return nil
}

// catalogForDDL returns the catalog of id for a table or view change
// ("Catalog x does not exist." with a period, CM execute).
func (m *Manager) catalogForDDL(ctx context.Context, id Identifier, view bool) (*registered, error) {
	r, ok, err := m.getCatalog(ctx, id.Catalog)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogNotExistValidationPeriod(id.Catalog)
	}
	// View DDL in a catalog without views is refused with that reason
	// first, even when the catalog is read-only as well.
	if view {
		if err := m.viewDDL(id.Catalog, r); err != nil {
			return nil, err
		}
	}
	if err := m.writable(id.Catalog, r); err != nil {
		return nil, err
	}
	return r, nil
}

// CreateTable is CREATE TABLE / CREATE VIEW of a permanent object. An
// existing table or view is "Table (or view) d.t already exists in Catalog
// c." unless ignoreIfExists; a missing database is
// "Database d does not exist in Catalog c.".
func (m *Manager) CreateTable(ctx context.Context, id Identifier, t BaseTable, ignoreIfExists bool) error {
	r, err := m.catalogForDDL(ctx, id, t.TableKind() == KindView)
	if err != nil {
		return err
	}
	return r.catalog.CreateTable(ctx, id.Path(), t, ignoreIfExists)
}

// CreateTemporaryTable is CREATE TEMPORARY TABLE / VIEW. The catalog and
// database need not exist: they only name the namespace (CM
// createTemporaryTable).
func (m *Manager) CreateTemporaryTable(ctx context.Context, id Identifier, t BaseTable, ignoreIfExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.temporary[id]; ok {
		if ignoreIfExists {
			return nil
		}
		return validation(ErrTableAlreadyExist, "Temporary table '%s' already exists", id)
	}
	m.temporary[id] = t.CopyBase()
	return nil
}

// ReplaceView is CREATE OR REPLACE [TEMPORARY] VIEW: it replaces an
// existing view's definition or creates the view. A table of that name is
// the already-exists error.
func (m *Manager) ReplaceView(ctx context.Context, id Identifier, v *CatalogView, temporary bool) error {
	if temporary {
		m.mu.Lock()
		defer m.mu.Unlock()
		if old, ok := m.temporary[id]; ok && old.TableKind() != KindView {
			return validation(ErrTableAlreadyExist, "Temporary table '%s' already exists", id)
		}
		m.temporary[id] = v.Copy()
		return nil
	}
	r, err := m.catalogForDDL(ctx, id, true)
	if err != nil {
		return err
	}
	old, err := r.catalog.GetTable(ctx, id.Path())
	switch {
	case errors.Is(err, ErrTableNotExist):
		return r.catalog.CreateTable(ctx, id.Path(), v, false)
	case err != nil:
		return err
	case old.TableKind() != KindView:
		return TableAlreadyExist(id.Catalog, id.Path())
	}
	return r.catalog.AlterTable(ctx, id.Path(), v, false)
}

// DropTable is DROP TABLE of a permanent table. A view counts as missing
// (CM dropTableInternal filters by kind); a temporary table of the same
// identifier must be dropped first.
func (m *Manager) DropTable(ctx context.Context, id Identifier, ignoreIfNotExists bool) error {
	return m.dropPermanent(ctx, id, ignoreIfNotExists, KindTable)
}

// DropView is DROP VIEW of a permanent view; a table counts as missing.
func (m *Manager) DropView(ctx context.Context, id Identifier, ignoreIfNotExists bool) error {
	return m.dropPermanent(ctx, id, ignoreIfNotExists, KindView)
}

func (m *Manager) dropPermanent(ctx context.Context, id Identifier, ignoreIfNotExists bool, kind TableKind) error {
	word, Word := "table", "Table"
	if kind == KindView {
		word, Word = "view", "View"
	}
	if t, ok := m.temporaryTable(id); ok && t.TableKind() == kind {
		return validation(ErrTemporaryExists,
			"Temporary %s with identifier '%s' exists. Drop it first before removing the permanent %s.", word, id, word)
	}
	e, ok, err := m.lookupPermanent(ctx, id)
	if err != nil {
		return err
	}
	if !ok || e.Table.TableKind() != kind {
		if ignoreIfNotExists {
			return nil
		}
		return validation(ErrTableNotExist, "%s with identifier '%s' does not exist.", Word, id.SummaryString())
	}
	r, err := m.catalogForDDL(ctx, id, kind == KindView)
	if err != nil {
		return err
	}
	return r.catalog.DropTable(ctx, id.Path(), ignoreIfNotExists)
}

// DropTemporaryTable is DROP TEMPORARY TABLE.
func (m *Manager) DropTemporaryTable(id Identifier, ignoreIfNotExists bool) error {
	return m.dropTemporary(id, ignoreIfNotExists, KindTable)
}

// DropTemporaryView is DROP TEMPORARY VIEW.
func (m *Manager) DropTemporaryView(id Identifier, ignoreIfNotExists bool) error {
	return m.dropTemporary(id, ignoreIfNotExists, KindView)
}

func (m *Manager) dropTemporary(id Identifier, ignoreIfNotExists bool, kind TableKind) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.temporary[id]; ok && t.TableKind() == kind {
		delete(m.temporary, id)
		return nil
	}
	if ignoreIfNotExists {
		return nil
	}
	return validation(ErrTableNotExist, "Temporary table or view with identifier '%s' does not exist.", id.SummaryString())
}

// permanentForAlter finds the permanent object ALTER TABLE / ALTER VIEW
// changes: a missing or temporary object is Flink's "doesn't exist or is a
// temporary" error, the wrong kind "ALTER TABLE for a view is not allowed"
// (or the view form). ok is false when ignoreIfNotExists hid a miss.
func (m *Manager) permanentForAlter(ctx context.Context, id Identifier, kind TableKind, ignoreIfNotExists bool) (TableEntry, bool, error) {
	e, ok, err := m.lookupTable(ctx, id)
	if err != nil {
		return TableEntry{}, false, err
	}
	if !ok || e.Temporary {
		if ignoreIfNotExists {
			return TableEntry{}, false, nil
		}
		if kind == KindView {
			return TableEntry{}, false, validation(ErrTableNotExist, "View %s doesn't exist or is a temporary view.", id)
		}
		return TableEntry{}, false, validation(ErrTableNotExist, "Table %s doesn't exist or is a temporary table.", id)
	}
	if e.Table.TableKind() != kind {
		if kind == KindView {
			return TableEntry{}, false, validation(ErrWrongKind, "ALTER VIEW for a table is not allowed")
		}
		return TableEntry{}, false, validation(ErrWrongKind, "ALTER TABLE for a view is not allowed")
	}
	return e, true, nil
}

// AlterTable is every ALTER TABLE form that changes the definition: t
// replaces the stored table (the engine builds it from GetTable's copy).
// With ignoreIfNotExists (ALTER TABLE IF EXISTS) a missing table is no error.
func (m *Manager) AlterTable(ctx context.Context, id Identifier, t *CatalogTable, ignoreIfNotExists bool) error {
	_, ok, err := m.permanentForAlter(ctx, id, KindTable, ignoreIfNotExists)
	if err != nil || !ok {
		return err
	}
	r, err := m.catalogForDDL(ctx, id, false)
	if err != nil {
		return err
	}
	return r.catalog.AlterTable(ctx, id.Path(), t, ignoreIfNotExists)
}

// AlterView is ALTER VIEW ... AS: v replaces the stored view.
func (m *Manager) AlterView(ctx context.Context, id Identifier, v *CatalogView) error {
	if _, _, err := m.permanentForAlter(ctx, id, KindView, false); err != nil {
		return err
	}
	r, err := m.catalogForDDL(ctx, id, true)
	if err != nil {
		return err
	}
	return r.catalog.AlterTable(ctx, id.Path(), v, false)
}

// Mover is implemented by catalogs that can move a table or view to
// another database atomically.
type Mover interface {
	MoveTable(ctx context.Context, from, to ObjectPath) error
}

// RenameTable is ALTER TABLE ... RENAME TO. to must be in the same catalog;
// a different database moves the table there.
func (m *Manager) RenameTable(ctx context.Context, from, to Identifier, ignoreIfNotExists bool) error {
	return m.rename(ctx, from, to, KindTable, ignoreIfNotExists)
}

// RenameView is ALTER VIEW ... RENAME TO. to must be in the same catalog;
// a different database moves the view there. An existing table or view
// named to is the already-exists error.
func (m *Manager) RenameView(ctx context.Context, from, to Identifier) error {
	return m.rename(ctx, from, to, KindView, false)
}

func (m *Manager) rename(ctx context.Context, from, to Identifier, kind TableKind, ignoreIfNotExists bool) error {
	e, ok, err := m.permanentForAlter(ctx, from, kind, ignoreIfNotExists)
	if err != nil || !ok {
		return err
	}
	if to.Catalog != from.Catalog {
		return validation(ErrInvalidIdentifier,
			"Cannot rename %s to %s: a %s can only be renamed within its catalog.", from, to, map[TableKind]string{KindTable: "table", KindView: "view"}[kind])
	}
	r, err := m.catalogForDDL(ctx, from, kind == KindView)
	if err != nil {
		return err
	}
	if to.Database == from.Database {
		return r.catalog.RenameTable(ctx, from.Path(), to.Object, false)
	}
	if mv, ok := r.catalog.(Mover); ok {
		return mv.MoveTable(ctx, from.Path(), to.Path())
	}
	// No atomic move: create, then drop, undoing the create if the drop fails.
	if err := r.catalog.CreateTable(ctx, to.Path(), e.Table, false); err != nil {
		return err
	}
	if err := r.catalog.DropTable(ctx, from.Path(), false); err != nil {
		_ = r.catalog.DropTable(ctx, to.Path(), true)
		return err
	}
	return nil
}

// ListTables is SHOW TABLES: the catalog's tables and views plus the
// temporary ones in that namespace, deduplicated, sorted in byte order and
// filtered by f (CM listTables).
func (m *Manager) ListTables(ctx context.Context, catalog, database string, f *LikeFilter) ([]string, error) {
	return m.list(ctx, catalog, database, f, false)
}

// ListViews is SHOW VIEWS: as ListTables, views only.
func (m *Manager) ListViews(ctx context.Context, catalog, database string, f *LikeFilter) ([]string, error) {
	return m.list(ctx, catalog, database, f, true)
}

func (m *Manager) list(ctx context.Context, catalog, database string, f *LikeFilter, views bool) ([]string, error) {
	r, err := m.catalogOrValidation(ctx, catalog)
	if err != nil {
		return nil, err
	}
	var names []string
	if views {
		names, err = r.catalog.ListViews(ctx, database)
	} else {
		names, err = r.catalog.ListTables(ctx, database)
	}
	if errors.Is(err, ErrDatabaseNotExist) {
		return nil, &Error{Kind: ErrDatabaseNotExist, class: "ValidationException",
			Msg: "Database " + database + " does not exist", Cause: err}
	}
	if err != nil {
		return nil, err
	}
	names = slices.Clone(names)
	m.mu.Lock()
	for id, t := range m.temporary {
		if id.Catalog == catalog && id.Database == database && (!views || t.TableKind() == KindView) {
			names = append(names, id.Object)
		}
	}
	m.mu.Unlock()
	return f.Filter(sortedUnique(names)), nil
}

// ListTemporaryTables returns the identifiers of the session's temporary
// tables and views, sorted by their summary string.
func (m *Manager) ListTemporaryTables() []Identifier {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := slices.Collect(maps.Keys(m.temporary))
	slices.SortFunc(ids, func(a, b Identifier) int {
		switch {
		case a.SummaryString() < b.SummaryString():
			return -1
		case a.SummaryString() > b.SummaryString():
			return 1
		}
		return 0
	})
	return ids
}
