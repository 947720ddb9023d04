package jdbc

import (
	"context"

	"eddy/engine/connectors"
	"eddy/engine/types"
)

// Register adds the 'jdbc' connector to reg.
func Register(reg *connectors.Registry) { reg.Register(Factory()) }

// Factory returns the 'jdbc' connector (Flink's JdbcDynamicTableFactory).
func Factory() *connectors.Factory {
	return &connectors.Factory{
		Identifier: "jdbc",
		Validate: func(t *connectors.Table, _ bool) error {
			_, err := newSpec(t)
			return err
		},
		Source: func(_ context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			s, err := newRuntimeSpec(t)
			if err != nil {
				return nil, err
			}
			return openReader(s), nil
		},
		Sink: func(ctx context.Context, _ *connectors.Env, t *connectors.Table, _ connectors.WriteSpec) (connectors.Writer, error) {
			s, err := newRuntimeSpec(t)
			if err != nil {
				return nil, err
			}
			return openWriter(ctx, s)
		},
		Lookup: func(_ context.Context, _ *connectors.Env, t *connectors.Table, keys []int) (connectors.Lookuper, error) {
			s, err := newRuntimeSpec(t)
			if err != nil {
				return nil, err
			}
			return openLookup(s, keys), nil
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			a := connectors.Abilities{Bounded: true, Projection: true,
				Filters: connectors.FilterCompare | connectors.FilterNullTest}
			if len(t.PrimaryKey) > 0 {
				// Flink's JdbcDynamicTableSink takes inserts, update-afters
				// and deletes by key when the table has a primary key.
				a.Accepts = connectors.Upsert
			}
			return a
		},
	}
}

// newRuntimeSpec is newSpec for a source, sink or lookup being opened:
// Flink's PostgreSQL row converter has no conversion for
// TIMESTAMP_LTZ, so a table with such a column passes validation but
// fails when it runs, with the converter's error.
func newRuntimeSpec(t *connectors.Table) (*spec, error) {
	s, err := newSpec(t)
	if err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		if c.Type.Kind == types.TimestampLTZ {
			return nil, &connectors.Error{Exception: "UnsupportedOperationException", Msg: "Unsupported type:" + c.Type.String()}
		}
	}
	return s, nil
}
