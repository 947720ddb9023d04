package engine

import "eddy/engine/result"

// The answer types live in package engine/result, where the renderer and
// the gateway client import them without the local engine; these aliases
// keep their engine names.
type (
	// ResultKind says how a statement's answer is shown.
	ResultKind = result.Kind
	// Column is one column of a result's schema.
	Column = result.Column
	// Row is one result row.
	Row = result.Row
	// RowIterator yields a result's rows in order.
	RowIterator = result.RowIterator
	// Result is the answer to one statement.
	Result = result.Result
)

// The kinds of answer (see result.Kind).
const (
	ResultSuccess = result.KindSuccess
	ResultInfo    = result.KindInfo
	ResultRows    = result.KindRows
)

// SliceRows returns an iterator over materialised rows.
func SliceRows(rows []Row) RowIterator { return result.SliceRows(rows) }

// Success is the plain acknowledgement result.
func Success() *Result { return result.Success() }

// Info returns an info-line result.
func Info(msg string) *Result { return result.Info(msg) }

// StringTable returns a result of string columns (SHOW and DESCRIBE
// answers): an empty cell is "", a NULL is nil.
func StringTable(names []string, rows [][]any) *Result { return result.StringTable(names, rows) }
