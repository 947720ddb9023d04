package main

import (
	"context"
	"fmt"
	"maps"

	"eddy/catalogs"
	"eddy/catalogs/memory"
	"eddy/catalogs/sqlite"
	"eddy/conf"
	"eddy/engine"
	"eddy/repl"
)

// Names of the catalog every session starts with (Flink's defaults).
const (
	defaultCatalog  = "default_catalog"
	defaultDatabase = "default_database"
)

// openSession opens the store, registers default_catalog (persistent, in
// the store) and the configuration's catalogs, makes the configuration's
// catalog and database current and returns the session. Options apply in
// the order built-in defaults < configuration < -D flags (SET comes later).
func openSession(ctx context.Context, cfg *conf.Config, storePath string, defines map[string]string) (repl.Session, func(), error) {
	store, err := sqlite.OpenStore(storePath)
	if err != nil {
		return nil, nil, fmt.Errorf("store %s: %w", storePath, err)
	}
	mgr := catalogs.NewManager(map[string]catalogs.Factory{
		memory.Type: memory.Factory{},
		sqlite.Type: store,
	}, store)
	closeAll := func() {
		mgr.Close()
		store.Close()
	}
	fail := func(err error) (repl.Session, func(), error) {
		closeAll()
		return nil, nil, err
	}
	def := catalogs.CatalogDescriptor{Name: defaultCatalog, Options: map[string]string{
		catalogs.OptionType: sqlite.Type, catalogs.OptionDefaultDatabase: defaultDatabase,
	}}
	if err := mgr.RegisterCatalog(ctx, def, nil, catalogs.OriginBuiltIn); err != nil {
		return fail(err)
	}
	options := map[string]string{}
	current, currentDB := defaultCatalog, ""
	if cfg != nil {
		for _, c := range cfg.Catalogs {
			desc := catalogs.CatalogDescriptor{Name: c.Name, Options: c.AllOptions()}
			if err := mgr.RegisterCatalog(ctx, desc, nil, catalogs.OriginConfig); err != nil {
				return fail(cfg.CatalogError(c, err))
			}
		}
		maps.Copy(options, cfg.Settings())
		if cfg.Execution.RuntimeMode != "" {
			options[conf.RuntimeMode] = cfg.Execution.RuntimeMode
		}
		if cfg.Execution.ResultMode != "" {
			options[conf.ResultMode] = cfg.Execution.ResultMode
		}
		if cfg.Execution.CurrentCatalog != "" {
			current = cfg.Execution.CurrentCatalog
		}
		currentDB = cfg.Execution.CurrentDatabase
	}
	maps.Copy(options, defines)
	if err := mgr.SetCurrentCatalog(ctx, current); err != nil {
		return fail(err)
	}
	if currentDB != "" {
		if err := mgr.SetCurrentDatabase(ctx, currentDB); err != nil {
			return fail(err)
		}
	}
	sess, err := engine.NewSession(engine.SessionConfig{Catalogs: mgr, Options: options})
	if err != nil {
		return fail(err)
	}
	return repl.FromEngine(sess), closeAll, nil
}
