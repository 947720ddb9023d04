package render

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"eddy/engine/result"
	"eddy/engine/types"
)

// failingRows yields its rows, then fails.
type failingRows struct {
	rows []result.Row
	err  error
}

func (f *failingRows) Next(context.Context) (result.Row, bool, error) {
	if len(f.rows) == 0 {
		return result.Row{}, false, f.err
	}
	r := f.rows[0]
	f.rows = f.rows[1:]
	return r, true, nil
}

func (f *failingRows) Close() error { return nil }

// TestDelimitedHeaderWaitsForARow: csv and tsv print no header for a query
// that fails before its first row; a query without rows still prints its
// header, and one that fails later has printed header and rows.
func TestDelimitedHeaderWaitsForARow(t *testing.T) {
	cols := []result.Column{{Name: "a", Type: types.New(types.Int)}}
	boom := errors.New("boom")
	for _, c := range []struct {
		name    string
		rows    func() result.RowIterator
		wantErr bool
		want    string
	}{
		{"fails first", func() result.RowIterator { return &failingRows{err: boom} }, true, ""},
		{"fails after a row", func() result.RowIterator {
			return &failingRows{rows: []result.Row{{Values: []any{int32(1)}}}, err: boom}
		}, true, "a\n1\n"},
		{"no rows", func() result.RowIterator { return result.SliceRows(nil) }, false, "a\n"},
	} {
		for _, format := range []string{FormatCSV, FormatTSV} {
			var out bytes.Buffer
			res := &result.Result{Kind: result.KindRows, IsQuery: true, Bounded: true, Columns: cols, Rows: c.rows()}
			_, err := Result(context.Background(), &out, res, Options{Format: format})
			if (err != nil) != c.wantErr || out.String() != c.want {
				t.Errorf("%s, %s: output %q, error %v; want %q", c.name, format, out.String(), err, c.want)
			}
		}
	}
}
