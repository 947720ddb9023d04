package kafka

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"eddy/catalogs"
	"eddy/engine/connectors"
)

// CatalogType is the 'type' option value of Kafka catalogs.
const CatalogType = "kafka"

// catalogKind is the catalog kind named in messages ("View DDL is not
// supported on Kafka catalog 'c'.").
const catalogKind = "Kafka"

// Options of a Kafka catalog besides 'properties.*' and 'default-database'.
const (
	// optTablesTopic names the compacted topic that keeps the definitions
	// of a cluster's tables.
	optTablesTopic = "tables-topic"
	// clusterPrefix starts the options of one more cluster:
	// 'cluster.<database>.properties.<key>'.
	clusterPrefix = "cluster."
)

// DefaultTablesTopic is the topic a Kafka catalog keeps table definitions
// in unless 'tables-topic' names another.
const DefaultTablesTopic = "_eddy_tables"

// CatalogFactory makes Kafka catalogs: each database is a Kafka cluster,
// each table one of its topics.
type CatalogFactory struct{}

// NewCatalogFactory returns the factory of catalogs of type 'kafka'.
func NewCatalogFactory() CatalogFactory { return CatalogFactory{} }

// Type returns "kafka".
func (CatalogFactory) Type() string { return CatalogType }

// Open reads the catalog's clusters from its options and reaches each one
// (bounded by ctx and the cluster's 'properties.request.timeout.ms'),
// creating its tables topic when it has none.
func (CatalogFactory) Open(ctx context.Context, name string, options map[string]string) (catalogs.Catalog, error) {
	specs, def, tablesTopic, err := clusterSpecs(name, options)
	if err != nil {
		return nil, err
	}
	// Give up a little before whoever bounds the open does, so the error
	// is this catalog's, naming the brokers that did not answer.
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-min(time.Second, time.Until(d)/10)))
		defer cancel()
	}
	reg := connectors.NewRegistry()
	Register(reg)
	c := &Catalog{name: name, defaultDB: def, reg: reg, clusters: map[string]*cluster{}}
	for _, db := range sortedKeys(specs) {
		cl, err := openCluster(ctx, name, db, specs[db], tablesTopic)
		if err != nil {
			c.Close()
			return nil, err
		}
		c.clusters[db] = cl
	}
	return c, nil
}

// clusterSpecs splits a catalog's options into the 'properties.*' of each
// cluster by database name. The top-level 'properties.*' are those of the
// default database; 'cluster.<db>.properties.*' those of database db.
func clusterSpecs(name string, options map[string]string) (map[string]map[string]string, string, string, error) {
	specs := map[string]map[string]string{}
	def := options[catalogs.OptionDefaultDatabase]
	tablesTopic := DefaultTablesTopic
	var unsupported []string
	for k, v := range options {
		switch {
		case k == catalogs.OptionDefaultDatabase:
		case k == optTablesTopic:
			if strings.TrimSpace(v) == "" {
				return nil, "", "", catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
					"Option '%s' of catalog '%s' must name a topic.", optTablesTopic, name)
			}
			tablesTopic = v
		case strings.HasPrefix(k, propertiesPrefix):
			if def == "" {
				def = catalogs.DefaultDatabaseName
			}
			put(specs, def, k, v)
		case strings.HasPrefix(k, clusterPrefix):
			db, key, ok := strings.Cut(strings.TrimPrefix(k, clusterPrefix), "."+propertiesPrefix)
			if !ok || db == "" || key == "" {
				unsupported = append(unsupported, k)
				continue
			}
			put(specs, db, propertiesPrefix+key, v)
		default:
			unsupported = append(unsupported, k)
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		return nil, "", "", catalogs.ClassErrorf(catalogs.ErrInvalidOption, "ValidationException",
			"Unsupported options found for catalog '%s' of type '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
			name, CatalogType, strings.Join(unsupported, "\n"),
			strings.Join([]string{"cluster.<database>.properties.*", catalogs.OptionDefaultDatabase, "properties.*", optTablesTopic}, "\n"))
	}
	if def == "" {
		def = catalogs.DefaultDatabaseName
	}
	if _, ok := specs[def]; !ok {
		return nil, "", "", catalogs.ClassErrorf(catalogs.ErrMissingOption, "ValidationException",
			"Kafka catalog '%s' needs the brokers of its default database '%s': set 'properties.bootstrap.servers' (or 'cluster.%s.properties.bootstrap.servers').",
			name, def, def)
	}
	for db, props := range specs {
		if strings.TrimSpace(props[optBootstrap]) == "" {
			return nil, "", "", catalogs.ClassErrorf(catalogs.ErrMissingOption, "ValidationException",
				"Kafka catalog '%s' has no 'properties.bootstrap.servers' for its database '%s'.", name, db)
		}
	}
	return specs, def, tablesTopic, nil
}

