package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// writeTable prints the results as a markdown table, then the failures
// as numbered notes. With baseline, three more columns show the baseline
// binary's median, eddy's time over it, and eddy's CPU time over the
// baseline's (medians of each process's user and system time, which a
// loaded machine moves far less than wall time).
func writeTable(w io.Writer, results []result, baseline bool) {
	head, rule, extra := "", "", ""
	if baseline {
		head, rule, extra = " baseline | eddy/baseline | CPU eddy/baseline |", "---:|---:|---:|", " | | |"
	}
	fmt.Fprintln(w, "| group | workload | eddy | sqlite3 | duckdb | eddy/sqlite3 | eddy/duckdb |"+head+" target | |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|"+rule+"---|---|")
	var notes []string
	note := func(s string) string {
		notes = append(notes, s)
		return fmt.Sprintf("n/a [%d]", len(notes))
	}
	counts := map[verdict]int{}
	for _, r := range results {
		if r.note != "" {
			fmt.Fprintf(w, "| %s | %s | %s | | | | |%s | |\n", r.group, r.name, note(r.note), extra)
			continue
		}
		cells := make([]string, numEngines)
		for e := range numEngines {
			switch {
			case r.st.err[e] != "":
				cells[e] = note(e.String() + ": " + r.st.err[e])
			case !r.st.ok[e]:
				cells[e] = "—"
			case r.st.per > 0:
				cells[e] = fmt.Sprintf("%s (%s/s)", fmtDur(r.st.med[e]), fmtCount(r.st.rate(e)))
			default:
				cells[e] = fmtDur(r.st.med[e])
			}
		}
		counts[r.verdict]++
		base := ""
		if baseline {
			base = fmt.Sprintf(" %s | %s | %s |", cells[baseEngine], fmtRatio(r.st.ratio(baseEngine)), fmtRatio(r.st.cpuRatio(baseEngine)))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |%s %s | %s |\n", r.group, r.name,
			cells[eddyEngine], cells[sqliteEngine], cells[duckEngine],
			fmtRatio(r.st.ratio(sqliteEngine)), fmtRatio(r.st.ratio(duckEngine)), base,
			r.target, verdictText(r.verdict))
	}
	fmt.Fprintf(w, "\nTargets: %d met, %d missed, %d not judged (the run failed).\n",
		counts[met], counts[missed], counts[unknown])
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for i, n := range notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, n)
		}
	}
}

func verdictText(v verdict) string {
	switch v {
	case met:
		return "met"
	case missed:
		return "**missed**"
	case unknown:
		return "not available"
	}
	return ""
}

func fmtRatio(r float64) string {
	if r == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", r)
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// fmtCount writes a count with thousands separators, or with an M or K
// suffix when large and not round.
func fmtCount(f float64) string {
	n := int64(f + 0.5)
	switch {
	case n >= 1_000_000 && n%1_000_000 != 0:
		return fmt.Sprintf("%.2fM", f/1e6)
	case n >= 100_000 && n%1000 != 0:
		return fmt.Sprintf("%.0fK", f/1e3)
	}
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
