package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"eddy/catalogs"
	"eddy/conf"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/exec"
	"eddy/engine/plan"
	"eddy/engine/sink"
	"eddy/engine/sqlerr"
	"eddy/engine/types"
	"eddy/engine/validate"
	"eddy/engine/vector"
)

// Queries, INSERT [OVERWRITE], CTAS, TRUNCATE, EXPLAIN, EXECUTE and
// statement sets: validate -> plan -> exec.

// connectors returns the connectors the session's statements use; its
// memory store keeps the rows of managed tables of generic_in_memory
// catalogs and of temporary managed tables for the life of the session.
func (s *Session) connectors() *connectors.Connectors { return s.conns }

func (s *Session) streaming() bool {
	return strings.EqualFold(s.conf.get("execution.runtime-mode"), "streaming")
}

// location is table.local-time-zone, resolved as SET validated it
// ('default' is the system zone; GMT+08:00 offsets are accepted too).
func (s *Session) location() (*time.Location, error) {
	name := s.conf.get(conf.LocalTimeZone)
	loc, err := conf.LoadZone(name)
	if err != nil {
		return nil, Errorf(sqlerr.ValidationException, "Invalid time zone '%s'.", name)
	}
	return loc, nil
}

// prepare resolves every table a plan reads or writes (while the session
// lock is held) and returns an executor builder over them.
func (s *Session) prepare(ctx context.Context, conns *connectors.Connectors, nodes ...plan.Node) (*exec.Builder, *sessionTables, error) {
	loc, err := s.location()
	if err != nil {
		return nil, nil, err
	}
	st := &sessionTables{conns: conns, streaming: s.streaming(), tables: map[plan.TableID]*connectors.Table{},
		pipeline: connectors.NewPipeline()}
	if st.streaming {
		st.checkpoint, _ = conf.ParseDuration(s.conf.get(conf.CheckpointInterval))
	}
	var resolveErr error
	for _, n := range nodes {
		if st.streaming && resolveErr == nil {
			resolveErr = streamingSort(n)
			if resolveErr == nil {
				resolveErr = streamingOver(n, planSources{ctx: ctx, s: s})
			}
			if resolveErr == nil {
				resolveErr = streamingMatch(n, planSources{ctx: ctx, s: s})
			}
		}
		plan.WalkOnce(n, func(x plan.Node) {
			if resolveErr != nil {
				return
			}
			switch x := x.(type) {
			case *plan.Scan:
				if x.Catalog != nil || x.Temporary {
					// The validator resolved the table: no second lookup.
					if _, ok := st.tables[x.Table]; !ok {
						st.tables[x.Table] = scanTable(x)
					}
				} else {
					resolveErr = st.resolve(ctx, s.cat, x.Table, x.Physical, x.Options, x.PartitionKeys)
				}
				if resolveErr == nil {
					st.tables[x.Table].Batch = !st.streaming
					scanMetadata(st.tables[x.Table], x)
					resolveErr = st.conns.Validate(st.tables[x.Table], false)
				}
				if resolveErr == nil && !st.streaming && !scanBounded(x) {
					resolveErr = Errorf(sqlerr.ValidationException,
						"Querying an unbounded table '%s' in batch mode is not allowed. The table source is unbounded.",
						x.Table.Catalog+"."+x.Table.Database+"."+x.Table.Object)
				}
				if resolveErr == nil && !st.streaming && st.conns.Abilities(st.tables[x.Table]).Produces != connectors.InsertOnly {
					resolveErr = Errorf(sqlerr.TableException,
						"Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table '%s' produces other changelog messages than just INSERT.",
						x.Table.Catalog+"."+x.Table.Database+"."+x.Table.Object)
				}
			case *plan.WindowTVF:
				resolveErr = windowTimeAttr(x, st.streaming)
			case *plan.Sink:
				// The validator resolved the target: no second lookup.
				if _, ok := st.tables[x.Table]; !ok {
					st.tables[x.Table] = sink.Table(x)
				}
				resolveErr = sinkMetadata(st.conns, st.tables[x.Table], x)
				if resolveErr == nil {
					resolveErr = st.conns.Validate(st.tables[x.Table], true)
				}

			}
		})
	}
	if resolveErr != nil {
		return nil, nil, resolveErr
	}
	budget, err := s.conf.memoryBudget()
	if err != nil {
		return nil, nil, err
	}
	par, err := s.conf.parallelism()
	if err != nil {
		return nil, nil, err
	}
	st.workers = par
	var mb exec.MiniBatch
	if st.streaming {
		if mb, err = s.miniBatch(ctx, nodes); err != nil {
			return nil, nil, err
		}
	}
	b := exec.NewBuilder(exec.Options{Streaming: st.streaming, Loc: loc, Tables: st,
		Catalog: s.cat.CurrentCatalog(), Database: s.cat.CurrentDatabase(), MemoryBudget: budget,
		Parallelism: par, MiniBatch: mb})
	return b, st, nil
}

