package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine"
	"eddy/engine/functions"
	"eddy/engine/types"
)

// goldenDir holds one datadriven file per function family. Directives:
//
//	eval            each input line is an expression; the output has one
//	                line per expression: "TYPE: value" as SELECT <expr>
//	                returns it, or "error: Class: Message".
//	query           the input is one statement; the output is the column
//	                types, then one line per row with the cells separated
//	                by " | ".
//	exec            the input is one statement run for its effect (SET,
//	                CREATE); the output is empty or the error.
//
// Values print as the Flink SQL client prints them (<NULL> for a NULL
// cell, TIMESTAMP_LTZ in the session zone, which the files set to UTC).
const goldenDir = "functions/testdata/golden"

// goldenSyntax maps registry names whose SQL form is not NAME(...) to the
// text a golden file must contain to cover them.
var goldenSyntax = map[string]string{
	"IS_JSON": "IS JSON",
}

// openGoldenSession opens a batch-mode session, zone UTC, on a fresh
// SQLite store.
func openGoldenSession(t *testing.T) *engine.Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{sqlite.Type: store}, store)
	def := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: sqlite.Type}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Close(); store.Close() })
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr})
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{
		"SET 'execution.runtime-mode' = 'batch'",
		"SET 'table.local-time-zone' = 'UTC'",
	} {
		if _, err := s.Execute(ctx, set); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
	}
	return s
}

func TestFunctionGoldens(t *testing.T) {
	datadriven.Walk(t, goldenDir, func(t *testing.T, path string) {
		s := openGoldenSession(t)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "eval":
				var b strings.Builder
				for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
					b.WriteString(goldenEval(s, "SELECT "+line))
					b.WriteByte('\n')
				}
				return b.String()
			case "query":
				return goldenQuery(s, d.Input)
			case "exec":
				res, err := s.Execute(context.Background(), d.Input)
				if err != nil {
					return goldenError(err)
				}
				res.Close()
				return ""
			}
			d.Fatalf(t, "unknown directive %q", d.Cmd)
			return ""
		})
	})
}

// goldenRows runs sql and returns its column types and printed rows.
func goldenRows(s *engine.Session, sql string) (cols []string, rows [][]string, err error) {
	ctx := context.Background()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return nil, nil, err
	}
	defer res.Close()
	for _, c := range res.Columns {
		cols = append(cols, c.Type.String())
	}
	if res.Rows == nil {
		return cols, nil, nil
	}
	for {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return cols, rows, nil
		}
		cells := make([]string, len(row.Values))
		for i, v := range row.Values {
			if v == nil {
				cells[i] = "<NULL>"
				continue
			}
			cells[i] = types.FormatValue(v, res.Columns[i].Type, time.UTC)
		}
		rows = append(rows, cells)
	}
}

func goldenEval(s *engine.Session, sql string) string {
	cols, rows, err := goldenRows(s, sql)
	if err != nil {
		return goldenError(err)
	}
	if len(cols) != 1 || len(rows) != 1 {
		return "unexpected shape: " + strings.Join(cols, ", ")
	}
	return cols[0] + ": " + rows[0][0]
}

func goldenQuery(s *engine.Session, sql string) string {
	cols, rows, err := goldenRows(s, sql)
	if err != nil {
		return goldenError(err) + "\n"
	}
	var b strings.Builder
	b.WriteString(strings.Join(cols, " | "))
	b.WriteByte('\n')
	for _, r := range rows {
		b.WriteString(strings.Join(r, " | "))
		b.WriteByte('\n')
	}
	return b.String()
}

func goldenError(err error) string {
	e := engine.AsError(err)
	msg := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return ' '
		}
		if r < ' ' {
			return '?'
		}
		return r
	}, e.Message)
	return "error: " + e.Class + ": " + msg
}

// TestFunctionGoldensCoverAll fails when a registry function (by its name
// or a synonym) is called in no golden file.
func TestFunctionGoldensCoverAll(t *testing.T) {
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(goldenDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		// Only the statements count, not the expected output.
		for _, block := range strings.Split(string(data), "\n----\n") {
			all.WriteString(strings.ToUpper(block))
			all.WriteByte('\n')
		}
	}
	text := all.String()
	var missing []string
	for _, f := range functions.NewRegistry().Functions() {
		names := append([]string{f.Name}, f.Synonyms...)
		if s, ok := goldenSyntax[f.Name]; ok {
			names = append(names, s)
		}
		found := false
		for _, n := range names {
			if regexp.MustCompile(`(^|[^A-Z0-9_])` + regexp.QuoteMeta(n) + `([^A-Z0-9_]|$)`).MatchString(text) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, f.Name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d registry functions have no golden case: %s", len(missing), strings.Join(missing, " "))
	}
}
