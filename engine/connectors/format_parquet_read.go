package connectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Reading Parquet: the table's columns are matched to the file's top-level
// fields by name (a column the file lacks is NULL, as Flink's reader
// gives it), only the needed columns' leaf columns are decoded, and each
// column's values are assembled from their repetition and definition
// levels (Dremel) into eddy's values: rows, arrays (three-level LISTs,
// legacy two-level lists and bare repeated fields), maps. Row groups
// whose statistics prove that a pushed filter holds for none of their
// rows are skipped.

// ReadBulk implements BulkCodec.
func (c *parquetCodec) ReadBulk(r io.Reader, name string, cols []Column, needed []bool) BulkReader {
	return c.ReadBulkFiltered(r, name, cols, needed, nil)
}

// ReadBulkFiltered implements FilterBulkCodec: filters (over cols) let the
// reader skip row groups whose statistics exclude every row; it still
// returns their other rows, the caller applies the filters.
func (c *parquetCodec) ReadBulkFiltered(r io.Reader, name string, cols []Column, needed []bool, filters []RowFilter) BulkReader {
	pr := &parquetReader{c: c, name: name, cols: cols, needed: needed, filters: filters}
	pr.err = pr.open(r)
	return pr
}

type parquetReader struct {
	c       *parquetCodec
	name    string
	cols    []Column
	needed  []bool
	filters []RowFilter
	err     error

	file   *parquet.File
	ra     io.ReaderAt // the file's bytes
	fields []*pqNode   // per column, nil when not read or absent from the file
	group  int         // next row group
	left   int64       // rows left in the current range of the open row group
	// ranges are the row ranges of the open row group still to read
	// ([first, end) rows), after the one being read; pages whose
	// statistics exclude a pushed filter are left out of them.
	ranges [][2]int64
	// groupsRead counts the row groups decoded (the others were skipped
	// by their statistics), rowsSkipped the rows of pages skipped by
	// theirs.
	groupsRead  int
	rowsSkipped int64
	// exact are the filters the reader applies to the rows it returns.
	exact []RowFilter
	keep  []bool
	// stop is the row group after the last one this reader reads.
	stop int
	// par decodes the row groups on several goroutines (nil: this
	// goroutine reads them one by one).
	par *pqParallel
	// filterVecs holds the values of filter columns the caller does not
	// read, reused from call to call.
	filterVecs map[int]*vector.Vec
}

func (r *parquetReader) open(in io.Reader) error {
	var ra io.ReaderAt
	var size int64
	if f, ok := in.(*os.File); ok {
		st, err := f.Stat()
		if err != nil {
			return err
		}
		ra, size = f, st.Size()
	} else {
		b, err := io.ReadAll(in)
		if err != nil {
			return err
		}
		ra, size = bytes.NewReader(b), int64(len(b))
	}
	f, err := parquet.OpenFile(ra, size, parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to read the Parquet file '%s': %v", r.name, err)}
	}
	r.file, r.ra = f, ra
	r.stop = len(f.RowGroups())
	for _, f := range r.filters {
		if f.Column >= 0 && f.Column < len(r.cols) && r.c.TakesFilter(r.cols[f.Column], f) {
			r.exact = append(r.exact, f)
		}
	}
	if err := r.buildFields(); err != nil {
		return err
	}
	if r.stop > 0 && runtime.GOMAXPROCS(0) > 1 {
		r.par = &pqParallel{ahead: runtime.GOMAXPROCS(0), batches: pqTaskBatches, stop: make(chan struct{})}
	}
	return nil
}

// CapWorkers implements WorkerCap: at most n row groups are decoded at
// once, and with n = 1 they are read one by one on the caller's goroutine.
func (r *parquetReader) CapWorkers(n int) {
	if r.par == nil || r.par.started() {
		return
	}
	if n <= 1 {
		r.par = nil
		return
	}
	r.par.ahead = min(r.par.ahead, n)
}

// buildFields makes the cursors of the columns read: the needed ones and
// those of the filters the reader applies.
func (r *parquetReader) buildFields() error {
	f := r.file
	r.fields = make([]*pqNode, len(r.cols))
	for i, col := range r.cols {
		if r.needed != nil && !r.needed[i] && !slices.ContainsFunc(r.exact, func(f RowFilter) bool { return f.Column == i }) {
			continue
		}
		fc := findColumn(f.Root().Columns(), col.Name)
		if fc == nil {
			continue
		}
		if flat := newFlatCursor(fc, col.Type); flat != nil {
			flat.file, flat.ra = f, r.ra
			flat.scratch = r.needed != nil && !r.needed[i]
			r.fields[i] = &pqNode{kind: pqLeaf, t: col.Type, flat: flat}
			continue
		}
		n, err := buildNode(fc, col.Type, 0, 0, r.c)
		if err != nil {
			return &Error{Exception: "IOException", Msg: fmt.Sprintf(
				"Failed to read column '%s' of type %s from the Parquet file '%s': %v", col.Name, col.Type, r.name, err)}
		}
		r.fields[i] = n
	}
	return nil
}

