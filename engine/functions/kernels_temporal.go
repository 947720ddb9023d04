package functions

import (
	"math"
	"strings"
	"time"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Temporal kernels (types-and-functions.md §5): the current time, the
// EXTRACT family, DATE_FORMAT, TO_DATE, TO_TIMESTAMP, UNIX_TIMESTAMP and
// FROM_UNIXTIME.

func temporalKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	constant := func(fn func(env *Env) any) ScalarKernel {
		return func(env *Env, _ []*vector.Vec, n int) (*vector.Vec, error) { return vector.Const(ret, fn(env), n), nil }
	}
	switch name {
	case "CURRENT_TIMESTAMP", "NOW", "CURRENT_ROW_TIMESTAMP", "PROCTIME":
		return constant(func(env *Env) any { return types.TruncateTime(env.Now, 3) })
	case "LOCALTIMESTAMP":
		return constant(func(env *Env) any { return types.TruncateTime(wall(env.Now.In(env.loc())), 3) })
	case "CURRENT_DATE":
		return constant(func(env *Env) any { return types.DateOf(env.Now.In(env.loc())) })
	case "CURRENT_TIME", "LOCALTIME":
		return constant(func(env *Env) any {
			t := env.Now.In(env.loc())
			return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second
		})
	case "EXTRACT":
		if len(args) == 2 {
			return strict(ret, func(env *Env, a []any) (any, error) {
				return extractUnit(asString(a[0]), a[1], args[1], env), nil
			})
		}
	case "FLOOR", "CEIL", "CEILING":
		if len(args) == 2 && args[0].Kind.IsCharacterString() {
			up := name != "FLOOR"
			return strict(ret, func(env *Env, a []any) (any, error) {
				return floorCeilTime(asString(a[0]), a[1], args[1], up), nil
			})
		}
	case "YEAR", "QUARTER", "MONTH", "WEEK", "DAYOFYEAR", "DAYOFMONTH", "DAYOFWEEK", "HOUR", "MINUTE", "SECOND":
		if len(args) == 1 {
			return strict(ret, func(env *Env, a []any) (any, error) { return extract(name, a[0], args[0], env), nil })
		}
	case "DATE_FORMAT":
		return strict(ret, func(env *Env, a []any) (any, error) {
			t, ok := timeOf(a[0], args[0], env)
			if !ok {
				parsed, err := types.ParseTimestamp(asString(a[0]))
				if err != nil {
					return nil, nil
				}
				t = parsed
			}
			toks, err := compileJavaPattern(asString(a[1]), false)
			if err != nil {
				return nil, err
			}
			return formatJava(t, toks, false)
		})
	case "TO_DATE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			if len(a) > 1 {
				toks, err := compileJavaPattern(asString(a[1]), true)
				if err != nil {
					return nil, err
				}
				t, ok := parseJava(asString(a[0]), toks, true)
				if !ok {
					return nil, nil
				}
				return types.DateOf(t), nil
			}
			d, err := types.ParseDate(strings.TrimSpace(asString(a[0])))
			if err != nil {
				return nil, nil
			}
			return d, nil
		})
	case "TO_TIMESTAMP":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			layout := "yyyy-MM-dd HH:mm:ss"
			if len(a) > 1 {
				layout = asString(a[1])
			}
			toks, err := compileJavaPattern(layout, false)
			if err != nil {
				return nil, err
			}
			t, ok := parseJava(asString(a[0]), toks, false)
			if !ok {
				if len(a) == 1 {
					if t2, err2 := types.ParseTimestamp(asString(a[0])); err2 == nil {
						return types.TruncateTime(t2, 3), nil
					}
				}
				return nil, nil
			}
			return types.TruncateTime(t.UTC(), 3), nil
		})
	case "UNIX_TIMESTAMP":
		if len(args) == 0 {
			return constant(func(env *Env) any { return env.Now.Unix() })
		}
		return strict(ret, func(env *Env, a []any) (any, error) {
			layout := "yyyy-MM-dd HH:mm:ss"
			if len(a) > 1 {
				layout = asString(a[1])
			}
			toks, err := compileJavaPattern(layout, true)
			if err != nil {
				return nil, err
			}
			t, ok := parseJava(asString(a[0]), toks, true)
			if !ok {
				// DateTimeUtils.unixTimestamp: an unparsable string gives
				// Long.MIN_VALUE, not NULL.
				return int64(math.MinInt64), nil
			}
			return inZone(t, env.loc()).Unix(), nil
		})
	case "TO_TIMESTAMP_LTZ":
		if len(args) >= 1 && args[0].Kind.IsNumeric() {
			return strict(ret, func(_ *Env, a []any) (any, error) {
				p := int64(3)
				if len(a) > 1 {
					p, _ = types.AsInt64(a[1])
				}
				f := toFloat(a[0])
				if p == 0 {
					return time.Unix(0, 0).Add(time.Duration(f * float64(time.Second))).UTC(), nil
				}
				return time.Unix(0, 0).Add(time.Duration(f * float64(time.Millisecond))).UTC(), nil
			})
		}
		return strict(ret, func(env *Env, a []any) (any, error) {
			layout := "yyyy-MM-dd HH:mm:ss"
			if len(a) > 1 {
				layout = asString(a[1])
			}
			loc := env.loc()
			if len(a) > 2 {
				l, err := time.LoadLocation(asString(a[2]))
				if err != nil {
					return nil, nil
				}
				loc = l
			}
			toks, err := compileJavaPattern(layout, false)
			if err != nil {
				return nil, err
			}
			t, ok := parseJava(asString(a[0]), toks, false)
			if !ok {
				return nil, nil
			}
			return types.TruncateTime(inZone(t, loc).UTC(), 3), nil
		})
	case "FROM_UNIXTIME":
		return strict(ret, func(env *Env, a []any) (any, error) {
			n, _ := types.AsInt64(a[0])
			layout := "yyyy-MM-dd HH:mm:ss"
			if len(a) > 1 {
				layout = asString(a[1])
			}
			toks, err := compileJavaPattern(layout, true)
			if err != nil {
				return nil, err
			}
			return formatJava(wall(time.Unix(n, 0).In(env.loc())), toks, true)
		})
	}
	return nil
}