// windowTimeAttr rejects, in streaming mode, a window table function whose
// time column is a plain timestamp rather than a time attribute (batch
// mode windows any timestamp column), as Flink's planner does.
func windowTimeAttr(x *plan.WindowTVF, streaming bool) error {
	if !streaming || x.TimeCol < 0 || x.TimeCol >= len(x.Cols) {
		return nil
	}
	t := x.Cols[x.TimeCol].Type
	if t.TimeAttr != types.Regular {
		return nil
	}
	return Errorf(sqlerr.ValidationException,
		"The window function requires the timecol is a time attribute type, but is %s.", t.WithNullable(true))
}

// scanBounded reports whether a scan's source ends, as its connector
// declared it when the scan was planned (Abilities.Bounded).
func scanBounded(x *plan.Scan) bool { return x.Bounded }

// sessionTables opens the tables of one statement.
type sessionTables struct {
	conns     *connectors.Connectors
	streaming bool
	tables    map[plan.TableID]*connectors.Table
	// checkpoint is execution.checkpointing.interval in streaming mode.
	checkpoint time.Duration
	// pipeline is shared by every reader and writer the statement opens
	// (connectors.Pipeline).
	pipeline *connectors.Pipeline
	// workers is eddy.exec.parallelism, which bounds the goroutines a
	// reader decodes on (connectors.WorkerCap); 0 leaves them to it.
	workers int
}

func (st *sessionTables) resolve(ctx context.Context, m *catalogs.Manager, id plan.TableID, cols plan.Schema, options map[string]string, parts []string) error {
	if _, ok := st.tables[id]; ok {
		return nil
	}
	cid := catalogs.NewIdentifier(id.Catalog, id.Database, id.Object)
	entry, err := m.GetTable(ctx, cid)
	if err != nil {
		return err
	}
	var cat catalogs.Catalog
	if !entry.Temporary {
		if cat, err = m.Catalog(ctx, id.Catalog); err != nil {
			return err
		}
	}
	t := &connectors.Table{Catalog: cat, Name: cid, Temporary: entry.Temporary, Options: options, PartitionKeys: parts}
	if ct, ok := entry.Table.(*catalogs.CatalogTable); ok && ct.Schema.PrimaryKey != nil {
		t.PrimaryKey = ct.Schema.PrimaryKey.Columns
	}
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	for _, c := range cols {
		t.Columns = append(t.Columns, connectors.Column{Name: c.Name, Type: c.Type})
	}
	st.tables[id] = t
	return nil
}

// scanTable returns the connectors' view of the table a scan reads, from
// what the validator resolved.
func scanTable(x *plan.Scan) *connectors.Table {
	t := &connectors.Table{Catalog: x.Catalog, Name: catalogs.NewIdentifier(x.Table.Catalog, x.Table.Database, x.Table.Object),
		Temporary: x.Temporary, Options: x.Options, PartitionKeys: x.PartitionKeys}
	for _, i := range x.PrimaryKey {
		t.PrimaryKey = append(t.PrimaryKey, x.Physical[i].Name)
	}
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	for _, c := range x.Physical {
		t.Columns = append(t.Columns, connectors.Column{Name: c.Name, Type: c.Type})
	}
	return t
}

// inPipeline returns ctx carrying the statement's pipeline.
func (st *sessionTables) inPipeline(ctx context.Context) context.Context {
	if st.pipeline == nil {
		return ctx
	}
	return connectors.WithPipeline(ctx, st.pipeline)
}

// OpenScan implements exec.Tables.
func (st *sessionTables) OpenScan(ctx context.Context, scan *plan.Scan) (connectors.Reader, error) {
	t, ok := st.tables[scan.Table]
	if !ok {
		return nil, fmt.Errorf("table %s was not resolved", scan.Table)
	}
	r, err := st.conns.OpenReader(st.inPipeline(ctx), t)
	if c, ok := r.(connectors.WorkerCap); ok && err == nil && st.workers > 0 {
		c.CapWorkers(st.workers)
	}
	return r, err
}

