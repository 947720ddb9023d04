package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/parser"
	"eddy/engine/sqlerr"
)

// compiledPlan is what COMPILE PLAN writes: the DML statement in canonical
// form together with the catalog and database its names resolve in, so
// EXECUTE PLAN runs the same statement on the same tables later. Flink
// writes its planner's JSON plan; eddy's plan is its statement, which its
// engine plans again when it runs.
type compiledPlan struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Catalog   string `json:"catalog"`
	Database  string `json:"database"`
	Statement string `json:"statement"`
}

const compiledPlanFormat = "eddy-compiled-plan"

// planPath turns a plan location ('file:///p' or a path) into a file path.
func planPath(location string) string {
	return strings.TrimPrefix(location, "file://")
}

func (s *Session) execCompilePlan(ctx context.Context, st *ast.CompilePlan) (*Result, error) {
	path := planPath(st.File)
	if _, err := os.Stat(path); err == nil {
		if st.IfNotExists {
			return Success(), nil
		}
		if !s.conf.getBool("table.plan.force-recompile") {
			return nil, Errorf(sqlerr.TableException, "Cannot overwrite the plan file '%s'. Either manually remove the file or, if you're debugging your job, set the option 'table.plan.force-recompile' to true.", st.File)
		}
	}
	if err := s.writePlan(ctx, path, st.Stmt); err != nil {
		return nil, err
	}
	return Success(), nil
}

func (s *Session) execCompileAndExecutePlan(ctx context.Context, st *ast.CompileAndExecutePlan) (*Result, error) {
	path := planPath(st.File)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if err := s.writePlan(ctx, path, st.Stmt); err != nil {
			return nil, err
		}
	}
	return s.runPlanFile(ctx, st.File)
}

func (s *Session) execExecutePlan(ctx context.Context, st *ast.ExecutePlan) (*Result, error) {
	return s.runPlanFile(ctx, st.File)
}

// writePlan validates a DML statement (INSERT or statement set) and writes
// its compiled plan. Nothing is written when validation fails.
func (s *Session) writePlan(ctx context.Context, path string, stmt ast.Statement) error {
	var inserts []*ast.Insert
	switch st := stmt.(type) {
	case *ast.Insert:
		inserts = []*ast.Insert{st}
	case *ast.StatementSet:
		inserts = st.Inserts
	default:
		return Errorf(sqlerr.TableException, "Unsupported SQL query! COMPILE PLAN accepts only INSERT statements and statement sets.")
	}
	for _, ins := range inserts {
		if _, err := s.planInsert(ctx, ins); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(compiledPlan{
		Format: compiledPlanFormat, Version: 1,
		Catalog: s.cat.CurrentCatalog(), Database: s.cat.CurrentDatabase(),
		Statement: ast.String(stmt),
	}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Errorf(sqlerr.TableException, "Cannot write the compiled plan to '%s': %v", path, err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return Errorf(sqlerr.TableException, "Cannot write the compiled plan to '%s': %v", path, err)
	}
	return nil
}

// runPlanFile executes a compiled plan in the catalog and database it was
// compiled in, then restores the session's own.
func (s *Session) runPlanFile(ctx context.Context, location string) (*Result, error) {
	data, err := os.ReadFile(planPath(location))
	if err != nil {
		return nil, Errorf(sqlerr.TableException, "Cannot load the compiled plan '%s': %v", location, err)
	}
	var p compiledPlan
	if err := json.Unmarshal(data, &p); err != nil || p.Format != compiledPlanFormat {
		return nil, Errorf(sqlerr.TableException, "Cannot load the compiled plan '%s': it is not a plan compiled by eddy.", location)
	}
	if p.Version != 1 {
		return nil, Errorf(sqlerr.TableException, "Cannot load the compiled plan '%s': plan version %d is newer than this eddy supports.", location, p.Version)
	}
	stmt, err := parser.Parse(p.Statement)
	if err != nil {
		return nil, Errorf(sqlerr.TableException, "Cannot load the compiled plan '%s': %v", location, err)
	}
	cat, db := s.cat.CurrentCatalog(), s.cat.CurrentDatabase()
	if err := s.cat.Use(ctx, p.Catalog, p.Database); err != nil {
		return nil, err
	}
	defer func() {
		if restoreErr := s.cat.Use(ctx, cat, db); restoreErr != nil {
			s.cat.UnsetCurrent()
		}
	}()
	switch st := stmt.(type) {
	case *ast.Insert:
		return s.execInsert(ctx, st)
	case *ast.StatementSet:
		return s.execStatementSetRun(ctx, st)
	}
	return nil, Errorf(sqlerr.TableException, "Cannot load the compiled plan '%s': %s", location, fmt.Sprintf("unexpected %T", stmt))
}
