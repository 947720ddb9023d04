package engine

import (
	"context"
	"fmt"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/sqlerr"
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

	case *ast.CreateTable:
		if st.Query != nil {
			return s.execCreateTableQuery(ctx, st)
		}
		return s.ddl.Execute(ctx, st, s.sql)
	case *ast.Show:
		if st.Kind == ast.ShowJobs {
			return s.showJobs(), nil
		}
		return s.ddl.Execute(ctx, st, s.sql)
	case *ast.CreateCatalog, *ast.DropCatalog, *ast.AlterCatalog, *ast.UseCatalog,
		*ast.CreateDatabase, *ast.DropDatabase, *ast.AlterDatabase, *ast.UseDatabase,
		*ast.DropTable, *ast.AlterTable,
		*ast.CreateView, *ast.DropView, *ast.AlterViewRename, *ast.AlterViewAs,
		*ast.CreateFunction, *ast.DropFunction, *ast.AlterFunction,
		*ast.ShowCurrent, *ast.ShowCreate, *ast.Describe,
		*ast.LoadModule, *ast.UnloadModule, *ast.UseModules, *ast.AddJar, *ast.RemoveJar,
		*ast.Call,
		*ast.CreateModel, *ast.DropModel, *ast.AlterModel, *ast.MaterializedTable:
		return s.ddl.Execute(ctx, stmt, s.sql)

	case *ast.AnalyzeTable:
		return s.execAnalyze(ctx, st)

	case *ast.BeginStatementSet:
		s.stmtSet = &statementSet{}
		return Success(), nil
	case *ast.End:
		return nil, Errorf(sqlerr.SqlExecutionException, "No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.")

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
	case *ast.Delete:
		return s.execDelete(ctx, st)
	case *ast.Update:
		return s.execUpdate(ctx, st)
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
		return nil, Errorf(sqlerr.SqlExecutionException, "%s is a command of the shell, not a statement the engine runs.", st.Name)
	}
	return nil, unsupported(stmt)
}

// unsupported reports a statement the local engine cannot run.
func unsupported(stmt ast.Statement) error {
	kind := strings.TrimPrefix(fmt.Sprintf("%T", stmt), "*ast.")
	return Errorf(sqlerr.TableException, "Unsupported statement %s: the local engine of eddy does not run it.", kind)
}

func success(err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	return Success(), nil
}
