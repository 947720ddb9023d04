package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"eddy/catalogs"
)

// StoreCatalog saves a new catalog definition (CREATE CATALOG).
func (s *Store) StoreCatalog(ctx context.Context, d catalogs.CatalogDescriptor) error {
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM catalog_defs WHERE name = ?`, d.Name).Scan(&n); err != nil {
			return storeErr(err, "cannot read catalog definitions")
		}
		if n > 0 {
			return catalogs.Errorf(catalogs.ErrCatalogAlreadyExist, "Catalog %s already exists.", d.Name)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO catalog_defs (name, comment, options) VALUES (?, ?, ?)`,
			d.Name, d.Comment, encodeOptions(d.Options))
		return storeErr(err, "cannot store catalog %s", d.Name)
	})
}

// ReplaceCatalog overwrites an existing definition (ALTER CATALOG).
func (s *Store) ReplaceCatalog(ctx context.Context, d catalogs.CatalogDescriptor) error {
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE catalog_defs SET comment = ?, options = ? WHERE name = ?`,
			d.Comment, encodeOptions(d.Options), d.Name)
		if err != nil {
			return storeErr(err, "cannot store catalog %s", d.Name)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return catalogs.Errorf(catalogs.ErrCatalogNotExist, "Catalog %s does not exist in the catalog store.", d.Name)
		}
		return nil
	})
}

// RemoveCatalog deletes a definition (DROP CATALOG). The contents of a
// sqlite catalog of that name stay in the store, as Flink's DROP CATALOG
// leaves the tables of a Hive or JDBC catalog in their system: creating
// the catalog again finds them. Dropping each of its databases with
// CASCADE first purges them.
func (s *Store) RemoveCatalog(ctx context.Context, name string, ignoreIfNotExists bool) error {
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM catalog_defs WHERE name = ?`, name)
		if err != nil {
			return storeErr(err, "cannot remove catalog %s", name)
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.Errorf(catalogs.ErrCatalogNotExist, "Catalog %s does not exist.", name)
		}
		return nil
	})
}

// GetCatalog returns a definition.
func (s *Store) GetCatalog(ctx context.Context, name string) (catalogs.CatalogDescriptor, bool, error) {
	var comment, options string
	err := s.read(ctx, func() error {
		return s.db.QueryRowContext(ctx, `SELECT comment, options FROM catalog_defs WHERE name = ?`, name).Scan(&comment, &options)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return catalogs.CatalogDescriptor{}, false, nil
	}
	if err != nil {
		return catalogs.CatalogDescriptor{}, false, storeErr(err, "cannot read catalog %s", name)
	}
	opts, err := decodeOptions(options)
	if err != nil {
		return catalogs.CatalogDescriptor{}, false, storeErr(err, "cannot read catalog %s", name)
	}
	return catalogs.CatalogDescriptor{Name: name, Options: opts, Comment: comment}, true, nil
}

// ListCatalogs returns the stored catalog names, sorted.
func (s *Store) ListCatalogs(ctx context.Context) ([]string, error) {
	return s.names(ctx, `SELECT name FROM catalog_defs ORDER BY name`)
}

// Contains reports whether a definition exists.
func (s *Store) Contains(ctx context.Context, name string) (bool, error) {
	return s.exists(ctx, `SELECT count(*) FROM catalog_defs WHERE name = ?`, name)
}

func (s *Store) names(ctx context.Context, query string, args ...any) ([]string, error) {
	var names []string
	err := s.read(ctx, func() error {
		names = nil
		rows, err := s.db.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				return err
			}
			names = append(names, n)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, storeErr(err, "cannot read store %s", s.path)
	}
	return names, nil
}

func (s *Store) exists(ctx context.Context, query string, args ...any) (bool, error) {
	var n int
	err := s.read(ctx, func() error { return s.db.QueryRowContext(ctx, query, args...).Scan(&n) })
	if err != nil {
		return false, storeErr(err, "cannot read store %s", s.path)
	}
	return n > 0, nil
}

// ensureDatabase creates a catalog's database when it is missing. It reads
// first, so that opening a catalog whose database exists (every start but
// the first) takes no write lock; a read-only store is left as it is.
func (s *Store) ensureDatabase(ctx context.Context, catalog, name string) error {
	ok, err := s.exists(ctx, `SELECT count(*) FROM databases WHERE catalog = ? AND name = ?`, catalog, name)
	if err != nil || ok || s.readOnly {
		return err
	}
	return s.WriteTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO databases (catalog, name) VALUES (?, ?) ON CONFLICT DO NOTHING`, catalog, name)
		return err
	})
}