// OpenSink implements exec.Tables.
func (st *sessionTables) OpenSink(ctx context.Context, sink *plan.Sink) (connectors.Writer, error) {
	t, ok := st.tables[sink.Table]
	if !ok {
		return nil, fmt.Errorf("table %s was not resolved", sink.Table)
	}
	return st.conns.OpenWriter(st.inPipeline(ctx), t, connectors.WriteSpec{Overwrite: sink.Overwrite,
		StaticPartition: sink.StaticPartition, Streaming: st.streaming, CheckpointInterval: st.checkpoint})
}

// execQuery runs a query and returns its rows as they are produced.
func (s *Session) execQuery(ctx context.Context, st *ast.QueryStatement, text string) (*Result, error) {
	_ = text
	n, err := s.planQuery(ctx, st.Query)
	if err != nil {
		return nil, err
	}
	return s.runQuery(ctx, n)
}

// runQuery builds the operators of a query plan and wraps them as a
// result. Rows are computed when the caller reads them.
func (s *Session) runQuery(ctx context.Context, n plan.Node) (*Result, error) {
	b, _, err := s.prepare(ctx, s.connectors(), n)
	if err != nil {
		return nil, err
	}
	if n, err = s.optimize(ctx, n); err != nil {
		return nil, err
	}
	op, err := b.Build(n)
	if err != nil {
		return nil, err
	}
	schema := n.Schema()
	cols := make([]Column, len(schema))
	for i, c := range schema {
		cols[i] = Column{Name: c.Name, Type: c.Type}
	}
	bounded := true
	plan.Walk(n, func(x plan.Node) {
		if sc, ok := x.(*plan.Scan); ok && !scanBounded(sc) {
			bounded = false
		}
	})
	rows := &opRows{op: op, cols: cols, dropNulls: strings.EqualFold(s.conf.get(notNullEnforcer), "DROP")}
	return &Result{Kind: ResultRows, Columns: cols, Rows: rows, IsQuery: true,
		Changelog: s.streaming(), Bounded: bounded}, nil
}

// notNullEnforcer is Flink's option for a NULL arriving in a NOT NULL
// column of a sink: ERROR (the default) fails the job, DROP drops the row.
const notNullEnforcer = "table.exec.sink.not-null-enforcer"

// opRows turns an operator's batches into result rows.
type opRows struct {
	op   exec.Operator
	cols []Column
	// dropNulls drops a row with a NULL in a NOT NULL column instead of
	// failing (notNullEnforcer).
	dropNulls bool
	b         *vector.Batch
	i         int
	done      bool
	closed    bool
}

func (r *opRows) Next(ctx context.Context) (Row, bool, error) {
	for {
		row, ok, err := r.next(ctx)
		if !ok || err != nil {
			return row, ok, err
		}
		col := r.nullInNotNull(row)
		if col < 0 {
			return row, true, nil
		}
		if !r.dropNulls {
			r.done = true
			r.Close()
			return Row{}, false, sqlerr.Errorf(sqlerr.EnforcerException,
				"Column '%s' is NOT NULL, however, a null value is being written into it. "+
					"You can set job configuration '%s'='DROP' to suppress this exception and drop such records silently.",
				r.cols[col].Name, notNullEnforcer)
		}
	}
}

// nullInNotNull returns the first NOT NULL column holding NULL in row, or
// -1.
func (r *opRows) nullInNotNull(row Row) int {
	for i, v := range row.Values {
		if v == nil && i < len(r.cols) && !r.cols[i].Type.Nullable() {
			return i
		}
	}
	return -1
}

func (r *opRows) next(ctx context.Context) (Row, bool, error) {
	for !r.done && (r.b == nil || r.i >= r.b.N) {
		if err := ctx.Err(); err != nil {
			return Row{}, false, err
		}
		b, err := r.op.Next(ctx)
		if err != nil {
			r.done = true
			r.Close()
			return Row{}, false, AsError(err)
		}
		if b == nil {
			r.done = true
			r.Close()
			break
		}
		r.b, r.i = b, 0
	}
	if r.done && (r.b == nil || r.i >= r.b.N) {
		return Row{}, false, nil
	}
	row := Row{Kind: r.b.Kind(r.i), Values: r.b.Row(r.i)}
	r.i++
	return row, true, nil
}

func (r *opRows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return r.op.Close()
}

