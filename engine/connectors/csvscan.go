package connectors

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// csvScanner splits CSV bytes into records and fields without a string
// per field: the fields of the current record are byte slices into its
// read buffer (or, for a quoted or escaped field, into a scratch buffer).
//
// It reads what encoding/csv reads with LazyQuotes off, as the format
// did before: RFC 4180 records; "\r\n" ends a line like "\n" (inside a
// quoted field too) and a '\r' before the end of the file is dropped;
// empty lines, and lines starting with '#' under 'csv.allow-comments', are
// skipped; a quote may open a field only at its start, "" inside quotes is
// one quote, and a quote anywhere else is an error. Beyond encoding/csv it
// follows Flink's 'csv.quote-character', 'csv.disable-quote-character'
// and 'csv.escape-character' (Jackson's CSV parser: the escape character
// makes the next character literal, \0 \n \r \t standing for control
// characters, inside and outside quotes).
type csvScanner struct {
	r   io.Reader
	buf []byte
	pos int // start of the unread data in buf
	end int // end of the data in buf
	eof bool
	// line is the line number of buf[pos] (1-based).
	line int

	delim, quote, escape byte
	quoting, escaping    bool
	comments             bool
	// special marks the bytes that stop an unquoted field.
	special [256]bool

	// The current record: its first line, the line ends inside it so far
	// and its fields.
	recLine int
	nl      int
	refs    []fieldRef
	scratch []byte
}

// fieldRef locates a field of the current record: buf[a:b], or
// scratch[a:b] when inScratch.
type fieldRef struct {
	a, b      int
	inScratch bool
}

// csvSyntaxError is a record the format cannot read; the scanner has
// skipped the rest of the line it was found on.
type csvSyntaxError struct {
	line int
	msg  string
}

func (e *csvSyntaxError) Error() string { return e.msg }

// errNeedMore asks for more input before a record can be finished.
var errNeedMore = errors.New("csv: record continues past the buffer")

// errEndOfInput: the input ended with skipped lines only.
var errEndOfInput = errors.New("csv: end of input")

const csvBufSize = 256 << 10

func newCSVScanner(r io.Reader, f *csvOptions) *csvScanner {
	size := csvBufSize
	if br, ok := r.(*bytes.Reader); ok {
		size = min(size, max(16, int(br.Len())+1)) // one message: no file-sized buffer
	}
	s := &csvScanner{r: r, buf: make([]byte, size), line: 1,
		delim: byte(f.delim), quoting: !f.noQuote, quote: byte(f.quote),
		escaping: f.escape != 0, escape: byte(f.escape), comments: f.allowComments}
	s.special[s.delim] = true
	s.special['\n'] = true
	s.special['\r'] = true
	if s.quoting {
		s.special[s.quote] = true
	}
	if s.escaping {
		s.special[s.escape] = true
	}
	return s
}

// csvByteOptions reports whether the format's delimiter, quote and escape
// characters are single bytes, which the scanner requires.
func (f *csvOptions) byteOptions() bool {
	return f.delim < 0x80 && f.quote < 0x80 && f.escape < 0x80
}

// fill reads more input after the data from keep on, moving that data to
// the front of the buffer (growing it when a record fills it). It returns
// how far the kept data moved.
func (s *csvScanner) fill(keep int) (int, error) {
	n := copy(s.buf, s.buf[keep:s.end])
	shift := keep
	s.pos -= shift
	s.end = n
	if s.end == len(s.buf) {
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for s.end < len(s.buf) {
		m, err := s.r.Read(s.buf[s.end:])
		s.end += m
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return shift, err
		}
		if m > 0 {
			break
		}
	}
	return shift, nil
}

// next reads the next record into s.refs. It returns false at the end of
// the input, and a *csvSyntaxError for a malformed record (the rest of its
// line skipped, so the caller may go on).
func (s *csvScanner) next() (bool, error) {
	for {
		if s.pos >= s.end {
			if s.eof {
				return false, nil
			}
			if _, err := s.fill(s.pos); err != nil {
				return false, err
			}
			continue
		}
		start, line := s.pos, s.line
		err := s.record()
		if err == nil {
			return true, nil
		}
		if err == errEndOfInput {
			return false, nil
		}
		if err == errNeedMore {
			// Read more and parse the record again from its start.
			s.line = line
			s.pos = start
			if _, err := s.fill(start); err != nil {
				return false, err
			}
			continue
		}
		return false, err
	}
}

