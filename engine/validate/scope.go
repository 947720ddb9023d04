package validate

import (
	"eddy/engine/ast"
	"eddy/engine/types"
)

// Column is one column visible to an expression.
type Column struct {
	// Table is the name or alias that qualifies the column in expanded
	// text (`orders`.`user`); "" for a table's own columns in CREATE TABLE,
	// whose computed columns and watermarks print bare names (`ts`).
	Table string
	Name  string
	Type  *types.Type
}

// Scope is the set of columns an expression may reference, in order.
// Names are case-sensitive, as in Flink.
type Scope struct {
	cols []Column
}

// NewScope returns a scope holding the given columns.
func NewScope(cols ...Column) *Scope { return &Scope{cols: append([]Column(nil), cols...)} }

// Add appends a column.
func (s *Scope) Add(c Column) { s.cols = append(s.cols, c) }

// Columns returns the columns in order.
func (s *Scope) Columns() []Column { return append([]Column(nil), s.cols...) }

func (s *Scope) hasTable(name string) bool {
	for _, c := range s.cols {
		if c.Table != "" && c.Table == name {
			return true
		}
	}
	return false
}

// lookup finds the columns named name, in table when table is not "".
func (s *Scope) lookup(table, name string) []Column {
	var out []Column
	for _, c := range s.cols {
		if c.Name == name && (table == "" || c.Table == table) {
			out = append(out, c)
		}
	}
	return out
}

// resolve finds the column an identifier names and the field path after
// it: `c`, `t`.`c`, `c`.`f`, `t`.`c`.`f`. It follows Calcite: a first part
// naming a table in scope qualifies the column; otherwise the first part
// is the column and the rest are fields.
func (s *Scope) resolve(id *ast.Identifier) (Column, []*ast.Ident, error) {
	parts := id.Parts
	first := parts[0]
	if len(parts) > 1 && s.hasTable(first.Name) {
		col := parts[1]
		found := s.lookup(first.Name, col.Name)
		if len(found) == 0 {
			return Column{}, nil, errorf(col.Pos, ErrColumnNotFound,
				"Column '%s' not found in table '%s'", col.Name, first.Name)
		}
		return found[0], parts[2:], nil
	}
	found := s.lookup("", first.Name)
	switch {
	case len(found) > 1:
		return Column{}, nil, errorf(first.Pos, ErrColumnAmbiguous, "Column '%s' is ambiguous", first.Name)
	case len(found) == 0 && len(parts) > 1:
		return Column{}, nil, errorf(first.Pos, ErrTableNotFound, "Table '%s' not found", first.Name)
	case len(found) == 0:
		return Column{}, nil, errorf(first.Pos, ErrColumnNotFound, "Column '%s' not found in any table", first.Name)
	}
	return found[0], parts[1:], nil
}
