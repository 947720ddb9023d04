package qtest_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"eddy/repl/qtest"
)

// rebuild writes a script back the way Flink's harnesses rebuild a file
// from its records and their answers.
func rebuild(s *qtest.Script) string {
	var b strings.Builder
	for _, r := range s.Records {
		b.WriteString(r.Prefix + r.SQL)
		if s.Dialect == qtest.Gateway {
			b.WriteString("!output\n")
		}
		b.WriteString(r.Expected + r.TagLine + "\n")
	}
	return b.String()
}

// TestParseFlinkScripts reads every Flink script: the record counts must be
// those of MANIFEST.tsv, the dialect that of its folder, and the records
// must rebuild the file byte for byte (Flink's own pass condition for a
// file whose answers all match).
func TestParseFlinkScripts(t *testing.T) {
	dir, ok := flinkDir(t)
	if !ok {
		t.Skipf("Flink's .q scripts are not at %s", dir)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(string(manifest), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 4 || !strings.HasSuffix(f[0], ".q") {
			continue
		}
		want, err := strconv.Atoi(f[3])
		if err != nil {
			t.Fatalf("MANIFEST.tsv: %q", line)
		}
		raw, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		s, err := qtest.Parse(string(raw))
		if err != nil {
			t.Errorf("%s: %v", f[0], err)
			continue
		}
		if len(s.Records) != want {
			t.Errorf("%s: %d records, MANIFEST.tsv says %d", f[0], len(s.Records), want)
		}
		wantDialect := qtest.Client
		if strings.HasPrefix(f[0], "sql-gateway/") {
			wantDialect = qtest.Gateway
		}
		if s.Dialect != wantDialect {
			t.Errorf("%s: dialect %s, want %s", f[0], s.Dialect, wantDialect)
		}
		if got := rebuild(s); got != string(raw) {
			t.Errorf("%s: the records do not rebuild the file", f[0])
		}
		for _, r := range s.Records {
			if r.Tag() == qtest.TagUnknown {
				t.Errorf("%s #%d: unknown tag %q", f[0], r.Num, r.TagLine)
			}
		}
		checked++
	}
	if checked != 23 {
		t.Errorf("checked %d scripts, MANIFEST.tsv lists 23", checked)
	}
}

func TestParseClientStatementEnds(t *testing.T) {
	const text = `# header

SELECT ';
';
+--------+
| EXPR$0 |
!ok

SELECT /*;
'*/ 1;
x
!ok
SELECT --;
1;
!ok

-- a comment line is SQL
DROP VIEW v;
[INFO] Execute statement succeeded.
!info
SELECT "a;
b", ` + "`c;\nd`" + `, 'it''s;'
FROM t; -- c;
1;
!error
`
	s, err := qtest.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dialect != qtest.Client {
		t.Fatalf("dialect %s", s.Dialect)
	}
	want := []struct {
		prefix, sql, expected, tag string
		line                       int
	}{
		{"# header\n\n", "SELECT ';\n';\n", "+--------+\n| EXPR$0 |\n", "!ok", 3},
		{"\n", "SELECT /*;\n'*/ 1;\n", "x\n", "!ok", 9},
		{"", "SELECT --;\n1;\n", "", "!ok", 13},
		{"\n", "-- a comment line is SQL\nDROP VIEW v;\n", "[INFO] Execute statement succeeded.\n", "!info", 17},
		{"", "SELECT \"a;\nb\", `c;\nd`, 'it''s;'\nFROM t; -- c;\n1;\n", "", "!error", 21},
	}
	if len(s.Records) != len(want) {
		t.Fatalf("%d records, want %d: %+v", len(s.Records), len(want), s.Records)
	}
	for i, w := range want {
		r := s.Records[i]
		if r.Num != i+1 || r.Prefix != w.prefix || r.SQL != w.sql || r.Expected != w.expected || r.TagLine != w.tag || r.Line != w.line {
			t.Errorf("record %d = %+v\nwant %+v", i+1, r, w)
		}
	}
	if got := rebuild(s); got != text {
		t.Errorf("rebuilt:\n%s\nwant:\n%s", got, text)
	}
}

func TestParseGatewayMarker(t *testing.T) {
	const text = `EXPLAIN STATEMENT SET BEGIN
INSERT INTO a SELECT 1;
INSERT INTO b SELECT 2;
END;
  !output
plan;
!ok

# next
SHOW TABLES;
!output
Empty set
!ok
`
	s, err := qtest.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dialect != qtest.Gateway || len(s.Records) != 2 {
		t.Fatalf("dialect %s, %d records", s.Dialect, len(s.Records))
	}
	r := s.Records[0]
	if r.SQL != "EXPLAIN STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;\n" || r.Expected != "plan;\n" {
		t.Errorf("record 1 = %+v", r)
	}
	if got := qtest.GatewayStatement(r.SQL); got != "EXPLAIN STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND" {
		t.Errorf("gateway statement %q", got)
	}
	if r := s.Records[1]; r.Prefix != "\n# next\n" || r.SQL != "SHOW TABLES;\n" || r.Tag() != qtest.TagOK {
		t.Errorf("record 2 = %+v", r)
	}
}

func TestParseUnfinishedRecord(t *testing.T) {
	for _, text := range []string{
		"SET 'a' = 'b';\n[INFO] Execute statement succeeded.\n!info\nSELECT 1;\n+---+\n",
		"SET 'a' = 'b';\n!info\nSELECT 'open;\n",
		"SHOW TABLES;\n!output\nEmpty set\n",
	} {
		if _, err := qtest.Parse(text); err == nil || !strings.Contains(err.Error(), "no closing tag") {
			t.Errorf("Parse(%q): err = %v, want a missing-tag error", text, err)
		}
	}
	// Trailing comment and blank lines are dropped, as Flink's reader does.
	s, err := qtest.Parse("SHOW TABLES;\nEmpty set\n!ok\n\n# end\n")
	if err != nil || len(s.Records) != 1 {
		t.Errorf("trailing comments: %v, %+v", err, s)
	}
}

func TestClientStatement(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1;\n":                     "SELECT 1",
		"-- note\nDROP VIEW v;\n":         "-- note\nDROP VIEW v",
		"SELECT ';\n';\n":                 "SELECT ';\n'",
		"SELECT id FROM t ;  \n":          "SELECT id FROM t ",
		"HELP;\n":                         "HELP",
		"SELECT 1;;\n":                    "SELECT 1;",
		"SELECT 1\nFROM t\nWHERE x;\n":    "SELECT 1\nFROM t\nWHERE x",
		"SELECT --;\n1;\n":                "SELECT --;\n1",
		"SELECT /*;\n'*/ 1;\n":            "SELECT /*;\n'*/ 1",
		"SHOW TABLES;\r\n":                "SHOW TABLES",
		"  SET 'k' = 'v';\n":              "  SET 'k' = 'v'",
		"SELECT 'a;' FROM t; -- c;\n1;\n": "SELECT 'a;' FROM t; -- c;\n1",
	} {
		if got := qtest.ClientStatement(in); got != want {
			t.Errorf("ClientStatement(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTags(t *testing.T) {
	for _, tag := range []qtest.Tag{qtest.TagOK, qtest.TagInfo, qtest.TagWarning, qtest.TagError} {
		if got := qtest.ParseTag(tag.String()); got != tag {
			t.Errorf("ParseTag(%q) = %v", tag.String(), got)
		}
	}
	for _, s := range []string{"!output", "!", "!OK", "!ok ", "ok"} {
		if got := qtest.ParseTag(s); got != qtest.TagUnknown {
			t.Errorf("ParseTag(%q) = %v, want unknown", s, got)
		}
	}
}
