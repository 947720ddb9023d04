package exec

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Sorted runs that outgrow the sort's memory budget are written to
// temporary files and merged back. A run file holds rows one after the
// other: for each column a null byte and, when not NULL, the value in a
// compact encoding of its physical class.

// errNotSpillable is returned for columns whose values have no run-file
// encoding (ARRAY, MAP, ROW, RAW); such sorts stay in memory.
var errNotSpillable = errors.New("column type cannot be spilled")

func spillable(ts []*types.Type) bool {
	for _, t := range ts {
		if vector.ClassOf(t) == vector.Any {
			return false
		}
	}
	return true
}

// runFile is one sorted run on disk.
type runFile struct {
	f    *os.File
	r    *bufio.Reader
	cols []*types.Type // key columns then row columns
}

// writeRun writes the rows of cols (all of length n) to a new temporary
// file and returns it rewound for reading.
func writeRun(cols []*vector.Vec, n int) (*runFile, error) {
	f, err := os.CreateTemp("", "eddy-sort-*")
	if err != nil {
		return nil, err
	}
	// The file is unlinked at once: it disappears with its descriptor,
	// whatever happens to the statement.
	os.Remove(f.Name())
	w := bufio.NewWriterSize(f, 1<<16)
	var buf []byte
	for i := range n {
		buf = buf[:0]
		for _, v := range cols {
			buf = appendValue(buf, v, i)
		}
		if _, err := w.Write(buf); err != nil {
			f.Close()
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	ts := make([]*types.Type, len(cols))
	for i, v := range cols {
		ts[i] = v.T
	}
	return &runFile{f: f, r: bufio.NewReaderSize(f, 1<<16), cols: ts}, nil
}

func appendValue(buf []byte, v *vector.Vec, i int) []byte {
	if v.IsNull(i) {
		return append(buf, 0)
	}
	buf = append(buf, 1)
	switch v.Class {
	case vector.Bool:
		if v.Bools[i] {
			return append(buf, 1)
		}
		return append(buf, 0)
	case vector.Int:
		return binary.AppendVarint(buf, v.Ints[i])
	case vector.Float:
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(v.Floats[i]))
	case vector.Decimal:
		// The coefficient and exponent, which keep the scale.
		s := v.Decs[i].Coefficient().String() + "e" + strconv.Itoa(int(v.Decs[i].Exponent()))
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		return append(buf, s...)
	case vector.String:
		buf = binary.AppendUvarint(buf, uint64(len(v.Strs[i])))
		return append(buf, v.Strs[i]...)
	case vector.Bytes:
		buf = binary.AppendUvarint(buf, uint64(len(v.Bytes[i])))
		return append(buf, v.Bytes[i]...)
	case vector.Time:
		t := v.Times[i]
		buf = binary.AppendVarint(buf, t.Unix())
		return binary.AppendUvarint(buf, uint64(t.Nanosecond()))
	}
	panic(errNotSpillable) // callers check spillable first
}

// readBatch reads up to max rows into a new batch; it returns nil at the
// end of the run.
func (rf *runFile) readBatch(max int) (*vector.Batch, error) {
	b := vector.NewBatch(rf.cols, max)
	for b.N < max {
		if _, err := rf.r.Peek(1); err == io.EOF {
			break
		}
		for _, v := range b.Cols {
			if err := readValue(rf.r, v); err != nil {
				return nil, fmt.Errorf("reading a sort run: %w", err)
			}
		}
		b.N++
	}
	if b.N == 0 {
		return nil, nil
	}
	return b, nil
}

func readValue(r *bufio.Reader, v *vector.Vec) error {
	tag, err := r.ReadByte()
	if err != nil {
		return err
	}
	if tag == 0 {
		v.AppendNull()
		return nil
	}
	readBytes := func() ([]byte, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		b := make([]byte, n)
		_, err = io.ReadFull(r, b)
		return b, err
	}
	switch v.Class {
	case vector.Bool:
		b, err := r.ReadByte()
		if err != nil {
			return err
		}
		v.Bools = append(v.Bools, b == 1)
	case vector.Int:
		n, err := binary.ReadVarint(r)
		if err != nil {
			return err
		}
		v.Ints = append(v.Ints, n)
	case vector.Float:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return err
		}
		v.Floats = append(v.Floats, math.Float64frombits(binary.LittleEndian.Uint64(b[:])))
	case vector.Decimal:
		b, err := readBytes()
		if err != nil {
			return err
		}
		d, err := types.ParseDecimal(string(b))
		if err != nil {
			return err
		}
		v.Decs = append(v.Decs, d)
	case vector.String:
		b, err := readBytes()
		if err != nil {
			return err
		}
		v.Strs = append(v.Strs, string(b))
	case vector.Bytes:
		b, err := readBytes()
		if err != nil {
			return err
		}
		v.Bytes = append(v.Bytes, b)
	case vector.Time:
		sec, err := binary.ReadVarint(r)
		if err != nil {
			return err
		}
		ns, err := binary.ReadUvarint(r)
		if err != nil {
			return err
		}
		v.Times = append(v.Times, time.Unix(sec, int64(ns)).UTC())
	default:
		return errNotSpillable
	}
	v.Len++
	return nil
}

func (rf *runFile) Close() error { return rf.f.Close() }

// spillPart is one partition file of an aggregation's spilled input rows.
type spillPart struct {
	f   *os.File
	w   *bufio.Writer
	ts  []*types.Type
	buf []byte
	run *runFile // set by finish
}

func newSpillPart(ts []*types.Type) (*spillPart, error) {
	f, err := os.CreateTemp("", "eddy-agg-*")
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return &spillPart{f: f, w: bufio.NewWriterSize(f, partBufSize), ts: ts}, nil
}

// partBufSize is the buffer of a partition file: partitions are written
// many at a time (a grace hash join holds 64 open, 128 while it splits
// one), so their buffers stay small.
const partBufSize = 16 << 10

func (p *spillPart) write(bt *vector.Batch, row int) error {
	p.buf = p.buf[:0]
	for _, v := range bt.Cols {
		p.buf = appendValue(p.buf, v, row)
	}
	_, err := p.w.Write(p.buf)
	return err
}

// finish makes the partition readable from its start.
func (p *spillPart) finish() error {
	if err := p.w.Flush(); err != nil {
		return err
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	p.run = &runFile{f: p.f, r: bufio.NewReaderSize(p.f, partBufSize), cols: p.ts}
	return nil
}

func (p *spillPart) close() error { return p.f.Close() }
