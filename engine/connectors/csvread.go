package connectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// csvConv says how a CSV field becomes a value of its column.
type csvConv uint8

const (
	convSkip   csvConv = iota // not read by the query: left zero
	convInt                   // TINYINT..BIGINT
	convDouble                // DOUBLE
	convFloat                 // FLOAT
	convString                // CHAR, VARCHAR: the field as it is
	convOther                 // everything else, through parseCSVField
)

// csvBatchDecoder reads one CSV file straight into the typed vectors of a
// batch: numbers are parsed from the bytes of the read buffer (no string
// per field, no boxed value), and only the columns the query reads are
// converted.
type csvBatchDecoder struct {
	name  string
	f     *csvOptions
	sc    *csvScanner
	ts    []*types.Type
	convs []csvConv
	// header is a first record still to skip ('csv.ignore-first-line').
	header bool
}

// newCSVBatchDecoder reads file (named name in errors) whose fields have
// the types ts; needed[j] false skips field j (nil reads every field).
func newCSVBatchDecoder(in io.Reader, name string, f *csvOptions, ts []*types.Type, needed []bool) *csvBatchDecoder {
	d := &csvBatchDecoder{name: name, f: f, sc: newCSVScanner(in, f), ts: ts, convs: make([]csvConv, len(ts))}
	for j, t := range ts {
		switch {
		case needed != nil && !needed[j]:
			d.convs[j] = convSkip
		case t.Kind == types.TinyInt || t.Kind == types.SmallInt || t.Kind == types.Int || t.Kind == types.BigInt:
			d.convs[j] = convInt
		case t.Kind == types.Double:
			d.convs[j] = convDouble
		case t.Kind == types.Float:
			d.convs[j] = convFloat
		case t.Kind == types.Char || t.Kind == types.VarChar:
			d.convs[j] = convString
		default:
			d.convs[j] = convOther
		}
	}
	return d
}

func (d *csvBatchDecoder) parseError(line int, err error) error {
	return &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize CSV row '%s' (line %d): %v", d.name, line, err)}
}

// Read implements BulkReader: it appends up to n records to cols (one vector per field; nil for a
// skipped field). It returns the number of records appended and whether
// the file ended.
func (d *csvBatchDecoder) Read(cols []*vector.Vec, n int) (int, bool, error) {
	sc := d.sc
	added := 0
	for added < n {
		ok, err := sc.next()
		if d.header && ok && err == nil {
			d.header = false
			continue
		}
		if err != nil {
			var se *csvSyntaxError
			if errors.As(err, &se) {
				if d.f.ignoreErrors {
					continue
				}
				return added, false, d.parseError(se.line, se)
			}
			return added, false, d.parseError(sc.line, err)
		}
		if !ok {
			return added, true, nil
		}
		nf := len(sc.refs)
		if nf != len(d.ts) && !d.f.ignoreErrors {
			return added, false, d.parseError(sc.recLine, fmt.Errorf("expected %d fields, found %d", len(d.ts), nf))
		}
		for j, col := range cols {
			conv := d.convs[j]
			if conv == convSkip || col == nil {
				continue
			}
			if j >= nf {
				col.AppendNull()
				continue
			}
			if err := d.convert(col, conv, d.ts[j], sc.field(j)); err != nil {
				if d.f.ignoreErrors {
					col.AppendNull()
					continue
				}
				return added, false, d.parseError(sc.recLine, err)
			}
		}
		added++
	}
	return added, false, nil
}

