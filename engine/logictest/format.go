package logictest

import (
	"slices"
	"strings"

	"eddy/engine"
	"eddy/engine/types"
)

// typeLetters returns one letter per column (see the package comment).
func typeLetters(cols []engine.Column) string {
	var b strings.Builder
	for _, c := range cols {
		b.WriteByte(typeLetter(c.Type))
	}
	return b.String()
}

func typeLetter(t *types.Type) byte {
	if t == nil {
		return 'O'
	}
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return 'I'
	case types.Float, types.Double, types.Decimal:
		return 'R'
	case types.Char, types.VarChar:
		return 'T'
	case types.Boolean:
		return 'B'
	case types.Date, types.Time, types.Timestamp, types.TimestampLTZ, types.TimestampTZ:
		return 'D'
	}
	return 'O'
}

// formatCells prints a row's values as CAST(v AS STRING) gives them.
func formatCells(cols []engine.Column, vals []any) []string {
	cells := make([]string, len(vals))
	for i, v := range vals {
		var t *types.Type
		if i < len(cols) {
			t = cols[i].Type
		}
		cells[i] = types.ValueString(v, t)
	}
	return cells
}

// formatRow prints one result row: Flink's changelog form
// (+I[1, a]) for a changelog, cells joined by " | " otherwise.
func formatRow(changelog bool, kind types.RowKind, cells []string) string {
	if changelog {
		return kind.String() + "[" + strings.Join(cells, ", ") + "]"
	}
	return strings.Join(cells, " | ")
}

// materialize applies a changelog to an empty table and returns the rows
// left, sorted: +I and +U add a row, -U and -D remove an equal one. ok is
// false when a row is removed that is not there.
func materialize(kinds []types.RowKind, rows [][]string) (out []string, bad string, ok bool) {
	for i, r := range rows {
		line := formatRow(false, types.Insert, r)
		if kinds[i].IsAccumulate() {
			out = append(out, line)
			continue
		}
		j := slices.Index(out, line)
		if j < 0 {
			return nil, kinds[i].String() + "[" + strings.Join(r, ", ") + "]", false
		}
		out = slices.Delete(out, j, j+1)
	}
	slices.Sort(out)
	return out, "", true
}
