package connectors

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// The datagen connector (connectors.md §1, Flink's DataGenTableSourceFactory):
// random or sequence values per column, 'number-of-rows' rows (or without
// end), at most 'rows-per-second' rows a second. The supported options are
// derived from the schema, per column and type, as Flink's generator
// visitors derive them, so the "Supported options" list of an unsupported
// option error matches Flink's.

const datagenDefaultRate = 10000

// datagenFactory is the datagen connector: a source only, bounded by
// 'number-of-rows'.
func datagenFactory() *Factory {
	return &Factory{
		Identifier: "datagen",
		Validate: func(t *Table, _ bool) error {
			_, err := newDatagenSpec(t)
			return err
		},
		Source: func(_ context.Context, env *Env, t *Table) (Reader, error) {
			return openDatagenReader(t, env.Seed)
		},
		Abilities: func(t *Table) Abilities {
			// The prefetching reader keeps only the columns asked for.
			return Abilities{Bounded: datagenBounded(t), Projection: true}
		},
	}
}

// datagenBounded reports whether a datagen table is bounded: only with
// 'number-of-rows' (Flink 2.2's DataGenTableSource). A table of sequence
// columns alone still ends when its sequences do, but the planner treats
// it as unbounded, so batch mode refuses it.
func datagenBounded(t *Table) bool {
	return t.Options["number-of-rows"] != ""
}

type datagenSpec struct {
	rows    int64 // -1: unbounded
	rate    int64
	columns []*genColumn
}

type genColumn struct {
	t        *types.Type
	sequence bool
	nullRate float64
	// random
	min, max float64 // numeric range (DECIMAL and floating point too)
	imin     int64
	imax     int64
	length   int
	varLen   bool
	maxPast  time.Duration
	// sequence
	start, end int64
	next       int64
}

func datagenOptionKey(col, opt string) string { return "fields." + col + "." + opt }

// optionsFor lists the per-type generator options Flink's Random- and
// SequenceGeneratorVisitor accept.
func optionsFor(t *types.Type, sequence bool) []string {
	if sequence {
		return []string{"start", "end", "null-rate"}
	}
	switch t.Kind {
	case types.Boolean, types.Date, types.Time:
		return []string{"null-rate"}
	case types.Char, types.Binary:
		return []string{"length", "null-rate"}
	case types.VarChar, types.VarBinary:
		return []string{"length", "null-rate", "var-len"}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double, types.Decimal,
		types.IntervalYearMonth, types.IntervalDayTime:
		return []string{"max", "min", "null-rate"}
	case types.Timestamp, types.TimestampLTZ, types.TimestampTZ:
		return []string{"max-past", "null-rate"}
	case types.Array, types.Multiset, types.Map:
		return []string{"length", "null-rate"}
	}
	return []string{"null-rate"}
}

func newDatagenSpec(t *Table) (*datagenSpec, error) {
	o := t.Options
	spec := &datagenSpec{rows: -1, rate: datagenDefaultRate}
	optional := []string{"number-of-rows", "rows-per-second", "scan.parallelism"}
	for _, c := range t.Columns {
		if v := variantIn(c.Type); v != nil {
			return nil, validationError("Unsupported type: %s", v)
		}
		kindKey := datagenOptionKey(c.Name, "kind")
		optional = append(optional, kindKey)
		gc := &genColumn{t: c.Type, length: 100}
		switch k := o[kindKey]; k {
		case "", "random":
		case "sequence":
			gc.sequence = true
		default:
			return nil, validationError("Unsupported generator kind '%s' for field '%s'.", k, c.Name)
		}
		for _, opt := range optionsFor(c.Type, gc.sequence) {
			optional = append(optional, datagenOptionKey(c.Name, opt))
		}
		spec.columns = append(spec.columns, gc)
	}
	if err := CheckOptions("datagen", o, []string{"connector"}, optional); err != nil {
		return nil, err
	}
	var err error
	if v, ok := o["number-of-rows"]; ok {
		if spec.rows, err = parseLong("number-of-rows", v); err != nil {
			return nil, err
		}
	}
	if v, ok := o["rows-per-second"]; ok {
		if spec.rate, err = parseLong("rows-per-second", v); err != nil {
			return nil, err
		}
	}
	for i, c := range t.Columns {
		if err := spec.columns[i].configure(c.Name, o); err != nil {
			return nil, err
		}
	}
	return spec, nil
}

