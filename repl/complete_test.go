package repl

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeNames is a small catalog for completion: default_catalog (current,
// databases default_database and sales) and other_cat (db1).
type fakeNames struct{ objects map[string][]string }

func newFakeNames() *fakeNames {
	return &fakeNames{objects: map[string][]string{
		"default_catalog.default_database": {"orders", "order items", "select"},
		"default_catalog.sales":            {"leads"},
		"other_cat.db1":                    {"t1"},
	}}
}

func (f *fakeNames) CatalogNames(context.Context) []string {
	return []string{"default_catalog", "other_cat"}
}

func (f *fakeNames) DatabaseNames(_ context.Context, catalog string) []string {
	switch catalog {
	case "", "default_catalog":
		return []string{"default_database", "sales"}
	case "other_cat":
		return []string{"db1"}
	}
	return nil
}

func (f *fakeNames) ObjectNames(_ context.Context, catalog, database string) []string {
	if catalog == "" {
		catalog = "default_catalog"
	}
	if database == "" {
		database = "default_database"
	}
	return f.objects[catalog+"."+database]
}

func (f *fakeNames) ColumnNames(_ context.Context, name []string) []string {
	switch strings.Join(name, ".") {
	case "orders", "default_database.orders", "default_catalog.default_database.orders":
		return []string{"order_id", "amount", "customer"}
	case "sales.leads":
		return []string{"lead_id", "source"}
	case "order items":
		return []string{"item_no"}
	}
	return nil
}

func (f *fakeNames) FunctionNames(context.Context) []string {
	return []string{"count", "lower", "upper"}
}

func (f *fakeNames) OptionKeys() []string {
	return []string{"execution.runtime-mode", "sql-client.display.output-format", "table.local-time-zone"}
}

func (f *fakeNames) OptionValues(key string) []string {
	if key == "execution.runtime-mode" {
		return []string{"streaming", "batch", "automatic"}
	}
	return nil
}

func TestCompletion(t *testing.T) {
	c := &completer{names: newFakeNames()}
	tests := []struct {
		text    string
		want    []string // exactly these candidates
		partial string
	}{
		// Statement starts, in the case typed.
		{"sel", []string{"select "}, "sel"},
		{"SH", []string{"SHOW "}, "SH"},
		{"SELECT 1; INS", []string{"INSERT INTO ", "INSERT OVERWRITE "}, "INS"},
		// Tables, databases and catalogs after FROM, JOIN, INTO, TABLE.
		{"SELECT * FROM ord", []string{"order items", "orders"}[1:], "ord"},
		{"SELECT * FROM ", []string{"`order items`", "`select`", "default_catalog.", "default_database.", "orders", "other_cat.", "sales."}, ""},
		{"SELECT * FROM `ord", []string{"order items`", "orders`"}, "ord"},
		{"SELECT * FROM sales.", []string{"leads"}, ""},
		{"SELECT * FROM other_cat.", []string{"db1."}, ""},
		{"SELECT * FROM other_cat.db1.", []string{"t1"}, ""},
		{"SELECT * FROM orders o JOIN sales.l", []string{"leads"}, "l"},
		{"INSERT INTO o", []string{"orders", "other_cat."}, "o"},
		{"DROP TABLE IF EXISTS or", []string{"orders"}, "or"},
		{"USE s", []string{"sales"}, "s"},
		{"USE CATALOG o", []string{"other_cat"}, "o"},
		{"SHOW TABLES FROM s", []string{"sales"}, "s"},
		// Columns of the tables in scope, also when FROM comes after the cursor.
		{"SELECT * FROM orders WHERE am", []string{"amount"}, "am"},
		{"SELECT orders.", []string{"amount", "customer", "order_id"}, ""},
		{"SELECT * FROM orders AS x WHERE x.c", []string{"customer"}, "c"},
		{"SELECT l.lead_id FROM sales.leads l WHERE l.", []string{"lead_id", "source"}, ""},
		{"SELECT * FROM orders WHERE ", []string{"amount", "customer", "order_id"}, ""},
		// The columns of an INSERT's target.
		{"INSERT INTO orders (cu", []string{"cumulate ", "current ", "customer"}, "cu"},
		{"INSERT INTO orders (order_id, ", []string{"amount", "customer", "order_id"}, ""},
		// Functions and keywords join the columns once a word is begun.
		{"SELECT cu", []string{"cumulate ", "current ", "customer"}, "cu"},
		{"SELECT UP", []string{"UPPER("}, "UP"},
		{"SELECT co", []string{"columns ", "comment ", "count("}, "co"},
		// SET and RESET keys and values.
		{"SET 'exec", []string{"execution.runtime-mode'"}, "exec"},
		{"RESET 'table.", []string{"table.local-time-zone'"}, "table."},
		{"SET 'execution.runtime-mode' = 'b", []string{"batch'"}, "b"},
		{"SET ", []string{"'execution.runtime-mode'", "'sql-client.display.output-format'", "'table.local-time-zone'"}, ""},
		{"SET 'execution.runtime-mode' = ", []string{"'automatic'", "'batch'", "'streaming'"}, ""},
		{"SET 'table.local-time-zone' = ", nil, ""},
		// Nothing inside an ordinary literal or a comment.
		{"SELECT 'ord", nil, ""},
		{"SELECT /* ord", nil, ""},
	}
	for _, tc := range tests {
		got, partial := c.complete(tc.text, "")
		if !reflect.DeepEqual(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) || partial != tc.partial {
			t.Errorf("complete(%q) = %q, %q; want %q, %q", tc.text, got, partial, tc.want, tc.partial)
		}
	}
}

// TestCompletionContains checks candidates in mixed lists.
func TestCompletionContains(t *testing.T) {
	c := &completer{names: newFakeNames()}
	for _, tc := range []struct {
		text, rest string
		want, not  []string
	}{
		// The FROM after the cursor puts orders in scope.
		{"SELECT ord", " FROM orders", []string{"order_id"}, []string{"lead_id"}},
		// A keyword after a table name.
		{"SELECT * FROM orders WH", "", []string{"WHERE "}, []string{"orders"}},
		{"SELECT * FROM orders o, sales.leads WHERE ", "", []string{"order_id", "lead_id"}, nil},
		// Statements the parser knows, from its keyword lists.
		{"st", "", []string{"stop job "}, nil},
		{"SHOW J", "", []string{"JOBS ", "JARS "}, nil},
		{"so", "", []string{"source "}, nil},
	} {
		got, _ := c.complete(tc.text, tc.rest)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("complete(%q | %q) = %q: lacks %q", tc.text, tc.rest, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("complete(%q | %q) = %q: has %q", tc.text, tc.rest, got, w)
			}
		}
	}
}

