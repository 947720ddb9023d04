package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/connectors"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// sequenceFactory is a connector defined outside the connectors package:
// a bounded source of 1..'end' in its first column (its other columns
// NULL), or an unbounded one when unbounded is set.
func sequenceFactory(id string, unbounded bool) *connectors.Factory {
	return &connectors.Factory{
		Identifier: id,
		Required:   []string{"connector", "end"},
		Source: func(_ context.Context, _ *connectors.Env, t *connectors.Table) (connectors.Reader, error) {
			end, err := strconv.ParseInt(t.Options["end"], 10, 64)
			if err != nil {
				return nil, err
			}
			b := vector.NewBatch(t.Types(), int(end))
			row := make([]any, len(t.Columns))
			for i := int64(1); i <= end; i++ {
				row[0] = i
				b.AppendRow(types.Insert, row)
			}
			return connectors.SliceReader([]*vector.Batch{b}), nil
		},
		Abilities: func(*connectors.Table) connectors.Abilities {
			return connectors.Abilities{Bounded: !unbounded}
		},
	}
}

// collectSink is a sink whose rows (with their kinds) a test reads back;
// accepts is the changelog it declares it takes.
type collectSink struct {
	mu   sync.Mutex
	rows []string
}

func (c *collectSink) factory(id string, accepts connectors.ChangelogMode) *connectors.Factory {
	return &connectors.Factory{
		Identifier: id,
		Required:   []string{"connector"},
		Sink: func(context.Context, *connectors.Env, *connectors.Table, connectors.WriteSpec) (connectors.Writer, error) {
			return &collectWriter{c: c}, nil
		},
		Abilities: func(*connectors.Table) connectors.Abilities {
			return connectors.Abilities{Bounded: true, Accepts: accepts}
		},
	}
}

func (c *collectSink) take() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := strings.Join(c.rows, " ")
	c.rows = nil
	return out
}

type collectWriter struct {
	c       *collectSink
	pending []string
}

func (w *collectWriter) Write(_ context.Context, b *vector.Batch) error {
	for i := range b.N {
		w.pending = append(w.pending, fmt.Sprintf("%s%v", b.Kind(i), b.Row(i)))
	}
	return nil
}

func (w *collectWriter) Commit(context.Context) error {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	w.c.rows = append(w.c.rows, w.pending...)
	return nil
}

func (w *collectWriter) Abort() error { return nil }

// connectorCatalog is an in-memory catalog that supplies the connector of
// its tables without a 'connector' option.
type connectorCatalog struct {
	*memory.Catalog
	f *connectors.Factory
}

func (c connectorCatalog) Connector(t *connectors.Table) (*connectors.Factory, bool) {
	if _, ok := t.Options["connector"]; ok {
		return nil, false
	}
	return c.f, true
}

var _ connectors.CatalogConnector = connectorCatalog{}

func registrySession(t *testing.T, reg *connectors.Registry) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, nil)
	extSeq := sequenceFactory("ext-sequence", false)
	extSeq.Required = []string{"end"} // its tables name no connector
	t.Cleanup(func() { mgr.Close() })
	for _, c := range []struct {
		name string
		cat  catalogs.Catalog
	}{
		{"default_catalog", memory.New("default_catalog", "default_database")},
		{"ext", connectorCatalog{Catalog: memory.New("ext", "db"), f: extSeq}},
	} {
		desc := catalogs.CatalogDescriptor{Name: c.name, Options: map[string]string{catalogs.OptionType: memory.Type}}
		if err := mgr.RegisterCatalog(ctx, desc, c.cat, catalogs.OriginBuiltIn); err != nil {
			t.Fatal(err)
		}
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Connectors: reg,
		Options: map[string]string{"table.dml-sync": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func queryText(t *testing.T, s *engine.Session, sql string) (string, error) {
	t.Helper()
	ctx := context.Background()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return "", err
	}
	defer res.Close()
	var out []string
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return "", err
		}
		if !ok {
			return strings.Join(out, " "), nil
		}
		for _, v := range row.Values {
			out = append(out, fmt.Sprint(v))
		}
	}
}

func execAll(t *testing.T, s *engine.Session, stmts ...string) {
	t.Helper()
	for _, sql := range stmts {
		if _, err := s.Execute(context.Background(), sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
}

// A connector registered from outside the connectors package is read,
// validated and planned through SQL like a built-in one.
func TestRegisteredConnectorThroughSQL(t *testing.T) {
	reg := connectors.NewRegistry()
	reg.Register(sequenceFactory("sequence", false))
	reg.Register(sequenceFactory("ticks", true))
	s := registrySession(t, reg)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'batch'",
		"CREATE TABLE s (n BIGINT, tag STRING) WITH ('connector' = 'sequence', 'end' = '4')",
		"CREATE TABLE missing (n BIGINT) WITH ('connector' = 'sequence')",
		"CREATE TABLE extra (n BIGINT) WITH ('connector' = 'sequence', 'end' = '1', 'start' = '0')",
		"CREATE TABLE endless (n BIGINT) WITH ('connector' = 'ticks', 'end' = '1')",
		"CREATE TABLE nope (n BIGINT) WITH ('connector' = 'nope')",
	)
	got, err := queryText(t, s, "SELECT n * 10, tag IS NULL FROM s WHERE n > 2")
	if err != nil || got != "30 true 40 true" {
		t.Fatalf("sequence query: %q, %v", got, err)
	}
	for _, c := range []struct{ sql, want string }{
		{"SELECT * FROM missing", "Missing required options are:\n\nend"},
		{"SELECT * FROM extra", "Unsupported options found for 'sequence'.\n\nUnsupported options:\n\nstart\n\nSupported options:\n\nconnector\nend"},
		{"SELECT * FROM nope", "Available factory identifiers are:\n\nblackhole\ndatagen\nfilesystem\nprint\nsequence\nticks"},
		// The declared boundedness is what batch mode checks.
		{"SELECT * FROM endless", "Querying an unbounded table 'default_catalog.default_database.endless' in batch mode is not allowed."},
		{"INSERT INTO s VALUES (1, 'x')", "Connector 'sequence' can only be used as a source. It cannot be used as a sink."},
	} {
		_, err := queryText(t, s, c.sql)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.sql, err, c.want)
		}
	}
}

