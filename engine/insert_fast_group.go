package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/plan"
)

// Deferred durability (group commit). A script piped into the shell runs
// thousands of `INSERT INTO t VALUES (...)` statements; committing each
// one is most of their cost. ExecuteDeferred lets such INSERTs into the
// managed tables of one store share a write transaction: each runs in a
// savepoint of its own (a failed one changes nothing), and all become
// durable at CommitDeferred. The caller must not acknowledge a deferred
// statement before CommitDeferred returned nil: a crash before then loses
// only unacknowledged statements.

// ErrCommitFirst is ExecuteDeferred's answer to a statement that cannot
// join the open shared transaction: nothing ran, and the caller commits
// (CommitDeferred), reports the held answers, then runs the statement.
var ErrCommitFirst = errors.New("engine: commit the deferred statements before this statement")

// groupCatalog is implemented by catalogs whose managed-table rows live
// in a store that can share one write transaction among statements (the
// sqlite catalog): join makes a statement's context write inside it, end
// commits (true) or rolls it back (false).
type groupCatalog interface {
	BeginRowGroup(ctx context.Context) (join func(context.Context) context.Context,
		end func(ctx context.Context, commit bool) error, err error)
	// RowGroupKey identifies the store: catalogs with equal keys share
	// a transaction.
	RowGroupKey() any
}

// rowGroup is the session's open shared transaction.
type rowGroup struct {
	key  any
	join func(context.Context) context.Context
	end  func(ctx context.Context, commit bool) error
	// targets are the fast path's tables by the names the statements
	// wrote: while the group holds the store's lock no other process
	// changes them, and a statement of this session that could (DDL,
	// USE, temporary tables) ends the group first.
	targets map[string]*fastTarget
	// broken is set when a statement broke off inside the group: it is
	// rolled back instead of committed.
	broken error
}

// ExecuteDeferred runs sql as Execute does, except that an INSERT of
// VALUES into a managed table of a store that supports it runs inside the
// session's shared transaction (opened when none is open). deferred
// reports that it did: its answer, success or failure, is provisional
// until CommitDeferred returns nil, and its rows are not durable before.
// When a shared transaction is open and sql cannot join it, nothing runs
// and the error is ErrCommitFirst.
func (s *Session) ExecuteDeferred(ctx context.Context, sql string) (res *Result, deferred bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = &Error{Class: "InternalError", Message: fmt.Sprintf("%v\n%s", r, debug.Stack())}
			if s.group != nil {
				// What the statement left in the shared transaction is
				// unknown: none of its statements may be stored.
				s.group.broken = err
				deferred = true
			}
		}
	}()
	stmt, err := parser.Parse(sql)
	if err != nil {
		// A statement that does not parse changes nothing: in a group
		// it is reported in order with the others.
		return nil, s.group != nil, AsError(err)
	}
	ins, ok := stmt.(*ast.Insert)
	if ok && s.stmtSet == nil {
		s.sql = sql
		tgt, rows, fast := s.fastInsertRows(ctx, ins)
		s.sql = ""
		if fast {
			if err := s.joinGroup(ctx, tgt.gc); err != nil {
				return nil, false, err
			}
			s.group.targets[tgt.name] = tgt
			res, err = s.runFastInsert(s.group.join(ctx), tgt, rows)
			if err != nil {
				return nil, true, AsError(err)
			}
			return res, true, nil
		}
	}
	if !ok || s.stmtSet != nil || !valuesOnly(ins.Source) {
		if s.group != nil {
			return nil, false, ErrCommitFirst
		}
		s.sql = sql
		defer func() { s.sql = "" }()
		res, err = s.execute(ctx, stmt)
		if err != nil {
			return nil, false, AsError(err)
		}
		return res, false, nil
	}
	s.sql = sql
	defer func() { s.sql = "" }()
	sink, gc, err := s.planGroupInsert(ctx, ins)
	if err != nil {
		// Planning writes nothing: a failure inside a group is one of
		// its answers.
		return nil, s.group != nil, AsError(err)
	}
	if gc == nil || s.group != nil && s.group.key != gc.RowGroupKey() {
		if s.group != nil {
			return nil, false, ErrCommitFirst
		}
		res, err = s.runPlannedInserts(ctx, []*plan.Sink{sink})
		if err != nil {
			return nil, false, AsError(err)
		}
		return res, false, nil
	}
	if err := s.joinGroup(ctx, gc); err != nil {
		return nil, false, err
	}
	res, err = s.runPlannedInserts(s.group.join(ctx), []*plan.Sink{sink})
	if err != nil {
		return nil, true, AsError(err)
	}
	return res, true, nil
}

