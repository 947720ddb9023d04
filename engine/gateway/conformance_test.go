package gateway_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"eddy/engine"
	"eddy/engine/gateway"
	"eddy/repl"
	"eddy/repl/qtest"
	"eddy/repl/render"
)

// remoteTarget runs one .q file in remote mode: a fresh gateway session,
// the shell answering client-dialect statements, the gateway session
// gateway-dialect ones.
type remoteTarget struct {
	sess  *gateway.Session
	shell *repl.Shell
}

func newRemoteTarget(ctx context.Context, _ string, d qtest.Dialect) (qtest.Target, error) {
	s, err := gateway.Open(ctx, gateway.Config{ClientConfig: gateway.ClientConfig{Endpoint: endpoint}})
	if err != nil {
		return nil, err
	}
	if d == qtest.Client {
		// The options Flink's client harness sets in its session.
		for _, stmt := range []string{
			"SET 'table.exec.legacy-cast-behaviour' = 'DISABLED'",
			"SET 'sql-client.display.print-time-cost' = 'false'",
		} {
			if _, err := s.Execute(ctx, stmt); err != nil {
				s.Close()
				return nil, fmt.Errorf("%s: %w", stmt, err)
			}
		}
	}
	sh := repl.New(remoteShell(s), repl.Config{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	return &remoteTarget{sess: s, shell: sh}, nil
}

func (tg *remoteTarget) ExecClient(ctx context.Context, stmt string, w io.Writer) qtest.Tag {
	switch tg.shell.ExecStatement(ctx, stmt, w) {
	case render.TagOK:
		return qtest.TagOK
	case render.TagInfo:
		return qtest.TagInfo
	case render.TagWarning:
		return qtest.TagWarning
	case render.TagError:
		return qtest.TagError
	}
	return qtest.TagUnknown
}

func (tg *remoteTarget) Execute(ctx context.Context, stmt string) (*engine.Result, error) {
	return tg.sess.Execute(ctx, stmt)
}

func (tg *remoteTarget) Streaming() bool {
	return !strings.EqualFold(tg.sess.Option("execution.runtime-mode"), "batch")
}

func (tg *remoteTarget) Close() error { return tg.sess.Close() }

// flinkScripts returns Flink's .q scripts: shared/conformance/flink next to
// the repository (the directory holding go.mod), keyed by their path there.
func flinkScripts(t *testing.T) map[string]string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
	root := filepath.Join(dir, "..", "shared", "conformance", "flink")
	files := map[string]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".q") {
			rel, _ := filepath.Rel(root, path)
			files[filepath.ToSlash(rel)] = path
		}
		return nil
	})
	if err != nil {
		t.Skipf("Flink's .q scripts are not at %s: %v", root, err)
	}
	return files
}

// TestConformanceRemote runs Flink's sql-client and sql-gateway .q scripts
// through eddy's client and renderer against the real gateway and prints
// the pass counts. It checks the client and the rendering of Flink's own
// answers; while remote mode matures a differing record does not fail the
// test (EDDY_REMOTE_STRICT=1 makes it fail). Most differences are Flink's
// test-only connectors, catalogs, modules and jars, which a plain gateway
// does not have.
func TestConformanceRemote(t *testing.T) {
	needGateway(t)
	files := flinkScripts(t)
	keys := make([]string, 0, len(files))
	for k := range files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	runner := &qtest.Runner{NewTarget: newRemoteTarget}
	var runs []qtest.FileRun
	failures := 0
	for _, k := range keys {
		run := qtest.FileRun{File: "flink/" + k}
		run.Result, run.Err = runner.Run(context.Background(), files[k], nil)
		if run.Err != nil {
			t.Errorf("%s: %v", k, run.Err)
		} else if o := run.Result.FirstFailure(); o != nil {
			_, failed, _ := run.Result.Counts()
			failures += failed
			t.Logf("%d of %d records differ; the first:\n%s", failed, len(run.Result.Outcomes), qtest.Describe(run.File, o))
		}
		runs = append(runs, run)
	}
	var b strings.Builder
	if err := qtest.WriteSummary(&b, runs); err != nil {
		t.Fatal(err)
	}
	// Printed whether or not the test runs verbosely, marked as remote;
	// EDDY_REMOTE_REPORT=FILE also writes it to FILE.
	summary := strings.ReplaceAll(b.String(), "conformance", "remote conformance")
	fmt.Print(summary)
	if path := os.Getenv("EDDY_REMOTE_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(summary), 0o644); err != nil {
			t.Error(err)
		}
	}
	if failures > 0 && os.Getenv("EDDY_REMOTE_STRICT") == "1" {
		t.Errorf("%d records differ in remote mode", failures)
	}
}