// A sink's declared changelog decides whether an updating query reaches
// it as a changelog or as its final rows.
func TestSinkChangelogAbility(t *testing.T) {
	var changes, rows collectSink
	reg := connectors.NewRegistry()
	reg.Register(sequenceFactory("sequence", false))
	reg.Register(changes.factory("changes", connectors.FullChangelog))
	reg.Register(rows.factory("rows", connectors.InsertOnly))
	s := registrySession(t, reg)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'streaming'",
		"CREATE TABLE s (n BIGINT) WITH ('connector' = 'sequence', 'end' = '3')",
		"CREATE TABLE c (k BIGINT, cnt BIGINT) WITH ('connector' = 'changes')",
		"CREATE TABLE r (k BIGINT, cnt BIGINT) WITH ('connector' = 'rows')",
		"INSERT INTO c SELECT 0, COUNT(*) FROM s",
		"INSERT INTO r SELECT 0, COUNT(*) FROM s",
	)
	got := changes.take()
	if !strings.Contains(got, "-U[0 ") || !strings.HasSuffix(got, "+U[0 3]") {
		t.Errorf("changelog sink got %q, want updates ending in +U[0 3]", got)
	}
	if got := rows.take(); got != "+I[0 3]" {
		t.Errorf("row sink got %q, want the final row +I[0 3]", got)
	}
}

// A catalog that supplies the connector of its tables (CatalogConnector)
// serves them in place of the managed table storage.
func TestCatalogSuppliedConnector(t *testing.T) {
	s := registrySession(t, nil)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'batch'",
		"CREATE TABLE ext.db.t (n BIGINT) WITH ('end' = '3')",
		"CREATE TABLE ext.db.d (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2')",
	)
	if got, err := queryText(t, s, "SELECT SUM(n) FROM ext.db.t"); err != nil || got != "6" {
		t.Errorf("catalog-supplied source: %q, %v", got, err)
	}
	// A table naming its connector keeps it.
	if got, err := queryText(t, s, "SELECT COUNT(*) FROM ext.db.d"); err != nil || got != "2" {
		t.Errorf("datagen table of the catalog: %q, %v", got, err)
	}
	// The catalog's factory has no sink: the table is not managed storage.
	_, err := queryText(t, s, "INSERT INTO ext.db.t VALUES (1)")
	if want := "Connector 'ext-sequence' can only be used as a source."; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("insert into a catalog-supplied source: %v, want %q", err, want)
	}
}

// METADATA columns whose key the connector declares are read; others are
// NULL.
func TestFilesystemMetadataColumns(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "p=x")
	if err := os.MkdirAll(part, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(part, "part-0")
	if err := os.WriteFile(file, []byte("1\n2\n3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	if err := os.Chtimes(file, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	s := registrySession(t, nil)
	execAll(t, s,
		"SET 'execution.runtime-mode' = 'batch'",
		"SET 'table.local-time-zone' = 'UTC'",
		"CREATE TABLE f (a INT, fname STRING METADATA FROM 'file.name' VIRTUAL, p STRING, "+
			"size BIGINT METADATA FROM 'file.size' VIRTUAL, `file.path` STRING METADATA VIRTUAL, "+
			"mtime TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time' VIRTUAL, "+
			"off BIGINT METADATA FROM 'offset' VIRTUAL, doubled AS a * 2) "+
			"PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '"+dir+"', 'format' = 'csv')",
	)
	got, err := queryText(t, s, "SELECT a, doubled, p, fname, size, `file.path` = '"+file+"', CAST(mtime AS STRING), off FROM f WHERE a > 1")
	if want := "2 4 x part-0 6 true 2024-05-06 07:08:09.123 <nil> 3 6 x part-0 6 true 2024-05-06 07:08:09.123 <nil>"; err != nil || got != want {
		t.Errorf("metadata columns:\n got %q, %v\nwant %q", got, err, want)
	}
	if got, err := queryText(t, s, "SELECT SUM(a) FROM f"); err != nil || got != "6" {
		t.Errorf("a query reading no metadata: %q, %v", got, err)
	}
	if got, err := queryText(t, s, "SELECT fname, COUNT(*) FROM f GROUP BY fname"); err != nil || got != "part-0 3" {
		t.Errorf("a query reading only metadata: %q, %v", got, err)
	}
}
