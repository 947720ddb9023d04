package qtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/conf"
	"eddy/engine"
	"eddy/repl"
	"eddy/repl/qtest"
	"eddy/repl/render"
)

// This file is the only place that knows how a conformance session is
// built: a fresh store in dir, a fresh engine session on it (set up as
// main.go sets one up, plus what Flink's harnesses set) and the shell on
// top. Everything else in the test talks to qtest.Target.

// Names of the catalog every session starts with (Flink's defaults).
const (
	defaultCatalog  = "default_catalog"
	defaultDatabase = "default_database"
)

// clusterOptions are the keys Flink's harness cluster lists in `SET;` and
// that survive `reset;` (README of the Flink scripts, "Things assumed to
// exist"): the base configuration of every conformance session.
func clusterOptions(env qtest.Env) map[string]string {
	return map[string]string{
		"$internal.deployment.config-dir":     "/dummy/conf/",
		"execution.attached":                  "true",
		"execution.shutdown-on-attached-exit": "false",
		"execution.target":                    "remote",
		"jobmanager.rpc.address":              env.JobManagerAddress,
		"rest.port":                           env.RestPort,
	}
}

// clientSessionSets are the session options Flink's client harness sets in
// its session: they are listed by `SET;` and gone after `reset;` (client
// set.q #11-#13). The gateway harness sets none.
var clientSessionSets = []string{
	"SET 'table.exec.legacy-cast-behaviour' = 'DISABLED'",
	"SET 'sql-client.display.print-time-cost' = 'false'",
}

// newTarget opens one fresh session for one .q file of dialect d, its store
// in the empty directory dir.
func newTarget(ctx context.Context, dir string, d qtest.Dialect) (qtest.Target, error) {
	store, err := sqlite.OpenStore(filepath.Join(dir, "eddy.db"))
	if err != nil {
		return nil, err
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{
		memory.Type: memory.Factory{},
		sqlite.Type: store,
	}, store)
	tg := &target{mgr: mgr, store: store}
	fail := func(err error) (qtest.Target, error) {
		tg.Close()
		return nil, err
	}
	def := catalogs.CatalogDescriptor{Name: defaultCatalog, Options: map[string]string{
		catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: defaultDatabase,
	}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		return fail(err)
	}
	if err := mgr.SetCurrentCatalog(ctx, defaultCatalog); err != nil {
		return fail(err)
	}
	sess, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Options: clusterOptions(qtest.DefaultEnv())})
	if err != nil {
		return fail(err)
	}
	tg.sess = shellSession{sess}
	if d == qtest.Client {
		for _, stmt := range clientSessionSets {
			if _, err := sess.Execute(ctx, stmt); err != nil {
				return fail(fmt.Errorf("%s: %w", stmt, err))
			}
		}
	}
	tg.shell = repl.New(tg.sess, repl.Config{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, NoErrorLocation: true,
		// Flink's harness cluster lists its own configuration: clusterOptions.
		FlinkSetListing: true})
	return tg, nil
}

// shellSession adapts the engine's session to the shell, as main.go does:
// display options come from the session's configuration.
type shellSession struct{ *engine.Session }

func (s shellSession) DisplayOptions() render.Options {
	return repl.OptionsFromConfig(func(key string) (string, bool) {
		v := s.Option(key)
		return v, v != ""
	})
}

// target is one conformance session: the shell answers client-dialect
// statements, the engine session gateway-dialect ones.
type target struct {
	mgr   *catalogs.Manager
	store *sqlite.Store
	sess  shellSession
	shell *repl.Shell
}

func (tg *target) ExecClient(ctx context.Context, stmt string, w io.Writer) qtest.Tag {
	switch tg.shell.ExecStatement(ctx, stmt, w) {
	case render.TagOK:
		return qtest.TagOK
	case render.TagInfo:
		return qtest.TagInfo
	case render.TagWarning:
		return qtest.TagWarning
	case render.TagError:
		return qtest.TagError
	}
	return qtest.TagUnknown
}

func (tg *target) Execute(ctx context.Context, stmt string) (*engine.Result, error) {
	return tg.sess.Execute(ctx, stmt)
}

func (tg *target) Streaming() bool {
	return !strings.EqualFold(tg.sess.Option(conf.RuntimeMode), "batch")
}

func (tg *target) Close() error {
	return errors.Join(tg.mgr.Close(), tg.store.Close())
}
