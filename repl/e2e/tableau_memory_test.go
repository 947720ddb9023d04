package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tableauBudget is the memory budget (MiB) of the large tableau answer.
const tableauBudget = 64

// TestTableauBatchMemory prints ten million rows of a batch query in
// tableau mode under a 64 MiB memory budget. A tableau table is sized by
// its widest cells, so every row is read before the first is printed; the
// rows past the budget wait in a temporary file, and the process's peak
// resident memory stays within the budget plus 64 MiB while the whole
// table, sized by all its rows, is printed.
func TestTableauBatchMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("prints ten million rows")
	}
	vars, _ := env(t)
	tmp := t.TempDir()
	vars = append(vars, "TMPDIR="+tmp)
	const rows = 10_000_000
	script := fmt.Sprintf(`CREATE TEMPORARY TABLE gen (a BIGINT, s STRING, b INT) WITH ('connector' = 'datagen',
  'number-of-rows' = '%d', 'rows-per-second' = '1000000000',
  'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '%d',
  'fields.s.length' = '10', 'fields.b.min' = '0', 'fields.b.max' = '999');
SELECT * FROM gen;
`, rows, rows)
	cmd := exec.Command(binary, "--store", store(t),
		"-D", fmt.Sprintf("eddy.exec.memory-budget=%dmb", tableauBudget),
		"-D", "execution.runtime-mode=batch",
		"-D", "sql-client.execution.result-mode=tableau")
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(script)
	out := &headTail{}
	var errb lockedBuffer
	cmd.Stdout, cmd.Stderr = out, &errb
	peak, elapsed, err := runSampled(t, cmd)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out.head.String(), errb.String())
	}
	t.Logf("%d rows (%d MiB) printed in tableau mode in %v; peak RSS %d MiB (VmHWM; budget %d MiB)",
		rows, out.n>>20, elapsed.Round(time.Second), peak, tableauBudget)

	head := strings.Split(out.head.String(), "\n")
	if len(head) < 6 || head[0] != "[INFO] Execute statement succeeded." || head[1] != "" {
		t.Fatalf("output begins:\n%s\nstderr:\n%s", out.head.String(), errb.String())
	}
	border := "+----------+------------+-----+"
	if head[2] != border || head[3] != "|        a |          s |   b |" || head[4] != border ||
		!strings.HasPrefix(head[5], "|        1 | ") {
		t.Errorf("the table begins:\n%s", strings.Join(head[:6], "\n"))
	}
	tail := strings.Split(strings.TrimRight(out.tail(), "\n"), "\n")
	if n := len(tail); n < 3 || tail[n-1] != "10000000 rows in set" || tail[n-2] != border ||
		!strings.HasPrefix(tail[n-3], "| 10000000 | ") {
		t.Errorf("the table ends:\n%s", out.tail())
	}
	// The [INFO] line and a blank one, the frame, the rows, the footer and a
	// blank line.
	if want := 2 + 3 + rows + 1 + 2; out.lines != want {
		t.Errorf("%d lines printed, want %d", out.lines, want)
	}
	if peak == 0 {
		t.Fatal("no memory figure was read from /proc")
	}
	if peak > tableauBudget+64 {
		t.Errorf("peak RSS %d MiB over the budget %d MiB + 64 MiB", peak, tableauBudget)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "eddy-tableau-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// headTail keeps the first and the last few kilobytes of a long output,
// and counts its bytes and lines.
type headTail struct {
	head  strings.Builder
	last  [2][]byte // the two most recent blocks of the tail
	n     int
	lines int
}

const headTailKeep = 4 << 10

func (h *headTail) Write(p []byte) (int, error) {
	h.n += len(p)
	h.lines += bytes.Count(p, []byte{'\n'})
	if room := headTailKeep - h.head.Len(); room > 0 {
		h.head.Write(p[:min(room, len(p))])
	}
	if len(h.last[1])+len(p) > headTailKeep {
		h.last[0], h.last[1] = h.last[1], nil
	}
	h.last[1] = append(h.last[1], p...)
	return len(p), nil
}

// tail returns at least the last headTailKeep bytes written (fewer when
// fewer were written), from a line start.
func (h *headTail) tail() string {
	s := string(h.last[0]) + string(h.last[1])
	if len(s) > headTailKeep {
		s = s[len(s)-headTailKeep:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return s
}
