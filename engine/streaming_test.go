package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/examples"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
)

// The datagen -> view -> blackhole script of the user docs (seed 002),
// as written.
func TestSeedDatagenViewBlackhole(t *testing.T) {
	s := openQuerySession(t)
	for _, st := range []string{
		`CREATE TEMPORARY TABLE datagen_source (
  name    VARCHAR,
  score   BIGINT
) WITH (
  'connector'      = 'datagen',
  'number-of-rows' = '10'
)`,
		`CREATE TEMPORARY TABLE rds_output (
  name  VARCHAR,
  score BIGINT
) WITH (
  'connector' = 'blackhole'
)`,
		`CREATE TEMPORARY VIEW tmp_view AS
SELECT *
FROM datagen_source`,
	} {
		mustExec(t, s, st)
	}
	res, err := s.Execute(context.Background(), "INSERT INTO rds_output\nSELECT name, score\nFROM tmp_view")
	if err != nil {
		t.Fatal(err)
	}
	// table.dml-sync is false by default: Flink's submission lines.
	if !submittedAnswer.MatchString(res.Message) {
		t.Fatalf("INSERT answered %q", res.Message)
	}
	if jobs := s.Jobs(); len(jobs) != 1 || jobs[0].Status != JobFinished || jobs[0].Name != "insert-into_"+strings.Join(promptOf(s), ".")+".rds_output" {
		t.Fatalf("jobs after the bounded INSERT: %+v", jobs)
	}
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	if got := collect(t, s, "SELECT COUNT(*), MAX(CHAR_LENGTH(name)) FROM tmp_view"); len(got) != 1 || got[0] != "+I 10 1" {
		t.Fatalf("count over the view: %v", got)
	}
}

func openExamplesSession(t *testing.T) *Session {
	s := openQuerySession(t)
	desc := catalogs.CatalogDescriptor{Name: examples.Name, Options: map[string]string{catalogs.OptionType: examples.Type}}
	if err := s.cat.RegisterCatalog(context.Background(), desc, examples.New(examples.Name), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	return s
}

// The first example of the views page (seed 000) runs as written over the
// examples catalog.
func TestSeedExamplesLargeOrders(t *testing.T) {
	s := openExamplesSession(t)
	mustExec(t, s, "CREATE VIEW large_orders AS SELECT order_id, customer_id, price FROM examples.marketplace.orders WHERE price > 50;")
	start := time.Now()
	rows := collect(t, s, "SELECT customer_id, price FROM large_orders LIMIT 5;")
	if len(rows) != 5 {
		t.Fatalf("got %d rows: %v", len(rows), rows)
	}
	for _, r := range rows {
		var id int
		var price float64
		if _, err := fmt.Sscanf(r, "+I %d %g", &id, &price); err != nil || price <= 50 || id < 3000 || id > 3250 {
			t.Fatalf("row %q outside the view's filter or the table's ranges (%v)", r, err)
		}
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("LIMIT 5 took %v", el)
	}
	mustExec(t, s, "ALTER VIEW large_orders AS\n  SELECT order_id, customer_id, price\n  FROM examples.marketplace.orders\n  WHERE price > 100;")
	mustExec(t, s, "ALTER VIEW large_orders RENAME TO very_large_orders;")
}

// A seeded datagen table honours its field options and gives the same
// rows on every scan (sequence bounds and bad options are in logictest's
// connectors file).
func TestDatagenOptions(t *testing.T) {
	s := openQuerySession(t)
	s.SetDatagenSeed(42)
	mustExec(t, s, `CREATE TABLE g (id INT, s STRING, v DOUBLE, b BOOLEAN, d DECIMAL(6, 2), ts TIMESTAMP(3), n INT, arr ARRAY<INT>)
WITH ('connector' = 'datagen', 'number-of-rows' = '50', 'rows-per-second' = '1000000',
 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100',
 'fields.s.length' = '7', 'fields.v.min' = '1', 'fields.v.max' = '2',
 'fields.ts.max-past' = '10 s', 'fields.n.null-rate' = '1.0')`)
	a := collect(t, s, "SELECT * FROM g")
	b := collect(t, s, "SELECT id, s, v, b, d, n, arr FROM g")
	if len(a) != 50 || len(b) != 50 {
		t.Fatalf("rows: %d, %d", len(a), len(b))
	}
	for i, r := range a {
		f := strings.Fields(r)
		if f[1] != fmt.Sprint(i+1) || len(f[2]) != 7 || f[8] != "NULL" {
			t.Fatalf("row %d: %q", i, r)
		}
		var v float64
		fmt.Sscan(f[3], &v)
		if v < 1 || v > 2 {
			t.Fatalf("v out of [1, 2]: %q", r)
		}
	}
	if c := collect(t, s, "SELECT s FROM g"); c[0] != "+I "+strings.Fields(a[0])[2] {
		t.Fatalf("a seeded datagen differs between scans: %q vs %q", c[0], a[0])
	}
}

// listDir returns every file under dir with its contents.
func listDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func TestFilesystemFailedInsertLeavesDirectory(t *testing.T) {
	for _, format := range []string{"csv", "json"} {
		t.Run(format, func(t *testing.T) {
			s := openQuerySession(t)
			dir := t.TempDir()
			mustExec(t, s, fmt.Sprintf(`CREATE TABLE fs (a BIGINT, b STRING, dt STRING) PARTITIONED BY (dt)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = '%s')`, dir, format))
			mustExec(t, s, "INSERT INTO fs VALUES (1, 'one', 'd1'), (2, 'two', 'd2'), (3, CAST(NULL AS STRING), 'd1')")
			before := listDir(t, dir)
			if len(before) != 2 {
				t.Fatalf("files after the first INSERT: %v", before)
			}
			mustExec(t, s, `CREATE TEMPORARY TABLE src (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000',
 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5000', 'number-of-rows' = '5000')`)
			// Row 4000 divides by zero after three batches were written.
			msg := execErr(t, s, "INSERT INTO fs SELECT 10 / (id - 4000), 'x', CAST(id % 3 AS STRING) FROM src")
			if msg == "" {
				t.Fatal("the INSERT succeeded")
			}
			after := listDir(t, dir)
			if fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("a failed INSERT changed the directory:\nbefore %v\nafter  %v", before, after)
			}
			mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
			got := collect(t, s, "SELECT a, b, dt FROM fs")
			sort.Strings(got)
			// csv writes NULL as an empty field, which reads back as an
			// empty string (Flink's CSV format without csv.null-literal).
			want := map[string]string{"csv": "+I 1 one d1|+I 2 two d2|+I 3  d1", "json": "+I 1 one d1|+I 2 two d2|+I 3 NULL d1"}[format]
			if strings.Join(got, "|") != want {
				t.Fatalf("read back: %v", got)
			}
		})
	}
}

