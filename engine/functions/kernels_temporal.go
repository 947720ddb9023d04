package functions

import (
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
			return t.Format(javaLayout(asString(a[1]))), nil
		})
	case "TO_DATE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			if len(a) > 1 {
				t, err := time.Parse(javaLayout(asString(a[1])), asString(a[0]))
				if err != nil {
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
			t, err := time.Parse(javaLayout(layout), asString(a[0]))
			if err != nil {
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
			t, err := time.ParseInLocation(javaLayout(layout), asString(a[0]), env.loc())
			if err != nil {
				return nil, nil
			}
			return t.Unix(), nil
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
			t, err := time.ParseInLocation(javaLayout(layout), asString(a[0]), loc)
			if err != nil {
				return nil, nil
			}
			return types.TruncateTime(t.UTC(), 3), nil
		})
	case "FROM_UNIXTIME":
		return strict(ret, func(env *Env, a []any) (any, error) {
			n, _ := types.AsInt64(a[0])
			layout := "yyyy-MM-dd HH:mm:ss"
			if len(a) > 1 {
				layout = asString(a[1])
			}
			return time.Unix(n, 0).In(env.loc()).Format(javaLayout(layout)), nil
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

// javaLayout converts a Java SimpleDateFormat pattern to a Go layout for
// the common letters (yyyy MM dd HH mm ss SSS).
func javaLayout(p string) string {
	r := strings.NewReplacer("yyyy", "2006", "yy", "06", "MM", "01", "dd", "02", "HH", "15",
		"hh", "03", "mm", "04", "ss", "05", "SSSSSS", "000000", "SSS", "000", "a", "PM")
	return r.Replace(p)
}
