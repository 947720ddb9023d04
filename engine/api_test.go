package engine_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"eddy/catalogs"
	"eddy/engine"
	"eddy/engine/types"
)

// TestCreateTableAPI drives the Go API of seeds 001 and 003: a table made
// from a descriptor is validated like DDL, can be read back with SHOW
// CREATE TABLE, and ignoreIfExists reports whether it was created.
func TestCreateTableAPI(t *testing.T) {
	s, closeAll := openViewSession(t, filepath.Join(t.TempDir(), "store.db"))
	defer closeAll()
	ctx := context.Background()
	d := engine.TableDescriptor{
		Connector: "datagen",
		Schema: catalogs.Schema{
			Columns: []catalogs.Column{
				{Name: "id", Kind: catalogs.Physical, Type: types.New(types.BigInt)},
				{Name: "price", Kind: catalogs.Physical, Type: types.NewDecimal(10, 2)},
				{Name: "ts", Kind: catalogs.Physical, Type: types.NewTimestamp(3)},
				{Name: "doubled", Kind: catalogs.Computed, Expr: "price * 2"},
			},
			PrimaryKey: &catalogs.PrimaryKey{Columns: []string{"id"}},
			Watermarks: []catalogs.WatermarkSpec{{RowtimeColumn: "ts", Expr: "ts - INTERVAL '5' SECOND"}},
		},
		Options: map[string]string{"number-of-rows": "10"},
		Comment: "made from Go",
	}
	created, err := s.CreateTable(ctx, "`default`.orders", d, false)
	if err != nil || !created {
		t.Fatalf("CreateTable = %v, %v", created, err)
	}
	created, err = s.CreateTable(ctx, "_env_prod.`default`.orders", d, true)
	if err != nil || created {
		t.Fatalf("CreateTable of an existing table with ignoreIfExists = %v, %v; want false, nil", created, err)
	}
	if _, err := s.CreateTable(ctx, "orders", d, false); err == nil {
		t.Fatal("CreateTable of an existing table without ignoreIfExists succeeded")
	} else {
		var e *engine.Error
		if !errors.As(err, &e) || e.Class != "TableAlreadyExistException" {
			t.Fatalf("error = %#v", err)
		}
	}
	got := text(t, exec(t, s, "SHOW CREATE TABLE orders"))
	for _, want := range []string{
		"CREATE TABLE `_env_prod`.`default`.`orders` (",
		"`id` BIGINT NOT NULL,",
		"`doubled` AS `price` * 2,",
		"WATERMARK FOR `ts` AS `ts` - INTERVAL '5' SECOND,",
		"CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED",
		"COMMENT 'made from Go'",
		"'connector' = 'datagen'",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, got)
		}
	}

	// A temporary table shadows the permanent one for this session.
	tmp := d
	tmp.Comment = "temporary"
	if created, err := s.CreateTemporaryTable(ctx, "orders", tmp, false); err != nil || !created {
		t.Fatalf("CreateTemporaryTable = %v, %v", created, err)
	}
	if got := text(t, exec(t, s, "SHOW CREATE TABLE orders")); !strings.Contains(got, "CREATE TEMPORARY TABLE") {
		t.Errorf("the temporary table does not shadow the permanent one:\n%s", got)
	}

	// A descriptor that does not validate creates nothing.
	bad := d
	bad.Schema.Columns = append([]catalogs.Column(nil), d.Schema.Columns...)
	bad.Schema.Columns[3].Expr = "no_such_column + 1"
	if _, err := s.CreateTable(ctx, "broken", bad, false); err == nil {
		t.Fatal("a computed column over a missing column was accepted")
	}
	if got := text(t, exec(t, s, "SHOW TABLES")); strings.Contains(got, "broken") {
		t.Fatalf("a failed CreateTable left a table behind:\n%s", got)
	}
}
