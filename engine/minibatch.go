package engine

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"eddy/conf"
	"eddy/engine/exec"
	"eddy/engine/plan"
	"eddy/engine/sqlerr"
)

// Mini-batch options. Flink's SET takes any value for them; its planner
// reads them when it plans a streaming query, and fails then.
const (
	miniBatchEnabled = "table.exec.mini-batch.enabled"
	miniBatchLatency = "table.exec.mini-batch.allow-latency"
	miniBatchSize    = "table.exec.mini-batch.size"
)

// miniBatchSizeError is Flink's check of table.exec.mini-batch.size when
// it builds a mini-batched group aggregation or join.
func miniBatchSizeError() error {
	return Errorf(sqlerr.IllegalArgumentException,
		"Key: '%s' , default: -1 (fallback keys: []) must be > 0.", miniBatchSize)
}

// miniBatch reads table.exec.mini-batch.* for a streaming statement over
// nodes and checks them as Flink's planner does: the switch for any
// streaming query, the latency for a query with a stateful operator (a
// scan of an insert-only or retracting source, a filter, a projection,
// VALUES or UNION ALL has none), the
// size for a group aggregation or a join (a deduplication checks it when
// it is built, in engine/exec).
func (s *Session) miniBatch(ctx context.Context, nodes []plan.Node) (exec.MiniBatch, error) {
	var mb exec.MiniBatch
	on := s.conf.get(miniBatchEnabled)
	switch strings.ToLower(strings.TrimSpace(on)) {
	case "", "false":
		return mb, nil
	case "true":
	default:
		return mb, Errorf(sqlerr.IllegalArgumentException,
			"Unrecognized option for boolean: %s. Expected either true or false(case insensitive)", on)
	}
	stateful, grouped := false, false
	for _, n := range nodes {
		plan.WalkOnce(n, func(x plan.Node) {
			switch x := x.(type) {
			case *plan.Scan:
				// An upsert source is normalized by key (ChangelogNormalize).
				stateful = stateful || planSources{ctx: ctx, s: s}.Upsert(x)
			case *plan.Project, *plan.Filter, *plan.Values, *plan.Sink:
			case *plan.SetOp:
				stateful = stateful || !x.All || x.Kind != plan.Union
			case *plan.Aggregate:
				stateful = true
				if _, ok := x.Input.(*plan.WindowTVF); !ok {
					grouped = true
				}
			case *plan.Join:
				stateful, grouped = true, true
			default:
				stateful = true
			}
		})
	}
	if !stateful {
		return mb, nil
	}
	mb.Enabled = true
	text := s.conf.get(miniBatchLatency)
	if text == "" {
		text = "0 ms"
	}
	latency, err := conf.ParseDuration(text)
	if err != nil {
		latency, err = isoDuration(text)
		if err == nil && latency < 0 {
			return mb, Errorf("NumberFormatException", "negative duration is not supported")
		}
	}
	if err != nil {
		return mb, Errorf("NumberFormatException",
			"text does not start with a number, and is not a valid ISO-8601 duration format: %s", text)
	}
	if latency.Milliseconds() <= 0 {
		return mb, Errorf(sqlerr.IllegalArgumentException, "MiniBatch Latency must be greater than 0 ms. [null]")
	}
	mb.Latency = latency
	size := int64(-1)
	if text := s.conf.get(miniBatchSize); text != "" {
		if size, err = strconv.ParseInt(strings.TrimSpace(text), 10, 64); err != nil {
			return mb, Errorf("NumberFormatException", "For input string: %s", strconv.Quote(text))
		}
	}
	if size <= 0 {
		if grouped {
			return mb, miniBatchSizeError()
		}
		return mb, nil
	}
	mb.Size = int(min(size, 1<<30))
	mb.TwoPhase = !strings.EqualFold(s.conf.get(conf.AggPhaseStrategy), "ONE_PHASE")
	return mb, nil
}

// isoPattern is java.time.Duration.parse's ISO-8601 form (PnDTnHnMn.nS),
// which Flink's TimeUtils.parseDuration falls back to.
var isoPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$`)
})

// isoDuration reads an ISO-8601 duration such as PT1S or P1DT2H.
func isoDuration(text string) (time.Duration, error) {
	m := isoPattern().FindStringSubmatch(strings.TrimSpace(text))
	if m == nil || m[3] == "T" || (m[2] == "" && m[3] == "") {
		return 0, fmt.Errorf("not an ISO-8601 duration: %s", text)
	}
	var d time.Duration
	for i, unit := range map[int]time.Duration{2: 24 * time.Hour, 4: time.Hour, 5: time.Minute, 6: time.Second} {
		if m[i] == "" {
			continue
		}
		n, err := strconv.ParseInt(m[i], 10, 64)
		if err != nil {
			return 0, err
		}
		d += time.Duration(n) * unit
	}
	if m[7] != "" {
		frac, _ := strconv.ParseInt((m[7] + "000000000")[:9], 10, 64)
		if strings.HasPrefix(m[6], "-") {
			frac = -frac
		}
		d += time.Duration(frac)
	}
	if m[1] == "-" {
		d = -d
	}
	return d, nil
}
