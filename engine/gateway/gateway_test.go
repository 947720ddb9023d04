package gateway_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/gateway"
	"eddy/repl/render"
)

var startGateway = flag.Bool("gateway", false,
	"start a real Flink SQL Gateway with testdata/flink/gateway.sh when EDDY_GATEWAY is unset")

// endpoint is the URL of the real gateway the integration tests use, or ""
// when they are skipped (skipReason says why).
var endpoint, skipReason string

func TestMain(m *testing.M) {
	flag.Parse()
	stop, err := findGateway()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gateway tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	if stop != nil {
		stop()
	}
	os.Exit(code)
}

// findGateway uses $EDDY_GATEWAY, or starts the test gateway when asked to
// (-gateway). It returns how to stop a gateway it started. Without either
// the remote tests skip: a JVM and minutes of tests are not started behind
// a plain `go test ./...`; .ci/run starts the gateway and sets EDDY_GATEWAY.
func findGateway() (func(), error) {
	if url := os.Getenv("EDDY_GATEWAY"); url != "" {
		endpoint = url
		return nil, nil
	}
	script, err := filepath.Abs(filepath.Join("testdata", "flink", "gateway.sh"))
	if err != nil {
		return nil, err
	}
	if !*startGateway {
		skipReason = "no Flink SQL Gateway: set EDDY_GATEWAY=URL, or run with -gateway to start one " +
			"with testdata/flink/gateway.sh (the first build downloads Flink into ~/.m2)"
		return nil, nil
	}
	if out, err := exec.Command(script, "url").Output(); err == nil {
		endpoint = strings.TrimSpace(string(out)) // already running: leave it running
		return nil, nil
	}
	cmd := exec.Command(script, "start")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("starting the Flink gateway: %w", err)
	}
	endpoint = strings.TrimSpace(string(out))
	return func() {
		stop := exec.Command(script, "stop")
		stop.Stderr = os.Stderr
		_ = stop.Run()
	}, nil
}

func needGateway(t *testing.T) {
	t.Helper()
	if endpoint == "" {
		t.Skip(skipReason)
	}
}

func openRemote(t *testing.T, props map[string]string) *gateway.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := gateway.Open(ctx, gateway.Config{
		ClientConfig: gateway.ClientConfig{Endpoint: endpoint},
		Properties:   props,
	})
	if err != nil {
		t.Fatalf("opening a gateway session: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
	})
	return s
}