func (env *Env) loc() *time.Location {
	if env == nil || env.Loc == nil {
		return time.UTC
	}
	return env.Loc
}

// wall returns the wall-clock reading of t as a UTC value (a TIMESTAMP).
func wall(t time.Time) time.Time {
	y, m, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, m, d, h, mi, s, t.Nanosecond(), time.UTC)
}

func timeOf(v any, t *types.Type, env *Env) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		if t.Kind == types.TimestampLTZ {
			return wall(x.In(env.loc())), true
		}
		return x, true
	case time.Duration:
		return time.Unix(0, int64(x)).UTC(), true
	case int32:
		if t.Kind == types.Date {
			return types.DateTime(x), true
		}
	}
	return time.Time{}, false
}

func extract(unit string, v any, t *types.Type, env *Env) any {
	tm, ok := timeOf(v, t, env)
	if !ok {
		return nil
	}
	var n int
	switch unit {
	case "YEAR":
		n = tm.Year()
	case "QUARTER":
		n = (int(tm.Month())-1)/3 + 1
	case "MONTH":
		n = int(tm.Month())
	case "WEEK":
		_, n = tm.ISOWeek()
	case "DAYOFYEAR":
		n = tm.YearDay()
	case "DAYOFMONTH":
		n = tm.Day()
	case "DAYOFWEEK":
		n = int(tm.Weekday()) + 1
	case "HOUR":
		n = tm.Hour()
	case "MINUTE":
		n = tm.Minute()
	case "SECOND":
		n = tm.Second()
	}
	return int64(n)
}

// inZone reads the wall-clock time w (a UTC value) in loc.
func inZone(w time.Time, loc *time.Location) time.Time {
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
}

// extractUnit is EXTRACT(unit FROM x) for datetimes, with Flink's unit
// names (DOW counts Sunday as 1, ISODOW Monday as 1).
func extractUnit(unit string, v any, t *types.Type, env *Env) any {
	if t.Kind == types.IntervalYearMonth || t.Kind == types.IntervalDayTime {
		return extractInterval(strings.ToUpper(unit), v)
	}
	tm, ok := timeOf(v, t, env)
	if !ok {
		return nil
	}
	var n int64
	switch strings.ToUpper(unit) {
	case "YEAR":
		n = int64(tm.Year())
	case "QUARTER":
		n = int64((int(tm.Month())-1)/3 + 1)
	case "MONTH":
		n = int64(tm.Month())
	case "WEEK":
		_, w := tm.ISOWeek()
		n = int64(w)
	case "DAY":
		n = int64(tm.Day())
	case "DOY":
		n = int64(tm.YearDay())
	case "DOW":
		n = int64(tm.Weekday()) + 1
	case "ISODOW":
		n = int64((int(tm.Weekday())+6)%7 + 1)
	case "ISOYEAR":
		y, _ := tm.ISOWeek()
		n = int64(y)
	case "HOUR":
		n = int64(tm.Hour())
	case "MINUTE":
		n = int64(tm.Minute())
	case "SECOND":
		n = int64(tm.Second())
	case "MILLISECOND":
		n = int64(tm.Second()*1000 + tm.Nanosecond()/1e6)
	case "MICROSECOND":
		n = int64(tm.Second()*1e6 + tm.Nanosecond()/1e3)
	case "NANOSECOND":
		n = int64(tm.Second())*1e9 + int64(tm.Nanosecond())
	case "EPOCH":
		n = tm.Unix()
	case "DECADE":
		n = int64(tm.Year() / 10)
	case "CENTURY":
		n = int64((tm.Year() + 99) / 100)
	case "MILLENNIUM":
		n = int64((tm.Year() + 999) / 1000)
	default:
		return nil
	}
	return n
}

