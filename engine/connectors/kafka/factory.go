package kafka

import (
	"context"

	"eddy/engine/connectors"
)

// Register adds the 'kafka' and 'upsert-kafka' connectors to reg; their
// formats are reg's, looked up by identifier when a table is used.
func Register(reg *connectors.Registry) {
	reg.Register(factory(reg, false))
	reg.Register(factory(reg, true))
}

// factory is the kafka connector, or upsert-kafka when upsert is set.
func factory(reg *connectors.Registry, upsert bool) *connectors.Factory {
	id := "kafka"
	if upsert {
		id = "upsert-kafka"
	}
	return &connectors.Factory{
		Identifier: id,
		Validate: func(t *connectors.Table, sink bool) error {
			_, err := newSpec(reg, t, upsert, sink)
			return err
		},
		Source: func(ctx context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			s, err := newSpec(reg, t, upsert, false)
			if err != nil {
				return nil, err
			}
			return openReader(ctx, s)
		},
		Sink: func(ctx context.Context, _ *connectors.Env, t *connectors.Table, ws connectors.WriteSpec) (connectors.Writer, error) {
			s, err := newSpec(reg, t, upsert, true)
			if err != nil {
				return nil, err
			}
			return openWriter(ctx, s, ws)
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			a := connectors.Abilities{
				Bounded:          t.Options[optBoundedMode] != "" && t.Options[optBoundedMode] != modeUnbounded,
				ReadableMetadata: readableMetadata(),
				WritableMetadata: writableMetadata(),
			}
			// An invalid table is reported by Validate.
			s, err := newSpec(reg, t, upsert, false)
			if err == nil {
				a.ReadableMetadata = withValueMetadata(s.value, a.ReadableMetadata)
			}
			if upsert {
				// An upsert stream by the PRIMARY KEY: the planner puts a
				// ChangelogNormalize above the scan, as Flink's does.
				a.Produces, a.Accepts = connectors.Upsert, connectors.Upsert
			} else if err == nil {
				// The value format's changelog (debezium-json and the
				// like), as Flink's KafkaDynamicSource reports it.
				mode := connectors.CodecChangelog(s.value)
				a.Produces, a.Accepts = mode, mode
			}
			return a
		},
	}
}
