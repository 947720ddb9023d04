package connectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"eddy/catalogs"
	"eddy/engine/types"
	"eddy/engine/vector"
)

func datagenTable(options map[string]string, cols ...Column) *Table {
	o := map[string]string{"connector": "datagen"}
	for k, v := range options {
		o[k] = v
	}
	return &Table{Name: catalogs.NewIdentifier("c", "d", "t"), Options: o, Columns: cols}
}

// Every column type gets values of its Go representation.
func TestDatagenEveryType(t *testing.T) {
	all := []*types.Type{
		types.New(types.Boolean), types.NewChar(3), types.NewVarChar(10), types.NewString(), types.NewBinary(4),
		types.NewVarBinary(8), types.NewDecimal(10, 2), types.New(types.TinyInt), types.New(types.SmallInt),
		types.New(types.Int), types.New(types.BigInt), types.New(types.Float), types.New(types.Double),
		types.New(types.Date), types.NewTime(0), types.NewTimestamp(3), types.NewTimestampLTZ(6),
		{Kind: types.IntervalYearMonth}, {Kind: types.IntervalDayTime},
		types.NewArray(types.New(types.Int)), types.NewMultiset(types.NewString()),
		types.NewMap(types.NewString(), types.New(types.Double)),
		types.NewRow(types.Field{Name: "a", Type: types.New(types.Int)}, types.Field{Name: "b", Type: types.NewString()}),
	}
	var cols []Column
	for i, ty := range all {
		cols = append(cols, Column{Name: "c" + string(rune('a'+i)), Type: ty})
	}
	tbl := datagenTable(map[string]string{"number-of-rows": "50", "rows-per-second": "1000000"}, cols...)
	c := New()
	c.Seed = 1
	r, err := c.OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		for i := range b.N {
			for j, v := range b.Row(i) {
				if v == nil {
					t.Fatalf("column %s is NULL without a null-rate", all[j])
				}
				if _, err := types.CastValue(v, all[j], types.NewString()); err != nil && all[j].Kind != types.Map && all[j].Kind != types.Multiset &&
					all[j].Kind != types.Binary && all[j].Kind != types.VarBinary { // random bytes are rarely UTF-8
					t.Fatalf("column %s value %v: %v", all[j], v, err)
				}
				if s, ok := v.(string); ok && all[j].Kind == types.Char && len(s) != 3 {
					t.Fatalf("CHAR(3) value %q", s)
				}
			}
		}
		n += b.N
	}
	if n != 50 {
		t.Fatalf("%d rows, want 50", n)
	}
}

func TestValidateMessages(t *testing.T) {
	intCol := Column{Name: "f0", Type: types.New(types.Int)}
	cases := []struct {
		t    *Table
		sink bool
		want string
	}{
		{datagenTable(nil, intCol), true, "Connector 'datagen' can only be used as a source. It cannot be used as a sink."},
		{datagenTable(map[string]string{"fields.f0.kind": "sequence", "fields.f0.start": "1"}, intCol), false,
			"Could not find required property 'fields.f0.end' for sequence generator."},
		{datagenTable(map[string]string{"fields.f0.length": "3"}, intCol), false,
			"Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.f0.length\n\nSupported options:\n\nconnector\nfields.f0.kind\nfields.f0.max\nfields.f0.min\nfields.f0.null-rate\nnumber-of-rows\nrows-per-second\nscan.parallelism"},
		{datagenTable(map[string]string{"fields.f0.kind": "sequence", "fields.f0.start": "1", "fields.f0.end": "2", "fields.f0.min": "0"}, intCol), false,
			"Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.f0.min\n\nSupported options:\n\nconnector\nfields.f0.end\nfields.f0.kind\nfields.f0.null-rate\nfields.f0.start\nnumber-of-rows\nrows-per-second\nscan.parallelism"},
		{&Table{Options: map[string]string{"connector": "blackhole", "x": "1"}}, true,
			"Unsupported options found for 'blackhole'.\n\nUnsupported options:\n\nx\n\nSupported options:\n\nconnector"},
		{&Table{Options: map[string]string{"connector": "blackhole"}}, false,
			"Connector 'blackhole' can only be used as a sink. It cannot be used as a source."},
		{&Table{Options: map[string]string{"connector": "filesystem", "path": "/x"}}, false, "Missing required options are:\n\nformat"},
		{&Table{Options: map[string]string{"connector": "filesystem", "path": "/x", "format": "csv", "json.ignore-parse-errors": "true"}}, false,
			"Unsupported options found for 'filesystem'."},
		{&Table{Options: map[string]string{"connector": "print", "standard-error": "maybe"}}, true, ""},
	}
	for i, c := range cases {
		err := Validate(c.t, c.sink)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("case %d:\n got %q\nwant %q", i, got, c.want)
		}
	}
	if Bounded(map[string]string{"connector": "datagen"}, []string{"f0"}) ||
		Bounded(map[string]string{"connector": "datagen", "fields.f0.kind": "sequence"}, []string{"f0"}) ||
		!Bounded(map[string]string{"connector": "datagen", "number-of-rows": "1"}, nil) {
		t.Error("Bounded")
	}
}

