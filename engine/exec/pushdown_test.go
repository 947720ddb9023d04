package exec

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/catalogs/sqlite"
	"eddy/engine/connectors"
	"eddy/engine/opt"
	"eddy/engine/plan"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// storeTables serves scans of managed tables of a real sqlite catalog.
type storeTables struct {
	c      *connectors.Connectors
	tables map[plan.TableID]*connectors.Table
	opened []connectors.Reader
}

func (m *storeTables) OpenScan(ctx context.Context, s *plan.Scan) (connectors.Reader, error) {
	r, err := m.c.OpenReader(ctx, m.tables[s.Table])
	m.opened = append(m.opened, r)
	return r, err
}

func (m *storeTables) OpenSink(ctx context.Context, s *plan.Sink) (connectors.Writer, error) {
	return m.c.OpenWriter(ctx, m.tables[s.Table], connectors.WriteSpec{Overwrite: s.Overwrite})
}

// storeTable creates a managed table in a sqlite store, writes rows and
// returns its scan.
func storeTable(t *testing.T, m *storeTables, cat catalogs.Catalog, name string, cols []connectors.Column, rows [][]any) *plan.Scan {
	t.Helper()
	ccols := make([]catalogs.Column, len(cols))
	phys := make(plan.Schema, len(cols))
	for i, c := range cols {
		ccols[i] = catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type}
		phys[i] = plan.Column{Name: c.Name, Type: c.Type}
	}
	p := catalogs.NewObjectPath("default", name)
	if err := cat.CreateTable(context.Background(), p, &catalogs.CatalogTable{Schema: catalogs.Schema{Columns: ccols},
		Options: map[string]string{}}, false); err != nil {
		t.Fatal(err)
	}
	tbl := &connectors.Table{Catalog: cat, Name: catalogs.NewIdentifier("cat", "default", name), Options: map[string]string{}, Columns: cols}
	id := plan.TableID{Catalog: "cat", Database: "default", Object: name}
	m.tables[id] = tbl
	w, err := m.c.OpenWriter(context.Background(), tbl, connectors.WriteSpec{})
	if err != nil {
		t.Fatal(err)
	}
	b := vector.NewBatch(tbl.Types(), len(rows))
	for _, r := range rows {
		b.AppendRow(types.Insert, r)
	}
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &plan.Scan{Table: id, Physical: phys, Bounded: true, Rowtime: -1}
}

// runBoth runs a plan as the engine does (scans pruned, filters and
// columns pushed into the store) and with every scan reading whole rows
// and filtering above the store, and returns both results, sorted.
func runBoth(t *testing.T, m *storeTables, n plan.Node) (pushed, plain []string) {
	t.Helper()
	for i, run := range []plan.Node{opt.PushDown(n, nil), n} {
		b := NewBuilder(Options{Tables: m})
		op, err := b.Build(run)
		if err != nil {
			t.Fatal(err)
		}
		ts := n.Schema().Types()
		var out []string
		for {
			bt, err := op.Next(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", plan.Format(n), err)
			}
			if bt == nil {
				break
			}
			if len(bt.Cols) != len(ts) {
				t.Fatalf("%s: batch of %d columns, schema of %d", plan.Format(n), len(bt.Cols), len(ts))
			}
			for r := range bt.N {
				parts := make([]string, len(bt.Cols))
				for c, v := range bt.Cols {
					parts[c] = types.ValueString(v.Get(r), ts[c])
				}
				out = append(out, strings.Join(parts, "|"))
			}
		}
		op.Close()
		sort.Strings(out)
		if i == 0 {
			pushed = out
		} else {
			plain = out
		}
	}
	return pushed, plain
}