// openLocal returns eddy's local engine with Flink's default catalog.
func openLocal(t *testing.T) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, memory.NewStore())
	if err := mgr.RegisterCatalog(ctx, catalogs.CatalogDescriptor{Name: "default_catalog"},
		memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"execution.runtime-mode": "batch"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type executor interface {
	Execute(ctx context.Context, sql string) (*engine.Result, error)
}

// answer runs a statement and renders its answer as the piped shell does
// (tableau mode, batch).
func answer(ctx context.Context, s executor, stmt string) string {
	var b bytes.Buffer
	opt := render.Options{ResultMode: render.ModeTableau}
	res, err := s.Execute(ctx, stmt)
	if err != nil {
		render.Error(&b, err, opt)
		return b.String()
	}
	if _, err := render.Result(ctx, &b, res, opt); err != nil {
		render.Error(&b, err, opt)
	}
	return b.String()
}

// TestSameAnswersAsLocal runs the statements of remote mode's acceptance
// check on the real gateway and on the local engine and compares what the
// shell prints.
func TestSameAnswersAsLocal(t *testing.T) {
	needGateway(t)
	ctx := context.Background()
	remote := openRemote(t, map[string]string{"execution.runtime-mode": "batch"})
	local := openLocal(t)
	golden := map[string]string{
		// Flink's own answer, for statements the local engine cannot run
		// yet (its query engine is not written).
		"SELECT * FROM (VALUES (1, 'a')) AS t(x, y)": "+---+---+\n| x | y |\n+---+---+\n| 1 | a |\n+---+---+\n1 row in set\n",
	}
	for _, stmt := range []string{
		"SHOW CATALOGS",
		"CREATE VIEW v AS SELECT 1 AS a",
		"SHOW VIEWS",
		"SELECT * FROM (VALUES (1, 'a')) AS t(x, y)",
	} {
		got := answer(ctx, remote, stmt)
		want := answer(ctx, local, stmt)
		if strings.HasPrefix(want, "[ERROR]") && golden[stmt] != "" {
			t.Logf("%s: the local engine answers %q; comparing with Flink's layout", stmt, firstLine(want))
			want = golden[stmt]
		}
		if got != want {
			t.Errorf("%s:\nremote:\n%s\nlocal:\n%s", stmt, got, want)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func TestRemoteSession(t *testing.T) {
	needGateway(t)
	ctx := context.Background()
	s := openRemote(t, map[string]string{"execution.runtime-mode": "batch", "table.dml-sync": "true"})
	if v := s.Client().Version(); v < gateway.MinVersion {
		t.Errorf("negotiated v%d", v)
	}
	if cat, db := s.Prompt(); cat != "default_catalog" || db != "default_database" {
		t.Errorf("prompt %s.%s", cat, db)
	}
	if got := s.Option("execution.runtime-mode"); got != "batch" {
		t.Errorf("execution.runtime-mode = %q, want the session property batch", got)
	}

	// Errors carry the root cause.
	_, err := s.Execute(ctx, "SELECT * FROM nosuch")
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Class != "SqlValidatorException" || ee.Message != "Object 'nosuch' not found" {
		t.Errorf("SELECT from a missing table: %v", err)
	}

	// USE changes the prompt; SET changes the options.
	for _, stmt := range []string{"CREATE DATABASE db2", "USE db2"} {
		if _, err := s.Execute(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, db := s.Prompt(); db != "db2" {
		t.Errorf("after USE db2 the prompt says %q", db)
	}
	if _, err := s.Execute(ctx, "SET 'sql-client.display.max-column-width' = '40';"); err != nil {
		t.Fatal(err)
	}
	if got := s.Option("sql-client.display.max-column-width"); got != "40" {
		t.Errorf("after SET the option is %q", got)
	}

	// A job under table.dml-sync completes before the answer.
	if _, err := s.Execute(ctx, "CREATE TABLE sink (a INT) WITH ('connector' = 'blackhole')"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, "INSERT INTO sink VALUES (1), (2)")
	if err != nil {
		t.Fatal(err)
	}
	if res.Kind != engine.ResultInfo || res.Message != "Complete execution of the SQL update statement." {
		t.Errorf("INSERT answered %+v", res)
	}

	cands, err := s.Complete(ctx, "SELECT * FR", len("SELECT * FR"))
	if err != nil || !contains(cands, "FROM") {
		t.Errorf("completion of SELECT * FR: %v %v", cands, err)
	}
}

func contains(xs []string, x string) bool {
	for _, e := range xs {
		if e == x {
			return true
		}
	}
	return false
}

// TestCancelStreamingQuery cancels the context of an unbounded query, as
// Ctrl-C does, and checks through the gateway's status calls that the
// operation is gone and its job CANCELED.
func TestCancelStreamingQuery(t *testing.T) {
	needGateway(t)
	s := openRemote(t, map[string]string{"execution.runtime-mode": "streaming"})
	bg := context.Background()
	if _, err := s.Execute(bg, "CREATE TEMPORARY TABLE gen (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5')"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, "SELECT x FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if !res.Changelog || !res.IsQuery || res.Bounded {
		t.Errorf("a streaming query: Changelog %v IsQuery %v Bounded %v", res.Changelog, res.IsQuery, res.Bounded)
	}
	op, job := gateway.OperationHandle(res), gateway.JobID(res)
	if op == "" || job == "" {
		t.Fatalf("operation %q, job %q behind the result", op, job)
	}
	if _, ok, err := res.Rows.Next(ctx); !ok || err != nil {
		t.Fatalf("first row: %v %v", ok, err)
	}
	if st := jobStatus(t, s, job); st != "RUNNING" {
		t.Errorf("job status while reading: %q", st)
	}
	cancel()
	if _, _, err := res.Rows.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel: %v", err)
	}
	if st, err := s.OperationStatus(bg, op); err == nil {
		t.Errorf("the operation is still open after cancel: %s", st)
	}
	deadline := time.Now().Add(30 * time.Second)
	st := jobStatus(t, s, job)
	for st != "CANCELED" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		st = jobStatus(t, s, job)
	}
	if st != "CANCELED" {
		t.Errorf("job status after cancel: %q, want CANCELED", st)
	}
}

// jobStatus returns a job's status from SHOW JOBS.
func jobStatus(t *testing.T, s *gateway.Session, job string) string {
	t.Helper()
	ctx := context.Background()
	res, err := s.Execute(ctx, "SHOW JOBS")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return ""
		}
		if row.Values[0] == job {
			st, _ := row.Values[2].(string)
			return st
		}
	}
}

// TestRemoteNames checks the names Tab completion reads in remote mode.
func TestRemoteNames(t *testing.T) {
	needGateway(t)
	ctx := context.Background()
	s := openRemote(t, map[string]string{"execution.runtime-mode": "batch"})
	if _, err := s.Execute(ctx, "CREATE TABLE `my t` (a INT, b STRING) WITH ('connector' = 'blackhole')"); err != nil {
		t.Fatal(err)
	}
	if got := s.CatalogNames(ctx); !contains(got, "default_catalog") {
		t.Errorf("catalogs %v", got)
	}
	if got := s.DatabaseNames(ctx, "default_catalog"); !contains(got, "default_database") {
		t.Errorf("databases %v", got)
	}
	if got := s.ObjectNames(ctx, "", ""); !contains(got, "my t") {
		t.Errorf("tables %v", got)
	}
	if got := s.ObjectNames(ctx, "default_catalog", "default_database"); !contains(got, "my t") {
		t.Errorf("tables of default_catalog.default_database %v", got)
	}
	if got := s.ColumnNames(ctx, []string{"default_database", "my t"}); strings.Join(got, ",") != "a,b" {
		t.Errorf("columns %v", got)
	}
	if got := s.ColumnNames(ctx, []string{"nosuch"}); got != nil {
		t.Errorf("columns of a missing table %v", got)
	}
	if got := s.FunctionNames(ctx); !contains(got, "upper") && !contains(got, "UPPER") {
		t.Errorf("functions %d, no upper", len(got))
	}
	if got := s.OptionKeys(); !contains(got, "execution.runtime-mode") {
		t.Errorf("option keys %v", got)
	}
}