// findColumn returns the field of a name, matched exactly, else ignoring
// case.
func findColumn(cs []*parquet.Column, name string) *parquet.Column {
	for _, c := range cs {
		if c.Name() == name {
			return c
		}
	}
	for _, c := range cs {
		if strings.EqualFold(c.Name(), name) {
			return c
		}
	}
	return nil
}

func (r *parquetReader) Read(cols []*vector.Vec, n int) (int, bool, error) {
	if r.err != nil {
		return 0, false, r.err
	}
	if r.par != nil {
		return r.readParallel(cols, n)
	}
	for r.left == 0 {
		if len(r.ranges) > 0 {
			// The next range of the row group: every column seeks to it.
			rg := r.ranges[0]
			r.ranges = r.ranges[1:]
			for _, f := range r.fields {
				if f != nil {
					if err := f.seek(rg[0]); err != nil {
						return 0, false, r.fail(err)
					}
				}
			}
			r.left = rg[1] - rg[0]
			continue
		}
		if r.group >= r.stop {
			return 0, true, nil
		}
		rg := r.file.RowGroups()[r.group]
		r.group++
		if r.skipGroup(rg) {
			continue
		}
		ranges := r.pageRanges(rg)
		if len(ranges) == 0 {
			continue
		}
		r.groupsRead++
		// Vectors may take plain pages' values without a copy while no
		// column seeks in the row group.
		seeks := len(ranges) > 1 || ranges[0][0] != 0
		for _, f := range r.fields {
			if f != nil {
				if f.flat != nil {
					f.flat.alias = !seeks && !f.flat.scratch
				}
				f.open(rg, r.group-1)
			}
		}
		if ranges[0][0] == 0 {
			r.left = ranges[0][1]
			r.ranges = ranges[1:]
		} else {
			r.ranges = ranges
		}
	}
	k := int64(n)
	if k > r.left {
		k = r.left
	}
	// Where each vector's new rows start; a filter column the caller does
	// not read is decoded into a vector of its own.
	bases := make([]int, len(cols))
	filterVecs := r.filterVecs
	// A filter column the caller does not read, of a flat cursor and of
	// one filter, is tested on its pages' values (flatCursor.mask).
	onPage := make([]bool, len(cols))
	for _, f := range r.exact {
		if fl := r.fields[f.Column]; cols[f.Column] == nil && fl != nil && fl.flat != nil {
			onPage[f.Column] = true
		}
	}
	for i, f := range r.exact {
		for _, g := range r.exact[:i] {
			if g.Column == f.Column {
				onPage[f.Column] = false
			}
		}
	}
	for _, f := range r.exact {
		if cols[f.Column] == nil {
			if filterVecs == nil {
				filterVecs = map[int]*vector.Vec{}
				r.filterVecs = filterVecs
			}
			if v := filterVecs[f.Column]; v == nil {
				filterVecs[f.Column] = vector.New(r.cols[f.Column].Type, int(k))
			} else {
				resetVec(v)
			}
		}
	}
	for i, f := range r.fields {
		if onPage[i] {
			continue
		}
		vec := cols[i]
		if vec == nil {
			vec = filterVecs[i]
		}
		if vec != nil {
			bases[i] = vec.Len
		}
		if vec == nil {
			if f != nil && f.flat != nil {
				if err := f.flat.readInto(vector.New(f.t, int(k)), int(k)); err != nil {
					return 0, false, r.fail(err)
				}
			} else if f != nil {
				for range k {
					if _, err := f.read(); err != nil {
						return 0, false, r.fail(err)
					}
				}
			}
			continue
		}
		if f == nil {
			for range k {
				vec.AppendNull()
			}
			continue
		}
		if err := f.readInto(vec, int(k)); err != nil {
			return 0, false, r.fail(err)
		}
	}
	r.left -= k
	end := r.left == 0 && len(r.ranges) == 0 && r.group >= r.stop
	if len(r.exact) == 0 {
		return int(k), end, nil
	}
	if int64(cap(r.keep)) < k {
		r.keep = make([]bool, k)
	}
	r.keep = r.keep[:k]
	for i := range r.keep {
		r.keep[i] = true
	}
	for _, f := range r.exact {
		vec := cols[f.Column]
		if vec == nil {
			vec = filterVecs[f.Column]
		}
		if onPage[f.Column] {
			if err := r.fields[f.Column].flat.mask(f, r.keep, vec); err != nil {
				return 0, false, r.fail(err)
			}
			continue
		}
		filterMask(f, vec, bases[f.Column], r.keep)
	}
	kept := 0
	for _, b := range r.keep {
		if b {
			kept++
		}
	}
	if kept < int(k) {
		for i, vec := range cols {
			if vec != nil {
				compactVec(vec, bases[i], r.keep)
			}
		}
	}
	return kept, end, nil
}