// dmlResult is the answer to a statement that ran its job inside the
// statement (a CTAS): table.dml-sync true gives Flink's synchronous line,
// false its submission lines with the id of the (already finished) job.
func (s *Session) dmlResult(targets []string) *Result {
	if s.dmlSync() {
		return Info(msgFinishStatement)
	}
	j := s.jobs.Add(s.jobName(targets), true, nil)
	s.jobs.Finish(j, nil)
	return submitted(j.ID())
}

// execInsert runs INSERT INTO / INSERT OVERWRITE.
func (s *Session) execInsert(ctx context.Context, st *ast.Insert) (*Result, error) {
	res, _, err := s.insert(ctx, st, nil)
	return res, err
}

// execStatementSetRun runs EXECUTE STATEMENT SET and END of BEGIN
// STATEMENT SET: every INSERT is planned first, then all run, and their
// writes are committed together only when all succeeded.
func (s *Session) execStatementSetRun(ctx context.Context, set *ast.StatementSet) (*Result, error) {
	if len(set.Inserts) == 0 {
		return Success(), nil
	}
	sinks := make([]*plan.Sink, len(set.Inserts))
	for i, ins := range set.Inserts {
		sk, err := s.planInsert(ctx, ins)
		if err != nil {
			return nil, err
		}
		sinks[i] = sk
	}
	for i, sk := range sinks {
		o, err := s.optimizeSink(ctx, sk)
		if err != nil {
			return nil, err
		}
		sinks[i] = o
	}
	return s.runPlannedInserts(ctx, sinks, nil)
}

// runPlannedInserts runs planned and optimized INSERTs as one job; g,
// when not nil, is the write group their rows are written in.
//
// With table.dml-sync = true the job runs inside the statement, which
// answers when it has ended. With false (Flink's default) the statement
// answers with Flink's submission lines and the job's id, and:
//   - a job that reads an unbounded source runs in the background until
//     STOP JOB or the session's close cancels it;
//   - a job that reads only bounded sources still runs inside the
//     statement. The local engine finishes such a job as soon as a
//     cluster would have accepted it, and running it in place keeps a
//     script's later statements consistent with Flink's: `INSERT INTO t
//     VALUES (1); SELECT * FROM t;` sees its row, a DROP or a second
//     INSERT never races a writer, and a failure is reported by the
//     statement that caused it (SHOW JOBS also lists the job, FINISHED or
//     FAILED).
func (s *Session) runPlannedInserts(ctx context.Context, sinks []*plan.Sink, g catalogs.WriteGroup) (*Result, error) {
	if s.dmlSync() {
		if err := s.runSinks(ctx, s.connectors(), sinks, g); err != nil {
			return nil, err
		}
		return Info(msgFinishStatement), nil
	}
	name := s.jobName(sinkNames(sinks))
	if sinksBounded(sinks) {
		j := s.jobs.Add(name, true, nil)
		err := s.runSinks(ctx, s.connectors(), sinks, g)
		s.jobs.Finish(j, jobError(err))
		if err != nil {
			return nil, err
		}
		return submitted(j.ID()), nil
	}
	r, err := s.openSinks(ctx, s.connectors(), sinks, nil)
	if err != nil {
		return nil, err
	}
	r.Interleave = true
	j := s.jobs.Add(name, false, backgroundJob(r.Run))
	return submitted(j.ID()), nil
}

// sinkNames returns the full names of the sinks' tables.
func sinkNames(sinks []*plan.Sink) []string {
	out := make([]string, len(sinks))
	for i, sk := range sinks {
		out[i] = sk.Table.Catalog + "." + sk.Table.Database + "." + sk.Table.Object
	}
	return out
}

// sinksBounded reports whether every source the sinks read ends.
func sinksBounded(sinks []*plan.Sink) bool {
	bounded := true
	for _, sk := range sinks {
		plan.Walk(sk, func(x plan.Node) {
			if sc, ok := x.(*plan.Scan); ok && !scanBounded(sc) {
				bounded = false
			}
		})
	}
	return bounded
}

// runSinks writes every optimized sink's rows (inside g when not nil)
// and commits all writers at the end; on any failure every writer is
// aborted. A single sink the optimizer marked direct (opt.DirectInsert:
// constant rows into a table whose catalog keeps its rows) takes the
// physical fast path (sink.WriteLiteral): the same rows, without
// operators.
func (s *Session) runSinks(ctx context.Context, conns *connectors.Connectors, sinks []*plan.Sink, g catalogs.WriteGroup) error {
	if len(sinks) == 1 && sinks[0].Direct {
		loc, err := s.location()
		if err != nil {
			return err
		}
		if done, err := sink.WriteLiteral(ctx, conns.Registry, sinks[0], s.sinkTable(sinks[0]), g, loc); done {
			return err
		}
	}
	r, err := s.openSinks(ctx, conns, sinks, g)
	if err != nil {
		return err
	}
	return r.Run(ctx)
}

