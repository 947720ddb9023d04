package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestExportReadByPython is the README's pipeline run by a shell, its file
// read by Python's csv and json modules, an independent reader:
// (cat ddl.sql; echo "SELECT ...;") | eddy --output csv > out.csv.
func TestExportReadByPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed; this test reads eddy's export with Python's csv and json modules")
	}
	vars, home := env(t)
	ddl := writeFile(t, "ddl.sql", scriptDDL)
	// Python prints each record as a list of its fields, one per line.
	readers := map[string]string{
		"csv":   `import csv,sys; [print(r) for r in csv.reader(open(sys.argv[1], newline=""))]`,
		"json":  `import json,sys; [print([str(o["id"]), o["label"]]) for o in json.load(open(sys.argv[1]))]`,
		"jsonl": `import json,sys; [print([str(o["id"]), o["label"]]) for o in map(json.loads, open(sys.argv[1]))]`,
	}
	want := map[string]string{
		"csv":   "['id', 'label']\n['1', 'plain']\n['2', 'a,b']\n['3', 'say \"hi\"']\n",
		"json":  "['1', 'plain']\n['2', 'a,b']\n['3', 'say \"hi\"']\n",
		"jsonl": "['1', 'plain']\n['2', 'a,b']\n['3', 'say \"hi\"']\n",
	}
	for format, script := range readers {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out."+format)
			pipeline := "(cat " + shellQuote(ddl) + `; echo "` + scriptQuery + `;") | ` + shellQuote(binary) +
				" --store " + shellQuote(filepath.Join(t.TempDir(), "store.db")) + " --output " + format + " > " + shellQuote(out)
			cmd := exec.Command("sh", "-c", pipeline)
			cmd.Env, cmd.Dir = vars, home
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", pipeline, err, b)
			}
			got, err := exec.Command(python, "-c", script, out).CombinedOutput()
			if err != nil || string(got) != want[format] {
				t.Errorf("Python reads %s as:\n%s(%v), want:\n%s", format, got, err, want[format])
			}
		})
	}
}
