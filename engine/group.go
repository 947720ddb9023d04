package engine

import (
	"context"
	"errors"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/plan"
	"eddy/engine/sink"
	"eddy/engine/validate"
)

// Group commit. A script piped into the shell runs thousands of
// `INSERT INTO t VALUES (...)` statements; committing each one is most of
// their cost. A Group is a transaction mode of the session's statements:
// Group.Execute runs a statement exactly as Session.Execute does, except
// that an INSERT appending rows computed without reading any table into a
// table whose catalog keeps its rows writes inside the group's write
// transaction of that store (catalogs.WriteGroup, opened at the first such
// statement). Each such statement is a statement of its own inside it (a
// failed one changes nothing), and all become durable at Commit. The
// caller must not acknowledge a held statement before Commit returned nil:
// a crash before then loses only unacknowledged statements.

// ErrCommitFirst is Group.Execute's answer to a statement that cannot join
// the group's open transaction: nothing ran, and the caller commits the
// group (Commit), reports the held answers, then runs the statement.
var ErrCommitFirst = errors.New("engine: commit the deferred statements before this statement")

// Group is a write group of a session (see BeginGroup). A session has at
// most one open group: Session.Execute commits it before it runs anything
// else, and Close rolls it back.
type Group struct {
	s *Session
	// wg is the open write transaction, or nil.
	wg catalogs.WriteGroup
	// broken is set when a statement broke off inside the group: it is
	// rolled back instead of committed.
	broken error
	// targets keeps the INSERT targets bound while wg is open: nothing
	// can change them then (every other statement of the session ends
	// the transaction first, and the store's write lock keeps other
	// writers out), so they are bound once per transaction.
	targets *validate.Targets
	// tables are the connectors' views of the tables the group's
	// statements write (sink.Table), kept as targets are.
	tables map[plan.TableID]*connectors.Table
	// lastSink and lastTable are the last lookup in tables: a piped
	// script's statements of one shape write through one sink.
	lastSink  *plan.Sink
	lastTable *connectors.Table
	// shapes are the statement shapes bound while wg is open (see
	// shape.go), kept as targets are.
	shapes shapes
	// learn is set when the statement being run has a shape the group
	// has not seen: its plan is remembered once it ran.
	learn bool
	// kept are the shapes of the last transaction, for the next one.
	kept *keptShapes
}

// keptShapes are the shapes of a committed transaction. The next
// transaction of the group takes them back when nothing can have changed
// what they bound to: the session ran no statement in between (its epoch)
// and the store's definitions are at the version the committed
// transaction found (catalogs.VersionedGroup).
type keptShapes struct {
	byKey   map[string]*shape
	version int64
	epoch   uint64
}

// keep remembers the open transaction's shapes as it commits (wg is the
// transaction).
func (g *Group) keep(wg catalogs.WriteGroup) {
	g.kept = nil
	vg, ok := wg.(catalogs.VersionedGroup)
	if !ok || g.shapes.byKey == nil {
		return
	}
	if v, ok := vg.DefinitionsVersion(); ok {
		g.kept = &keptShapes{byKey: g.shapes.byKey, version: v, epoch: g.s.epoch}
	}
}

// resume opens the group's next transaction for a statement whose shape
// the last one kept (sp, writing to rs) and takes the kept shapes back
// when they are still valid; ok is false when they are not (the group is
// then open without them, or the error says why it could not open).
func (g *Group) resume(ctx context.Context, rs catalogs.RowStore) (ok bool, err error) {
	k := g.kept
	g.kept = nil
	if err := g.join(ctx, rs); err != nil {
		return false, err
	}
	vg, isV := g.wg.(catalogs.VersionedGroup)
	if !isV {
		return false, nil
	}
	v, known := vg.DefinitionsVersion()
	if !known || v != k.version || k.epoch != g.s.epoch {
		return false, nil
	}
	g.shapes.byKey = k.byKey
	return true, nil
}

// BeginGroup returns a write group of the session. It holds no
// transaction until a statement joins it.
func (s *Session) BeginGroup() *Group { return &Group{s: s} }

// Execute runs sql as Session.Execute does, in the group's transaction
// mode. held reports that the statement wrote inside the group's
// transaction: its answer, success or failure, is provisional until Commit
// returns nil, and its rows are not durable before. When the group's
// transaction is open and sql cannot join it, nothing runs and the error
// is ErrCommitFirst.
func (g *Group) Execute(ctx context.Context, sql string) (res *Result, held bool, err error) {
	return g.s.run(ctx, sql, g)
}