// floorCeilTime is FLOOR(x TO unit) / CEIL(x TO unit) for DATE and
// TIMESTAMP values, in the value's own representation.
func floorCeilTime(unit string, v any, t *types.Type, up bool) any {
	var tm time.Time
	switch x := v.(type) {
	case time.Time:
		tm = x
	case int32:
		tm = types.DateTime(x)
	case time.Duration:
		tm = time.Unix(0, int64(x)).UTC()
	default:
		return nil
	}
	y, mo, d := tm.Date()
	h, mi, s := tm.Clock()
	var lo, next time.Time
	switch strings.ToUpper(unit) {
	case "YEAR":
		lo, next = time.Date(y, 1, 1, 0, 0, 0, 0, tm.Location()), time.Date(y+1, 1, 1, 0, 0, 0, 0, tm.Location())
	case "QUARTER":
		q := time.Month((int(mo)-1)/3*3 + 1)
		lo = time.Date(y, q, 1, 0, 0, 0, 0, tm.Location())
		next = lo.AddDate(0, 3, 0)
	case "MONTH":
		lo = time.Date(y, mo, 1, 0, 0, 0, 0, tm.Location())
		next = lo.AddDate(0, 1, 0)
	case "WEEK":
		day := time.Date(y, mo, d, 0, 0, 0, 0, tm.Location())
		lo = day.AddDate(0, 0, -int(day.Weekday())) // weeks start on Sunday
		next = lo.AddDate(0, 0, 7)
	case "DAY":
		lo = time.Date(y, mo, d, 0, 0, 0, 0, tm.Location())
		next = lo.AddDate(0, 0, 1)
	case "HOUR":
		lo = time.Date(y, mo, d, h, 0, 0, 0, tm.Location())
		next = lo.Add(time.Hour)
	case "MINUTE":
		lo = time.Date(y, mo, d, h, mi, 0, 0, tm.Location())
		next = lo.Add(time.Minute)
	case "SECOND":
		lo = time.Date(y, mo, d, h, mi, s, 0, tm.Location())
		next = lo.Add(time.Second)
	case "MILLISECOND":
		lo = tm.Truncate(time.Millisecond)
		next = lo.Add(time.Millisecond)
	default:
		return nil
	}
	out := lo
	if up && !lo.Equal(tm) {
		out = next
	}
	switch t.Kind {
	case types.Date:
		return types.DateOf(out)
	case types.Time:
		mid := time.Date(out.Year(), out.Month(), out.Day(), 0, 0, 0, 0, out.Location())
		return out.Sub(mid)
	}
	return out
}

// extractInterval is EXTRACT from an interval, field by field as Calcite
// defines it: EXTRACT(DAY FROM INTERVAL '3 04:05:06' DAY TO SECOND) is 3,
// HOUR is 4; MILLISECOND counts the seconds too. Division truncates as
// Java's does, so negative intervals give negative fields.
func extractInterval(unit string, v any) any {
	// Intervals are int32 months and int64 milliseconds (package types).
	switch x := v.(type) {
	case int32: // months
		switch unit {
		case "YEAR":
			return int64(x) / 12
		case "MONTH":
			return int64(x) % 12
		case "QUARTER":
			return int64(x) % 12 / 3
		}
	case int64: // milliseconds
		ms := x
		switch unit {
		case "DAY":
			return ms / 86400000
		case "HOUR":
			return ms / 3600000 % 24
		case "MINUTE":
			return ms / 60000 % 60
		case "SECOND":
			return ms / 1000 % 60
		case "MILLISECOND":
			return ms % 60000
		case "EPOCH":
			return ms / 1000
		}
	}
	return nil
}