// convert appends field b to col. On an error nothing is appended.
func (d *csvBatchDecoder) convert(col *vector.Vec, conv csvConv, t *types.Type, b []byte) error {
	if d.f.nullLiteral != nil && string(b) == *d.f.nullLiteral {
		col.AppendNull()
		return nil
	}
	switch conv {
	case convString:
		col.Strs = append(col.Strs, string(b))
		col.Len++
		return nil
	case convInt:
		if n, ok := parseCSVInt(b); ok && inIntRange(t.Kind, n) {
			col.Ints = append(col.Ints, n)
			col.Len++
			return nil
		}
	case convDouble, convFloat:
		if x, ok := parseCSVFloat(b); ok {
			if conv == convFloat {
				x = float64(float32(x))
			}
			col.Floats = append(col.Floats, x)
			col.Len++
			return nil
		}
	}
	if len(b) == 0 {
		// An empty field is NULL for every type but strings.
		col.AppendNull()
		return nil
	}
	v, err := parseCSVValue(string(b), t, nil, d.f.arrayDelim)
	if err != nil {
		return err
	}
	col.Append(v)
	return nil
}

// parseCSVInt reads a plain decimal integer of up to 18 digits with an
// optional sign, the common case of strconv.ParseInt (which reads the
// rest: spaces, overflow, errors).
func parseCSVInt(b []byte) (int64, bool) {
	i := 0
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		i = 1
	}
	if i == len(b) || len(b)-i > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b[i:] {
		c -= '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	if b[0] == '-' {
		n = -n
	}
	return n, true
}

func inIntRange(k types.Kind, n int64) bool {
	switch k {
	case types.TinyInt:
		return n >= math.MinInt8 && n <= math.MaxInt8
	case types.SmallInt:
		return n >= math.MinInt16 && n <= math.MaxInt16
	case types.Int:
		return n >= math.MinInt32 && n <= math.MaxInt32
	}
	return true
}

// exactPow10 holds the powers of ten a float64 represents exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseCSVFloat reads a plain decimal number (digits with an optional
// sign and point) whose digits fit in 53 bits, dividing by an exact power
// of ten: one correctly rounded operation on exact operands, so the
// result is the one strconv.ParseFloat gives. Other forms are left to it.
func parseCSVFloat(b []byte) (float64, bool) {
	i := 0
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		i = 1
	}
	var mant uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' && frac < 0 {
			frac = 0
			continue
		}
		c -= '0'
		if c > 9 || digits == 19 {
			return 0, false
		}
		mant = mant*10 + uint64(c)
		digits++
		if frac >= 0 {
			frac++
		}
	}
	if digits == 0 || mant >= 1<<53 {
		return 0, false
	}
	frac = max(frac, 0)
	if frac >= len(exactPow10) {
		return 0, false
	}
	x := float64(mant) / exactPow10[frac]
	if b[0] == '-' {
		x = -x
	}
	return x, true
}

// utf8BOM is the byte-order mark some programs write at the start of a
// UTF-8 file.
var utf8BOM = [3]byte{0xEF, 0xBB, 0xBF}

// bomSkipper drops a UTF-8 byte-order mark at the start of its input:
// without it the first field of a CSV file written by a spreadsheet
// starts with three invisible bytes (and a number there fails to parse).
type bomSkipper struct {
	r       io.Reader
	checked bool
	head    []byte // bytes read while checking, not yet returned
	err     error  // the error met while checking
}

func skipBOM(r io.Reader) io.Reader {
	if br, ok := r.(*bytes.Reader); ok {
		// A message stays a *bytes.Reader, whose length sizes the
		// scanner's buffer: the mark is skipped in place.
		var head [3]byte
		if n, _ := br.ReadAt(head[:], 0); n == 3 && head == utf8BOM && br.Size() == int64(br.Len()) {
			br.Seek(3, io.SeekStart)
		}
		return br
	}
	return &bomSkipper{r: r}
}

func (b *bomSkipper) Read(p []byte) (int, error) {
	if !b.checked {
		b.checked = true
		var head [3]byte
		n, err := io.ReadFull(b.r, head[:])
		if n < 3 || head != utf8BOM {
			b.head = append([]byte(nil), head[:n]...)
		}
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			b.err = err
		}
	}
	if len(b.head) > 0 {
		n := copy(p, b.head)
		b.head = b.head[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.r.Read(p)
}