// TestDatagenFastColumns: the vector-at-a-time generation of numeric
// columns gives the values the value-at-a-time generation gives from the
// same seed.
func TestDatagenFastColumns(t *testing.T) {
	tbl := datagenTable(map[string]string{"number-of-rows": "3000", "rows-per-second": "1000000000",
		"fields.s.kind": "sequence", "fields.s.start": "120", "fields.s.end": "5000",
		"fields.i.min": "-5", "fields.i.max": "5", "fields.d.min": "1", "fields.d.max": "2"},
		Column{Name: "s", Type: types.New(types.TinyInt)}, Column{Name: "i", Type: types.New(types.Int)},
		Column{Name: "b", Type: types.New(types.BigInt)}, Column{Name: "d", Type: types.New(types.Double)},
		Column{Name: "f", Type: types.New(types.Float)})
	fast, err := openDatagenReader(tbl, 9)
	if err != nil {
		t.Fatal(err)
	}
	sr, _ := newDatagenReader(tbl, 9)
	rows := 0
	for batch := 0; ; batch++ {
		b, err := fast.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			if rows != 3000 {
				t.Fatalf("%d rows, want 3000", rows)
			}
			return
		}
		rows += b.N
		for c, g := range sr.spec.columns {
			want := vector.New(tbl.Columns[c].Type, b.N)
			for range b.N {
				g.append(want, sr.rng, time.Now())
			}
			for i := range b.N {
				// The stored representation, not only what Get returns.
				got, w := any(nil), any(nil)
				if want.Class == vector.Int {
					got, w = b.Cols[c].Ints[i], want.Ints[i]
				} else {
					got, w = b.Cols[c].Floats[i], want.Floats[i]
				}
				if got != w {
					t.Fatalf("batch %d column %s row %d: %v (%T), want %v (%T)", batch, tbl.Columns[c].Name, i, got, got, w, w)
				}
			}
		}
	}
}

// TestDatagenPushColumns: a datagen scan that reads some columns gets
// batches of those columns only, in the pushed order.
func TestDatagenPushColumns(t *testing.T) {
	tbl := datagenTable(map[string]string{"number-of-rows": "2000", "rows-per-second": "1000000000",
		"fields.a.kind": "sequence", "fields.a.start": "1", "fields.a.end": "5000",
		"fields.d.kind": "sequence", "fields.d.start": "101", "fields.d.end": "5100"},
		Column{Name: "a", Type: types.New(types.Int)}, Column{Name: "s", Type: types.NewString()},
		Column{Name: "d", Type: types.New(types.BigInt)})
	r, err := New().OpenReader(context.Background(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.(Pushdown).PushColumns([]int{2, 0})
	rows := 0
	for {
		b, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		if len(b.Cols) != 2 || b.Cols[0].T.Kind != types.BigInt || b.Cols[1].T.Kind != types.Int {
			t.Fatalf("batch columns %v", b.Types())
		}
		for i := range b.N {
			rows++
			if d, a := b.Cols[0].Ints[i], b.Cols[1].Ints[i]; a != int64(rows) || d != int64(rows+100) {
				t.Fatalf("row %d: d=%d a=%d", rows, d, a)
			}
		}
	}
	if rows != 2000 {
		t.Fatalf("%d rows, want 2000", rows)
	}
}
