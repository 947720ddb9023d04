package jdbc_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shopspring/decimal"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/engine"
	"eddy/engine/result"
	"eddy/engine/types"
)

// These tests run against a real PostgreSQL server:
// testdata/postgres/postgres.sh start prints its JDBC URL; export it as
// EDDY_POSTGRES. What eddy wrote is checked with pgx directly, a client
// independent of the connector under test.

func pgURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("EDDY_POSTGRES")
	if u == "" {
		t.Skip("EDDY_POSTGRES is not set: start PostgreSQL with engine/connectors/jdbc/testdata/postgres/postgres.sh start and export EDDY_POSTGRES=<jdbc url>")
	}
	return u
}

// pg connects to the test database directly.
func pg(t testing.TB) *pgx.Conn {
	t.Helper()
	u := strings.TrimPrefix(pgURL(t), "jdbc:")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, u+"?user=eddy&password=eddy")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// pgExec runs statements on the test database.
func pgExec(t testing.TB, c *pgx.Conn, sqls ...string) {
	t.Helper()
	for _, q := range sqls {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// pgRows returns the rows of a query as text, one line a row, columns
// separated by '|' (psql's unaligned output).
func pgRows(t testing.TB, c *pgx.Conn, q string) []string {
	t.Helper()
	rs, err := c.Query(context.Background(), q, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	var out []string
	for rs.Next() {
		var vals []string
		for _, raw := range rs.RawValues() {
			if raw == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, string(raw))
			}
		}
		out = append(out, strings.Join(vals, "|"))
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// table makes a table name unique to the test and drops it at the end.
func table(t testing.TB, c *pgx.Conn, ddl string) string {
	t.Helper()
	name := fmt.Sprintf("t_%s_%d", strings.ToLower(strings.NewReplacer("/", "_", " ", "_", "-", "_").Replace(t.Name())), time.Now().UnixNano()%1e9)
	pgExec(t, c, "DROP TABLE IF EXISTS "+name, fmt.Sprintf(ddl, name))
	t.Cleanup(func() { c.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

func session(t testing.TB, mode string) *engine.Session {
	t.Helper()
	ctx := context.Background()
	mgr := catalogs.NewManager(map[string]catalogs.Factory{memory.Type: memory.Factory{}}, nil)
	t.Cleanup(func() { mgr.Close() })
	desc := catalogs.CatalogDescriptor{Name: "default_catalog", Options: map[string]string{catalogs.OptionType: memory.Type}}
	if err := mgr.RegisterCatalog(ctx, desc, memory.New("default_catalog", "default_database"), catalogs.OriginBuiltIn); err != nil {
		t.Fatal(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, "default_catalog"); err != nil {
		t.Fatal(err)
	}
	s, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr,
		Options: map[string]string{"table.dml-sync": "true", "execution.runtime-mode": mode, "table.local-time-zone": "UTC"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func exec1(t testing.TB, s *engine.Session, sql string) {
	t.Helper()
	if _, err := query(s, sql, -1); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// executor runs statements: an eddy session, or a Flink SQL Gateway
// session.
type executor interface {
	Execute(ctx context.Context, sql string) (*result.Result, error)
}

// query returns at most n rows (all when n < 0) as "kind v1 v2 ...".
func query(s executor, sql string, n int) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := s.Execute(ctx, sql)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var out []string
	for res.Rows != nil && (n < 0 || len(out) < n) {
		row, ok, err := res.Rows.Next(ctx)
		if err != nil {
			return out, err
		}
		if !ok {
			break
		}
		vals := make([]string, len(row.Values))
		for i, v := range row.Values {
			switch x := v.(type) {
			case []byte:
				vals[i] = string(x)
			case time.Time:
				vals[i] = x.UTC().Format("2006-01-02 15:04:05.000")
			case *decimal.Decimal:
				vals[i] = types.DecimalText(x)
			default:
				vals[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row.Kind.String()+" "+strings.Join(vals, " "))
	}
	return out, nil
}

func mustQuery(t testing.TB, s *engine.Session, sql string) []string {
	t.Helper()
	rows, err := query(s, sql, -1)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

func wantRows(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// ddl is the WITH clause of a jdbc table over name.
func with(url, name string, extra ...string) string {
	opts := []string{"'connector' = 'jdbc'", fmt.Sprintf("'url' = '%s'", url), fmt.Sprintf("'table-name' = '%s'", name),
		"'username' = 'eddy'", "'password' = 'eddy'"}
	opts = append(opts, extra...)
	return "WITH (" + strings.Join(opts, ", ") + ")"
}
