package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/parser"
	"eddy/engine/types"
)

// sharedDir finds the shared spec folder: ../shared next to the directory
// that holds go.mod.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("go.mod not found")
		}
		dir = parent
	}
}

func readTableQ(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sharedDir(t), "conformance", "flink", "sql-client", "table.q"))
	if err != nil {
		t.Skipf("table.q not available: %v", err)
	}
	return string(b)
}

// statementAt returns the statement of a .q file that starts with the line
// prefix (up to the line ending in ';') and the block after it.
func statementAt(t *testing.T, q, prefix string) (stmt string, answer []string) {
	t.Helper()
	lines := strings.Split(q, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		j := i
		for !strings.HasSuffix(strings.TrimSpace(lines[j]), ";") {
			j++
		}
		stmt = strings.Join(lines[i:j+1], "\n")
		for k := j + 1; k < len(lines) && !strings.HasPrefix(lines[k], "!"); k++ {
			answer = append(answer, lines[k])
		}
		return stmt, answer
	}
	t.Fatalf("no statement starting with %q in table.q", prefix)
	return "", nil
}

// tableScope validates a CREATE TABLE's columns in order, as the catalog
// statements will: physical columns as declared, computed columns typed by
// their expression over the physical ones.
func tableScope(t *testing.T, v *Validator, ct *ast.CreateTable) (*Scope, map[string]*Typed, error) {
	t.Helper()
	phys := NewScope()
	for _, c := range ct.Columns {
		if c.Kind != ast.ComputedColumn {
			phys.Add(Column{Name: c.Name.Name, Type: c.Type})
		}
	}
	all := NewScope()
	computed := map[string]*Typed{}
	for _, c := range ct.Columns {
		if c.Kind != ast.ComputedColumn {
			all.Add(Column{Name: c.Name.Name, Type: c.Type})
			continue
		}
		typed, err := v.ComputedColumn(phys, c.Expr)
		if err != nil {
			return nil, nil, err
		}
		computed[c.Name.Name] = typed
		all.Add(Column{Name: c.Name.Name, Type: typed.Type})
	}
	return all, computed, nil
}

// TestTableQInvalidFunction runs table.q's first record: a computed column
// calling an unknown function fails with Calcite's message, the function
// named as written.
func TestTableQInvalidFunction(t *testing.T) {
	q := readTableQ(t)
	sql, answer := statementAt(t, q, "create table tbl(")
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	v := New(functions.NewRegistry())
	v.Source = sql
	_, _, err = tableScope(t, v, stmt.(*ast.CreateTable))
	if err == nil {
		t.Fatal("expected an error")
	}
	ve := err.(*Error)
	got := ve.Class() + ": " + ve.Error()
	want := answer[len(answer)-1]
	if !strings.HasSuffix(want, got) || !strings.Contains(want, ".SqlValidatorException: ") {
		t.Errorf("got %q, table.q says %q", got, want)
	}
}

// TestTableQOrders validates table.q's orders table and compares the types,
// computed column text and watermark text with its SHOW COLUMNS answer.
func TestTableQOrders(t *testing.T) {
	q := readTableQ(t)
	sql, _ := statementAt(t, q, "CREATE TABLE IF NOT EXISTS orders (")
	stmt, err := parser.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	ct := stmt.(*ast.CreateTable)
	v := New(functions.NewRegistry())
	v.Source = sql
	scope, computed, err := tableScope(t, v, ct)
	if err != nil {
		t.Fatal(err)
	}
	if len(ct.Watermarks) != 1 {
		t.Fatalf("%d watermarks", len(ct.Watermarks))
	}
	w := ct.Watermarks[0]
	wm, rowtime, err := v.Watermark(scope, w.Column.Parts[0].Name, w.Pos, w.Expr)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ typ, null, extras, watermark string }
	got := map[string]row{}
	for _, c := range scope.Columns() {
		ty := c.Type
		r := row{}
		if c.Name == w.Column.Parts[0].Name {
			ty = rowtime
			r.watermark = ast.String(wm.Expr)
		}
		if tc := computed[c.Name]; tc != nil {
			r.extras = "AS " + ast.String(tc.Expr)
		}
		r.null = strings.ToUpper(map[bool]string{true: "true", false: "false"}[ty.Nullable()])
		r.typ = ty.WithNullable(true).String()
		got[c.Name] = r
	}
	_, answer := statementAt(t, q, "show columns from orders;")
	checked := 0
	for _, l := range answer {
		cells := strings.Split(l, "|")
		if len(cells) != 8 || strings.TrimSpace(cells[1]) == "name" {
			continue
		}
		name := strings.TrimSpace(cells[1])
		want := row{strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3]), strings.TrimSpace(cells[5]), strings.TrimSpace(cells[6])}
		if got[name] != want {
			t.Errorf("column %s: got %+v, table.q shows %+v", name, got[name], want)
		}
		checked++
	}
	if checked != len(ct.Columns) {
		t.Errorf("checked %d rows of SHOW COLUMNS, table has %d columns", checked, len(ct.Columns))
	}
	if rowtime.TimeAttr != types.Rowtime {
		t.Errorf("rowtime type %s", rowtime)
	}
}
