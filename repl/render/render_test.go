package render

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"eddy/engine/result"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
)

// TestRender runs the golden files under testdata/. Each "render" case
// describes a result: the first input line holds the columns
// ("name TYPE | name TYPE", a name with blanks in double quotes), every further line a row with cells separated
// by " | " (a leading "+I " etc. gives the row kind; NULL is null; a cell in
// double quotes is a Go string literal). Arguments:
//
//	kind=success|info|rows  query  changelog  mode=tableau|table|changelog
//	width=N  interactive  tz=Zone  cost=SECONDS  cancel-after=N  fail-after=N
//	streaming color format=FORMAT max-rows=N unbounded
//
// The output is what the shell would print (the answer, then any error it
// reports) and the tag as a .q file writes it.
func TestRender(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "render":
				return runRender(t, d)
			case "error":
				return runError(t, d)
			case "help":
				var b bytes.Buffer
				tag := HelpAnswer(&b)
				return b.String() + "!" + tag.String() + "\n"
			}
			t.Fatalf("unknown command %q", d.Cmd)
			return ""
		})
	})
}

func runRender(t *testing.T, d *datadriven.TestData) string {
	opt := Options{ResultMode: ModeTableau, MaxColumnWidth: 30}
	res := &result.Result{Kind: result.KindRows, Bounded: true}
	cancelAfter, failAfter := -1, -1
	for _, a := range d.CmdArgs {
		val := ""
		if len(a.Vals) > 0 {
			val = a.Vals[0]
		}
		switch a.Key {
		case "kind":
			switch val {
			case "success":
				res.Kind = result.KindSuccess
			case "info":
				res.Kind = result.KindInfo
				res.Message = d.Input
			case "rows":
			default:
				t.Fatalf("bad kind %q", val)
			}
		case "query":
			res.IsQuery = true
		case "changelog":
			res.Changelog, opt.Streaming = true, true
		case "mode":
			opt.ResultMode = val
		case "width":
			opt.MaxColumnWidth = atoi(t, val)
		case "interactive":
			opt.Interactive = true
		case "tz":
			loc, err := time.LoadLocation(val)
			if err != nil {
				t.Fatal(err)
			}
			opt.Location = loc
		case "cost":
			secs, err := strconv.ParseFloat(val, 64)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
			opt.PrintTimeCost, opt.Started = true, start
			opt.Now = func() time.Time { return start.Add(time.Duration(secs * float64(time.Second))) }
		case "cancel-after":
			cancelAfter = atoi(t, val)
		case "fail-after":
			failAfter = atoi(t, val)
		case "format":
			opt.Format = val
		case "max-rows":
			opt.MaxTableRows = atoi(t, val)
		case "unbounded":
			res.Bounded = false
		case "color":
			opt.Color = true
		case "verbose":
			opt.Verbose = true
		default:
			t.Fatalf("unknown argument %q", a.Key)
		}
	}
	var rows []result.Row
	if res.Kind == result.KindRows {
		lines := strings.Split(d.Input, "\n")
		res.Columns = parseColumns(t, lines[0])
		for _, l := range lines[1:] {
			rows = append(rows, parseRow(t, res.Columns, l))
		}
	}
	run := func(opt Options) string {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		res := *res
		if res.Kind == result.KindRows {
			res.Rows = &scriptedRows{rows: rows, cancelAfter: cancelAfter, failAfter: failAfter, cancel: cancel}
		}
		var out bytes.Buffer
		tag, err := Result(ctx, &out, &res, opt)
		if err != nil {
			tag = Max(tag, Error(&out, err, opt))
		}
		if sr, ok := res.Rows.(*scriptedRows); ok && !sr.closed {
			t.Errorf("%s: Result did not close the rows", d.Pos)
		}
		return visible(out.String()) + "!" + tag.String() + "\n"
	}
	got := run(opt)
	// Every answer is the same when the rows held for sizing the table pass
	// a one-byte memory budget and wait in a temporary file instead.
	opt.MemoryBudget = 1
	if spilled := run(opt); spilled != got {
		t.Errorf("%s: with a one-byte memory budget the answer is\n%s\nwithout one\n%s", d.Pos, spilled, got)
	}
	return got
}

// visible shows the escape character of ANSI colours as ^[.
func visible(s string) string { return strings.ReplaceAll(s, "\x1b", "^[") }