func put(specs map[string]map[string]string, db, k, v string) {
	if specs[db] == nil {
		specs[db] = map[string]string{}
	}
	specs[db][k] = v
}

// Catalog is a Kafka catalog. Its state lives in the clusters (topics and
// the tables topic); what it keeps is a cache of the definitions read, so
// every catalog connected to a cluster sees the same tables.
type Catalog struct {
	name      string
	defaultDB string
	reg       *connectors.Registry
	clusters  map[string]*cluster // by database name; fixed after Open
}

var (
	_ catalogs.Catalog            = (*Catalog)(nil)
	_ catalogs.ViewSupport        = (*Catalog)(nil)
	_ catalogs.Typed              = (*Catalog)(nil)
	_ connectors.CatalogConnector = (*Catalog)(nil)
	_ catalogs.Factory            = CatalogFactory{}
)

// Type returns "Kafka", the kind named in messages.
func (c *Catalog) Type() string { return catalogKind }

// SupportsViews returns false: views over Kafka tables live in another
// catalog and name the tables fully.
func (c *Catalog) SupportsViews() bool { return false }

// ViewDDLRefusal is the error of view DDL on a Kafka catalog.
func (c *Catalog) ViewDDLRefusal(name string) string {
	return fmt.Sprintf("View DDL is not supported on %s catalog '%s'.", catalogKind, name)
}

// DefaultDatabase returns the database of the cluster the top-level
// 'properties.*' name.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// Close closes the clients of every cluster.
func (c *Catalog) Close() error {
	for _, cl := range c.clusters {
		cl.close()
	}
	return nil
}

// cluster returns the cluster of database db.
func (c *Catalog) cluster(db string) (*cluster, error) {
	cl, ok := c.clusters[db]
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, db)
	}
	return cl, nil
}

// ListDatabases returns the names of the catalog's clusters.
func (c *Catalog) ListDatabases(context.Context) ([]string, error) {
	return sortedKeys(c.clusters), nil
}

// GetDatabase describes a cluster: its comment names its brokers.
func (c *Catalog) GetDatabase(_ context.Context, name string) (*catalogs.CatalogDatabase, error) {
	cl, err := c.cluster(name)
	if err != nil {
		return nil, err
	}
	return &catalogs.CatalogDatabase{Comment: "Kafka cluster at " + strings.Join(cl.cfg.brokers, ","),
		Options: map[string]string{optBootstrap: cl.props[optBootstrap]}}, nil
}

// DatabaseExists reports whether name is one of the catalog's clusters.
func (c *Catalog) DatabaseExists(_ context.Context, name string) (bool, error) {
	_, ok := c.clusters[name]
	return ok, nil
}

// unsupported is the error of a statement a Kafka cluster cannot carry out.
func (c *Catalog) unsupported(format string, args ...any) error {
	return catalogs.ClassErrorf(catalogs.ErrUnsupported, "ValidationException", "%s", fmt.Sprintf(format, args...))
}

// CreateDatabase fails: a database of a Kafka catalog is a cluster.
func (c *Catalog) CreateDatabase(_ context.Context, name string, _ *catalogs.CatalogDatabase, ignoreIfExists bool) error {
	if _, ok := c.clusters[name]; ok && ignoreIfExists {
		return nil
	}
	return c.unsupported("CREATE DATABASE is not supported on Kafka catalog '%s': its databases are the Kafka clusters its options name ('properties.bootstrap.servers', 'cluster.<database>.properties.bootstrap.servers'); change the catalog to add one.", c.name)
}

