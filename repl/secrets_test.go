package repl

import "testing"

func TestMaskSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CREATE TABLE t (a INT) WITH ('connector' = 'x', 'password' = 'hunter2');",
			"CREATE TABLE t (a INT) WITH ('connector' = 'x', 'password' = '****');"},
		{"CREATE CATALOG c WITH ('type'='jdbc','Secret.Key'='it''s;--me','api-TOKEN' = U&'\\0041b')",
			"CREATE CATALOG c WITH ('type'='jdbc','Secret.Key'='****','api-TOKEN' = '****')"},
		{"SET 'db.password' = 'pw';", "SET 'db.password' = '****';"},
		{"SELECT 'password' = 'x' FROM t", "SELECT 'password' = '****' FROM t"},
		{"SELECT * FROM t -- 'password' = 'x'", "SELECT * FROM t -- 'password' = 'x'"},
		{"CREATE TABLE t (a INT) WITH ('connector' = 'x')", "CREATE TABLE t (a INT) WITH ('connector' = 'x')"},
		{"SELECT 'password' = 'never closed", "SELECT 'password' = 'never closed"},
		{"SET 'password'\n  = 'a'\n;", "SET 'password'\n  = '****'\n;"},
	} {
		if got := maskSecrets(c.in); got != c.want {
			t.Errorf("maskSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