// openSinks resolves the optimized sinks' tables, opens their writers
// (inside g when not nil) and builds their operators.
func (s *Session) openSinks(ctx context.Context, conns *connectors.Connectors, sinks []*plan.Sink, g catalogs.WriteGroup) (*sink.Run, error) {
	nodes := make([]plan.Node, len(sinks))
	for i, sk := range sinks {
		nodes[i] = sk
	}
	b, st, err := s.prepare(ctx, conns, nodes...)
	if err != nil {
		return nil, err
	}
	r := &sink.Run{}
	if g == nil {
		// A streaming INSERT commits at checkpoints as well as at its end;
		// a batch one at its end, its rows spilled past its memory share.
		budget, err := s.conf.memoryBudget()
		if err != nil {
			return nil, err
		}
		if r.Checkpoints, err = sink.CheckpointsOf(s.conf.get(conf.CheckpointInterval), budget, st.streaming); err != nil {
			return nil, err
		}
	}
	for _, sk := range sinks {
		if st.streaming && sk.Overwrite {
			// INSERT OVERWRITE is batch only (FileSystemTableSink's text).
			return nil, r.Abort(Errorf(sqlerr.IllegalStateException, "Streaming mode not support overwrite."))
		}
		var w connectors.Writer
		var err error
		if g != nil {
			var ok bool
			if w, ok = st.conns.Registry.OpenGroupWriter(st.tables[sk.Table], g, sk.Overwrite); !ok {
				return nil, r.Abort(fmt.Errorf("table %s is not kept in the write group's store", sk.Table))
			}
		} else if w, err = st.OpenSink(ctx, sk); err != nil {
			return nil, r.Abort(err)
		}
		op, err := b.Build(sk.Input)
		if err != nil {
			r.AddWriter(w)
			return nil, r.Abort(err)
		}
		if st.streaming && !st.changelogSink(sk) && sk.InputUpdates {
			// A table that stores rows receives the query's final rows.
			op = exec.Materialize(op, sk.Input.Schema().Types())
		}
		r.Add(w, op)
	}
	return r, nil
}

// changelogSink reports whether a sink takes a changelog as it is (print
// shows each row's kind, blackhole discards them); the others store rows
// (Abilities.Accepts).
func (st *sessionTables) changelogSink(sk *plan.Sink) bool {
	return st.conns.Abilities(st.tables[sk.Table]).Accepts != connectors.InsertOnly
}

// planInsert binds an INSERT (validate.Analyzer.Insert): its target, its
// query, and the mapping onto the target's physical columns.
func (s *Session) planInsert(ctx context.Context, st *ast.Insert) (*plan.Sink, error) {
	return s.bindInsert(ctx, st, nil)
}

// bindInsert is planInsert with the targets already bound (nil for none;
// see validate.Targets).
func (s *Session) bindInsert(ctx context.Context, st *ast.Insert, targets *validate.Targets) (*plan.Sink, error) {
	a := s.analyzer(s.sql)
	a.Targets = targets
	return a.Insert(ctx, st)
}

// execTruncate runs TRUNCATE TABLE (batch mode only, as in Flink).
func (s *Session) execTruncate(ctx context.Context, st *ast.Truncate) (*Result, error) {
	if s.streaming() {
		return nil, Errorf(sqlerr.TableException, "TRUNCATE TABLE statement is not supported in streaming mode.")
	}
	id, err := s.cat.Qualify(st.Table.Names()...)
	if err != nil {
		return nil, err
	}
	entry, err := s.cat.GetTable(ctx, id)
	if err != nil {
		return nil, err
	}
	tbl, ok := entry.Table.(*catalogs.CatalogTable)
	if !ok {
		return nil, Errorf(sqlerr.TableException, "TRUNCATE TABLE statement is not supported for view %s.", id)
	}
	var cat catalogs.Catalog
	if !entry.Temporary {
		if cat, err = s.cat.Catalog(ctx, id.Catalog); err != nil {
			return nil, err
		}
	}
	t := &connectors.Table{Catalog: cat, Name: id, Temporary: entry.Temporary, Options: tbl.Options}
	if t.Options == nil {
		t.Options = map[string]string{}
	}
	if err := s.connectors().Truncate(ctx, t); err != nil {
		return nil, err
	}
	return Success(), nil
}

