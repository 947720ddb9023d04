package repl

import (
	"context"
	"sort"
	"strings"

	"eddy/conf"
	"eddy/engine"
	"eddy/engine/parser"
	"eddy/repl/render"
)

// A bare `SET;` lists what is configured, as Flink's client lists its
// session configuration (the deployment's configuration file and what the
// session set). eddy's deployment has no configuration file of defaults,
// so the shell adds the options whose defaults shape every answer
// (conf.EssentialKeys) with their effective values, marked defaultMark: a
// fresh session shows how it will behave. A key that is configured keeps
// its row unmarked.

// defaultMark follows the value of an option nobody set.
const defaultMark = " (default)"

// isBareSet reports whether stmt is `SET` alone (the listing).
func isBareSet(stmt string) bool {
	if t := strings.TrimSpace(stmt); len(t) < 3 || !strings.EqualFold(t[:3], "SET") {
		return false
	}
	toks, err := parser.Tokenize(stmt)
	return err == nil && len(toks) == 2 && toks[0].Is("SET")
}

// effectiveSession is what listing the defaults needs from the session
// (*engine.Session has it; a gateway session lists Flink's own).
type effectiveSession interface {
	optionSetter
	optionReader
}

// withDefaults adds the unset essential options to the rows of a SET;
// listing, sorted by key as Flink sorts them.
func (sh *Shell) withDefaults(ctx context.Context, res *engine.Result, interactive bool) (*engine.Result, error) {
	s, ok := sh.sess.(effectiveSession)
	if !ok || sh.cfg.FlinkSetListing || res == nil || res.Kind != engine.ResultRows || len(res.Columns) != 2 {
		return res, nil
	}
	defer res.Close()
	var rows [][]any
	listed := map[string]bool{}
	for {
		r, more, err := res.Rows.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		rows = append(rows, r.Values)
		if k, ok := r.Values[0].(string); ok {
			listed[k] = true
		}
	}
	for _, k := range conf.EssentialKeys() {
		if listed[k] || s.OptionIsSet(k) {
			continue
		}
		v := s.Option(k)
		if k == conf.ResultMode && !interactive {
			v = render.ModeTableau // a script prints its queries as tableau
		}
		rows = append(rows, []any{k, v + defaultMark})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, _ := rows[i][0].(string)
		b, _ := rows[j][0].(string)
		return a < b
	})
	names := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		names[i] = c.Name
	}
	return engine.StringTable(names, rows), nil
}
