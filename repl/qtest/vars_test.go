package qtest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eddy/repl/qtest"
)

func TestNewVarsFreshDirectories(t *testing.T) {
	work := t.TempDir()
	v, err := qtest.NewVars(t.TempDir(), work, qtest.DefaultEnv())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, name := range []string{"$VAR_STREAMING_PATH", "$VAR_STREAMING_PATH2", "$VAR_STREAMING_PATH3",
		"$VAR_BATCH_PATH", "$VAR_BATCH_PATH2", "$VAR_BATCH_CTAS_PATH", "$VAR_STREAMING_PLAN_PATH"} {
		p := v[name]
		entries, err := os.ReadDir(p)
		if err != nil || len(entries) != 0 || !filepath.IsAbs(p) {
			t.Errorf("%s = %q: want a fresh empty absolute directory (%v, %d entries)", name, p, err, len(entries))
		}
		if other, dup := seen[p]; dup {
			t.Errorf("%s and %s share %s", name, other, p)
		}
		seen[p] = name
	}
	rel := v["$VAR_STREAMING_PLAN_RELATIVE_PATH"]
	if filepath.IsAbs(rel) || filepath.Join(work, rel) != v["$VAR_STREAMING_PLAN_PATH"] {
		t.Errorf("relative plan path %q does not lead from %s to %s", rel, work, v["$VAR_STREAMING_PLAN_PATH"])
	}
	jar := v["$VAR_UDF_JAR_PATH"]
	if len(v["$VAR_UDF_JAR_PATH_DASH"]) != len(jar)-4 || strings.Trim(v["$VAR_UDF_JAR_PATH_DASH"], "-") != "" {
		t.Errorf("dash placeholder %q for %q", v["$VAR_UDF_JAR_PATH_DASH"], jar)
	}
	if len(v["$VAR_UDF_JAR_PATH_SPACE"]) != len(jar)-4 || strings.TrimSpace(v["$VAR_UDF_JAR_PATH_SPACE"]) != "" {
		t.Errorf("space placeholder %q for %q", v["$VAR_UDF_JAR_PATH_SPACE"], jar)
	}

	// A second run gets other directories.
	v2, err := qtest.NewVars(t.TempDir(), work, qtest.DefaultEnv())
	if err != nil {
		t.Fatal(err)
	}
	if v2["$VAR_STREAMING_PATH"] == v["$VAR_STREAMING_PATH"] {
		t.Errorf("two runs share %s", v["$VAR_STREAMING_PATH"])
	}
}

func TestSubstituteLongestFirst(t *testing.T) {
	v := qtest.Vars{
		"$VAR_STREAMING_PATH":     "/s",
		"$VAR_STREAMING_PATH2":    "/s2",
		"$VAR_UDF_JAR_PATH":       "/tmp/u.jar",
		"$VAR_UDF_JAR_PATH_DASH":  "------",
		"$VAR_UDF_JAR_PATH_SPACE": "      ",
		"$VAR_REST_PORT":          "18081",
	}
	in := "'$VAR_STREAMING_PATH2' '$VAR_STREAMING_PATH' $VAR_STREAMING_PATH3\n" +
		"+-$VAR_UDF_JAR_PATH_DASH-----+\n| $VAR_UDF_JAR_PATH_SPACEjars |\n| $VAR_UDF_JAR_PATH |\n" +
		"$VAR_REST_PORT $VAR_UNKNOWN $VAR_"
	want := "'/s2' '/s' /s3\n" +
		"+------------+\n|       jars |\n| /tmp/u.jar |\n" +
		"18081 $VAR_UNKNOWN $VAR_"
	if got := v.Substitute(in); got != want {
		t.Errorf("Substitute:\n%s\nwant:\n%s", got, want)
	}
}
