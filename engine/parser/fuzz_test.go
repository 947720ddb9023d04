package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"eddy/engine/ast"
)

// FuzzParse checks that Parse never panics or hangs, and that whatever it
// accepts formats to text that parses back to an equal tree. The corpus is
// seeded from every statement of Flink's .q scripts (when ../shared is
// present) and every input of the datadriven files.
func FuzzParse(f *testing.F) {
	for _, s := range seedStatements(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		start := time.Now()
		stmt, err := Parse(sql)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Parse took %v", d)
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		text := ast.String(stmt)
		again, err := Parse(text)
		if err != nil {
			t.Fatalf("formatted text does not parse: %v\ninput: %q\nformatted: %q", err, sql, text)
		}
		if !ast.Equal(stmt, again) {
			t.Fatalf("round trip changed the tree\ninput: %q\nformatted: %q\nagain: %q", sql, text, ast.String(again))
		}
	})
}

// seedStatements returns the statements of the Flink .q scripts and the
// inputs of the datadriven test files.
func seedStatements(tb testing.TB) []string {
	var seeds []string
	if dir := sharedRoot(); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "conformance", "flink", "*", "*.q"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			seeds = append(seeds, qStatements(string(data))...)
		}
	}
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, "fuzz") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		seeds = append(seeds, datadrivenInputs(string(data))...)
		return nil
	})
	return seeds
}

// sharedRoot finds the directory ../shared next to the module root, or "".
func sharedRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			s := filepath.Join(dir, "..", "shared")
			if st, err := os.Stat(s); err == nil && st.IsDir() {
				return s
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// qStatements extracts the SQL of each record of a .q script: the lines
// after the '#' and blank prefix lines, up to a line ending in ';' (or
// the !output marker), skipping the expected output up to the tag line.
func qStatements(text string) []string {
	var out []string
	var sql []string
	inSQL, inExpected := false, false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case inExpected:
			if strings.HasPrefix(l, "!") && strings.TrimSpace(l) != "!output" {
				inExpected = false
			}
		case !inSQL && (strings.HasPrefix(l, "#") || strings.TrimSpace(l) == ""):
		case strings.TrimSpace(l) == "!output":
			out = append(out, strings.Join(sql, "\n"))
			sql, inSQL, inExpected = nil, false, true
		default:
			inSQL = true
			sql = append(sql, l)
			if strings.HasSuffix(strings.TrimSpace(l), ";") && IsComplete(strings.Join(sql, "\n")+"\n") &&
				!strings.Contains(text, "\n!output\n") {
				out = append(out, strings.Join(sql, "\n"))
				sql, inSQL, inExpected = nil, false, true
			}
		}
	}
	return out
}

// datadrivenInputs returns the input blocks of a datadriven file.
func datadrivenInputs(text string) []string {
	var out []string
	var cur []string
	inInput := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "----":
			if inInput {
				out = append(out, strings.Join(cur, "\n"))
			}
			cur, inInput = nil, false
		case inInput:
			cur = append(cur, l)
		case l != "" && (strings.HasPrefix(l, "parse") || strings.HasPrefix(l, "error") ||
			strings.HasPrefix(l, "expr") || strings.HasPrefix(l, "lex")):
			inInput = true
		}
	}
	return out
}

func TestSeedStatements(t *testing.T) {
	seeds := seedStatements(t)
	if len(seeds) < 50 {
		t.Fatalf("only %d seeds", len(seeds))
	}
}
