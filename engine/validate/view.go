package validate

import (
	"context"
	"errors"

	"eddy/catalogs"
	"eddy/engine/ast"
)

// ErrReadOnlyView is an INSERT into a view: views are read-only.
var ErrReadOnlyView = &Kind{"view is read-only", classFlink}

// InsertTarget resolves the object an INSERT writes to. A missing object is
// Calcite's "Object 'x' not found" with the name's position; a view is
// ErrReadOnlyView.
func (a *Analyzer) InsertTarget(ctx context.Context, name *ast.ObjectName) (catalogs.TableEntry, error) {
	s := &state{a: a, ctx: ctx}
	id, err := a.Catalogs.Qualify(name.Names()...)
	if err != nil {
		return catalogs.TableEntry{}, err
	}
	e, err := a.Catalogs.GetTable(ctx, id)
	if errors.Is(err, catalogs.ErrTableNotExist) {
		return catalogs.TableEntry{}, s.notFound(name, id)
	}
	if err != nil {
		return catalogs.TableEntry{}, err
	}
	if _, ok := e.Table.(*catalogs.CatalogView); ok {
		return catalogs.TableEntry{}, errorf(name.Position(), ErrReadOnlyView,
			"View '%s' cannot be written: it is a view, not a table.", id)
	}
	return e, nil
}
