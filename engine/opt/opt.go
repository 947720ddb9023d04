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
	Run       func(n plan.Node, o *Options) (plan.Node, error)
}

// Passes returns the passes Optimize runs, in order. The semi-join pass
// runs before the top-n pass: the sub-query it turns into a join input
// becomes part of the plan whose rank columns the top-n pass follows (the
// plan of a sub-query left as such is a plan of its own).
func Passes() []Pass {
	return []Pass{
		{Name: "changelog-normalize", Streaming: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return ChangelogNormalize(n, o.Sources) }},
		{Name: "prune-projections", Run: func(n plan.Node, _ *Options) (plan.Node, error) { return PruneProjections(n) }},
		{Name: "push-down", Run: func(n plan.Node, o *Options) (plan.Node, error) { return PushDown(n, o.Sources), nil }},
		{Name: "semi-join", Streaming: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return SemiJoins(n, o.Sources) }},
		{Name: "top-n", Streaming: true, Run: func(n plan.Node, _ *Options) (plan.Node, error) { return TopN(n) }},
		{Name: "changelog", Streaming: true, Run: func(n plan.Node, o *Options) (plan.Node, error) { return Changelog(n, o.Sources) }},
		{Name: "direct-insert", Run: func(n plan.Node, _ *Options) (plan.Node, error) { return DirectInsert(n), nil }},
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
	var trace Trace
	for _, p := range Passes() {
		if p.Streaming && !opts.Streaming {
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
