package repl

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

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
// at the start.
type plainSource struct {
	r     *bufio.Reader
	first bool
}

func newPlainSource(r io.Reader) *plainSource {
	return &plainSource{r: bufio.NewReaderSize(r, 64<<10), first: true}
}

func (s *plainSource) ReadLine(string) (string, error) {
	line, err := s.r.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		return "", err
	}
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