// pageRanges returns the row ranges of a row group that may hold rows
// passing the pushed filters: all of it, less the pages (of a flat
// column the file indexes) whose min, max and null count exclude a
// filter. Their columns' offset indexes are loaded, so that seeking a
// column to a row jumps to its page.
func (r *parquetReader) pageRanges(rg parquet.RowGroup) [][2]int64 {
	n := rg.NumRows()
	keep := [][2]int64{{0, n}}
	if len(r.filters) == 0 {
		return keep
	}
	chunks := rg.ColumnChunks()
	for _, f := range r.filters {
		if f.Column < 0 || f.Column >= len(r.cols) {
			continue
		}
		fc := findColumn(r.file.Root().Columns(), r.cols[f.Column].Name)
		if fc == nil || !fc.Leaf() || fc.MaxRepetitionLevel() != 0 {
			continue
		}
		cc, ok := chunks[fc.Index()].(*parquet.FileColumnChunk)
		if !ok {
			continue
		}
		ci, err1 := cc.ColumnIndex()
		oi, err2 := cc.OffsetIndex()
		if err1 != nil || err2 != nil || ci.NumPages() != oi.NumPages() || ci.NumPages() < 2 {
			continue
		}
		var pass [][2]int64
		for p := range ci.NumPages() {
			end := n
			if p+1 < oi.NumPages() {
				end = oi.FirstRowIndex(p + 1)
			}
			if !pageExcludes(fc, f, ci, p) {
				pass = appendRange(pass, oi.FirstRowIndex(p), end)
			}
		}
		keep = intersectRanges(keep, pass)
	}
	var kept int64
	for _, k := range keep {
		kept += k[1] - k[0]
	}
	r.rowsSkipped += n - kept
	if kept < n {
		// Seeking needs every read column's offset index.
		for _, cc := range chunks {
			if fcc, ok := cc.(*parquet.FileColumnChunk); ok {
				if _, err := fcc.OffsetIndex(); err != nil {
					return [][2]int64{{0, n}}
				}
			}
		}
	}
	return keep
}

// pageExcludes reports whether a page's statistics show that filter f
// holds for none of its rows.
func pageExcludes(c *parquet.Column, f RowFilter, ci parquet.ColumnIndex, p int) bool {
	switch f.Op {
	case FilterIsNull:
		return ci.NullCount(p) == 0
	case FilterIsNotNull:
		return ci.NullPage(p)
	}
	if ci.NullPage(p) {
		return true // only NULLs: no comparison holds
	}
	lo, hi := ci.MinValue(p), ci.MaxValue(p)
	if lo.IsNull() || hi.IsNull() {
		return false
	}
	cmpLo, ok1 := compareStat(c, f.Value, lo)
	cmpHi, ok2 := compareStat(c, f.Value, hi)
	if !ok1 || !ok2 {
		return false
	}
	return excludes(f.Op, cmpLo, cmpHi)
}

// excludes reports whether no value between min and max passes op with
// the constant, given cmpLo = sign(constant - min), cmpHi = sign(constant
// - max).
func excludes(op FilterOp, cmpLo, cmpHi int) bool {
	switch op {
	case FilterEq:
		return cmpLo < 0 || cmpHi > 0
	case FilterNe:
		return cmpLo == 0 && cmpHi == 0
	case FilterLt:
		return cmpLo <= 0
	case FilterLe:
		return cmpLo < 0
	case FilterGt:
		return cmpHi >= 0
	case FilterGe:
		return cmpHi > 0
	}
	return false
}

func appendRange(rs [][2]int64, lo, hi int64) [][2]int64 {
	if len(rs) > 0 && rs[len(rs)-1][1] == lo {
		rs[len(rs)-1][1] = hi
		return rs
	}
	return append(rs, [2]int64{lo, hi})
}

// intersectRanges returns the rows in both sorted range lists.
func intersectRanges(a, b [][2]int64) [][2]int64 {
	var out [][2]int64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
		if lo < hi {
			out = appendRange(out, lo, hi)
		}
		if a[i][1] < b[j][1] {
			i++
		} else {
			j++
		}
	}
	return out
}

func (r *parquetReader) fail(err error) error {
	r.err = &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to read the Parquet file '%s': %v", r.name, err)}
	return r.err
}