// An unbounded datagen -> filter -> blackhole INSERT streams until it is
// cancelled, ends promptly, and holds no growing state.
func TestUnboundedInsertCancel(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TEMPORARY TABLE gen (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100000000', 'fields.s.length' = '10')`)
	mustExec(t, s, `CREATE TEMPORARY TABLE sink (id BIGINT, s STRING) WITH ('connector' = 'blackhole')`)
	// In the foreground (TestBackgroundJob runs it as a job).
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "INSERT INTO sink SELECT id, s FROM gen WHERE id % 2 = 0")
		done <- err
	}()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	time.Sleep(500 * time.Millisecond)
	h1 := heap()
	time.Sleep(1500 * time.Millisecond)
	h2 := heap()
	select {
	case err := <-done:
		t.Fatalf("the unbounded INSERT ended by itself: %v", err)
	default:
	}
	cancel()
	start := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the INSERT did not end after cancellation")
	}
	el := time.Since(start)
	if el > 100*time.Millisecond {
		t.Errorf("the INSERT ended %v after cancellation", el)
	}
	t.Logf("ended %v after cancellation", el)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled INSERT returned %v", err)
	}
	if h2 > h1+16<<20 {
		t.Errorf("heap grew from %d to %d bytes while streaming", h1, h2)
	}
	t.Logf("heap after 0.5 s: %d KiB, after 2 s: %d KiB", h1>>10, h2>>10)
}

