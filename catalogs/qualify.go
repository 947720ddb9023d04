package catalogs

import (
	"strings"
)

// Qualify turns a 1-, 2- or 3-part name into a full identifier using the
// current catalog and database (CM qualifyIdentifier): t becomes
// current.current.t, d.t becomes current.d.t, c.d.t stays.
func (m *Manager) Qualify(parts ...string) (Identifier, error) {
	if len(parts) < 1 || len(parts) > 3 {
		return Identifier{}, validation(ErrInvalidIdentifier, "Object identifier must consist of 1 to 3 parts.")
	}
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return Identifier{}, validation(ErrInvalidIdentifier, "Parts of the object identifier are null or whitespace-only.")
		}
	}
	id := Identifier{Object: parts[len(parts)-1]}
	switch len(parts) {
	case 3:
		id.Catalog, id.Database = parts[0], parts[1]
		return id, nil
	case 2:
		id.Database = parts[0]
	}
	curCat, curDB := m.current()
	if strings.TrimSpace(curCat) == "" {
		return Identifier{}, validation(ErrNoCurrentCatalog,
			"A current catalog has not been set. Please use a fully qualified identifier (such as 'my_catalog.my_database.my_table') or set a current catalog using 'USE CATALOG my_catalog'.")
	}
	id.Catalog = curCat
	if id.Database == "" {
		if strings.TrimSpace(curDB) == "" {
			return Identifier{}, validation(ErrNoCurrentDatabase,
				"A current database has not been set. Please use a fully qualified identifier (such as 'my_database.my_table' or 'my_catalog.my_database.my_table') or set a current database using 'USE my_database'.")
		}
		id.Database = curDB
	}
	return id, nil
}

// QualifyDatabase turns [catalog.]database into a catalog and database
// name, using the current catalog for a 1-part name.
func (m *Manager) QualifyDatabase(parts ...string) (catalog, database string, err error) {
	switch len(parts) {
	case 2:
		return parts[0], parts[1], nil
	case 1:
		curCat, _ := m.current()
		if strings.TrimSpace(curCat) == "" {
			return "", "", validation(ErrNoCurrentCatalog,
				"A current catalog has not been set. Please use a fully qualified identifier (such as 'my_catalog.my_database.my_table') or set a current catalog using 'USE CATALOG my_catalog'.")
		}
		return curCat, parts[0], nil
	}
	return "", "", validation(ErrInvalidIdentifier, "Database identifier must consist of 1 or 2 parts.")
}
