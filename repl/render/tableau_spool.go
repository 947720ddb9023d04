package render

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Estimated heap cost of a held row: its slice header, and per cell a
// string header plus the bytes and allocation overhead of its text. The
// figure need only be proportional, so that the budget bounds what is held.
const (
	rowOverhead  = 24
	cellOverhead = 16 + 16
)

// cellSpool holds the printed cells of a bounded answer until its table
// can be sized: a tableau table is as wide as its widest cells, so every
// row is read before the first one is printed. While the cells held stay
// within budget bytes (estimated) they stay in memory; past it they go to
// a temporary file, only the running widths stay in memory, and the rows
// are printed from the file. Close removes the file.
type cellSpool struct {
	nc     int
	budget int64 // 0: no limit
	held   int64
	n      int
	widths []int // widest display width of each column's cells so far

	chunks [][][]string // rows held in memory, in chunks
	flat   []string     // unused cells of the last chunk

	f   *os.File // the spill, or nil
	bw  *bufio.Writer
	num []byte
}

func newCellSpool(nc int, budget int64) *cellSpool {
	return &cellSpool{nc: nc, budget: max(budget, 0), widths: make([]int, nc)}
}

// add keeps a copy of one row of cells.
func (s *cellSpool) add(cells []string) error {
	size := int64(rowOverhead)
	for i, c := range cells {
		if w := displayWidth(c); w > s.widths[i] {
			s.widths[i] = w
		}
		size += cellOverhead + int64(len(c))
	}
	s.n++
	if s.f != nil {
		return s.encode(cells)
	}
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1]) == cap(s.chunks[len(s.chunks)-1]) {
		// Chunks grow from a few rows to 1024: a short result (most
		// statements' answers) allocates little, a long one no chunk
		// larger than 1024 rows.
		rows := 16
		if n := len(s.chunks); n > 0 {
			rows = min(2*cap(s.chunks[n-1]), 1024)
		}
		s.flat = make([]string, s.nc*rows)
		s.chunks = append(s.chunks, make([][]string, 0, rows))
	}
	row := s.flat[:s.nc:s.nc]
	copy(row, cells)
	s.flat = s.flat[s.nc:]
	last := len(s.chunks) - 1
	s.chunks[last] = append(s.chunks[last], row)
	s.held += size
	if s.budget > 0 && s.held > s.budget {
		return s.spill()
	}
	return nil
}

// spill moves the rows held in memory to a new temporary file; the rows
// added after it go there too.
func (s *cellSpool) spill() error {
	f, err := os.CreateTemp("", "eddy-tableau-*")
	if err != nil {
		return fmt.Errorf("spilling a result to disk: %w", err)
	}
	s.f, s.bw = f, bufio.NewWriterSize(f, 64<<10)
	for _, rows := range s.chunks {
		for _, r := range rows {
			if err := s.encode(r); err != nil {
				return err
			}
		}
	}
	s.chunks, s.flat, s.held = nil, nil, 0
	return nil
}

// encode appends a row to the spill: each cell as its length (uvarint)
// and its bytes.
func (s *cellSpool) encode(cells []string) error {
	for _, c := range cells {
		s.num = binary.AppendUvarint(s.num[:0], uint64(len(c)))
		s.bw.Write(s.num)
		if _, err := s.bw.WriteString(c); err != nil {
			return fmt.Errorf("spilling a result to disk: %w", err)
		}
	}
	return nil
}

// each calls fn with every row in the order added; the slice fn gets is
// reused.
func (s *cellSpool) each(fn func([]string)) error {
	if s.f == nil {
		for _, rows := range s.chunks {
			for _, r := range rows {
				fn(r)
			}
		}
		return nil
	}
	if err := s.bw.Flush(); err != nil {
		return fmt.Errorf("spilling a result to disk: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reading a spilled result: %w", err)
	}
	br := bufio.NewReaderSize(s.f, 64<<10)
	row := make([]string, s.nc)
	var text []byte
	for range s.n {
		for i := range row {
			l, err := binary.ReadUvarint(br)
			if err == nil {
				if uint64(cap(text)) < l {
					text = make([]byte, l)
				}
				text = text[:l]
				_, err = io.ReadFull(br, text)
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF
				}
				return fmt.Errorf("reading a spilled result: %w", err)
			}
			row[i] = string(text)
		}
		fn(row)
	}
	return nil
}

// write writes the table of the rows added, sized by content and capped at
// limit, with its "N rows in set" footer, or "Empty set" when there are
// none (as writeChunks does).
func (s *cellSpool) write(w io.Writer, names []string, limit int, suffix string) error {
	if s.n == 0 {
		io.WriteString(w, msgEmptySet+suffix+"\n")
		return nil
	}
	widths := make([]int, len(names))
	for i, n := range names {
		widths[i] = min(max(javaLength(n), s.widths[i]), limit)
	}
	tb := &tableau{w: w, widths: widths}
	tb.border()
	tb.row(names)
	tb.border()
	if err := s.each(tb.row); err != nil {
		return err
	}
	tb.border()
	io.WriteString(w, rowsInSet(int64(s.n))+suffix+"\n")
	return nil
}

// Close removes the spill, if there is one.
func (s *cellSpool) Close() error {
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if rerr := os.Remove(s.f.Name()); err == nil {
		err = rerr
	}
	s.f = nil
	return err
}
