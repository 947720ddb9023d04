package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestGroupShapes: statements of one shape run through the plan the group
// bound for the first of them give exactly the rows and the errors that
// each statement gives when run on its own, whatever their values (signs,
// lengths, typed literals, column lists, several rows, failing casts).
func TestGroupShapes(t *testing.T) {
	s, _ := openStoreSession(t)
	ctx := context.Background()
	const cols = "(i INT, b BIGINT, d DOUBLE, x DECIMAL(10, 3), s STRING, v VARCHAR(5), ok BOOLEAN, ts TIMESTAMP(3), dt DATE)"
	families := []func(tbl string, k int) string{
		func(tbl string, k int) string {
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, %d.25, %d.5, 'name %d', 'v%d', TRUE, TIMESTAMP '2024-01-0%d 03:04:05', DATE '2024-02-0%d')",
				tbl, k, k*1000, k, k*7, k*k, k, k%9+1, k%9+1)
		},
		func(tbl string, k int) string {
			return fmt.Sprintf("INSERT INTO %s VALUES (-%d, -%d, -%d.5, -0.%d, '', 'abcdefg%d', FALSE, NULL, NULL)", tbl, k, k*9000000000, k, k, k)
		},
		func(tbl string, k int) string {
			return fmt.Sprintf("INSERT INTO %s (v, i, s) VALUES ('w%d', %d, 'über %d')", tbl, k, k+100, k)
		},
		func(tbl string, k int) string {
			return fmt.Sprintf("INSERT INTO %s (i, d) VALUES (%d, 1e%d), (%d, %d), (NULL, %d.0)", tbl, k, k, k+1, k, k)
		},
		func(tbl string, k int) string { // fails for k odd: the cast of 'x' to INT
			v := fmt.Sprint(k)
			if k%2 == 1 {
				v = "x"
			}
			return fmt.Sprintf("INSERT INTO %s (i, s) VALUES (CAST('%s' AS INT), '%d')", tbl, v, k)
		},
		func(tbl string, k int) string { // fails for k odd: a BIGINT literal into an INT column
			if k%2 == 1 {
				return fmt.Sprintf("INSERT INTO %s (i) VALUES (%d)", tbl, 3000000000+k)
			}
			return fmt.Sprintf("INSERT INTO %s (i) VALUES (%d)", tbl, k)
		},
		func(tbl string, k int) string { // 999999.9999 does not fit DECIMAL(10, 3) when k is 9: NULL
			return fmt.Sprintf("INSERT INTO %s (x, s) VALUES (%d99999.9999, 'k%d')", tbl, k, k)
		},
	}
	g := s.BeginGroup()
	// One group for all of them: every statement after the first of its
	// shape runs through the shape's plan.
	mustExec(t, s, "CREATE TABLE grouped "+cols)
	var errs []string
	for f, family := range families {
		for k := 1; k <= 9; k++ {
			if _, _, err := g.Execute(ctx, family("grouped", k)); err != nil {
				errs = append(errs, fmt.Sprintf("%d/%d: %v", f, k, err))
			}
		}
	}
	// Every shape keeps its plan: none of these needs a full binding
	// after its first statement.
	shaped := 0
	for k, sp := range g.shapes.byKey {
		if sp == nil {
			t.Errorf("bound in full: %q", k)
		}
		shaped++
	}
	if shaped < 6 {
		t.Errorf("%d shapes, want at least 6", shaped)
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// The rows and errors are those of the statements run alone.
	const all = "SELECT i, b, d, x, s, v, ok, ts, dt FROM %s ORDER BY i, b, d, x, s, v, ts"
	// The errors inside one group are those of the statements run alone.
	var aloneErrs []string
	mustExec(t, s, "CREATE TABLE alone "+cols)
	for f, family := range families {
		for k := 1; k <= 9; k++ {
			if _, err := s.Execute(ctx, family("alone", k)); err != nil {
				aloneErrs = append(aloneErrs, fmt.Sprintf("%d/%d: %v", f, k, strings.ReplaceAll(strings.ReplaceAll(err.Error(), "`alone`", "`grouped`"), ".alone'", ".grouped'")))
			}
		}
	}
	want := selectRows(t, s, fmt.Sprintf(all, "alone"))
	if got := selectRows(t, s, fmt.Sprintf(all, "grouped")); strings.Join(got, "\n") != strings.Join(want, "\n") || len(got) < 50 {
		t.Errorf("grouped:\n%s\nalone:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(errs, "\n") != strings.Join(aloneErrs, "\n") || len(errs) == 0 {
		t.Errorf("errors in one group:\n%s\nalone:\n%s", strings.Join(errs, "\n"), strings.Join(aloneErrs, "\n"))
	}
}

// TestGroupShapesAcrossCommits: a group's next transaction runs its first
// statement through the shapes the last one kept, unless the session ran
// another statement in between or another writer of the store changed a
// definition; then the statement binds in full and sees the change.
func TestGroupShapesAcrossCommits(t *testing.T) {
	s, path := openStoreSession(t)
	ctx := context.Background()
	mustExec(t, s, "CREATE TABLE kept (i INT, s STRING)")
	g := s.BeginGroup()
	exec := func(sql string) error {
		t.Helper()
		_, _, err := g.Execute(ctx, sql)
		return err
	}
	for k := 1; k <= 3; k++ {
		if err := exec(fmt.Sprintf("INSERT INTO kept VALUES (%d, 's%d')", k, k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if g.kept == nil {
		t.Fatal("the committed transaction kept no shapes")
	}
	// The next transaction starts with the kept shapes.
	if err := exec("INSERT INTO kept VALUES (4, 's4')"); err != nil {
		t.Fatal(err)
	}
	if !g.open() || g.shapes.byKey == nil {
		t.Fatal("the first statement of the next transaction did not take the kept shapes back")
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// Another writer replaces the table: the kept plan is stale, and the
	// statement gets the answer it gets on its own.
	other := openStoreSessionAt(t, path)
	mustExec(t, other, "DROP TABLE kept")
	mustExec(t, other, "CREATE TABLE kept (i INT, s STRING, n INT NOT NULL)")
	errGrouped := exec("INSERT INTO kept VALUES (5, 's5')")
	_, errAlone := other.Execute(ctx, "INSERT INTO kept VALUES (5, 's5')")
	if errGrouped == nil || errAlone == nil || errGrouped.Error() != errAlone.Error() {
		t.Fatalf("after another writer's change: grouped %v, alone %v", errGrouped, errAlone)
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// A statement the session runs in between drops the kept shapes.
	for k := 6; k <= 8; k++ {
		if err := exec(fmt.Sprintf("INSERT INTO kept VALUES (%d, 's%d', %d)", k, k, k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if g.kept == nil {
		t.Fatal("no shapes kept")
	}
	mustExec(t, s, "CREATE TEMPORARY TABLE kept (i INT, s STRING, n INT) WITH ('connector' = 'blackhole')")
	if err := exec("INSERT INTO kept VALUES (9, 's9', 9)"); err != nil {
		t.Fatal(err)
	}
	if g.kept != nil || g.open() {
		t.Error("a statement run in between left the kept shapes in use")
	}
	got := selectRows(t, other, "SELECT i, s, n FROM kept ORDER BY i")
	want := []string{"[6 s6 6]", "[7 s7 7]", "[8 s8 8]"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rows %v, want %v (the INSERT into the temporary table writes nothing here)", got, want)
	}
}
