package result_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestConsumersDoNotLinkLocalEngine checks the reason this package exists:
// the renderer and the gateway client see results and errors through the
// contract packages and link none of the local engine.
func TestConsumersDoNotLinkLocalEngine(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found:", err)
	}
	consumers := []string{"eddy/repl/render", "eddy/engine/gateway"}
	forbidden := []string{
		"eddy/engine", "eddy/engine/validate", "eddy/engine/exec", "eddy/engine/connectors",
		"eddy/engine/plan", "eddy/engine/functions", "eddy/engine/ddl", "eddy/catalogs",
	}
	for _, pkg := range consumers {
		out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, "eddy/engine/result") {
			t.Errorf("%s does not depend on eddy/engine/result; deps: %v", pkg, deps)
		}
		for _, d := range deps {
			if slices.Contains(forbidden, d) {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
	}
}