// skipLine moves past the end of the line holding i (or to the end of
// the input), reading more as needed.
func (s *csvScanner) skipLine(i int) error {
	for {
		for ; i < s.end; i++ {
			if s.buf[i] == '\n' {
				s.pos = i + 1
				s.line++
				return nil
			}
		}
		if s.eof {
			s.pos = s.end
			return nil
		}
		s.pos = i
		if _, err := s.fill(i); err != nil {
			return err
		}
		i = s.pos
	}
}

// syntax builds the error of a malformed record found at i and skips the
// rest of that line.
func (s *csvScanner) syntax(i int, msg string) error {
	e := &csvSyntaxError{line: s.recLine, msg: msg}
	s.line = s.lineAt(i)
	if err := s.skipLine(i); err != nil {
		return err
	}
	return e
}

// lineAt returns the line number of buf[i], counting from s.pos.
func (s *csvScanner) lineAt(i int) int {
	n := s.line
	for _, c := range s.buf[s.pos:i] {
		if c == '\n' {
			n++
		}
	}
	return n
}

// record parses the record at s.pos. It returns errNeedMore (nothing
// consumed) when the buffer ends before the record does and more input
// may follow, errEndOfInput when only skipped lines were left.
//
// While a record is parsed, s.pos and s.line stay at its start and s.nl
// counts the line ends consumed; finish moves past the record.
func (s *csvScanner) record() error {
	buf, end := s.buf, s.end
	i := s.pos
	// Skip empty lines and comment lines.
	for {
		if i >= end {
			if !s.eof {
				return errNeedMore
			}
			s.pos = end
			return errEndOfInput
		}
		c := buf[i]
		if c == '\n' {
			i++
			s.line++
			continue
		}
		if c == '\r' {
			if i+1 >= end {
				if !s.eof {
					return errNeedMore
				}
				i++
				continue
			}
			if buf[i+1] == '\n' {
				i += 2
				s.line++
				continue
			}
		}
		if s.comments && c == '#' {
			j := i
			for j < end && buf[j] != '\n' {
				j++
			}
			if j >= end {
				if !s.eof {
					return errNeedMore
				}
				i = end
				continue
			}
			i = j + 1
			s.line++
			continue
		}
		break
	}
	s.pos = i
	s.recLine = s.line
	s.nl = 0
	s.refs = s.refs[:0]
	s.scratch = s.scratch[:0]
	special := &s.special
	for {
		// One field starting at i.
		if s.quoting && i < end && buf[i] == s.quote {
			j, done, err := s.quoted(i)
			if err != nil || done {
				return err
			}
			i = j
			continue
		}
		j := i
		for j < end && !special[buf[j]] {
			j++
		}
		if j >= end {
			if !s.eof {
				return errNeedMore
			}
			s.refs = append(s.refs, fieldRef{a: i, b: j})
			s.finish(end, 0)
			return nil
		}
		switch c := buf[j]; {
		case c == s.delim:
			s.refs = append(s.refs, fieldRef{a: i, b: j})
			i = j + 1
		case c == '\n':
			s.refs = append(s.refs, fieldRef{a: i, b: j})
			s.finish(j+1, 1)
			return nil
		case c == '\r' && j+1 < end && buf[j+1] == '\n':
			s.refs = append(s.refs, fieldRef{a: i, b: j})
			s.finish(j+2, 1)
			return nil
		case s.quoting && c == s.quote:
			return s.syntax(j, fmt.Sprintf("bare %c in non-quoted-field", s.quote))
		default: // the escape character or a '\r'
			k, done, err := s.unquotedSlow(i, j)
			if err != nil || done {
				return err
			}
			i = k
		}
	}
}

// finish ends the current record at next, nl more line ends consumed.
func (s *csvScanner) finish(next, nl int) {
	s.pos = next
	s.line = s.recLine + s.nl + nl
}

