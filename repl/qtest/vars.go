package qtest

import (
	"archive/zip"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Env holds the placeholder values that do not name a fresh directory.
type Env struct {
	// RestPort replaces $VAR_REST_PORT: the `rest.port` the session's SET;
	// listing shows. The tables in the Flink files are padded for five digits.
	RestPort string
	// JobManagerAddress replaces $VAR_JOBMANAGER_RPC_ADDRESS (`localhost`
	// in the Flink harness; the padding assumes nine characters).
	JobManagerAddress string
	// DeleteDataID and TruncateDataID replace $VAR_DELETE_TABLE_DATA_ID and
	// $VAR_TRUNCATE_TABLE_DATA_ID, the rows registered for Flink's test-only
	// `test-update-delete` connector.
	DeleteDataID   string
	TruncateDataID string
}

// DefaultEnv is the Env used when a Runner leaves its Env empty.
func DefaultEnv() Env {
	return Env{RestPort: "18081", JobManagerAddress: "localhost", DeleteDataID: "1", TruncateDataID: "2"}
}

// dirVars are the placeholders that stand for a fresh empty directory per
// file, with the directory name Flink's harnesses give them.
var dirVars = [...]struct{ name, dir string }{
	{"$VAR_STREAMING_PATH", "streaming"},
	{"$VAR_STREAMING_PATH2", "streaming2"},
	{"$VAR_STREAMING_PATH3", "streaming3"},
	{"$VAR_BATCH_PATH", "batch"},
	{"$VAR_BATCH_PATH2", "batch2"},
	{"$VAR_BATCH_CTAS_PATH", "batch_ctas"},
	{"$VAR_STREAMING_PLAN_PATH", "streaming_compiled_plan"},
}

// Vars maps each placeholder (with its `$`) to its value for one run.
type Vars map[string]string

// NewVars creates the fresh directories of one script run under dir and
// returns the value of every placeholder. workDir is the directory
// $VAR_STREAMING_PLAN_RELATIVE_PATH is relative to (the process's working
// directory, where relative paths are resolved).
func NewVars(dir, workDir string, env Env) (Vars, error) {
	v := Vars{}
	for _, d := range dirVars {
		p := filepath.Join(dir, d.dir)
		if err := os.Mkdir(p, 0o755); err != nil {
			return nil, fmt.Errorf("placeholder %s: %w", d.name, err)
		}
		v[d.name] = p
	}
	rel, err := filepath.Rel(workDir, v["$VAR_STREAMING_PLAN_PATH"])
	if err != nil {
		return nil, fmt.Errorf("placeholder $VAR_STREAMING_PLAN_RELATIVE_PATH: %w", err)
	}
	v["$VAR_STREAMING_PLAN_RELATIVE_PATH"] = rel

	// Flink generates a jar of Java UDF classes here. eddy runs no JVM code,
	// but ADD JAR and CREATE TEMPORARY FUNCTION check the jar and the class
	// as Flink's resource manager and class loader do: the jar holds a
	// manifest and entries named for the classes (empty: nothing loads
	// them). The records that run the functions are in the skip list.
	jarDir := filepath.Join(dir, "test-jar")
	if err := os.Mkdir(jarDir, 0o755); err != nil {
		return nil, fmt.Errorf("placeholder $VAR_UDF_JAR_PATH: %w", err)
	}
	jar := filepath.Join(jarDir, "test-classloader-udf.jar")
	if err := writeUDFJar(jar); err != nil {
		return nil, fmt.Errorf("placeholder $VAR_UDF_JAR_PATH: %w", err)
	}
	v["$VAR_UDF_JAR_PATH"] = jar
	// Hand-written tables (SHOW JARS in function.q) are as wide as the path:
	// the `jars` header and the borders are padded by len(path)-4.
	n := max(len(jar)-4, 0)
	v["$VAR_UDF_JAR_PATH_DASH"] = strings.Repeat("-", n)
	v["$VAR_UDF_JAR_PATH_SPACE"] = strings.Repeat(" ", n)

	v["$VAR_REST_PORT"] = env.RestPort
	v["$VAR_JOBMANAGER_RPC_ADDRESS"] = env.JobManagerAddress
	v["$VAR_DELETE_TABLE_DATA_ID"] = env.DeleteDataID
	v["$VAR_TRUNCATE_TABLE_DATA_ID"] = env.TruncateDataID
	return v, nil
}

// Substitute replaces every placeholder in text in one pass; at each
// position the longest matching name wins, so $VAR_STREAMING_PATH2 is not
// read as $VAR_STREAMING_PATH followed by "2".
func (v Vars) Substitute(text string) string {
	names := make([]string, 0, len(v))
	for name := range v {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	pairs := make([]string, 0, 2*len(names))
	for _, name := range names {
		pairs = append(pairs, name, v[name])
	}
	// strings.Replacer tries the old strings in argument order at each
	// position: longest first.
	return strings.NewReplacer(pairs...).Replace(text)
}

// writeUDFJar writes the stand-in of Flink's UDF jar at path.
func writeUDFJar(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := zip.NewWriter(f)
	entries := []string{"META-INF/MANIFEST.MF"}
	for _, c := range []string{"LowerUDF", "UpperUDF"} { // the classes of Flink's jar
		entries = append(entries, c+".class")
	}
	for _, e := range entries {
		if _, err := w.Create(e); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