func (g *genColumn) configure(name string, o map[string]string) error {
	get := func(opt string) (string, bool) {
		v, ok := o[datagenOptionKey(name, opt)]
		return v, ok
	}
	if v, ok := get("null-rate"); ok {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return validationError("Could not parse value '%s' for key '%s'.", v, datagenOptionKey(name, "null-rate"))
		}
		g.nullRate = f
	}
	if g.sequence {
		for _, opt := range []string{"start", "end"} {
			v, ok := get(opt)
			if !ok {
				return validationError("Could not find required property '%s' for sequence generator.", datagenOptionKey(name, opt))
			}
			n, err := parseLong(datagenOptionKey(name, opt), v)
			if err != nil {
				return err
			}
			if opt == "start" {
				g.start = n
			} else {
				g.end = n
			}
		}
		g.next = g.start
		return nil
	}
	if v, ok := get("length"); ok {
		n, err := parseLong(datagenOptionKey(name, "length"), v)
		if err != nil {
			return err
		}
		g.length = int(n)
		if (g.t.Kind == types.VarChar || g.t.Kind == types.VarBinary) && g.length > g.t.Length {
			return validationError("Custom length '%d' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field '%s' should be shorter than '%d' defined in the schema.",
				g.length, name, g.t.Length)
		}
	} else if g.t.Kind == types.Array || g.t.Kind == types.Map || g.t.Kind == types.Multiset {
		g.length = 3
	}
	if g.t.Kind == types.Char || g.t.Kind == types.Binary {
		g.length = g.t.Length
	} else if (g.t.Kind == types.VarChar || g.t.Kind == types.VarBinary) && g.t.Length < g.length {
		g.length = g.t.Length
	}
	if v, ok := get("var-len"); ok {
		b, err := parseBool(datagenOptionKey(name, "var-len"), v)
		if err != nil {
			return err
		}
		g.varLen = b
	}
	if v, ok := get("max-past"); ok {
		d, err := parseDuration(datagenOptionKey(name, "max-past"), v)
		if err != nil {
			return err
		}
		g.maxPast = d
	}
	g.imin, g.imax = intRange(g.t.Kind)
	g.min, g.max = float64(g.imin), float64(g.imax)
	switch g.t.Kind {
	case types.Float:
		g.min, g.max = -math.MaxFloat32, math.MaxFloat32
	case types.Double:
		g.min, g.max = -math.MaxFloat64/2, math.MaxFloat64/2
	case types.Decimal:
		g.max = math.Pow10(g.t.Prec-g.t.Scale) - 1
		g.min = -g.max
	}
	for _, opt := range []string{"min", "max"} {
		v, ok := get(opt)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return validationError("Could not parse value '%s' for key '%s'.", v, datagenOptionKey(name, opt))
		}
		if opt == "min" {
			g.min, g.imin = f, int64(f)
		} else {
			g.max, g.imax = f, int64(f)
		}
	}
	if g.min > g.max {
		return validationError("Min value '%s' should not be greater than max value for field '%s'.", o[datagenOptionKey(name, "min")], name)
	}
	return nil
}