// skipGroup reports whether a pushed filter holds for no row of a row
// group, by the min, max and null count of its column chunks.
func (r *parquetReader) skipGroup(rg parquet.RowGroup) bool {
	chunks := rg.ColumnChunks()
	for _, f := range r.filters {
		if f.Column < 0 || f.Column >= len(r.cols) {
			continue
		}
		fc := findColumn(r.file.Root().Columns(), r.cols[f.Column].Name)
		if fc == nil || !fc.Leaf() || fc.Repeated() {
			continue
		}
		cc, ok := chunks[fc.Index()].(*parquet.FileColumnChunk)
		if !ok {
			continue
		}
		switch f.Op {
		case FilterIsNull:
			if cc.NullCount() == 0 {
				return true
			}
			continue
		case FilterIsNotNull:
			if cc.NullCount() == cc.NumValues() {
				return true
			}
			continue
		}
		lo, hi, ok := cc.Bounds()
		if !ok || lo.IsNull() || hi.IsNull() {
			continue
		}
		cmpLo, ok1 := compareStat(fc, f.Value, lo)
		cmpHi, ok2 := compareStat(fc, f.Value, hi)
		if !ok1 || !ok2 {
			continue
		}
		// cmpLo is sign(value - min), cmpHi sign(value - max).
		if excludes(f.Op, cmpLo, cmpHi) {
			return true
		}
	}
	return false
}

// compareStat compares a filter constant (int64, float64 or string) with a
// statistic of a plain integer, floating point or string column; ok is
// false when the column's values are not compared that way (decimals,
// dates, timestamps).
func compareStat(c *parquet.Column, v any, s parquet.Value) (int, bool) {
	lt := c.Type().LogicalType()
	switch x := v.(type) {
	case int64:
		if lt != nil && lt.Value != nil {
			if it, ok := lt.Value.(*format.IntType); !ok || !it.IsSigned {
				return 0, false
			}
		}
		var y int64
		switch s.Kind() {
		case parquet.Int32:
			y = int64(s.Int32())
		case parquet.Int64:
			y = s.Int64()
		default:
			return 0, false
		}
		return cmp3(x, y), true
	case float64:
		var y float64
		switch s.Kind() {
		case parquet.Float:
			y = float64(s.Float())
		case parquet.Double:
			y = s.Double()
		default:
			return 0, false
		}
		if y != y {
			return 0, false
		}
		return cmp3(x, y), true
	case string:
		if s.Kind() != parquet.ByteArray {
			return 0, false
		}
		if _, isStr := lt.Value.(*format.StringType); lt == nil || !isStr {
			return 0, false
		}
		return strings.Compare(x, string(s.ByteArray())), true
	}
	return 0, false
}

