package opt

import (
	"eddy/engine/plan"
)

// Options configure one optimization.
type Options struct {
	// Streaming selects the passes of streaming mode (Top-N, semi-join,
	// changelog).
	Streaming bool
	// Sources answers what a scan's source takes; nil is DefaultSources.
	Sources Sources
	// Trace records the plan after every pass in the returned Trace.
	Trace bool
}

// Pass is one named rewrite of a plan.
type Pass struct {
	Name string
	// Streaming passes run only in streaming mode.
	Streaming bool
	// Relational passes rewrite scans, joins, aggregates or ranks: they
	// cannot apply to constant rows (a Values under projections without
	// sub-queries, possibly under a Sink: `INSERT ... VALUES`), whose
	// plans skip them.
	Relational bool
	// Stacked passes rewrite only a Project that reads a Project: constant
	// rows with at most one projection skip them.
	Stacked bool
	Run     func(n plan.Node, o *Options) (plan.Node, error)
}

// Passes returns the passes Optimize runs, in order. The semi-join pass
// runs before the top-n pass: the sub-query it turns into a join input
// becomes part of the plan whose rank columns the top-n pass follows (the
// plan of a sub-query left as such is a plan of its own).
func Passes() []Pass {
	list := passList()
	return list[:]
}

// passList is Passes as an array, which Optimize keeps off the heap.
func passList() [7]Pass {
	return [7]Pass{
		{Name: "changelog-normalize", Streaming: true, Relational: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return ChangelogNormalize(n, o.Sources) }},
		{Name: "prune-projections", Stacked: true, Run: func(n plan.Node, _ *Options) (plan.Node, error) { return PruneProjections(n) }},
		{Name: "push-down", Relational: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return PushDown(n, o.Sources), nil }},
		{Name: "semi-join", Streaming: true, Relational: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return SemiJoins(n, o.Sources) }},
		{Name: "top-n", Streaming: true, Relational: true, Run: func(n plan.Node, _ *Options) (plan.Node, error) { return TopN(n) }},
		{Name: "changelog", Streaming: true, Relational: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return Changelog(n, o.Sources) }},
		{Name: "direct-insert", Run: func(n plan.Node, o *Options) (plan.Node, error) { return DirectInsert(n, o.Sources), nil }},
	}
}

// Step is the plan after one pass.
type Step struct {
	Pass string
	Plan plan.Node
}

// Trace is the plan after each pass that ran, in order (recorded only
// when Options.Trace is set).
type Trace []Step

// Optimize runs the passes over n and returns the optimized plan. n is
// not modified.
func Optimize(n plan.Node, opts Options) (plan.Node, Trace, error) {
	if opts.Sources == nil {
		opts.Sources = DefaultSources{}
	}
	if !opts.Streaming {
		if err := unorderableKeys(n); err != nil {
			return nil, nil, err
		}
	}
	var trace Trace
	input := n
	if sk, ok := n.(*plan.Sink); ok {
		input = sk.Input
	}
	constant, stacked := constantRows(input), stackedProjects(input)
	for _, p := range passList() {
		if p.Streaming && !opts.Streaming {
			continue
		}
		if constant && (p.Relational || p.Stacked && !stacked) {
			if opts.Trace {
				trace = append(trace, Step{Pass: p.Name, Plan: n})
			}
			continue
		}
		out, err := p.Run(n, &opts)
		if err != nil {
			return nil, nil, err
		}
		n = out
		if opts.Trace {
			trace = append(trace, Step{Pass: p.Name, Plan: n})
		}
	}
	return n, trace, nil
}