// TestCompletionDo checks readline's view: the text to insert after the
// word and the word's length, with earlier lines of the statement counted.
func TestCompletionDo(t *testing.T) {
	pending := "SELECT *\n"
	c := &completer{names: newFakeNames(), pending: func() string { return pending }}
	line := []rune("FROM ord WHERE x")
	got, n := c.Do(line, len("FROM ord"))
	if n != 3 || len(got) != 1 || string(got[0]) != "ers" {
		t.Errorf("Do = %q, %d; want [ers], 3", got, n)
	}
	// Keywords only without a catalog.
	kw := &completer{}
	if got, _ := kw.complete("SELECT * FROM ", ""); len(got) != 0 {
		t.Errorf("no catalog: %q", got)
	}
}

func TestCompletionFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"setup.sql", "seed.sql", "other.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &completer{}
	got, partial := c.complete("SOURCE '"+dir+"/s", "")
	want := []string{dir + "/scripts/", dir + "/seed.sql'", dir + "/setup.sql'"}
	slices.Sort(got)
	if !reflect.DeepEqual(got, want) || partial != dir+"/s" {
		t.Errorf("SOURCE completion = %q, %q; want %q", got, partial, want)
	}
}

// slowNames answers catalogs and databases only after a long wait, as a
// remote catalog that stopped answering would.
type slowNames struct {
	*fakeNames
	release chan struct{}
}

func (s *slowNames) CatalogNames(ctx context.Context) []string {
	<-s.release
	return s.fakeNames.CatalogNames(ctx)
}

func (s *slowNames) DatabaseNames(ctx context.Context, catalog string) []string {
	<-s.release
	return s.fakeNames.DatabaseNames(ctx, catalog)
}

// A Tab press waits for the catalogs no longer than its budget and offers
// the names that arrived in time.
func TestCompletionDeadline(t *testing.T) {
	names := &slowNames{fakeNames: newFakeNames(), release: make(chan struct{})}
	defer close(names.release)
	c := &completer{names: names, budget: 50 * time.Millisecond}
	start := time.Now()
	got, _ := c.complete("SELECT * FROM ", "")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Tab waited %s for a catalog that does not answer", took)
	}
	if want := []string{"`order items`", "`select`", "orders"}; !reflect.DeepEqual(got, want) {
		t.Errorf("complete = %q, want the tables that arrived in time, %q", got, want)
	}
	if got, _ := c.complete("USE CATALOG ", ""); len(got) != 0 {
		t.Errorf("complete(USE CATALOG) = %q while the catalogs do not answer", got)
	}
	if got, _ := c.complete("sh", ""); !slices.Contains(got, "show ") {
		t.Errorf("keywords are not offered while the catalogs do not answer: %q", got)
	}
}

// panicNames fails while listing tables.
type panicNames struct{ *fakeNames }

func (panicNames) ObjectNames(context.Context, string, string) []string { panic("lookup bug") }

// A lookup that panics gives no names and leaves the shell running.
func TestCompletionLookupPanics(t *testing.T) {
	c := &completer{names: panicNames{newFakeNames()}}
	got, _ := c.complete("SELECT * FROM ", "")
	if want := []string{"default_catalog.", "default_database.", "other_cat.", "sales."}; !reflect.DeepEqual(got, want) {
		t.Errorf("complete = %q, want the names of the lookups that worked, %q", got, want)
	}
}
