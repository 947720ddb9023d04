package engine

import (
	"context"
	"fmt"
	"strings"

	"eddy/engine/ast"
	"eddy/engine/exec"
	"eddy/engine/opt"
	"eddy/engine/parser"
	"eddy/engine/plan"
)

// planQuery validates a query and returns its logical plan, which the
// query validator (engine/validate) builds next to the expanded text.
func (s *Session) planQuery(ctx context.Context, q ast.Query) (plan.Node, error) {
	a := s.analyzer(s.sql)
	if a.ParseExpr == nil {
		a.ParseExpr = parser.ParseExpr
	}
	return a.PlanQuery(ctx, q)
}

// optimize runs the optimizer (engine/opt) over a plan the session is
// about to run; the connectors' declared abilities answer what each
// source takes (planSources), resolving tables in ctx.
func (s *Session) optimize(ctx context.Context, n plan.Node) (plan.Node, error) {
	out, _, err := opt.Optimize(n, opt.Options{Streaming: s.streaming(), Sources: planSources{ctx: ctx, s: s}})
	return out, err
}

// optimizeSink optimizes the plan of one sink.
func (s *Session) optimizeSink(ctx context.Context, sk *plan.Sink) (*plan.Sink, error) {
	if err := s.appendOnly(ctx, sk); err != nil {
		return nil, err
	}
	out, err := s.optimize(ctx, sk)
	if err != nil {
		return nil, err
	}
	o, ok := out.(*plan.Sink)
	if !ok {
		return nil, fmt.Errorf("plan: optimizing a sink gave a %T", out)
	}
	return o, nil
}

// explain prints the plans of a query, an INSERT or a statement set in
// the three sections of Flink's EXPLAIN: the plan as the validator made it,
// the plan after the optimizer's passes (what each scan reads and
// filters), and the operators the executor builds of it.
func (s *Session) explain(ctx context.Context, nodes []plan.Node) (string, error) {
	var logical, optimized, physical strings.Builder
	for i, n := range nodes {
		if i > 0 {
			logical.WriteString("\n")
			optimized.WriteString("\n")
			physical.WriteString("\n")
		}
		logical.WriteString(plan.Format(n))
		o, err := s.optimize(ctx, n)
		if err != nil {
			return "", err
		}
		optimized.WriteString(plan.Format(o))
		var mb exec.MiniBatch
		if s.streaming() {
			if mb, err = s.miniBatch(ctx, []plan.Node{o}); err != nil {
				return "", err
			}
		}
		physical.WriteString(exec.ExplainMiniBatch(o, s.streaming(), mb))
	}
	return "== Abstract Syntax Tree ==\n" + logical.String() +
		"\n== Optimized Physical Plan ==\n" + optimized.String() +
		"\n== Optimized Execution Plan ==\n" + physical.String(), nil
}

// PlanPasses plans one query or INSERT statement and returns its
// validated plan and the plan after each pass of the optimizer, in the
// session's runtime mode. It runs nothing.
func (s *Session) PlanPasses(ctx context.Context, sql string) (plan.Node, opt.Trace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	stmt, err := parser.Parse(sql)
	if err != nil {
		return nil, nil, AsError(err)
	}
	s.sql = sql
	defer func() { s.sql = "" }()
	var n plan.Node
	switch x := stmt.(type) {
	case *ast.QueryStatement:
		n, err = s.planQuery(ctx, x.Query)
	case *ast.Insert:
		n, err = s.planInsert(ctx, x)
	default:
		err = unsupported(stmt)
	}
	if err != nil {
		return nil, nil, AsError(err)
	}
	_, trace, err := opt.Optimize(n, opt.Options{Streaming: s.streaming(), Sources: planSources{ctx: ctx, s: s}, Trace: true})
	if err != nil {
		return nil, nil, AsError(err)
	}
	return n, trace, nil
}