func cmp3[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The assembly of one column's values from its leaf columns.
const (
	pqLeaf = iota
	pqGroup
	pqList
	pqMap
	pqMultiset
)

type pqNode struct {
	kind     int
	t        *types.Type
	optional bool
	defAt    int // definition level when the node is present
	// repDef and repLevel are the definition and repetition levels of a
	// list's or map's repeated node.
	repDef, repLevel int
	children         []*pqNode // group: one per target field (nil: absent, NULL)
	probe            *pqNode   // group without a matching field: read to learn its nulls
	elem, key, val   *pqNode
	cursor           *leafCursor
	flat             *flatCursor // a top-level leaf read without assembly, or nil
	conv             func(parquet.Value) (any, error)
	leaves           []*leafCursor // every leaf of the subtree
}

// buildNode matches a file column to a Flink type. def and rep are the
// levels of the column's parent.
func buildNode(c *parquet.Column, t *types.Type, def, rep int, codec *parquetCodec) (*pqNode, error) {
	if c.Repeated() {
		if t.Kind != types.Array && t.Kind != types.Multiset {
			return nil, fmt.Errorf("the file's field '%s' is repeated", c.Name())
		}
		n := &pqNode{kind: pqList, t: t, defAt: def, repDef: def + 1, repLevel: rep + 1}
		elem, err := buildRequired(c, t.Elem, def+1, rep+1, codec)
		if err != nil {
			return nil, err
		}
		n.elem = elem
		n.collect()
		return n, nil
	}
	if c.Optional() {
		def++
	}
	return buildRequired(c, t, def, rep, codec)
}

// buildRequired builds the node of c, whose own repetition is already in
// def and rep.
func buildRequired(c *parquet.Column, t *types.Type, def, rep int, codec *parquetCodec) (*pqNode, error) {
	n := &pqNode{t: t, optional: c.Optional(), defAt: def}
	lt := c.Type().LogicalType()
	ct := c.Type().ConvertedType()
	isMap := lt != nil && func() bool { _, ok := lt.Value.(*format.MapType); return ok }() ||
		ct != nil && (*ct == 1 || *ct == 2) // MAP, MAP_KEY_VALUE
	switch {
	case t.Kind == types.Multiset && isMap:
		// Flink writes a MULTISET as a map of element to count.
		if c.Leaf() || len(c.Columns()) != 1 || c.Columns()[0].Leaf() || len(c.Columns()[0].Columns()) != 2 {
			return nil, fmt.Errorf("the file's field '%s' is not a map", c.Name())
		}
		kv := c.Columns()[0]
		n.kind, n.repDef, n.repLevel = pqMultiset, def+1, rep+1
		var err error
		if n.key, err = buildNode(kv.Columns()[0], t.Elem, def+1, rep+1, codec); err != nil {
			return nil, err
		}
		if n.val, err = buildNode(kv.Columns()[1], types.New(types.Int), def+1, rep+1, codec); err != nil {
			return nil, err
		}
	case t.Kind == types.Array || t.Kind == types.Multiset:
		if c.Leaf() || len(c.Columns()) != 1 || !c.Columns()[0].Repeated() {
			return nil, fmt.Errorf("the file's field '%s' is not a list", c.Name())
		}
		rpt := c.Columns()[0]
		n.kind, n.repDef, n.repLevel = pqList, def+1, rep+1
		var err error
		if !rpt.Leaf() && len(rpt.Columns()) == 1 && rpt.Name() != "array" && rpt.Name() != c.Name()+"_tuple" {
			n.elem, err = buildNode(rpt.Columns()[0], t.Elem, def+1, rep+1, codec)
		} else {
			n.elem, err = buildRequired(rpt, t.Elem, def+1, rep+1, codec)
		}
		if err != nil {
			return nil, err
		}
	case t.Kind == types.Map:
		if c.Leaf() || len(c.Columns()) != 1 || c.Columns()[0].Leaf() || len(c.Columns()[0].Columns()) != 2 {
			return nil, fmt.Errorf("the file's field '%s' is not a map", c.Name())
		}
		kv := c.Columns()[0]
		n.kind, n.repDef, n.repLevel = pqMap, def+1, rep+1
		var err error
		if n.key, err = buildNode(kv.Columns()[0], t.Elem, def+1, rep+1, codec); err != nil {
			return nil, err
		}
		if n.val, err = buildNode(kv.Columns()[1], t.Val, def+1, rep+1, codec); err != nil {
			return nil, err
		}
	case t.Kind == types.Row:
		if c.Leaf() {
			return nil, fmt.Errorf("the file's field '%s' is not a group", c.Name())
		}
		n.kind = pqGroup
		n.children = make([]*pqNode, len(t.Fields))
		found := false
		for i, f := range t.Fields {
			fc := findColumn(c.Columns(), f.Name)
			if fc == nil {
				continue
			}
			ch, err := buildNode(fc, f.Type, def, rep, codec)
			if err != nil {
				return nil, err
			}
			n.children[i], found = ch, true
		}
		if !found {
			p, err := probeNode(c.Columns()[0], def, rep)
			if err != nil {
				return nil, err
			}
			n.probe = p
		}
	default:
		if !c.Leaf() {
			return nil, fmt.Errorf("the file's field '%s' is a group", c.Name())
		}
		conv, err := leafConverter(c, t, codec)
		if err != nil {
			return nil, err
		}
		n.kind, n.conv, n.cursor = pqLeaf, conv, &leafCursor{col: c.Index()}
	}
	n.collect()
	return n, nil
}

// probeNode reads a file field only for its levels.
func probeNode(c *parquet.Column, def, rep int) (*pqNode, error) {
	for !c.Leaf() {
		if c.Optional() || c.Repeated() {
			def++
		}
		if c.Repeated() {
			rep++
		}
		c = c.Columns()[0]
	}
	n := &pqNode{kind: pqLeaf, t: types.NewString(), cursor: &leafCursor{col: c.Index()},
		conv: func(parquet.Value) (any, error) { return nil, nil }}
	n.collect()
	return n, nil
}

func (n *pqNode) collect() {
	n.leaves = nil
	if n.cursor != nil {
		n.leaves = append(n.leaves, n.cursor)
	}
	for _, ch := range append(append([]*pqNode{}, n.children...), n.probe, n.elem, n.key, n.val) {
		if ch != nil {
			n.leaves = append(n.leaves, ch.leaves...)
		}
	}
}

// open points the node's leaf cursors at row group g (rg).
func (n *pqNode) open(rg parquet.RowGroup, g int) {
	if n.flat != nil {
		n.flat.open(rg, g)
	}
	for _, l := range n.leaves {
		l.open(rg)
	}
}

// seek moves the node's cursors to a row of the open row group.
func (n *pqNode) seek(row int64) error {
	if n.flat != nil {
		return n.flat.seek(row)
	}
	for _, l := range n.leaves {
		if err := l.seek(row); err != nil {
			return err
		}
	}
	return nil
}

// peek returns the levels of the node's next value.
func (n *pqNode) peek() (parquet.Value, error) { return n.leaves[0].peek() }

func (n *pqNode) skip() error {
	for _, l := range n.leaves {
		if _, err := l.next(); err != nil {
			return err
		}
	}
	return nil
}

// read assembles the node's next value.
func (n *pqNode) read() (any, error) {
	p, err := n.peek()
	if err != nil {
		return nil, err
	}
	if p.DefinitionLevel() < n.defAt {
		return nil, n.skip()
	}
	switch n.kind {
	case pqLeaf:
		v, err := n.cursor.next()
		if err != nil {
			return nil, err
		}
		return n.conv(v)
	case pqGroup:
		vals := make([]any, len(n.children))
		for i, ch := range n.children {
			if ch != nil {
				if vals[i], err = ch.read(); err != nil {
					return nil, err
				}
			}
		}
		if n.probe != nil {
			if _, err := n.probe.read(); err != nil {
				return nil, err
			}
		}
		return vals, nil
	}
	if p.DefinitionLevel() < n.repDef {
		if err := n.skip(); err != nil {
			return nil, err
		}
		if n.kind == pqMap {
			return map[any]any{}, nil
		}
		return []any{}, nil
	}
	var list []any
	var m map[any]any
	if n.kind == pqMap {
		m = map[any]any{}
	}
	for {
		switch n.kind {
		case pqList:
			e, err := n.elem.read()
			if err != nil {
				return nil, err
			}
			list = append(list, e)
		case pqMap, pqMultiset:
			k, err := n.key.read()
			if err != nil {
				return nil, err
			}
			v, err := n.val.read()
			if err != nil {
				return nil, err
			}
			if n.kind == pqMap {
				m[k] = v
			} else if c, ok := types.AsInt64(v); ok {
				for range c {
					list = append(list, k)
				}
			}
		}
		p, err := n.peek()
		if err != nil {
			return nil, err
		}
		if p.RepetitionLevel() != n.repLevel {
			break
		}
	}
	if n.kind == pqMap {
		return m, nil
	}
	return list, nil
}

// readInto appends the node's next k values to vec; a top-level leaf
// takes a path without boxing for the common classes.
func (n *pqNode) readInto(vec *vector.Vec, k int) error {
	if n.flat != nil {
		return n.flat.readInto(vec, k)
	}
	if n.kind != pqLeaf {
		for range k {
			v, err := n.read()
			if err != nil {
				return err
			}
			vec.Append(v)
		}
		return nil
	}
	c := n.cursor
	fast := n.fast(vec)
	for range k {
		v, err := c.next()
		if err != nil {
			return err
		}
		if v.DefinitionLevel() < n.defAt || v.IsNull() {
			vec.AppendNull()
			continue
		}
		if fast != nil {
			fast(v)
			vec.Len++
			continue
		}
		x, err := n.conv(v)
		if err != nil {
			return err
		}
		vec.Append(x)
	}
	return nil
}

// fast returns an append of a value's storage without conversion, for a
// leaf whose physical type is the vector's class, or nil.
func (n *pqNode) fast(vec *vector.Vec) func(parquet.Value) {
	if n.cursor.kind == nil {
		return nil
	}
	plain := n.cursor.plain
	switch {
	case vec.Class == vector.Int && plain && (*n.cursor.kind == parquet.Int32) &&
		(n.t.Kind == types.Int || n.t.Kind == types.BigInt || n.t.Kind == types.SmallInt || n.t.Kind == types.TinyInt || n.t.Kind == types.Date):
		return func(v parquet.Value) { vec.Ints = append(vec.Ints, int64(v.Int32())) }
	case vec.Class == vector.Int && plain && *n.cursor.kind == parquet.Int64 && n.t.Kind == types.BigInt:
		return func(v parquet.Value) { vec.Ints = append(vec.Ints, v.Int64()) }
	case vec.Class == vector.Float && *n.cursor.kind == parquet.Double && n.t.Kind == types.Double:
		return func(v parquet.Value) { vec.Floats = append(vec.Floats, v.Double()) }
	case vec.Class == vector.String && n.cursor.str:
		return func(v parquet.Value) { vec.Strs = append(vec.Strs, string(v.ByteArray())) }
	case vec.Class == vector.Bool && *n.cursor.kind == parquet.Boolean:
		return func(v parquet.Value) { vec.Bools = append(vec.Bools, v.Boolean()) }
	}
	return nil
}

// pqEnd is what a cursor peeks past its row group's last value.
var pqEnd = parquet.NullValue()

// leafCursor reads one leaf column of a row group value by value.
type leafCursor struct {
	col   int
	pages parquet.Pages
	vals  parquet.ValueReader
	buf   []parquet.Value
	pos   int
	done  bool
	// kind is the column's physical kind; plain marks an integer without
	// a logical type that changes its meaning; str a UTF-8 string.
	kind       *parquet.Kind
	plain, str bool
}

func (l *leafCursor) open(rg parquet.RowGroup) {
	if l.pages != nil {
		l.pages.Close()
	}
	cc := rg.ColumnChunks()[l.col]
	l.pages, l.vals, l.pos, l.done = cc.Pages(), nil, 0, false
	l.buf = l.buf[:0]
	k := cc.Type().Kind()
	l.kind = &k
	lt := cc.Type().LogicalType()
	l.plain = lt == nil || lt.Value == nil
	if lt != nil {
		if it, ok := lt.Value.(*format.IntType); ok && it.IsSigned {
			l.plain = true
		}
		if _, ok := lt.Value.(*format.DateType); ok {
			l.plain = true
		}
		_, l.str = lt.Value.(*format.StringType)
	}
}

func (l *leafCursor) seek(row int64) error {
	l.vals, l.pos, l.done = nil, 0, false
	l.buf = l.buf[:0]
	return l.pages.SeekToRow(row)
}

func (l *leafCursor) fill() error {
	for l.pos >= len(l.buf) {
		if l.done {
			return nil
		}
		if l.vals == nil {
			page, err := l.pages.ReadPage()
			if errors.Is(err, io.EOF) {
				l.done = true
				return nil
			}
			if err != nil {
				return err
			}
			l.vals = page.Values()
		}
		if cap(l.buf) == 0 {
			l.buf = make([]parquet.Value, 0, 1024)
		}
		n, err := l.vals.ReadValues(l.buf[:cap(l.buf)])
		l.buf, l.pos = l.buf[:n], 0
		if errors.Is(err, io.EOF) {
			l.vals = nil
		} else if err != nil {
			return err
		}
	}
	return nil
}

func (l *leafCursor) peek() (parquet.Value, error) {
	if err := l.fill(); err != nil {
		return parquet.Value{}, err
	}
	if l.pos >= len(l.buf) {
		return pqEnd, nil
	}
	return l.buf[l.pos], nil
}

func (l *leafCursor) next() (parquet.Value, error) {
	if err := l.fill(); err != nil {
		return parquet.Value{}, err
	}
	if l.pos >= len(l.buf) {
		return parquet.Value{}, fmt.Errorf("column %d ended before its row group", l.col)
	}
	v := l.buf[l.pos]
	l.pos++
	return v, nil
}

// leafConverter returns the conversion of a leaf column's values to a
// Flink type: the value the column's type stands for, cast to the
// column's type when it is another.
func leafConverter(c *parquet.Column, t *types.Type, codec *parquetCodec) (func(parquet.Value) (any, error), error) {
	nat, natT, err := naturalConverter(c, codec)
	if err != nil {
		return nil, err
	}
	if natT.Kind == t.Kind && (t.Kind != types.Decimal || natT.Scale == t.Scale && natT.Prec <= t.Prec) {
		return nat, nil
	}
	if natT.Kind == types.VarBinary && (t.Kind == types.VarChar || t.Kind == types.Char) {
		return func(v parquet.Value) (any, error) { return string(v.ByteArray()), nil }, nil
	}
	return func(v parquet.Value) (any, error) {
		x, err := nat(v)
		if err != nil || x == nil {
			return x, err
		}
		return types.CastValue(x, natT, t)
	}, nil
}

// naturalConverter returns the conversion of a leaf's values to the Flink
// type its Parquet type stands for, and that type.
func naturalConverter(c *parquet.Column, codec *parquetCodec) (func(parquet.Value) (any, error), *types.Type, error) {
	typ := c.Type()
	lt := typ.LogicalType()
	var ltv format.LogicalTypeValue
	if lt != nil {
		ltv = lt.Value
	}
	if d, ok := ltv.(*format.DecimalType); ok {
		scale := int32(d.Scale)
		return func(v parquet.Value) (any, error) {
			switch v.Kind() {
			case parquet.Int32:
				return types.DecimalValue(int64(v.Int32()), -scale), nil
			case parquet.Int64:
				return types.DecimalValue(v.Int64(), -scale), nil
			}
			b := v.ByteArray()
			u := new(big.Int).SetBytes(b)
			if len(b) > 0 && b[0]&0x80 != 0 {
				u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
			}
			return types.DecimalValueBig(u, -scale), nil
		}, types.NewDecimal(int(d.Precision), int(d.Scale)), nil
	}
	switch typ.Kind() {
	case parquet.Boolean:
		return func(v parquet.Value) (any, error) { return v.Boolean(), nil }, types.New(types.Boolean), nil
	case parquet.Int32:
		switch x := ltv.(type) {
		case *format.DateType:
			return func(v parquet.Value) (any, error) { return v.Int32(), nil }, types.New(types.Date), nil
		case *format.TimeType:
			return func(v parquet.Value) (any, error) {
				return time.Duration(v.Int32()) * time.Millisecond, nil
			}, types.NewTime(3), nil
		case *format.IntType:
			switch {
			case x.BitWidth == 8 && x.IsSigned:
				return func(v parquet.Value) (any, error) { return int8(v.Int32()), nil }, types.New(types.TinyInt), nil
			case x.BitWidth == 16 && x.IsSigned:
				return func(v parquet.Value) (any, error) { return int16(v.Int32()), nil }, types.New(types.SmallInt), nil
			case !x.IsSigned:
				return func(v parquet.Value) (any, error) { return int64(uint32(v.Int32())), nil }, types.New(types.BigInt), nil
			}
		}
		return func(v parquet.Value) (any, error) { return v.Int32(), nil }, types.New(types.Int), nil
	case parquet.Int64:
		switch x := ltv.(type) {
		case *format.TimestampType:
			unit := timeUnit(x.Unit)
			mk := types.NewTimestamp(precisionOf(unit))
			if x.IsAdjustedToUTC {
				mk = types.NewTimestampLTZ(precisionOf(unit))
			}
			return func(v parquet.Value) (any, error) {
				return time.Unix(0, 0).Add(time.Duration(v.Int64()) * unit).UTC(), nil
			}, mk, nil
		case *format.TimeType:
			unit := timeUnit(x.Unit)
			return func(v parquet.Value) (any, error) {
				return time.Duration(v.Int64()) * unit, nil
			}, types.NewTime(precisionOf(unit)), nil
		}
		return func(v parquet.Value) (any, error) { return v.Int64(), nil }, types.New(types.BigInt), nil
	case parquet.Int96:
		return func(v parquet.Value) (any, error) {
			i := v.Int96()
			nanos := int64(uint64(i[1])<<32 | uint64(i[0]))
			day := int64(i[2]) - julianEpochDay
			return codec.wall(time.Unix(day*86400, nanos)), nil
		}, types.NewTimestamp(9), nil
	case parquet.Float:
		return func(v parquet.Value) (any, error) { return v.Float(), nil }, types.New(types.Float), nil
	case parquet.Double:
		return func(v parquet.Value) (any, error) { return v.Double(), nil }, types.New(types.Double), nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		switch ltv.(type) {
		case *format.StringType, *format.EnumType, *format.JsonType:
			return func(v parquet.Value) (any, error) { return string(v.ByteArray()), nil }, types.NewString(), nil
		}
		return func(v parquet.Value) (any, error) {
			return bytes.Clone(v.ByteArray()), nil
		}, types.NewVarBinary(types.MaxLength), nil
	}
	return nil, nil, fmt.Errorf("the Parquet type %s has no Flink type", typ)
}

func timeUnit(u format.TimeUnit) time.Duration {
	switch u.Value.(type) {
	case *format.MilliSeconds:
		return time.Millisecond
	case *format.NanoSeconds:
		return time.Nanosecond
	}
	return time.Microsecond
}

func precisionOf(unit time.Duration) int {
	switch unit {
	case time.Millisecond:
		return 3
	case time.Nanosecond:
		return 9
	}
	return 6
}

// bulkRowDecoder reads a bulk reader's records one by one.
type bulkRowDecoder struct {
	bulk BulkReader
	cols []Column
	vecs []*vector.Vec
	i, n int
	eof  bool
}

func (d *bulkRowDecoder) Next(row []any) (types.RowKind, bool, error) {
	for d.i >= d.n {
		if d.eof {
			return types.Insert, false, nil
		}
		d.vecs = make([]*vector.Vec, len(d.cols))
		for j, c := range d.cols {
			d.vecs[j] = vector.New(c.Type, vector.BatchSize)
		}
		n, eof, err := d.bulk.Read(d.vecs, vector.BatchSize)
		if err != nil {
			return types.Insert, false, err
		}
		d.i, d.n, d.eof = 0, n, eof
	}
	for j, v := range d.vecs {
		row[j] = v.Get(d.i)
	}
	d.i++
	return types.Insert, true, nil
}