// DropDatabase fails: a cluster cannot be dropped.
func (c *Catalog) DropDatabase(_ context.Context, name string, ignoreIfNotExists, _ bool) error {
	if _, ok := c.clusters[name]; !ok && ignoreIfNotExists {
		return nil
	}
	return c.unsupported("DROP DATABASE is not supported on Kafka catalog '%s': database '%s' is a Kafka cluster; drop its tables one by one, or change the catalog's options.", c.name, name)
}

// AlterDatabase fails: a cluster has no database properties.
func (c *Catalog) AlterDatabase(_ context.Context, name string, _ *catalogs.CatalogDatabase, ignoreIfNotExists bool) error {
	if _, ok := c.clusters[name]; !ok && ignoreIfNotExists {
		return nil
	}
	return c.unsupported("ALTER DATABASE is not supported on Kafka catalog '%s': database '%s' is a Kafka cluster, configured by the catalog's options.", c.name, name)
}

// ListTables returns the cluster's topics (without internal ones and the
// tables topic) and the tables defined there, including those whose topic
// is gone.
func (c *Catalog) ListTables(ctx context.Context, database string) ([]string, error) {
	cl, err := c.cluster(database)
	if err != nil {
		return nil, err
	}
	topics, err := cl.topics(ctx)
	if err != nil {
		return nil, err
	}
	defs, err := cl.definitions(ctx)
	if err != nil {
		return nil, err
	}
	names := sortedKeys(topics)
	for n := range defs {
		if _, ok := topics[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// ListViews returns none: a Kafka catalog holds no views.
func (c *Catalog) ListViews(_ context.Context, database string) ([]string, error) {
	if _, err := c.cluster(database); err != nil {
		return nil, err
	}
	return []string{}, nil
}

// ListFunctions returns none.
func (c *Catalog) ListFunctions(_ context.Context, database string) ([]string, error) {
	if _, err := c.cluster(database); err != nil {
		return nil, err
	}
	return []string{}, nil
}

// GetFunction finds nothing.
func (c *Catalog) GetFunction(_ context.Context, path catalogs.ObjectPath) (*catalogs.CatalogFunction, error) {
	if _, err := c.cluster(path.Database); err != nil {
		return nil, err
	}
	return nil, catalogs.FunctionNotExist(c.name, path)
}

// FunctionExists reports false.
func (c *Catalog) FunctionExists(context.Context, catalogs.ObjectPath) (bool, error) {
	return false, nil
}

// CreateFunction fails: a Kafka cluster keeps no functions.
func (c *Catalog) CreateFunction(context.Context, catalogs.ObjectPath, *catalogs.CatalogFunction, bool) error {
	return c.unsupported("CREATE FUNCTION is not supported on Kafka catalog '%s': a Kafka cluster keeps no functions; create the function in another catalog or as a temporary function.", c.name)
}

// AlterFunction fails as CreateFunction does.
func (c *Catalog) AlterFunction(_ context.Context, path catalogs.ObjectPath, _ *catalogs.CatalogFunction, ignoreIfNotExists bool) error {
	if ignoreIfNotExists {
		return nil
	}
	return catalogs.FunctionNotExist(c.name, path)
}

// DropFunction finds nothing to drop.
func (c *Catalog) DropFunction(_ context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	if ignoreIfNotExists {
		return nil
	}
	return catalogs.FunctionNotExist(c.name, path)
}

// RenameTable fails: Kafka cannot rename a topic.
func (c *Catalog) RenameTable(_ context.Context, path catalogs.ObjectPath, _ string, _ bool) error {
	return c.unsupported("ALTER TABLE ... RENAME TO is not supported on Kafka catalog '%s': the table %s is the topic '%s', and Kafka cannot rename a topic. Create a table with the new name (CREATE TABLE ... AS SELECT) and drop this one.",
		c.name, path.FullName(), path.Object)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