func intRange(k types.Kind) (int64, int64) {
	switch k {
	case types.TinyInt:
		return math.MinInt8, math.MaxInt8
	case types.SmallInt:
		return math.MinInt16, math.MaxInt16
	case types.Int, types.IntervalYearMonth:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// datagenReader produces the rows of one scan.
type datagenReader struct {
	spec    *datagenSpec
	ts      []*types.Type
	rng     *rand.Rand
	emitted int64
	start   time.Time
	now     func() time.Time
	done    bool
}

// openDatagenReader generates on a goroutine of its own, a few batches
// ahead of the operators that consume the rows (prefetchReader).
func openDatagenReader(t *Table, seed uint64) (Reader, error) {
	r, err := newDatagenReader(t, seed)
	if err != nil {
		return nil, err
	}
	p := newPrefetchReader(r)
	if datagenBounded(t) {
		return &lockedReader{in: p}, nil
	}
	return p, nil
}

// lockedReader shares a bounded datagen scan among the workers of a
// parallel scan (Concurrent): each Next takes the next batch of the
// prefetching generator under a lock.
type lockedReader struct {
	mu sync.Mutex
	in *prefetchReader
}

func (l *lockedReader) Next(ctx context.Context) (*vector.Batch, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.in.Next(ctx)
}

func (l *lockedReader) Close() error { return l.in.Close() }

// Concurrent implements connectors.Concurrent.
func (l *lockedReader) Concurrent() bool { return true }

// PushFilters implements Pushdown.
func (l *lockedReader) PushFilters(fs []RowFilter) []bool { return l.in.PushFilters(fs) }

// PushColumns implements Pushdown.
func (l *lockedReader) PushColumns(cols []int) { l.in.PushColumns(cols) }

func newDatagenReader(t *Table, seed uint64) (*datagenReader, error) {
	spec, err := newDatagenSpec(t)
	if err != nil {
		return nil, err
	}
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	return &datagenReader{spec: spec, ts: t.Types(), rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		now: time.Now}, nil
}

// Next returns the rows due by now under the rate limit (waiting for the
// first one if none is due), at most BatchSize of them.
func (r *datagenReader) Next(ctx context.Context) (*vector.Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.done {
		return nil, nil
	}
	n := int64(vector.BatchSize)
	if r.spec.rows >= 0 {
		n = min(n, r.spec.rows-r.emitted)
	}
	if r.spec.rate > 0 {
		if r.start.IsZero() {
			r.start = r.now()
		}
		due := func() int64 {
			el := r.now().Sub(r.start)
			return int64(el.Seconds()*float64(r.spec.rate)) + 1
		}
		d := due() - r.emitted
		for d <= 0 {
			wait := time.Duration(float64(r.emitted-due()+1) / float64(r.spec.rate) * float64(time.Second))
			timer := time.NewTimer(max(wait, time.Millisecond))
			select {
			case <-ctx.Done():
				timer.Stop()
				return nil, ctx.Err()
			case <-timer.C:
			}
			d = due() - r.emitted
		}
		n = min(n, d)
	}
	for _, c := range r.spec.columns {
		if c.sequence {
			n = min(n, c.end-c.next+1)
		}
	}
	if n <= 0 {
		r.done = true
		return nil, nil
	}
	out := &vector.Batch{Cols: make([]*vector.Vec, len(r.ts)), N: int(n)}
	now := r.now()
	for i, c := range r.spec.columns {
		if v := c.fast(r.ts[i], int(n), r.rng); v != nil {
			out.Cols[i] = v
			continue
		}
		v := vector.New(r.ts[i], int(n))
		for range n {
			if c.nullRate > 0 && r.rng.Float64() < c.nullRate {
				v.AppendNull()
				if c.sequence {
					c.next++
				}
				continue
			}
			c.append(v, r.rng, now)
		}
		out.Cols[i] = v
	}
	r.emitted += n
	return out, nil
}

func (r *datagenReader) Close() error { return nil }

const hexChars = "0123456789abcdef"

// append adds one generated value to v.
func (g *genColumn) append(v *vector.Vec, rng *rand.Rand, now time.Time) {
	if g.sequence {
		n := g.next
		g.next++
		switch v.Class {
		case vector.Int:
			v.Append(types.IntegerValue(g.t.Kind, n))
		case vector.Float:
			if g.t.Kind == types.Float {
				v.Append(float32(n))
			} else {
				v.Append(float64(n))
			}
		case vector.Decimal:
			v.Append(types.DecimalFromInt(n))
		case vector.String:
			v.Append(strconv.FormatInt(n, 10))
		case vector.Bytes:
			v.Append([]byte(strconv.FormatInt(n, 10)))
		default:
			v.Append(randomValue(g, g.t, rng, now))
		}
		return
	}
	switch v.Class {
	case vector.Int:
		if g.t.Kind == types.Date || g.t.Kind == types.Time {
			v.Append(randomValue(g, g.t, rng, now))
			return
		}
		v.Ints = append(v.Ints, randInt(rng, g.imin, g.imax))
		v.Len++
	case vector.Float:
		f := g.min + rng.Float64()*(g.max-g.min)
		if g.t.Kind == types.Float {
			f = float64(float32(f))
		}
		v.Floats = append(v.Floats, f)
		v.Len++
	case vector.String:
		v.Strs = append(v.Strs, randString(rng, g.size(rng)))
		v.Len++
	default:
		v.Append(randomValue(g, g.t, rng, now))
	}
}

// fast generates n values of a column without NULLs whose values are
// integers or floating point numbers into a vector, in one loop with no
// boxing; the random numbers drawn are the ones append draws, in the same
// order. It returns nil for other columns.
func (g *genColumn) fast(t *types.Type, n int, rng *rand.Rand) *vector.Vec {
	if g.nullRate > 0 {
		return nil
	}
	switch vector.ClassOf(t) {
	case vector.Int:
		if t.Kind == types.Date || t.Kind == types.Time {
			return nil
		}
		v := vector.Make(t, n)
		if g.sequence {
			for k := range v.Ints {
				v.Ints[k] = g.next
				g.next++
			}
			// IntegerValue's narrowing, as append stores it.
			for k, x := range v.Ints {
				switch t.Kind {
				case types.TinyInt:
					v.Ints[k] = int64(int8(x))
				case types.SmallInt:
					v.Ints[k] = int64(int16(x))
				case types.Int, types.IntervalYearMonth:
					v.Ints[k] = int64(int32(x))
				}
			}
			return v
		}
		for k := range v.Ints {
			v.Ints[k] = randInt(rng, g.imin, g.imax)
		}
		return v
	case vector.Float:
		if g.sequence {
			return nil
		}
		v := vector.Make(t, n)
		lo, span := g.min, g.max-g.min
		for k := range v.Floats {
			v.Floats[k] = lo + rng.Float64()*span
		}
		if t.Kind == types.Float {
			for k, f := range v.Floats {
				v.Floats[k] = float64(float32(f))
			}
		}
		return v
	}
	return nil
}

func (g *genColumn) size(rng *rand.Rand) int {
	if g.varLen && g.length > 0 {
		return 1 + rng.IntN(g.length)
	}
	return g.length
}

func randInt(rng *rand.Rand, lo, hi int64) int64 {
	if lo == math.MinInt64 && hi == math.MaxInt64 {
		return int64(rng.Uint64())
	}
	return lo + int64(rng.Uint64N(uint64(hi-lo)+1))
}

func randString(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexChars[rng.IntN(len(hexChars))]
	}
	return string(b)
}

// randomValue returns a random engine value of type t; nested types get
// random element values with the column's length as collection size.
func randomValue(g *genColumn, t *types.Type, rng *rand.Rand, now time.Time) any {
	switch t.Kind {
	case types.Boolean:
		return rng.IntN(2) == 1
	case types.Char, types.VarChar:
		n := g.size(rng)
		if t.Kind == types.Char || t.Length < n {
			n = min(n, t.Length)
		}
		return randString(rng, n)
	case types.Binary, types.VarBinary:
		n := g.size(rng)
		if t.Length < n {
			n = t.Length
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.IntervalYearMonth, types.IntervalDayTime:
		lo, hi := intRange(t.Kind)
		if g.t == t {
			lo, hi = g.imin, g.imax
		}
		return types.IntegerValue(t.Kind, randInt(rng, lo, hi))
	case types.Float:
		return float32(rng.Float64() * math.MaxFloat32)
	case types.Double:
		lo, hi := 0.0, math.MaxFloat64
		if g.t == t {
			lo, hi = g.min, g.max
		}
		return lo + rng.Float64()*(hi-lo)
	case types.Decimal:
		lo, hi := -(math.Pow10(t.Prec-t.Scale) - 1), math.Pow10(t.Prec-t.Scale)-1
		if g.t == t {
			lo, hi = g.min, g.max
		}
		f := lo + rng.Float64()*(hi-lo)
		d, err := types.ParseDecimal(strconv.FormatFloat(f, 'f', t.Scale, 64))
		if err != nil {
			return nil
		}
		return types.RoundDecimal(d, t.Prec, t.Scale)
	case types.Date:
		return types.DateOf(now.In(time.Local))
	case types.Time:
		l := now.In(time.Local)
		return time.Duration(l.Hour())*time.Hour + time.Duration(l.Minute())*time.Minute +
			time.Duration(l.Second())*time.Second + time.Duration(l.Nanosecond()/1e6)*time.Millisecond
	case types.Timestamp, types.TimestampLTZ, types.TimestampTZ:
		past := time.Duration(0)
		if g.maxPast > 0 {
			past = time.Duration(rng.Int64N(int64(g.maxPast)))
		}
		ts := now.Add(-past)
		if t.Kind == types.Timestamp {
			// TIMESTAMP holds the local wall clock read as UTC.
			l := ts.In(time.Local)
			ts = time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
		}
		return types.TruncateTime(ts, t.Prec)
	case types.Array, types.Multiset:
		out := make([]any, g.length)
		for i := range out {
			out[i] = randomValue(g, t.Elem, rng, now)
		}
		return out
	case types.Map:
		out := map[any]any{}
		for range g.length {
			out[randomValue(g, t.Elem, rng, now)] = randomValue(g, t.Val, rng, now)
		}
		return out
	case types.Row:
		out := make([]any, len(t.Fields))
		for i, f := range t.Fields {
			out[i] = randomValue(g, f.Type, rng, now)
		}
		return out
	}
	return nil
}