// BenchmarkDatagenFilterBlackhole reports rows/s of datagen -> filter ->
// blackhole.
func BenchmarkDatagenFilterBlackhole(b *testing.B) {
	s := openBenchSession(b)
	const n = 1_000_000
	mustExecB(b, s, fmt.Sprintf(`CREATE TEMPORARY TABLE gen (id BIGINT, v DOUBLE, s STRING) WITH ('connector' = 'datagen',
 'number-of-rows' = '%d', 'rows-per-second' = '1000000000', 'fields.s.length' = '8')`, n))
	mustExecB(b, s, `CREATE TEMPORARY TABLE sink (id BIGINT, v DOUBLE, s STRING) WITH ('connector' = 'blackhole')`)
	b.ResetTimer()
	for range b.N {
		mustExecB(b, s, "INSERT INTO sink SELECT id, v, s FROM gen WHERE id % 2 = 0")
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCSVScan reports rows/s of a filesystem csv scan.
func BenchmarkCSVScan(b *testing.B) {
	s := openBenchSession(b)
	dir := b.TempDir()
	const n = 200_000
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, "%d,%d.5,name-%d\n", i, i, i%100)
	}
	os.WriteFile(filepath.Join(dir, "part-0"), []byte(sb.String()), 0o644)
	mustExecB(b, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExecB(b, s, fmt.Sprintf(`CREATE TEMPORARY TABLE c (id BIGINT, v DOUBLE, s STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, dir))
	mustExecB(b, s, `CREATE TEMPORARY TABLE sink (id BIGINT, v DOUBLE, s STRING) WITH ('connector' = 'blackhole')`)
	b.ResetTimer()
	for range b.N {
		mustExecB(b, s, "INSERT INTO sink SELECT * FROM c")
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func openBenchSession(b *testing.B) *Session {
	b.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(b.TempDir(), "eddy.db"))
	if err != nil {
		b.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}, sqlite.Type: store}, store)
	b.Cleanup(func() { mgr.Close(); store.Close() })
	mem := catalogs.CatalogDescriptor{Name: "mem", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, mem, nil, catalogs.OriginConfig); err != nil {
		b.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "mem"); err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(SessionConfig{Catalogs: mgr})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func mustExecB(b *testing.B, s *Session, sql string) {
	b.Helper()
	if _, err := s.Execute(context.Background(), sql); err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
}

// Over an unbounded source, window aggregates fire while it runs, each
// window once, as +I (the bounded case is in logictest's connectors file).
func TestWindowAggregateFiresOnWatermark(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TABLE g (v INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '0' SECOND)
WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.v.min' = '1', 'fields.v.max' = '1')`)
	start := time.Now()
	got := collect(t, s, "SELECT window_start, window_end, COUNT(*), SUM(v) FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end LIMIT 2")
	if len(got) != 2 || time.Since(start) > 5*time.Second {
		t.Fatalf("unbounded windows after %v: %v", time.Since(start), got)
	}
	for _, r := range got {
		f := strings.Fields(r)
		if f[0] != "+I" || f[5] != f[6] {
			t.Fatalf("window row %q: want +I and COUNT(*) = SUM(v)", r)
		}
	}
}

// A filesystem table with 'source.monitor-interval' is unbounded: it reads
// the files present, then each new file once, until cancelled (batch mode
// refuses it: logictest's connectors file).
func TestFilesystemMonitorInterval(t *testing.T) {
	s := openQuerySession(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "part-1"), []byte("1\n2\n"), 0o644)
	mustExec(t, s, fmt.Sprintf(`CREATE TABLE m (a INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '20 ms')`, dir))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := s.Execute(ctx, "SELECT a FROM m")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if res.Bounded {
		t.Fatal("a monitored filesystem table is bounded")
	}
	var got []string
	for len(got) < 3 {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil || !ok {
			t.Fatalf("after %v: %v, %v", got, ok, err)
		}
		got = append(got, fmt.Sprint(row.Values[0]))
		if len(got) == 2 {
			// Written aside and renamed, as writers publish files.
			os.WriteFile(filepath.Join(dir, ".part-2"), []byte("3\n"), 0o644)
			os.Rename(filepath.Join(dir, ".part-2"), filepath.Join(dir, "part-2"))
		}
	}
	if strings.Join(got, ",") != "1,2,3" {
		t.Fatalf("rows %v", got)
	}
	cancel()
	if _, _, err := res.Rows.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}
}

// Over an unbounded source, window Top-N rows come as windows complete.
func TestStreamingWindowTopNUnbounded(t *testing.T) {
	s := openQuerySession(t)
	mustExec(t, s, `CREATE TABLE g (v INT, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts - INTERVAL '0' SECOND)
WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.v.min' = '1', 'fields.v.max' = '1000')`)
	start := time.Now()
	got := collect(t, s, "SELECT window_start, v, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rn FROM TABLE(TUMBLE(TABLE g, DESCRIPTOR(ts), INTERVAL '1' SECOND))) WHERE rn <= 2 LIMIT 4")
	if len(got) != 4 || time.Since(start) > 6*time.Second {
		t.Fatalf("after %v: %v", time.Since(start), got)
	}
	for i, r := range got {
		f := strings.Fields(r)
		if f[0] != "+I" || f[len(f)-1] != fmt.Sprint(i%2+1) {
			t.Fatalf("row %d %q: want +I with rank %d", i, r, i%2+1)
		}
	}
}