// Commit commits the group's transaction, if one is open. An error means
// that none of its statements was stored. The group can be used again.
func (g *Group) Commit(ctx context.Context) error {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.commit(ctx)
}

// Rollback discards the group's transaction, if one is open.
func (g *Group) Rollback() error {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.rollback()
}

// open reports whether the group holds a transaction (false for no group).
func (g *Group) open() bool { return g != nil && g.wg != nil }

// join makes sure the group's transaction is open on rs's store.
func (g *Group) join(ctx context.Context, rs catalogs.RowStore) error {
	if g.wg != nil {
		return nil
	}
	wg, err := rs.BeginWriteGroup(ctx)
	if err != nil {
		return AsError(err)
	}
	g.wg, g.targets, g.tables = wg, validate.NewTargets(), map[plan.TableID]*connectors.Table{}
	g.lastSink, g.lastTable = nil, nil
	g.shapes.byKey = nil
	g.s.group = g
	return nil
}

// commit ends the group's transaction (s.mu held).
func (g *Group) commit(ctx context.Context) error {
	wg := g.wg
	if wg == nil {
		return nil
	}
	g.kept = nil
	if g.broken == nil {
		g.keep(wg)
	}
	g.wg, g.targets, g.tables, g.shapes.byKey = nil, nil, nil, nil
	g.lastSink, g.lastTable = nil, nil
	g.s.group = nil
	if err := g.broken; err != nil {
		g.broken = nil
		_ = wg.Rollback()
		return err
	}
	if err := wg.Commit(ctx); err != nil {
		g.kept = nil
		return AsError(err)
	}
	return nil
}

// rollback discards the group's transaction (s.mu held).
func (g *Group) rollback() error {
	wg := g.wg
	if wg == nil {
		return nil
	}
	g.wg, g.broken, g.targets, g.tables, g.shapes.byKey, g.kept = nil, nil, nil, nil, nil, nil
	g.lastSink, g.lastTable = nil, nil
	g.s.group = nil
	return wg.Rollback()
}

// sinkTable returns the connectors' view of the table sk writes
// (sink.Table), the one of the open write group when it has it.
func (s *Session) sinkTable(sk *plan.Sink) *connectors.Table {
	g := s.group
	if g == nil || g.tables == nil {
		return sink.Table(sk)
	}
	if g.lastSink == sk {
		return g.lastTable
	}
	t, ok := g.tables[sk.Table]
	if !ok {
		t = sink.Table(sk)
		g.tables[sk.Table] = t
	}
	g.lastSink, g.lastTable = sk, t
	return t
}

// insert binds, plans and runs an INSERT: the one path of every INSERT,
// typed or piped. In a group (g not nil) its write joins the group's
// transaction when it can; held reports that it did.
func (s *Session) insert(ctx context.Context, ins *ast.Insert, g *Group) (res *Result, held bool, err error) {
	var targets *validate.Targets
	learn := g.open() && g.learn
	if g != nil {
		g.learn = false
	}
	if g.open() {
		targets = g.targets
	}
	sk, err := s.bindInsert(ctx, ins, targets)
	if err == nil {
		sk, err = s.optimizeSink(ctx, sk)
	}
	if err != nil {
		// Binding and planning write nothing: a failure inside an open
		// group is one of its answers.
		return nil, g.open(), err
	}
	res, held, err = s.runInsert(ctx, sk, g)
	if learn && held && err == nil {
		g.shapes.remember(sk)
	}
	return res, held, err
}

// runInsert runs an INSERT's optimized sink, in g's transaction when it
// can join it (held reports that it did).
func (s *Session) runInsert(ctx context.Context, sk *plan.Sink, g *Group) (res *Result, held bool, err error) {
	var wg catalogs.WriteGroup
	if g != nil {
		rs := sink.Groupable(s.conns.Registry, sk, s.sinkTable(sk))
		if rs == nil || g.wg != nil && !g.wg.Holds(rs) {
			if g.open() {
				return nil, false, ErrCommitFirst
			}
		} else {
			if err := g.join(ctx, rs); err != nil {
				return nil, false, err
			}
			wg = g.wg
		}
	}
	res, err = s.runPlannedInserts(ctx, []*plan.Sink{sk}, wg)
	return res, wg != nil, err
}
