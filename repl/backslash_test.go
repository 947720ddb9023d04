package repl

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"eddy/engine"
	"eddy/repl/render"
)

// TestBackslashCommands: each backslash command is its line, runs the
// statement it stands for (never the backslash text), and \timing and \x
// change how answers print.
func TestBackslashCommands(t *testing.T) {
	r := runPiped(t, "\\d\n\\d orders;\n  \\dt\n\\dv\n\\l\nSELECT 1;\n", false)
	want := []string{"SHOW TABLES", "DESCRIBE orders", "SHOW TABLES", "SHOW VIEWS", "SHOW DATABASES", "SELECT 1"}
	if r.code != 0 || !reflect.DeepEqual(r.sess.got, want) {
		t.Errorf("exit %d, statements %q, want %q\n%s", r.code, r.sess.got, want, r.err.String())
	}

	r = runPiped(t, "\\x\nquery;\n\\x off\nquery;\n", false)
	out := r.out.String()
	if r.code != 0 || !strings.Contains(out, "[INFO] Expanded display is on.") || !strings.Contains(out, "[INFO] Expanded display is off.") {
		t.Fatalf("\\x: exit %d\n%s%s", r.code, out, r.err.String())
	}
	on, off, _ := strings.Cut(out, "Expanded display is off.")
	if !strings.Contains(on, "1. row") || strings.Contains(off, "1. row") || !strings.Contains(off, "| n |") {
		t.Errorf("\\x does not switch the vertical display on and off:\n%s", out)
	}

	r = runPiped(t, "\\timing on\nquery;\n\\timing\nquery;\n", false)
	out = r.out.String()
	on, off, _ = strings.Cut(out, "Timing is off.")
	if r.code != 0 || !strings.Contains(on, "Timing is on.") || !strings.Contains(on, " seconds)") || strings.Contains(off, "seconds)") {
		t.Errorf("\\timing:\n%s%s", out, r.err.String())
	}

	r = runPiped(t, "\\z\nSELECT 1;\n", false)
	if r.code != 1 || len(r.sess.got) != 0 || !strings.Contains(r.err.String(), `Unknown or wrong client command "\z"`) {
		t.Errorf("unknown command: exit %d, statements %q\n%s", r.code, r.sess.got, r.err.String())
	}
	if !strings.Contains(r.err.String(), "<stdin>:1:1: in this statement:\n    \\z") {
		t.Errorf("no location for a failing client command:\n%s", r.err.String())
	}
}

// TestBackslashInHelp: HELP lists the client commands, and not the
// startup options eddy does not have.
func TestBackslashInHelp(t *testing.T) {
	r := runPiped(t, "HELP;\n", false)
	out := r.out.String()
	for _, want := range []string{`\d [name]`, `\dt`, `\dv`, `\l`, `\timing`, `\x`, "SHOW JOBS", "STOP JOB", "DESCRIBE", "USE", "SOURCE"} {
		if !strings.Contains(out, want) {
			t.Errorf("HELP does not list %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "--jar") || strings.Contains(out, "--library") {
		t.Errorf("HELP speaks of startup options eddy does not have:\n%s", out)
	}
}

func TestBackslashCompletion(t *testing.T) {
	c := &completer{names: newFakeNames()}
	tests := []struct {
		text string
		want []string
	}{
		{`\`, []string{`\d `, `\dt `, `\dv `, `\l `, `\timing `, `\x `}},
		{`\d`, []string{`\d `, `\dt `, `\dv `}},
		{`\ti`, []string{`\timing `}},
		{`\timing o`, []string{"on", "off"}},
		{`\d ord`, []string{"orders", "order items"}},
		{`\d other_cat.db1.`, []string{"t1"}},
	}
	for _, tt := range tests {
		got, _ := c.complete(tt.text, "")
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("complete(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestReservedHint: at a terminal, Flink's parse error at a reserved word
// where a name could stand is followed by a hint to quote it; scripts keep
// Flink's answer alone.
func TestReservedHint(t *testing.T) {
	parseErr := func(word string, expecting string) error {
		return &engine.Error{Class: "org.apache.flink.sql.parser.impl.ParseException",
			Message: `Encountered "` + word + `" at line 1, column 17.` + "\nWas expecting one of:\n    " + expecting + " ..."}
	}
	var b bytes.Buffer
	tag := New(&fakeSession{}, Config{}).fail(&b, parseErr("month", "<IDENTIFIER>"), render.Options{Interactive: true})
	if tag != render.TagError || !strings.HasSuffix(b.String(), "Hint: month is a reserved word: quote it as `month` to use it as a name.\n") {
		t.Errorf("no hint for month:\n%s", b.String())
	}
	for _, tc := range []struct {
		err         error
		interactive bool
	}{
		{parseErr("month", "<IDENTIFIER>"), false},
		{parseErr("orders", "<IDENTIFIER>"), true},
		{parseErr("month", `")"`), true},
		{&engine.Error{Class: "ValidationException", Message: `Encountered "month" at line 1, column 1.`}, true},
	} {
		b.Reset()
		New(&fakeSession{}, Config{}).fail(&b, tc.err, render.Options{Interactive: tc.interactive})
		if strings.Contains(b.String(), "Hint:") {
			t.Errorf("a hint where none belongs (interactive %v):\n%s", tc.interactive, b.String())
		}
	}
}
