package repl

import (
	"strconv"
	"strings"

	"eddy/conf"
	"eddy/repl/render"
)

// OptionsFromConfig builds the display options from a session's
// configuration. get returns the effective value of an option key (its set
// value or its default) and whether it has one. A Session implementation
// can answer DisplayOptions with it.
func OptionsFromConfig(get func(key string) (string, bool)) render.Options {
	str := func(key, def string) string {
		if v, ok := get(key); ok && v != "" {
			return v
		}
		return def
	}
	flag := func(key string, def bool) bool {
		b, err := strconv.ParseBool(strings.TrimSpace(str(key, strconv.FormatBool(def))))
		if err != nil {
			return def
		}
		return b
	}
	opt := render.Options{
		ResultMode:     strings.ToLower(str(conf.ResultMode, render.ModeTable)),
		Streaming:      !strings.EqualFold(str(conf.RuntimeMode, "streaming"), "batch"),
		MaxColumnWidth: render.DefaultMaxColumnWidth,
		PrintTimeCost:  flag(conf.PrintTimeCost, false),
		Verbose:        flag(conf.Verbose, false),
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
	if loc, err := conf.LoadZone(str(conf.LocalTimeZone, "default")); err == nil {
		opt.Location = loc
	}
	return opt
}
