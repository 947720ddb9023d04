package sqlerr_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"eddy/catalogs"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

func TestAs(t *testing.T) {
	if sqlerr.As(nil) != nil {
		t.Fatal("As(nil) is not nil")
	}

	_, perr := parser.Parse("SELEC 1")
	if perr == nil {
		t.Fatal("SELEC 1 parsed")
	}
	plain := errors.New("disk full")
	own := sqlerr.Errorf(sqlerr.ValidationException, "Object '%s' not found", "t")
	for _, tc := range []struct {
		name      string
		err       error
		class     string
		message   string
		line, col int
	}{
		{"classed and positioned", fmt.Errorf("parse: %w", perr), "ParseException", perr.Error(), 1, 1},
		{"classed catalog kind", fmt.Errorf("drop: %w", catalogs.ErrTableNotExist), catalogs.ErrTableNotExist.Class(), catalogs.ErrTableNotExist.Error(), 0, 0},
		{"no class", plain, sqlerr.TableException, "disk full", 0, 0},
		{"already an Error", fmt.Errorf("wrapped: %w", own), sqlerr.ValidationException, "Object 't' not found", 0, 0},
		{"cancelled", context.Canceled, sqlerr.TableException, "context canceled", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := sqlerr.As(tc.err)
			if e.Class != tc.class || e.Message != tc.message || e.Line != tc.line || e.Col != tc.col {
				t.Errorf("As(%v) = {%s, %q, %d:%d}, want {%s, %q, %d:%d}",
					tc.err, e.Class, e.Message, e.Line, e.Col, tc.class, tc.message, tc.line, tc.col)
			}
			if !errors.Is(e, tc.err) && !errors.Is(tc.err, e) {
				t.Errorf("As(%v) lost its cause", tc.err)
			}
		})
	}
	if got := own.Error(); got != "ValidationException: Object 't' not found" {
		t.Errorf("Error() = %q", got)
	}
}
