package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"eddy/catalogs"
)

// Models live in the table models (schema version 3): one row a model,
// its input and output columns as JSON lists of columns (the documents of
// a table's definition), its options as a JSON object. A model goes with
// its database (the foreign key cascades). Lookups read the store each
// time, so another process's change is seen by the next statement.

// sqlModels is the migration from schema version 2 to 3.
const sqlModels = `
CREATE TABLE IF NOT EXISTS models (
	catalog TEXT NOT NULL,
	db      TEXT NOT NULL,
	name    TEXT NOT NULL,
	comment TEXT NOT NULL DEFAULT '',
	options TEXT NOT NULL DEFAULT '{}', -- JSON object
	input   TEXT NOT NULL DEFAULT '[]', -- JSON list of columns
	output  TEXT NOT NULL DEFAULT '[]', -- JSON list of columns
	PRIMARY KEY (catalog, db, name),
	FOREIGN KEY (catalog, db) REFERENCES databases (catalog, name) ON DELETE CASCADE
);
`

var _ catalogs.ModelCatalog = (*Catalog)(nil)

func encodeModelColumns(cols []catalogs.Column) string {
	b, _ := json.Marshal(encodeColumns(cols)) // strings and bools always marshal
	return string(b)
}

func decodeModelColumns(s string) ([]catalogs.Column, error) {
	var docs []columnDoc
	if err := json.Unmarshal([]byte(s), &docs); err != nil {
		return nil, err
	}
	return decodeColumns(docs)
}

// ListModels returns the model names of a database, sorted.
func (c *Catalog) ListModels(ctx context.Context, database string) ([]string, error) {
	ok, err := c.DatabaseExists(ctx, database)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, catalogs.DatabaseNotExist(c.name, database)
	}
	names, err := c.store.names(ctx, `SELECT name FROM models WHERE catalog = ? AND db = ? ORDER BY name`, c.name, database)
	return names, storeErr(err, "cannot list the models of database %s of catalog %s", database, c.name)
}

// GetModel returns a model.
func (c *Catalog) GetModel(ctx context.Context, path catalogs.ObjectPath) (*catalogs.CatalogModel, error) {
	var comment, options, input, output string
	err := c.store.read(ctx, func() error {
		return c.store.db.QueryRowContext(ctx,
			`SELECT comment, options, input, output FROM models WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object).Scan(&comment, &options, &input, &output)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, catalogs.ModelNotExist(c.name, path)
	}
	if err != nil {
		return nil, storeErr(err, "cannot read model %s of catalog %s", path.FullName(), c.name)
	}
	m := &catalogs.CatalogModel{Comment: comment}
	if m.Options, err = decodeOptions(options); err == nil {
		if m.Input, err = decodeModelColumns(input); err == nil {
			m.Output, err = decodeModelColumns(output)
		}
	}
	if err != nil {
		return nil, storeErr(err, "cannot read model %s of catalog %s", path.FullName(), c.name)
	}
	return m, nil
}

// ModelExists reports whether a model exists.
func (c *Catalog) ModelExists(ctx context.Context, path catalogs.ObjectPath) (bool, error) {
	return c.store.exists(ctx, `SELECT count(*) FROM models WHERE catalog = ? AND db = ? AND name = ?`,
		c.name, path.Database, path.Object)
}

func modelExists(ctx context.Context, tx *sql.Tx, catalog string, p catalogs.ObjectPath) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM models WHERE catalog = ? AND db = ? AND name = ?`,
		catalog, p.Database, p.Object).Scan(&n)
	return n > 0, err
}

// CreateModel adds a model.
func (c *Catalog) CreateModel(ctx context.Context, path catalogs.ObjectPath, m *catalogs.CatalogModel, ignoreIfExists bool) error {
	return c.tx(ctx, "create model "+path.FullName(), func(tx *sql.Tx) error {
		ok, err := dbExists(ctx, tx, c.name, path.Database)
		if err != nil {
			return err
		}
		if !ok {
			return catalogs.DatabaseNotExist(c.name, path.Database)
		}
		if ok, err = modelExists(ctx, tx, c.name, path); err != nil {
			return err
		}
		if ok {
			if ignoreIfExists {
				return nil
			}
			return catalogs.ModelAlreadyExist(c.name, path)
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO models (catalog, db, name, comment, options, input, output) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			c.name, path.Database, path.Object, m.Comment, encodeOptions(m.Options),
			encodeModelColumns(m.Input), encodeModelColumns(m.Output))
		return err
	})
}

// AlterModel replaces a model.
func (c *Catalog) AlterModel(ctx context.Context, path catalogs.ObjectPath, m *catalogs.CatalogModel, ignoreIfNotExists bool) error {
	return c.tx(ctx, "alter model "+path.FullName(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE models SET comment = ?, options = ?, input = ?, output = ? WHERE catalog = ? AND db = ? AND name = ?`,
			m.Comment, encodeOptions(m.Options), encodeModelColumns(m.Input), encodeModelColumns(m.Output),
			c.name, path.Database, path.Object)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.ModelNotExist(c.name, path)
		}
		return nil
	})
}

// RenameModel renames a model within its database.
func (c *Catalog) RenameModel(ctx context.Context, path catalogs.ObjectPath, newName string, ignoreIfNotExists bool) error {
	return c.tx(ctx, "rename model "+path.FullName(), func(tx *sql.Tx) error {
		ok, err := modelExists(ctx, tx, c.name, path)
		if err != nil {
			return err
		}
		if !ok {
			if ignoreIfNotExists {
				return nil
			}
			return catalogs.ModelNotExist(c.name, path)
		}
		to := catalogs.NewObjectPath(path.Database, newName)
		if ok, err = modelExists(ctx, tx, c.name, to); err != nil {
			return err
		}
		if ok {
			return catalogs.ModelAlreadyExist(c.name, to)
		}
		_, err = tx.ExecContext(ctx, `UPDATE models SET name = ? WHERE catalog = ? AND db = ? AND name = ?`,
			newName, c.name, path.Database, path.Object)
		return err
	})
}

// DropModel removes a model.
func (c *Catalog) DropModel(ctx context.Context, path catalogs.ObjectPath, ignoreIfNotExists bool) error {
	return c.tx(ctx, "drop model "+path.FullName(), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM models WHERE catalog = ? AND db = ? AND name = ?`,
			c.name, path.Database, path.Object)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 && !ignoreIfNotExists {
			return catalogs.ModelNotExist(c.name, path)
		}
		return nil
	})
}