func runError(t *testing.T, d *datadriven.TestData) string {
	opt := Options{}
	var err error = errors.New(d.Input)
	for _, a := range d.CmdArgs {
		switch a.Key {
		case "class":
			err = &sqlerr.Error{Class: a.Vals[0], Message: d.Input}
		case "wrapped":
			err = &sqlerr.Error{Class: a.Vals[0], Message: d.Input, Cause: fmt.Errorf("while planning: %w", errors.New("root cause"))}
		case "panic":
			err = Internal(d.Input, []byte("goroutine 1 [running]:\nmain.main()\n"))
		case "verbose":
			opt.Verbose = true
		case "color":
			opt.Color = true
		default:
			t.Fatalf("unknown argument %q", a.Key)
		}
	}
	var out bytes.Buffer
	tag := Error(&out, err, opt)
	return visible(out.String()) + "!" + tag.String() + "\n"
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func parseColumns(t *testing.T, line string) []result.Column {
	var cols []result.Column
	for _, spec := range strings.Split(line, " | ") {
		spec = strings.TrimSpace(spec)
		name, typ, ok := strings.Cut(spec, " ")
		if strings.HasPrefix(spec, `"`) {
			// a name holding blanks: "table name" STRING
			end := strings.Index(spec[1:], `"`) + 1
			name, typ, ok = spec[1:end], strings.TrimSpace(spec[end+1:]), end > 0
		}
		if !ok {
			t.Fatalf("column %q: want NAME TYPE", spec)
		}
		ty, err := types.Parse(typ)
		if err != nil {
			t.Fatalf("column %q: %v", spec, err)
		}
		cols = append(cols, result.Column{Name: name, Type: ty})
	}
	return cols
}

func parseRow(t *testing.T, cols []result.Column, line string) result.Row {
	var r result.Row
	for _, k := range []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete} {
		if strings.HasPrefix(line, k.String()+" ") {
			r.Kind, line = k, line[3:]
		}
	}
	texts := strings.Split(line, " | ")
	if len(texts) != len(cols) {
		t.Fatalf("row %q: %d cells for %d columns", line, len(texts), len(cols))
	}
	for i, s := range texts {
		r.Values = append(r.Values, parseValue(t, cols[i].Type, strings.TrimSpace(s)))
	}
	return r
}

func parseValue(t *testing.T, ty *types.Type, s string) any {
	if s == "NULL" {
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("cell %s: %v", s, err)
		}
		s = u
	}
	fail := func(err error) any {
		t.Fatalf("cell %q of type %s: %v", s, ty, err)
		return nil
	}
	parseInt := func(bits int) int64 {
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			fail(err)
		}
		return n
	}
	switch ty.Kind {
	case types.Char, types.VarChar:
		return s
	case types.Boolean:
		return strings.EqualFold(s, "true")
	case types.TinyInt:
		return int8(parseInt(8))
	case types.SmallInt:
		return int16(parseInt(16))
	case types.Int:
		return int32(parseInt(32))
	case types.BigInt:
		return parseInt(64)
	case types.Float, types.Double:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fail(err)
		}
		if ty.Kind == types.Float {
			return float32(f)
		}
		return f
	case types.Decimal:
		d, err := types.ParseDecimal(s)
		if err != nil {
			return fail(err)
		}
		return d
	case types.Binary, types.VarBinary:
		b, err := hex.DecodeString(s)
		if err != nil {
			return fail(err)
		}
		return b
	case types.Date:
		v, err := time.Parse("2006-01-02", s)
		if err != nil {
			return fail(err)
		}
		return v
	case types.Time:
		v, err := time.Parse("15:04:05.999999999", s)
		if err != nil {
			return fail(err)
		}
		return v
	case types.Timestamp, types.TimestampLTZ:
		v, err := time.Parse("2006-01-02 15:04:05.999999999", s)
		if err != nil {
			return fail(err)
		}
		return v
	case types.IntervalYearMonth:
		return int32(parseInt(32))
	case types.IntervalDayTime:
		return parseInt(64)
	}
	return fail(fmt.Errorf("no test conversion"))
}

// scriptedRows yields rows, then optionally cancels the context or fails.
type scriptedRows struct {
	rows        []result.Row
	i           int
	cancelAfter int
	failAfter   int
	cancel      context.CancelFunc
	closed      bool
}

func (s *scriptedRows) Next(ctx context.Context) (result.Row, bool, error) {
	if s.i == s.cancelAfter {
		s.cancel()
	}
	if err := ctx.Err(); err != nil {
		return result.Row{}, false, err
	}
	if s.i == s.failAfter {
		return result.Row{}, false, &sqlerr.Error{Class: "ArithmeticException", Message: "/ by zero"}
	}
	if s.i >= len(s.rows) {
		return result.Row{}, false, nil
	}
	s.i++
	return s.rows[s.i-1], true, nil
}

func (s *scriptedRows) Close() error { s.closed = true; return nil }