// execExplain prints eddy's plan of a query, an INSERT or a statement
// set in the sections Flink's EXPLAIN prints.
func (s *Session) execExplain(ctx context.Context, st *ast.Explain) (*Result, error) {
	var nodes []plan.Node
	switch x := st.Stmt.(type) {
	case *ast.QueryStatement:
		n, err := s.planQuery(ctx, x.Query)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	case *ast.Insert:
		sk, err := s.planInsert(ctx, x)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, sk)
	case *ast.StatementSet:
		for _, ins := range x.Inserts {
			sk, err := s.planInsert(ctx, ins)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, sk)
		}
	default:
		return nil, unsupported(st)
	}
	// Flink creates the table sources and sinks while it optimizes, so
	// their option errors (and batch mode's refusal of an unbounded
	// source) are EXPLAIN's answer too (table.q).
	if _, _, err := s.prepare(ctx, s.connectors(), nodes...); err != nil {
		return nil, err
	}
	text, err := s.explain(ctx, nodes)
	if err != nil {
		return nil, err
	}
	// The plan is text, not a query's rows: the client prints it whole,
	// as SHOW CREATE, never cut at sql-client.display.max-column-width.
	return StringTable([]string{"result"}, [][]any{{text}}), nil
}

// execExecute runs EXECUTE <query | insert | statement set>.
func (s *Session) execExecute(ctx context.Context, st *ast.Execute) (*Result, error) {
	switch x := st.Stmt.(type) {
	case *ast.QueryStatement:
		return s.execQuery(ctx, x, "")
	case *ast.Insert:
		return s.execInsert(ctx, x)
	case *ast.StatementSet:
		return s.execStatementSetRun(ctx, x)
	}
	return nil, unsupported(st)
}

// execCreateTableAs runs CREATE TABLE ... AS SELECT: the table takes the
// query's columns; if filling it fails, it is dropped again.
func (s *Session) execCreateTableAs(ctx context.Context, st *ast.CreateTable) (*Result, error) {
	id, err := s.cat.Qualify(st.Name.Names()...)
	if err != nil {
		return nil, err
	}
	src, err := s.planQuery(ctx, st.Query)
	if err != nil {
		return nil, err
	}
	tbl := &catalogs.CatalogTable{Options: map[string]string{}}
	for _, p := range st.Options {
		tbl.Options[p.Key] = p.Value
	}
	if err := connectors.ResolvePath(tbl.Options); err != nil {
		return nil, err
	}
	for _, c := range src.Schema() {
		tbl.Schema.Columns = append(tbl.Schema.Columns, catalogs.Column{Name: c.Name, Kind: catalogs.Physical, Type: c.Type})
	}
	if st.Comment != nil {
		tbl.Comment = *st.Comment
	}
	for _, p := range st.PartitionBy {
		tbl.PartitionKeys = append(tbl.PartitionKeys, p.Name)
	}
	if st.Temporary {
		err = s.cat.CreateTemporaryTable(ctx, id, tbl, st.IfNotExists)
	} else {
		err = s.cat.CreateTable(ctx, id, tbl, st.IfNotExists)
	}
	if err != nil {
		return nil, err
	}
	var cat catalogs.Catalog
	if !st.Temporary {
		cat, err = s.cat.Catalog(ctx, id.Catalog)
	}
	var sk *plan.Sink
	if err == nil {
		sk, err = validate.BindSink(catalogs.TableEntry{ID: id, Table: tbl, Temporary: st.Temporary}, cat,
			&ast.Insert{Table: st.Name}, src)
	}
	if err == nil {
		sk, err = s.optimizeSink(ctx, sk)
	}
	if err == nil {
		err = s.runSinks(ctx, s.connectors(), []*plan.Sink{sk}, nil)
	}
	if err != nil {
		if st.Temporary {
			_ = s.cat.DropTemporaryTable(id, true)
		} else {
			_ = s.cat.DropTable(ctx, id, true)
		}
		return nil, err
	}
	return s.dmlResult([]string{id.Catalog + "." + id.Database + "." + id.Object}), nil
}

// OpenLookup implements exec.LookupTables.
func (st *sessionTables) OpenLookup(ctx context.Context, scan *plan.Scan, keys []int) (connectors.Lookuper, error) {
	return st.conns.OpenLookup(ctx, scanTable(scan), keys)
}
