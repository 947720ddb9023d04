package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	"eddy/catalogs"
	"eddy/conf"
	"eddy/engine/ast"
	"eddy/engine/connectors"
	"eddy/engine/connectors/jdbc"
	"eddy/engine/connectors/kafka"
	"eddy/engine/ddl"
	"eddy/engine/functions"
	"eddy/engine/jobs"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

// SessionConfig is what a Session is built from.
type SessionConfig struct {
	// Catalogs is the session's catalog manager, with its catalogs
	// registered and a current catalog and database set.
	Catalogs *catalogs.Manager
	// Options is the base configuration (YAML configuration, -D flags):
	// SET overrides it and RESET returns to it.
	Options map[string]string
	// Registry validates option values; nil means conf.Options().
	Registry *conf.Registry
	// Connectors are the connector and format factories tables use; nil
	// means connectors.NewRegistry() (eddy's own) with the kafka and
	// upsert-kafka connectors (kafka.Register).
	Connectors *connectors.Registry
}

// Session executes statements one at a time against its catalogs and
// configuration. It is the library entry point: the shell, the tests and
// any Go program drive eddy through it.
type Session struct {
	mu   sync.Mutex
	cat  *catalogs.Manager
	conf *config

	// ddl runs DDL and metadata statements; it holds the module list
	// and the registered jars.
	ddl *ddl.Executor

	// stmtSet collects INSERTs between BEGIN STATEMENT SET and END.
	stmtSet *statementSet

	// funcs is the registry of built-in functions.
	funcs *functions.Registry

	// conns holds the sources and sinks, and the rows of managed tables
	// kept in memory, for the life of the session.
	conns *connectors.Connectors

	// sql is the text of the statement being executed, for error
	// messages that quote it and for the original query of a view.
	sql string

	// jobs are the INSERTs and statement sets submitted under
	// table.dml-sync = false.
	jobs jobs.Registry

	// group is the write group whose transaction is open (see
	// BeginGroup), or nil.
	group *Group
	// epoch counts the statements the session ran other than inside a
	// write group: a group keeps its shapes for its next transaction
	// only when none ran in between (see keptShapes).
	epoch uint64
}

// NewSession returns a session over cfg.Catalogs. A bad base option value
// is an error.
func NewSession(cfg SessionConfig) (*Session, error) {
	if cfg.Catalogs == nil {
		return nil, fmt.Errorf("engine: a session needs a catalog manager")
	}
	reg := cfg.Registry
	if reg == nil {
		reg = conf.Options()
	}
	c, err := newConfig(reg, cfg.Options)
	if err != nil {
		return nil, err
	}
	conns := cfg.Connectors
	if conns == nil {
		conns = connectors.NewRegistry()
		kafka.Register(conns)
		jdbc.Register(conns)
	}
	s := &Session{cat: cfg.Catalogs, conf: c, funcs: functions.NewRegistry(), conns: connectors.NewWith(conns)}
	s.ddl = ddl.New(ddl.Config{Catalogs: s.cat, Funcs: s.funcs, Analyzer: s.analyzer, Batch: func() bool { return !s.streaming() }})
	return s, nil
}

// Catalogs returns the session's catalog manager.
func (s *Session) Catalogs() *catalogs.Manager { return s.cat }

// Prompt returns the current catalog and database.
func (s *Session) Prompt() (catalog, database string) {
	return s.cat.CurrentCatalog(), s.cat.CurrentDatabase()
}

// Option returns the effective value of a session option: what SET
// changed, else the base configuration, else the option's default.
func (s *Session) Option(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conf.get(key)
}

// Execute parses and runs one statement (a trailing ';' is allowed).
// Every failure is returned as an *Error. A failed statement changes
// nothing.
func (s *Session) Execute(ctx context.Context, sql string) (*Result, error) {
	res, _, err := s.run(ctx, sql, nil)
	return res, err
}

// run parses and runs one statement: parse, then validate, plan and run
// (execute). g is the write group the statement runs in, or nil (see
// Group.Execute for held).
func (s *Session) run(ctx context.Context, sql string, g *Group) (res *Result, held bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if !held {
			s.epoch++
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			res = nil
			err = &Error{Class: sqlerr.InternalError, Message: fmt.Sprintf("%v\n%s", r, debug.Stack())}
			if g.open() {
				// What the statement left in the group's transaction is
				// unknown: none of its statements may be stored.
				g.broken, held = err, true
			}
		}
	}()
	if s.group != nil && s.group != g {
		// An open group's transaction ends before anything else runs.
		if err := s.group.commit(ctx); err != nil {
			return nil, false, err
		}
	}
	if g != nil && s.stmtSet == nil {
		// A statement of a shape the group has bound runs its plan.
		s.sql = sql
		res, held, err, ran := s.insertShaped(ctx, sql, g)
		s.sql = ""
		if ran {
			if err == ErrCommitFirst {
				return nil, false, err
			}
			if err != nil {
				return nil, held, AsError(err)
			}
			return res, held, nil
		}
	}
	stmt, err := parser.ParseDialect(sql, s.conf.get(conf.SQLDialect))
	if err != nil {
		// A statement that does not parse changes nothing: in an open
		// group it is reported in order with the others.
		return nil, g.open(), AsError(err)
	}
	s.sql = sql
	defer func() { s.sql = "" }()
	if ins, ok := stmt.(*ast.Insert); ok && s.stmtSet == nil {
		res, held, err = s.insert(ctx, ins, g)
	} else if g.open() {
		return nil, false, ErrCommitFirst
	} else {
		res, err = s.execute(ctx, stmt)
	}
	if err != nil {
		if err == ErrCommitFirst {
			return nil, false, err
		}
		return nil, held, AsError(err)
	}
	return res, held, nil
}

// Close ends the session: it waits for background jobs that read only
// bounded sources, cancels the others (CloseJobs), then releases the
// session's catalogs.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.group != nil {
		_ = s.group.rollback() // never committed: none of its answers was given
	}
	s.mu.Unlock()
	s.CloseJobs()
	return s.cat.Close()
}
