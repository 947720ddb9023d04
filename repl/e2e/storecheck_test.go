package e2e

import (
	"bytes"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// batchTableau puts a piped shell into batch mode with tableau output, so
// that a query answers with its final rows only.
const batchTableau = "SET 'sql-client.execution.result-mode' = 'tableau';\nSET 'execution.runtime-mode' = 'batch';\n"

// combined runs the binary with input on stdin and returns stdout and
// stderr as one stream in the order eddy wrote them, and the exit status.
func combined(t testing.TB, vars []string, input string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = vars
	cmd.Stdin = strings.NewReader(input)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running eddy: %v", err)
	}
	return out.String(), 0
}

// reasons returns the first line of the reason of every [ERROR] in out.
func reasons(out string) []string {
	var rs []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "[ERROR]") {
			r := ""
			if i+1 < len(lines) {
				r = lines[i+1]
			}
			rs = append(rs, r)
		}
	}
	return rs
}

var checkHeader = regexp.MustCompile(`^\|\s*(chk_\w+)\s*\|$`)

// checks returns the value of every one-column, one-row answer whose
// column is named chk_...: a header line, a border, then the value.
func checks(out string) map[string]int {
	got := map[string]int{}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		m := checkHeader.FindStringSubmatch(l)
		if m == nil || i+2 >= len(lines) {
			continue
		}
		v := strings.Trim(lines[i+2], "| ")
		if n, err := strconv.Atoi(v); err == nil {
			got[m[1]] = n
		} else {
			got[m[1]] = -1
		}
	}
	return got
}

// column returns the cells of a one-column tableau answer headed by
// header (SHOW TABLES answers "table name", SHOW VIEWS "view name").
func column(out, header string) []string {
	var cells []string
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.Trim(l, "| ") != header || !strings.HasPrefix(l, "|") {
			continue
		}
		for _, c := range lines[i+2:] {
			if !strings.HasPrefix(c, "|") {
				break
			}
			cells = append(cells, strings.Trim(c, "| "))
		}
		return cells
	}
	return nil
}
