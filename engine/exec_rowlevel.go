package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

// rowLevel is a DELETE or UPDATE: its target, the alias it reads the
// target under, its condition (or nil) and, for UPDATE, its assignments.
type rowLevel struct {
	op          string // "delete" or "update"
	table       *ast.ObjectName
	alias       *ast.Ident
	where       ast.Expr
	assignments []*ast.Assignment
}

func (s *Session) execDelete(ctx context.Context, st *ast.Delete) (*Result, error) {
	return s.execRowLevel(ctx, rowLevel{op: "delete", table: st.Table, alias: st.Alias, where: st.Where})
}

func (s *Session) execUpdate(ctx context.Context, st *ast.Update) (*Result, error) {
	return s.execRowLevel(ctx, rowLevel{op: "update", table: st.Table, alias: st.Alias, where: st.Where, assignments: st.Assignments})
}

// execRowLevel runs DELETE and UPDATE with Flink's rules: the statement is
// validated as the query Flink rewrites it to (the table must be readable,
// bounded in batch mode), streaming mode is refused, and only a sink that
// can change rows takes it. Of eddy's tables, managed tables can: in
// batch mode the statement rewrites the table's rows, as INSERT OVERWRITE
// of the table's own rows, kept (DELETE) or changed (UPDATE).
func (s *Session) execRowLevel(ctx context.Context, r rowLevel) (*Result, error) {
	id, err := s.cat.Qualify(r.table.Names()...)
	if err != nil {
		return nil, err
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil && !errors.Is(err, catalogs.ErrTableNotExist) {
		return nil, err
	}
	tbl, _ := entry.Table.(*catalogs.CatalogTable)
	var cols []string
	if tbl != nil {
		for _, c := range tbl.Schema.Columns {
			if c.Kind == catalogs.Physical {
				cols = append(cols, c.Name)
			}
		}
		for _, a := range r.assignments {
			if tbl.Schema.Column(a.Column.Name) == nil {
				return nil, Errorf(sqlerr.SqlValidatorException, "Unknown target column '%s'", a.Column.Name)
			}
		}
	}
	// Validate (and check the source of) the query Flink rewrites to.
	check := "SELECT * FROM " + r.from()
	if r.where != nil {
		check += " WHERE " + ast.String(r.where)
	}
	if len(r.assignments) > 0 {
		sets := make([]string, len(r.assignments))
		for i, a := range r.assignments {
			sets[i] = ast.String(a.Value)
		}
		check = strings.Replace(check, "*", strings.Join(sets, ", "), 1)
	}
	if err := s.checkQuery(ctx, check); err != nil {
		return nil, err
	}
	var target *connectors.Table
	if tbl != nil {
		var cat catalogs.Catalog
		if !entry.Temporary {
			if cat, err = s.cat.Catalog(ctx, id.Catalog); err != nil {
				return nil, err
			}
		}
		target = &connectors.Table{Catalog: cat, Name: id, Temporary: entry.Temporary, Options: tbl.Options}
		// Flink's DELETE first tries to push the deletion into the sink,
		// which needs a connector that can be one, whatever the mode.
		if r.op == "delete" {
			if err := s.conns.Validate(target, true); err != nil {
				return nil, err
			}
		}
	}
	if s.streaming() {
		return nil, Errorf(sqlerr.TableException, "%s statement is not supported for streaming mode now.", strings.ToUpper(r.op))
	}
	if tbl == nil {
		return nil, Errorf(sqlerr.TableException, "Sink '%s' does not exists", id.SummaryString())
	}
	if r.op == "update" {
		if err := s.conns.Validate(target, true); err != nil {
			return nil, err
		}
	}
	if !s.conns.Registry.Managed(target) {
		ability := "SupportsRowLevelDelete"
		if r.op == "update" {
			ability = "SupportsRowLevelUpdate"
		}
		return nil, Errorf(sqlerr.UnsupportedOperationException,
			"Can't perform %s operation of the table %s because the corresponding dynamic table sink has not yet implemented org.apache.flink.table.connector.sink.abilities.%s.",
			r.op, id.SummaryString(), ability)
	}
	rewrite := "INSERT OVERWRITE " + id.String() + " " + r.rewrite(cols)
	stmt, err := parser.Parse(rewrite)
	if err != nil {
		return nil, err
	}
	ins, ok := stmt.(*ast.Insert)
	if !ok {
		return nil, fmt.Errorf("%s: unexpected rewrite %T", r.op, stmt)
	}
	return s.execInsert(ctx, ins)
}

// from is the target as the rewritten query reads it.
func (r rowLevel) from() string {
	from := ast.String(r.table)
	if r.alias != nil {
		from += " AS " + ast.String(r.alias)
	}
	return from
}

// rewrite is the query whose rows replace the table's: the rows the
// condition does not hold for (DELETE), or every row with the assigned
// columns changed where it holds (UPDATE).
func (r rowLevel) rewrite(cols []string) string {
	cond := "TRUE"
	if r.where != nil {
		cond = "(" + ast.String(r.where) + ")"
	}
	if r.op == "delete" {
		return "SELECT * FROM " + r.from() + " WHERE " + cond + " IS NOT TRUE"
	}
	items := make([]string, len(cols))
	for i, c := range cols {
		col := ast.String(&ast.Ident{Name: c, Quoted: true})
		items[i] = col
		for _, a := range r.assignments {
			if a.Column.Name == c {
				items[i] = "CASE WHEN " + cond + " IS TRUE THEN " + ast.String(a.Value) + " ELSE " + col + " END"
			}
		}
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM " + r.from()
}

// checkQuery validates a query and prepares its sources, as running it
// would, without reading a row.
func (s *Session) checkQuery(ctx context.Context, sql string) error {
	stmt, err := parser.Parse(sql)
	if err != nil {
		return err
	}
	q, ok := stmt.(*ast.QueryStatement)
	if !ok {
		return fmt.Errorf("unexpected statement %T", stmt)
	}
	n, err := s.planQuery(ctx, q.Query)
	if err != nil {
		return err
	}
	res, err := s.runQuery(ctx, n)
	if err != nil {
		return err
	}
	return res.Close()
}
