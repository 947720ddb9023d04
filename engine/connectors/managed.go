package connectors

import (
	"context"
	"slices"

	"eddy/catalogs"
)

// managedFactory serves the tables created without a 'connector' option:
// their rows live in their catalog when it stores rows (RowStore), else,
// as for every temporary table, in the session's MemoryStore. Flink's
// managed tables have no identifier a user can name; neither has this
// factory, which the Registry uses only for tables without the option.
// A table with a primary key accepts upserts: its writer applies an
// updating query's changelog by key; one without takes inserts (the
// final rows of an updating query).
func managedFactory() *Factory {
	return &Factory{
		Validate: func(*Table, bool) error { return nil },
		Source: func(ctx context.Context, env *Env, t *Table) (Reader, error) {
			if rs, ok := managedStore(t); ok {
				return readRowStore(ctx, rs, t)
			}
			return env.Memory.Reader(t), nil
		},
		Sink: func(ctx context.Context, env *Env, t *Table, spec WriteSpec) (Writer, error) {
			if rs, ok := managedStore(t); ok {
				return openRowStoreWriter(ctx, rs, t, spec.Overwrite, nil)
			}
			return env.Memory.Writer(t, spec.Overwrite), nil
		},
		Truncate: func(ctx context.Context, env *Env, t *Table) error {
			if rs, ok := managedStore(t); ok {
				return rs.TruncateRows(ctx, t.Name.Path())
			}
			env.Memory.Drop(t)
			return nil
		},
		Abilities: func(t *Table) Abilities {
			a := Abilities{Bounded: true}
			if keyColumns(t) != nil {
				// One row per key: a changelog applies by key.
				a.Accepts = Upsert
			}
			if rs, ok := managedStore(t); ok {
				if _, scans := rs.(catalogs.RowScanner); scans {
					a.Projection, a.Filters = true, FilterCompare|FilterNullTest
				}
			}
			return a
		},
	}
}

// keyColumns returns the positions of the primary key's columns among
// t's columns, or nil when it has none (or names a column t lacks).
func keyColumns(t *Table) []int {
	var keys []int
	for _, k := range t.PrimaryKey {
		i := slices.IndexFunc(t.Columns, func(c Column) bool { return c.Name == k })
		if i < 0 {
			return nil
		}
		keys = append(keys, i)
	}
	return keys
}

// managedStore returns the catalog storing a managed table's rows, or
// false when the session's MemoryStore keeps them.
func managedStore(t *Table) (RowStore, bool) {
	if t.Temporary {
		return nil, false
	}
	rs, ok := t.Catalog.(RowStore)
	return rs, ok
}
