package kafka

import (
	"context"
	"errors"
	"maps"
	"strings"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

// Connector supplies the connector of the catalog's tables: the kafka (or
// upsert-kafka) connector over the table's topic, with the connection
// properties of the table's cluster and without the catalog's topic
// options.
func (c *Catalog) Connector(t *connectors.Table) (*connectors.Factory, bool) {
	cl, ok := c.clusters[t.Name.Database]
	if !ok {
		return nil, false
	}
	id := t.Options["connector"]
	if id == "" {
		id = "kafka"
	}
	inner, err := c.reg.Factory(&connectors.Table{Options: map[string]string{"connector": id}})
	if err != nil {
		return nil, false
	}
	readable := func(t *connectors.Table) error {
		if err := cl.readError(t.Name.Object); err != nil {
			var ce *catalogs.Error
			errors.As(err, &ce)
			return &connectors.Error{Exception: ce.Class(), Msg: ce.Msg}
		}
		return nil
	}
	of := func(t *connectors.Table) *connectors.Table {
		out := *t
		out.Options = connectorOptions(cl, id, t.Name.Object, t.Options)
		return &out
	}
	f := &connectors.Factory{
		Identifier: inner.Identifier,
		Validate: func(t *connectors.Table, sink bool) error {
			if err := readable(t); err != nil {
				return err
			}
			return inner.Validate(of(t), sink)
		},
		Source: func(ctx context.Context, env *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			if err := readable(t); err != nil {
				return nil, err
			}
			if err := cl.checkTopic(ctx, c.name, t); err != nil {
				return nil, err
			}
			return inner.Source(ctx, env, of(t))
		},
		Sink: func(ctx context.Context, env *connectors.Env, t *connectors.Table, ws connectors.WriteSpec) (connectors.Writer, error) {
			if err := readable(t); err != nil {
				return nil, err
			}
			if err := cl.checkTopic(ctx, c.name, t); err != nil {
				return nil, err
			}
			return inner.Sink(ctx, env, of(t), ws)
		},
		Truncate: func(ctx context.Context, _ *connectors.Env, t *connectors.Table) error {
			if err := cl.checkTopic(ctx, c.name, t); err != nil {
				return err
			}
			if err := cl.truncate(ctx, t.Name.Object); err != nil {
				var ce *catalogs.Error
				if errors.As(err, &ce) {
					return &connectors.Error{Exception: ce.Class(), Msg: ce.Msg}
				}
				return err
			}
			return nil
		},
		Abilities: func(t *connectors.Table) connectors.Abilities {
			return inner.Abilities(of(t))
		},
	}
	return f, true
}

// connectorOptions are a catalog table's options as the connector takes
// them: the topic, the cluster's 'properties.*' (the table's own
// 'properties.*' besides the bootstrap servers win), no 'kafka.*'.
func connectorOptions(cl *cluster, id, topic string, o map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, cl.props)
	for k, v := range o {
		if strings.HasPrefix(k, topicPrefix) || k == optBootstrap {
			continue
		}
		out[k] = v
	}
	out["connector"] = id
	out[optTopic] = topic
	applyDefaults(out)
	return out
}

// checkTopic reports a table whose definition outlived its topic.
func (cl *cluster) checkTopic(ctx context.Context, catalog string, t *connectors.Table) error {
	_, ok, err := cl.topic(ctx, t.Name.Object)
	if err != nil {
		return err
	}
	if !ok {
		return &connectors.Error{Exception: "ValidationException", Msg: "The topic '" + t.Name.Object + "' of table " +
			t.Name.String() + " does not exist in the Kafka cluster at '" + strings.Join(cl.cfg.brokers, ",") +
			"'; the table's definition remains in catalog '" + catalog + "' until DROP TABLE removes it."}
	}
	return nil
}