// unquotedSlow reads an unquoted field from a (with buf[a:j] plain data)
// into the scratch buffer, handling escapes and lone '\r's. It returns
// the start of the next field, or done when the record ended.
func (s *csvScanner) unquotedSlow(a, j int) (int, bool, error) {
	buf, end := s.buf, s.end
	start := len(s.scratch)
	s.scratch = append(s.scratch, buf[a:j]...)
	ref := func() {
		s.refs = append(s.refs, fieldRef{a: start, b: len(s.scratch), inScratch: true})
	}
	for j < end {
		c := buf[j]
		switch {
		case c == s.delim:
			ref()
			return j + 1, false, nil
		case c == '\n':
			ref()
			s.finish(j+1, 1)
			return 0, true, nil
		case c == '\r':
			if j+1 >= end {
				if !s.eof {
					return 0, false, errNeedMore
				}
				// A '\r' before the end of the input is dropped.
				j++
				continue
			}
			if buf[j+1] == '\n' {
				ref()
				s.finish(j+2, 1)
				return 0, true, nil
			}
			s.scratch = append(s.scratch, c)
			j++
		case s.quoting && c == s.quote:
			return 0, false, s.syntax(j, fmt.Sprintf("bare %c in non-quoted-field", s.quote))
		case s.escaping && c == s.escape:
			next, err := s.escaped(j)
			if err != nil {
				return 0, false, err
			}
			j = next
		default:
			s.scratch = append(s.scratch, c)
			j++
		}
	}
	if !s.eof {
		return 0, false, errNeedMore
	}
	ref()
	s.finish(end, 0)
	return 0, true, nil
}

// escaped appends to the scratch buffer the character that the escape
// character at j stands for and returns where the field goes on. An
// escape character that ends the input stands for itself.
func (s *csvScanner) escaped(j int) (int, error) {
	if j+1 >= s.end {
		if !s.eof {
			return 0, errNeedMore
		}
		s.scratch = append(s.scratch, s.buf[j])
		return j + 1, nil
	}
	if s.buf[j+1] == '\n' {
		s.nl++
	}
	s.scratch = append(s.scratch, unescapeCSV(s.buf[j+1]))
	return j + 2, nil
}

// quoted reads the quoted field whose opening quote is at i into the
// scratch buffer. It returns the start of the next field, or done when
// the record ended.
func (s *csvScanner) quoted(i int) (int, bool, error) {
	buf, end := s.buf, s.end
	start := len(s.scratch)
	ref := func() {
		s.refs = append(s.refs, fieldRef{a: start, b: len(s.scratch), inScratch: true})
	}
	j := i + 1
	for {
		if j >= end {
			if !s.eof {
				return 0, false, errNeedMore
			}
			return 0, false, s.syntax(end, fmt.Sprintf("extraneous or missing %c in quoted-field", s.quote))
		}
		c := buf[j]
		switch {
		case c == s.quote:
			if j+1 >= end {
				if !s.eof {
					return 0, false, errNeedMore
				}
				ref()
				s.finish(end, 0)
				return 0, true, nil
			}
			switch d := buf[j+1]; {
			case d == s.quote:
				s.scratch = append(s.scratch, c)
				j += 2
			case d == s.delim:
				ref()
				return j + 2, false, nil
			case d == '\n':
				ref()
				s.finish(j+2, 1)
				return 0, true, nil
			case d == '\r' && j+2 >= end:
				if !s.eof {
					return 0, false, errNeedMore
				}
				ref()
				s.finish(end, 0)
				return 0, true, nil
			case d == '\r' && buf[j+2] == '\n':
				ref()
				s.finish(j+3, 1)
				return 0, true, nil
			default:
				return 0, false, s.syntax(j+1, fmt.Sprintf("extraneous or missing %c in quoted-field", s.quote))
			}
		case s.escaping && c == s.escape:
			next, err := s.escaped(j)
			if err != nil {
				return 0, false, err
			}
			j = next
		case c == '\r' && j+1 >= end && !s.eof:
			return 0, false, errNeedMore
		case c == '\r' && j+1 < end && buf[j+1] == '\n':
			// "\r\n" inside quotes reads as "\n".
			s.scratch = append(s.scratch, '\n')
			s.nl++
			j += 2
		default:
			if c == '\n' {
				s.nl++
			}
			s.scratch = append(s.scratch, c)
			j++
		}
	}
}

// unescapeCSV is the character an escape character followed by c stands
// for (Jackson's CsvDecoder).
func unescapeCSV(c byte) byte {
	switch c {
	case '0':
		return 0
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c
}

// field returns field k of the current record.
func (s *csvScanner) field(k int) []byte {
	r := s.refs[k]
	if r.inScratch {
		return s.scratch[r.a:r.b]
	}
	return s.buf[r.a:r.b]
}
