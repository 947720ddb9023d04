package repl

import (
	"strconv"
	"strings"

	"eddy/conf"
	"eddy/engine"
	"eddy/repl/render"
)

// OptionsFromConfig builds the display options from a session's
// configuration. get returns the effective value of an option key (its set
// value or its default) and whether it has one. A Session implementation
// can answer DisplayOptions with it.
func OptionsFromConfig(get func(key string) (string, bool)) render.Options {
	// str returns the option's value, else its default in conf's registry.
	str := func(key string) string {
		if v, ok := get(key); ok && v != "" {
			return v
		}
		return conf.Default(key)
	}
	flag := func(key string) bool {
		b, err := strconv.ParseBool(strings.TrimSpace(str(key)))
		if err != nil {
			b, _ = strconv.ParseBool(conf.Default(key))
		}
		return b
	}
	opt := render.Options{
		ResultMode:      strings.ToLower(str(conf.ResultMode)),
		Streaming:       !strings.EqualFold(str(conf.RuntimeMode), "batch"),
		MaxColumnWidth:  render.DefaultMaxColumnWidth,
		PrintTimeCost:   flag(conf.PrintTimeCost),
		Verbose:         flag(conf.Verbose),
		Format:          strings.ToLower(str(conf.OutputFormat)),
		Prompt:          str(conf.Prompt),
		ShowLineNumbers: flag(conf.ShowLineNumbers),
		// Flink's DEFAULT colour schema highlights nothing.
		Highlight: !strings.EqualFold(str(conf.ColorSchema), "DEFAULT"),
		Pager:     flag(conf.Pager),
	}
	if n, err := conf.ParseMemorySize(str(conf.SpillMemory)); err == nil && n > 0 {
		opt.MemoryBudget = n
	}
	if n, err := strconv.Atoi(strings.TrimSpace(str(conf.MaxTableResultRows))); err == nil && n > 0 {
		opt.MaxTableRows = n
	}
	// table.display.max-column-width, or its older name when it has no value
	// (the registry's fallback).
	v, ok := get(conf.MaxColumnWidth)
	if !ok {
		v, ok = get(conf.MaxColumnWidthOld)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); ok && err == nil && n > 0 {
		opt.MaxColumnWidth = n
	}
	if loc, err := conf.LoadZone(str(conf.LocalTimeZone)); err == nil {
		opt.Location = loc
	}
	return opt
}

// FromEngine returns an engine session as the shell's Session: its display
// options come from its configuration (engine.Session.Option).
func FromEngine(s *engine.Session) Session { return engineSession{s} }

type engineSession struct{ *engine.Session }

func (s engineSession) DisplayOptions() render.Options {
	return OptionsFromConfig(func(key string) (string, bool) {
		v := s.Option(key)
		return v, v != ""
	})
}