// joinGroup makes sure the open shared transaction is gc's store's,
// opening one when none is open: ErrCommitFirst when another store's is.
func (s *Session) joinGroup(ctx context.Context, gc groupCatalog) error {
	key := gc.RowGroupKey()
	if s.group != nil {
		if s.group.key != key {
			return ErrCommitFirst
		}
		return nil
	}
	join, end, err := gc.BeginRowGroup(ctx)
	if err != nil {
		return AsError(err)
	}
	s.group = &rowGroup{key: key, join: join, end: end, targets: map[string]*fastTarget{}}
	return nil
}

// CommitDeferred commits the shared transaction, if one is open. An error
// means that none of its statements was stored.
func (s *Session) CommitDeferred(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commitGroup(ctx)
}

// commitGroup ends the open shared transaction (s.mu held).
func (s *Session) commitGroup(ctx context.Context) error {
	g := s.group
	if g == nil {
		return nil
	}
	s.group = nil
	if g.broken != nil {
		_ = g.end(ctx, false)
		return g.broken
	}
	if err := g.end(ctx, true); err != nil {
		return AsError(err)
	}
	return nil
}

// rollbackGroup discards the open shared transaction (s.mu held).
func (s *Session) rollbackGroup() {
	if g := s.group; g != nil {
		s.group = nil
		_ = g.end(context.Background(), false)
	}
}

// valuesOnly reports whether q is a VALUES list that reads no table (no
// subquery): such an INSERT reads nothing of the store it writes.
func valuesOnly(q ast.Query) bool {
	v, ok := q.(*ast.Values)
	if !ok {
		return false
	}
	only := true
	ast.Inspect(v, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Subquery, *ast.Exists:
			only = false
		case ast.Query:
			if n != ast.Node(v) {
				only = false
			}
		}
		return only
	})
	return only
}

// planGroupInsert plans an INSERT and returns, beside its sink, the
// catalog whose store can take it into a shared transaction: nil unless
// the target is a permanent managed table of such a catalog and the plan
// reads no table.
func (s *Session) planGroupInsert(ctx context.Context, st *ast.Insert) (*plan.Sink, groupCatalog, error) {
	id, err := s.cat.Qualify(st.Table.Names()...)
	if err != nil {
		return nil, nil, err
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	tbl, ok := entry.Table.(*catalogs.CatalogTable)
	if !ok {
		return nil, nil, Errorf("ValidationException", "View '%s' cannot be written: it is a view, not a table.", id)
	}
	src, err := s.planQuery(ctx, st.Source)
	if err != nil {
		return nil, nil, err
	}
	sink, err := buildSink(id, tbl, st, src)
	if err != nil {
		return nil, nil, err
	}
	if entry.Temporary {
		return sink, nil, nil
	}
	if !s.managedTable(ctx, id, tbl) {
		return sink, nil, nil
	}
	reads := false
	plan.Walk(sink, func(x plan.Node) {
		if _, ok := x.(*plan.Scan); ok {
			reads = true
		}
	})
	if reads {
		return sink, nil, nil
	}
	cat, err := s.cat.Catalog(ctx, id.Catalog)
	if err != nil {
		return nil, nil, err
	}
	gc, _ := cat.(groupCatalog)
	return sink, gc, nil
}
