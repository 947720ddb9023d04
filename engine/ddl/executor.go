package ddl

import (
	"context"
	"fmt"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
	"eddy/engine/functions"
	"eddy/engine/result"
	"eddy/engine/schema"
	"eddy/engine/sqlerr"
	"eddy/engine/validate"
)

// Config is what an Executor is built from.
type Config struct {
	// Catalogs is the session's catalog manager.
	Catalogs *catalogs.Manager
	// Funcs is the registry of built-in functions: it types computed
	// columns and watermarks and answers SHOW and DESCRIBE FUNCTION.
	Funcs *functions.Registry
	// Analyzer returns the query validator of the session (the one its
	// queries use), over the statement text source; CREATE and ALTER VIEW
	// validate their query with it.
	Analyzer func(source string) *validate.Analyzer
	// Batch reports whether the session runs in batch mode, where DESCRIBE
	// shows no event-time attributes; nil means streaming.
	Batch func() bool
}

// Executor runs the DDL and metadata statements of one session. It holds
// the session's module list and registered jars; the catalog manager keeps
// everything else. Like the session that owns it, it runs one statement at
// a time.
type Executor struct {
	cat      *catalogs.Manager
	funcs    *functions.Registry
	analyzer func(source string) *validate.Analyzer
	batch    func() bool

	modules *modules
	jars    []string
}

// New returns an executor with the core module loaded and no jars.
func New(cfg Config) *Executor {
	return &Executor{cat: cfg.Catalogs, funcs: cfg.Funcs, analyzer: cfg.Analyzer, batch: cfg.Batch, modules: newModules()}
}

// Execute runs one DDL or metadata statement; sql is the statement's text,
// which messages quote and a view keeps as its original query.
//
// It runs CREATE, ALTER, DROP and USE of catalogs, databases, tables, views
// and functions; SHOW (but SHOW JOBS), SHOW CURRENT, SHOW CREATE, DESCRIBE;
// LOAD, UNLOAD and USE MODULES; ADD and REMOVE JAR. CREATE TABLE ... AS
// and any other statement is unsupported here: they belong to the session.
func (ex *Executor) Execute(ctx context.Context, stmt ast.Statement, sql string) (*result.Result, error) {
	switch st := stmt.(type) {
	case *ast.CreateCatalog:
		return ex.execCreateCatalog(ctx, st)
	case *ast.DropCatalog:
		return success(ex.cat.DropCatalog(ctx, st.Name.Name, st.IfExists))
	case *ast.AlterCatalog:
		return ex.execAlterCatalog(ctx, st)
	case *ast.UseCatalog:
		return success(ex.cat.SetCurrentCatalog(ctx, st.Name.Name))

	case *ast.CreateDatabase:
		return ex.execCreateDatabase(ctx, st)
	case *ast.DropDatabase:
		return ex.execDropDatabase(ctx, st)
	case *ast.AlterDatabase:
		return ex.execAlterDatabase(ctx, st)
	case *ast.UseDatabase:
		return ex.execUseDatabase(ctx, st)

	case *ast.CreateTable:
		if st.Query != nil {
			return nil, unsupported(st)
		}
		return ex.execCreateTable(ctx, st, sql)
	case *ast.DropTable:
		return ex.execDropTable(ctx, st)
	case *ast.AlterTable:
		return ex.execAlterTable(ctx, st)

	case *ast.CreateView:
		return ex.execCreateView(ctx, st, sql)
	case *ast.DropView:
		return ex.execDropView(ctx, st)
	case *ast.AlterViewRename:
		return ex.execAlterViewRename(ctx, st)
	case *ast.AlterViewAs:
		return ex.execAlterViewAs(ctx, st, sql)

	case *ast.CreateFunction:
		return ex.execCreateFunction(ctx, st)
	case *ast.DropFunction:
		return ex.execDropFunction(ctx, st)
	case *ast.AlterFunction:
		return ex.execAlterFunction(ctx, st)

	case *ast.Show:
		return ex.execShow(ctx, st)
	case *ast.ShowCurrent:
		return ex.execShowCurrent(st)
	case *ast.ShowCreate:
		return ex.execShowCreate(ctx, st)
	case *ast.Describe:
		return ex.execDescribe(ctx, st)

	case *ast.LoadModule:
		return success(ex.modules.load(st))
	case *ast.UnloadModule:
		return success(ex.modules.unload(st.Name.Name))
	case *ast.UseModules:
		return success(ex.modules.use(st))
	case *ast.AddJar:
		return ex.execAddJar(st)
	case *ast.RemoveJar:
		return ex.execRemoveJar(st)
	case *ast.Call:
		return ex.execCall(ctx, st)
	case *ast.AnalyzeTable:
		return ex.execAnalyze(ctx, st)

	case *ast.CreateModel:
		return ex.execCreateModel(ctx, st)
	case *ast.DropModel:
		return ex.execDropModel(ctx, st)
	case *ast.AlterModel:
		return ex.execAlterModel(ctx, st)
	case *ast.MaterializedTable:
		return ex.execMaterializedTable(ctx, st)
	}
	return nil, unsupported(stmt)
}

// schema resolves table schemas with the session's functions.
func (ex *Executor) schema() schema.Resolver { return schema.Resolver{Funcs: ex.funcs} }

// unsupported reports a statement the local engine cannot run.
func unsupported(stmt ast.Statement) error {
	kind := strings.TrimPrefix(fmt.Sprintf("%T", stmt), "*ast.")
	return sqlerr.Errorf(sqlerr.TableException, "Unsupported statement %s: the local engine of eddy does not run it.", kind)
}

func success(err error) (*result.Result, error) {
	if err != nil {
		return nil, err
	}
	return result.Success(), nil
}

// likeFilter turns a parsed [NOT] LIKE|ILIKE clause into the catalog filter.
func likeFilter(l *ast.LikePattern) *catalogs.LikeFilter {
	if l == nil {
		return nil
	}
	return &catalogs.LikeFilter{Pattern: l.Pattern, Not: l.Not, CaseInsensitive: l.ILike}
}

// properties turns a WITH list into a map; later keys win, as in Flink.
func properties(props []*ast.Property) map[string]string {
	if props == nil {
		return nil
	}
	m := make(map[string]string, len(props))
	for _, p := range props {
		m[p.Key] = p.Value
	}
	return m
}

// nameList builds a one-column listing of names.
func nameList(header string, names []string) *result.Result {
	rows := make([][]any, len(names))
	for i, n := range names {
		rows[i] = []any{n}
	}
	return result.StringTable([]string{header}, rows)
}