// TestPushDownMatchesPlainScans: queries over managed tables of a SQLite
// store give the same rows whether their scans read only the needed
// columns and leave simple filters to the store or not, NULLs and
// three-valued logic included.
func TestPushDownMatchesPlainScans(t *testing.T) {
	s, err := sqlite.OpenStore(filepath.Join(t.TempDir(), "eddy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cat, err := s.Create("cat", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := &storeTables{c: connectors.New(), tables: map[plan.TableID]*connectors.Table{}}
	decT := types.NewDecimal(6, 2)
	dblT := types.New(types.Double)
	bigN := types.New(types.BigInt)
	var rows [][]any
	for i := range 3000 {
		var v, s, d any = float64(i%1000) / 2, fmt.Sprintf("s%d", i%37), types.DecimalValue(int64(i%500), -2)
		if i%11 == 0 {
			v = nil
		}
		if i%13 == 0 {
			s = nil
		}
		if i%17 == 0 {
			d = nil
		}
		rows = append(rows, []any{int64(i), int64(i % 50), v, s, d})
	}
	fact := storeTable(t, m, cat, "f", []connectors.Column{{Name: "id", Type: bigN}, {Name: "k", Type: bigN},
		{Name: "v", Type: dblT}, {Name: "s", Type: strT}, {Name: "d", Type: decT}}, rows)
	var dims [][]any
	for i := range 60 {
		dims = append(dims, []any{int64(i), fmt.Sprintf("dim %d", i)})
	}
	dim := storeTable(t, m, cat, "g", []connectors.Column{{Name: "did", Type: bigN}, {Name: "name", Type: strT}}, dims)
	fs, ds := fact.Schema(), dim.Schema()
	nb := boolT.WithNullable(true)
	cmp := func(op string, a, b plan.Expr) plan.Expr { return call(op, nb, a, b) }
	filter := func(conds ...plan.Expr) *plan.Filter { return &plan.Filter{Input: fact, Cond: plan.And(conds...)} }
	project := func(in plan.Node, idx ...int) *plan.Project {
		p := &plan.Project{Input: in}
		for _, i := range idx {
			p.Exprs = append(p.Exprs, col(in.Schema(), i))
			p.Names = append(p.Names, in.Schema()[i].Name)
		}
		return p
	}
	plans := map[string]plan.Node{
		"int and double": project(filter(cmp(plan.OpGt, col(fs, 2), lit(int32(200), intT)), cmp(plan.OpLt, col(fs, 1), lit(int32(25), intT))), 0),
		"flipped, decimal constant": project(filter(cmp(plan.OpLe, lit(types.DecimalValue(1255, -1), decT), col(fs, 2)),
			cmp(plan.OpNe, col(fs, 3), lit("s3", types.NewChar(2)))), 0, 3),
		"null tests": project(filter(call(plan.OpIsNull, boolT, col(fs, 2)), call(plan.OpIsNotNull, boolT, col(fs, 3))), 0, 2),
		"decimal stays above": project(filter(cmp(plan.OpGe, col(fs, 4), lit(types.DecimalValue(250, -2), decT)),
			cmp(plan.OpEq, col(fs, 1), lit(int64(7), bigN))), 4, 0),
		"or stays above": project(filter(call(plan.OpOr, nb, cmp(plan.OpEq, col(fs, 3), lit("s1", strT)), cmp(plan.OpGt, col(fs, 2), lit(490.0, dblT)))), 0),
		"null constant":  project(filter(cmp(plan.OpEq, col(fs, 1), lit(nil, intT))), 0),
		"count":          &plan.Aggregate{Input: filter(cmp(plan.OpGe, col(fs, 0), lit(int32(100), intT))), Aggs: []plan.AggCall{aggCall("COUNT", bigT, false)}},
		"group": &plan.Aggregate{Input: fact, Group: []plan.Expr{col(fs, 1)}, GroupNames: []string{"k"},
			Aggs: []plan.AggCall{aggCall("COUNT", bigT, false), aggCall("SUM", dblT, false, col(fs, 2))}},
		"join": project(plan.NewJoin(plan.InnerJoin, filter(cmp(plan.OpLt, col(fs, 0), lit(int32(500), intT))), dim,
			cmp(plan.OpEq, col(append(fs, ds...), 1), col(append(fs, ds...), len(fs)))), 0, 6),
		"sort limit": &plan.Limit{Input: &plan.Sort{Input: project(fact, 0, 2), Keys: []plan.SortKey{
			{Expr: col(project(fact, 0, 2).Schema(), 1), Desc: true}, {Expr: col(project(fact, 0, 2).Schema(), 0)}}}, Fetch: 7},
		"over": project(&plan.Over{Input: fact, Calls: []plan.WindowCall{{Name: "ROW_NUMBER", Partition: []plan.Expr{col(fs, 1)},
			Order: []plan.SortKey{{Expr: col(fs, 0)}}, Alias: "rn", T: bigT}}}, 0, 5),
		"whole rows": fact,
	}
	for name, n := range plans {
		pushed, plain := runBoth(t, m, n)
		if len(plain) == 0 && name != "null constant" {
			t.Errorf("%s: no rows; the test checks nothing", name)
		}
		if strings.Join(pushed, "\n") != strings.Join(plain, "\n") {
			t.Errorf("%s: pushed scans gave %d rows, plain ones %d\n%s", name, len(pushed), len(plain), plan.Format(opt.PushDown(n, nil)))
		}
	}
	// The pushed plan of the first query reads two columns and leaves
	// both filters to the store.
	p := opt.PushDown(plans["int and double"], nil).(*plan.Project).Input.(*plan.Scan)
	if fmt.Sprint(p.Projection) != "[0]" || len(p.Filters) != 2 {
		t.Fatalf("pushed scan: projection %v, %d filters", p.Projection, len(p.Filters))
	}
}

// A DECIMAL constant compared with a DOUBLE column goes to the store as
// the double the engine's comparison converts it to.
func TestRowFilterDecimalConstant(t *testing.T) {
	fs := plan.Schema{{Name: "v", Type: types.New(types.Double)}}
	e := &plan.Call{Name: plan.OpLe, T: types.New(types.Boolean), Args: []plan.Expr{
		lit(types.DecimalValue(1255, -1), types.NewDecimal(4, 1)), col(fs, 0)}}
	f, ok := rowFilter(e)
	if !ok {
		t.Fatal("the filter did not reach the store")
	}
	if f.Value != 125.5 || f.Op != connectors.FilterGe {
		t.Fatalf("store filter %+v, want v >= 125.5", f)
	}
}
