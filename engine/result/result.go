package result

import (
	"context"

	"eddy/engine/types"
)

// Kind says how a statement's answer is shown.
type Kind uint8

const (
	// KindSuccess is an acknowledgement without rows:
	// "[INFO] Execute statement succeeded."
	KindSuccess Kind = iota
	// KindInfo is another info line, held in Result.Message, such as
	// "Complete execution of the SQL update statement."
	KindInfo
	// KindRows is a table of rows (a query, SHOW, DESCRIBE, SET;).
	KindRows
)

// Column is one column of a result's schema.
type Column struct {
	Name string
	Type *types.Type
}

// Row is one result row. Values hold the Go representation of each column's
// type (see package types); nil is SQL NULL.
type Row struct {
	Kind   types.RowKind
	Values []any
}

// RowIterator yields a result's rows in order. Next returns false when the
// rows are exhausted; it returns ctx.Err() when the context is cancelled.
// Close releases what the iterator holds and may be called at any time.
type RowIterator interface {
	Next(ctx context.Context) (Row, bool, error)
	Close() error
}

// Result is the answer to one statement.
type Result struct {
	Kind    Kind
	Message string // KindInfo only

	Columns []Column
	Rows    RowIterator // KindRows only

	// IsQuery is true for rows produced by a query (SELECT, VALUES...):
	// NULL prints as <NULL>. For SHOW, DESCRIBE and SET listings NULL
	// prints as an empty cell, as the Flink SQL client does.
	IsQuery bool
	// Changelog is true for a query run in streaming mode: the rows carry
	// row kinds and the tableau view adds the op column.
	Changelog bool
	// Bounded is false for a query over an unbounded source.
	Bounded bool
}

// Close releases the result's rows, if any.
func (r *Result) Close() error {
	if r == nil || r.Rows == nil {
		return nil
	}
	return r.Rows.Close()
}

// SliceRows returns an iterator over materialised rows.
func SliceRows(rows []Row) RowIterator { return &sliceRows{rows: rows} }

type sliceRows struct {
	rows []Row
	i    int
}

var _ RowIterator = (*sliceRows)(nil)

func (s *sliceRows) Next(ctx context.Context) (Row, bool, error) {
	if err := ctx.Err(); err != nil {
		return Row{}, false, err
	}
	if s.i >= len(s.rows) {
		return Row{}, false, nil
	}
	r := s.rows[s.i]
	s.i++
	return r, true, nil
}

func (s *sliceRows) Close() error { return nil }

// Success is the plain acknowledgement result.
func Success() *Result { return &Result{Kind: KindSuccess} }

// Info returns an info-line result.
func Info(msg string) *Result { return &Result{Kind: KindInfo, Message: msg} }

// StringTable returns a result of string columns (SHOW and DESCRIBE
// answers): an empty cell is "", a NULL is nil.
func StringTable(names []string, rows [][]any) *Result {
	cols := make([]Column, len(names))
	for i, n := range names {
		cols[i] = Column{Name: n, Type: types.NewString()}
	}
	rs := make([]Row, len(rows))
	for i, r := range rows {
		rs[i] = Row{Values: r}
	}
	return &Result{Kind: KindRows, Columns: cols, Rows: SliceRows(rs), Bounded: true}
}
