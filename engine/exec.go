package engine

import (
	"context"
	"fmt"
	"strings"

	"eddy/catalogs"
	"eddy/engine/ast"
)

// execute runs one parsed statement.
func (s *Session) execute(ctx context.Context, stmt ast.Statement) (*Result, error) {
	if s.stmtSet != nil {
		return s.executeInStatementSet(ctx, stmt)
	}
	switch st := stmt.(type) {
	case *ast.Set:
		return s.execSet(st)
	case *ast.Reset:
		return s.execReset(st)

	case *ast.CreateCatalog:
		return s.execCreateCatalog(ctx, st)
	case *ast.DropCatalog:
		return success(s.cat.DropCatalog(ctx, st.Name.Name, st.IfExists))
	case *ast.AlterCatalog:
		return s.execAlterCatalog(ctx, st)
	case *ast.UseCatalog:
		return success(s.cat.SetCurrentCatalog(ctx, st.Name.Name))

	case *ast.CreateDatabase:
		return s.execCreateDatabase(ctx, st)
	case *ast.DropDatabase:
		return s.execDropDatabase(ctx, st)
	case *ast.AlterDatabase:
		return s.execAlterDatabase(ctx, st)
	case *ast.UseDatabase:
		return s.execUseDatabase(ctx, st)

	case *ast.CreateTable:
		return s.execCreateTable(ctx, st)
	case *ast.DropTable:
		return s.execDropTable(ctx, st)
	case *ast.AlterTable:
		return s.execAlterTable(ctx, st)

	case *ast.CreateView:
		return s.execCreateView(ctx, st)
	case *ast.DropView:
		return s.execDropView(ctx, st)
	case *ast.AlterViewRename:
		return s.execAlterViewRename(ctx, st)
	case *ast.AlterViewAs:
		return s.execAlterViewAs(ctx, st)

	case *ast.CreateFunction:
		return s.execCreateFunction(ctx, st)
	case *ast.DropFunction:
		return s.execDropFunction(ctx, st)
	case *ast.AlterFunction:
		return s.execAlterFunction(ctx, st)

	case *ast.Show:
		return s.execShow(ctx, st)
	case *ast.ShowCurrent:
		return s.execShowCurrent(st)
	case *ast.ShowCreate:
		return s.execShowCreate(ctx, st)
	case *ast.Describe:
		return s.execDescribe(ctx, st)

	case *ast.LoadModule:
		return success(s.modules.load(st))
	case *ast.UnloadModule:
		return success(s.modules.unload(st.Name.Name))
	case *ast.UseModules:
		return success(s.modules.use(st))
	case *ast.AddJar:
		return s.execAddJar(st)
	case *ast.RemoveJar:
		return s.execRemoveJar(st)

	case *ast.BeginStatementSet:
		s.stmtSet = &statementSet{}
		return Success(), nil
	case *ast.End:
		return nil, Errorf("SqlExecutionException", "No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.")

	case *ast.QueryStatement:
		return s.execQuery(ctx, st, s.sql)
	case *ast.Insert:
		return s.execInsert(ctx, st)
	case *ast.StatementSet:
		return s.execStatementSetRun(ctx, st)
	case *ast.Execute:
		return s.execExecute(ctx, st)
	case *ast.Truncate:
		return s.execTruncate(ctx, st)
	case *ast.Explain:
		return s.execExplain(ctx, st)
	case *ast.CompilePlan:
		return s.execCompilePlan(ctx, st)
	case *ast.CompileAndExecutePlan:
		return s.execCompileAndExecutePlan(ctx, st)
	case *ast.ExecutePlan:
		return s.execExecutePlan(ctx, st)

	case *ast.StopJob:
		return s.execStopJob(st)

	case *ast.ClientCommand:
		return nil, Errorf("SqlExecutionException", "%s is a command of the shell, not a statement the engine runs.", st.Name)
	}
	return nil, unsupported(stmt)
}

// unsupported reports a statement the local engine cannot run.
func unsupported(stmt ast.Statement) error {
	kind := strings.TrimPrefix(fmt.Sprintf("%T", stmt), "*ast.")
	return Errorf("TableException", "Unsupported statement %s: the local engine of eddy does not run it.", kind)
}

func success(err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return Success(), nil
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
func nameList(header string, names []string) *Result {
	rows := make([][]any, len(names))
	for i, n := range names {
		rows[i] = []any{n}
	}
	return StringTable([]string{header}, rows)
}
