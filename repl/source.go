package repl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"eddy/engine/sqlerr"
)

// MaxStatementBytes is the longest statement the shell reads, its
// comments and blank lines included: piped input, -f, -i and SOURCE files
// stop with an error at a statement (or a line) longer than this instead
// of reading on until memory runs out (input without a ';', an endless
// file such as /dev/zero).
const MaxStatementBytes = 16 << 20

// statementTooLargeError is the error of a statement, or a line, longer
// than MaxStatementBytes.
type statementTooLargeError struct{}

func (statementTooLargeError) Error() string {
	return fmt.Sprintf("The statement is longer than %d MiB, the most the shell reads as one statement (is a ';' missing?).",
		MaxStatementBytes>>20)
}

// Class returns the exception class the shell shows.
func (statementTooLargeError) Class() string { return sqlerr.SqlExecutionException }

// isTooLarge reports whether err is a statement longer than
// MaxStatementBytes.
func isTooLarge(err error) bool {
	var e statementTooLargeError
	return errors.As(err, &e)
}

// lineSource yields input one line at a time. ReadLine returns io.EOF at the
// end of input and errInterrupt when the user pressed Ctrl-C; a last line
// without a line end comes with a nil error, and io.EOF follows.
type lineSource interface {
	ReadLine(prompt string) (string, error)
	// SaveHistory records a finished statement (interactive only).
	SaveHistory(entry string)
	Close() error
}

// errInterrupt reports Ctrl-C at the prompt.
var errInterrupt = errors.New("interrupted")

// plainSource reads piped input and files: no prompt, no echo, no history.
// It drops the carriage return of CRLF line ends and a UTF-8 byte-order mark
// at the start. A line longer than MaxStatementBytes is a
// statementTooLargeError.
type plainSource struct {
	r     *bufio.Reader
	first bool
}

func newPlainSource(r io.Reader) *plainSource {
	return &plainSource{r: bufio.NewReaderSize(r, 64<<10), first: true}
}

func (s *plainSource) ReadLine(string) (string, error) {
	var buf []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxStatementBytes {
			return "", statementTooLargeError{}
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (err != io.EOF || len(buf) == 0) {
			return "", err
		}
		break
	}
	line := string(buf)
	if s.first {
		s.first = false
		line = strings.TrimPrefix(line, "\uFEFF")
	}
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	return line, nil
}

func (s *plainSource) SaveHistory(string) {}

func (s *plainSource) Close() error { return nil }

// MaxScriptBytes is the largest script -i reads (it reads the file whole
// before anything runs).
const MaxScriptBytes = 64 << 20

// ReadScript reads the script file at path (-i): an error when the file
// holds more than limit bytes (an endless file such as /dev/zero is
// not read to its end).
func ReadScript(path string, limit int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if int64(len(data)) > limit {
		return "", fmt.Errorf("%s: the file is larger than %d MiB", path, limit>>20)
	}
	return string(data), nil
}
