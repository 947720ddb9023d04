package functions

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Further scalar kernels: number formatting, character tests, regular
// expressions, splitting, hashing with SHA2, URLs, random values and the
// TIMESTAMPADD / TIMESTAMPDIFF / CONVERT_TZ family. TIMESTAMPADD and
// TIMESTAMPDIFF take the unit as a leading string argument, as EXTRACT
// does.

func miscKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	switch name {
	case "BIN":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			n, _ := types.AsInt64(a[0])
			return strconv.FormatUint(uint64(n), 2), nil
		})
	case "HEX":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			if n, ok := types.AsInt64(a[0]); ok {
				return strings.ToUpper(strconv.FormatUint(uint64(n), 16)), nil
			}
			return strings.ToUpper(hex.EncodeToString([]byte(asString(a[0])))), nil
		})
	case "CHR":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			n, _ := types.AsInt64(a[0])
			if n < 0 {
				return nil, nil
			}
			return string(rune(n % 256)), nil
		})
	case "ENCODE":
		return strict(ret, func(_ *Env, a []any) (any, error) { return []byte(asString(a[0])), nil })
	case "DECODE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			b, _ := a[0].([]byte)
			if !utf8.Valid(b) {
				return nil, nil
			}
			return string(b), nil
		})
	case "ELT":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			n, ok := types.AsInt64(a[0])
			if !ok || n < 1 || int(n) >= len(a) {
				return nil, nil
			}
			return a[n], nil
		})
	case "IS_ALPHA", "IS_DIGIT", "IS_DECIMAL":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			if a[0] == nil {
				return false, nil
			}
			s := asString(a[0])
			if s == "" {
				return false, nil
			}
			switch name {
			case "IS_ALPHA":
				return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0, nil
			case "IS_DIGIT":
				return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsDigit(r) }) < 0, nil
			}
			_, err := strconv.ParseFloat(s, 64)
			return err == nil, nil
		})
	case "REGEXP_COUNT":
		return regexKernel(ret, func(re *regexp.Regexp, a []any) any {
			return int32(len(re.FindAllStringIndex(asString(a[0]), -1)))
		})
	case "REGEXP_INSTR":
		return regexKernel(ret, func(re *regexp.Regexp, a []any) any {
			loc := re.FindStringIndex(asString(a[0]))
			if loc == nil {
				return int32(0)
			}
			return int32(utf8.RuneCountInString(asString(a[0])[:loc[0]]) + 1)
		})
	case "REGEXP_SUBSTR":
		return regexKernel(ret, func(re *regexp.Regexp, a []any) any {
			m := re.FindStringIndex(asString(a[0]))
			if m == nil {
				return nil
			}
			return asString(a[0])[m[0]:m[1]]
		})
	case "REGEXP_EXTRACT_ALL":
		// RegexpExtractAllFunction: the group defaults to 1 and an index
		// outside [0, groups] gives NULL, as a pattern without groups does
		// when no index is given.
		return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
			cache := map[string]*regexp.Regexp{}
			return strict(ret, func(_ *Env, a []any) (any, error) {
				p := asString(a[1])
				re, ok := cache[p]
				if !ok {
					var err error
					if re, err = regexp.Compile(p); err != nil {
						return nil, &EvalError{Exception: "IllegalArgumentException", Msg: err.Error()}
					}
					cache[p] = re
				}
				g := int64(1)
				if len(a) > 2 {
					g, _ = types.AsInt64(a[2])
				}
				if g < 0 || g > int64(re.NumSubexp()) {
					return nil, nil
				}
				out := []any{}
				for _, m := range re.FindAllStringSubmatch(asString(a[0]), -1) {
					out = append(out, m[g])
				}
				return out, nil
			})(env, args, n)
		}
	case "UNHEX":
		return strict(ret, func(_ *Env, a []any) (any, error) { return unhex(asString(a[0])), nil })
	case "STARTSWITH", "ENDSWITH":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			s, affix := bytesOf(a[0]), bytesOf(a[1])
			if name == "STARTSWITH" {
				return strings.HasPrefix(s, affix), nil
			}
			return strings.HasSuffix(s, affix), nil
		})
	case "SHA2":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			bits, _ := types.AsInt64(a[1])
			b := []byte(asString(a[0]))
			switch bits {
			case 224:
				s := sha256.Sum224(b)
				return hex.EncodeToString(s[:]), nil
			case 0, 256:
				s := sha256.Sum256(b)
				return hex.EncodeToString(s[:]), nil
			case 384:
				s := sha512.Sum384(b)
				return hex.EncodeToString(s[:]), nil
			case 512:
				s := sha512.Sum512(b)
				return hex.EncodeToString(s[:]), nil
			}
			return nil, nil
		})
	case "SPLIT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			s, sep := asString(a[0]), asString(a[1])
			var parts []string
			if sep == "" {
				for _, r := range s {
					parts = append(parts, string(r))
				}
			} else {
				parts = strings.Split(s, sep)
			}
			out := make([]any, len(parts))
			for i, p := range parts {
				out[i] = p
			}
			return out, nil
		})
	case "STR_TO_MAP":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			pairSep, kvSep := ",", "="
			if len(a) > 2 {
				pairSep, kvSep = asString(a[1]), asString(a[2])
			}
			m := map[any]any{}
			for _, p := range strings.Split(asString(a[0]), pairSep) {
				k, v, ok := strings.Cut(p, kvSep)
				if ok {
					m[k] = v
				} else {
					m[k] = nil
				}
			}
			return m, nil
		})
	case "TRANSLATE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			from, to := []rune(asString(a[1])), []rune(asString(a[2]))
			var b strings.Builder
			for _, r := range asString(a[0]) {
				i := strings.IndexRune(string(from), r)
				switch {
				case i < 0:
					b.WriteRune(r)
				case utf8.RuneCountInString(string(from)[:i]) < len(to):
					b.WriteRune(to[utf8.RuneCountInString(string(from)[:i])])
				}
			}
			return b.String(), nil
		})
	case "URL_ENCODE":
		return strict(ret, func(_ *Env, a []any) (any, error) { return url.QueryEscape(asString(a[0])), nil })
	case "URL_DECODE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			s, err := url.QueryUnescape(asString(a[0]))
			if err != nil {
				return nil, nil
			}
			return s, nil
		})
	case "PARSE_URL":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			u, err := url.Parse(asString(a[0]))
			if err != nil {
				return nil, nil
			}
			switch strings.ToUpper(asString(a[1])) {
			case "HOST":
				return nilIfEmpty(u.Hostname()), nil
			case "PATH":
				return nilIfEmpty(u.EscapedPath()), nil
			case "QUERY":
				if len(a) > 2 {
					vals, ok := u.Query()[asString(a[2])]
					if !ok || len(vals) == 0 {
						return nil, nil
					}
					return vals[0], nil
				}
				return nilIfEmpty(u.RawQuery), nil
			case "REF":
				return nilIfEmpty(u.Fragment), nil
			case "PROTOCOL":
				return nilIfEmpty(u.Scheme), nil
			case "AUTHORITY":
				return nilIfEmpty(u.Host), nil
			case "FILE":
				f := u.EscapedPath()
				if u.RawQuery != "" {
					f += "?" + u.RawQuery
				}
				return nilIfEmpty(f), nil
			case "USERINFO":
				if u.User == nil {
					return nil, nil
				}
				return u.User.String(), nil
			}
			return nil, nil
		})
	case "PRINTF":
		return lenient(ret, func(_ *Env, a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			return fmt.Sprintf(asString(a[0]), a[1:]...), nil
		})
	case "UUID":
		return func(_ *Env, _ []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			for range n {
				var b [16]byte
				_, _ = rand.Read(b[:])
				b[6] = b[6]&0x0f | 0x40
				b[8] = b[8]&0x3f | 0x80
				h := hex.EncodeToString(b[:])
				out.Append(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:])
			}
			return out, nil
		}
	case "RAND", "RAND_INTEGER":
		// RAND([seed]) and RAND_INTEGER([seed, ] bound): a seed makes the
		// sequence repeatable.
		return func(_ *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			seeded := name == "RAND" && len(a) == 1 || name == "RAND_INTEGER" && len(a) == 2
			src := mrand.New(mrand.NewPCG(mrand.Uint64(), mrand.Uint64()))
			if seeded && !a[0].IsNull(0) {
				seed := uint64(a[0].Ints[0])
				src = mrand.New(mrand.NewPCG(seed, seed))
			}
			for i := range n {
				if name == "RAND" {
					out.Append(src.Float64())
					continue
				}
				bound := a[len(a)-1]
				if bound.IsNull(i) || bound.Ints[i] <= 0 {
					out.AppendNull()
					continue
				}
				out.Append(int32(src.Int64N(bound.Ints[i])))
			}
			return out, nil
		}
	case "TIMESTAMPADD":
		if len(args) == 3 {
			return strict(ret, func(_ *Env, a []any) (any, error) {
				n, _ := types.AsInt64(a[1])
				return timestampAdd(asString(a[0]), n, a[2], args[2])
			})
		}
	case "TIMESTAMPDIFF":
		if len(args) == 3 {
			return strict(ret, func(env *Env, a []any) (any, error) {
				return timestampDiff(asString(a[0]), a[1], args[1], a[2], args[2], env)
			})
		}
	case "CONVERT_TZ":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			from, err1 := time.LoadLocation(asString(a[1]))
			to, err2 := time.LoadLocation(asString(a[2]))
			t, err3 := types.ParseTimestamp(asString(a[0]))
			if err1 != nil || err2 != nil || err3 != nil {
				return nil, nil
			}
			local := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), from)
			return local.In(to).Format("2006-01-02 15:04:05"), nil
		})
	case "CURRENT_WATERMARK":
		// Batch queries have no watermark.
		return func(_ *Env, _ []*vector.Vec, n int) (*vector.Vec, error) { return vector.Const(ret, nil, n), nil }
	}
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func timestampAdd(unit string, n int64, v any, t *types.Type) (any, error) {
	var tm time.Time
	switch x := v.(type) {
	case time.Time:
		tm = x
	case int32:
		tm = types.DateTime(x)
	case time.Duration:
		tm = time.Unix(0, int64(x)).UTC()
	default:
		return nil, nil
	}
	switch strings.TrimPrefix(strings.ToUpper(unit), "SQL_TSI_") {
	case "YEAR":
		tm = addMonths(tm, 12*n)
	case "QUARTER":
		tm = addMonths(tm, 3*n)
	case "MONTH":
		tm = addMonths(tm, n)
	case "WEEK":
		tm = tm.AddDate(0, 0, int(7*n))
	case "DAY":
		tm = tm.AddDate(0, 0, int(n))
	case "HOUR":
		tm = tm.Add(time.Duration(n) * time.Hour)
	case "MINUTE":
		tm = tm.Add(time.Duration(n) * time.Minute)
	case "SECOND":
		tm = tm.Add(time.Duration(n) * time.Second)
	case "MILLISECOND":
		tm = tm.Add(time.Duration(n) * time.Millisecond)
	case "MICROSECOND", "FRAC_SECOND":
		tm = tm.Add(time.Duration(n) * time.Microsecond)
	case "NANOSECOND":
		tm = tm.Add(time.Duration(n))
	default:
		return nil, nil
	}
	switch t.Kind {
	case types.Date:
		return types.DateOf(tm), nil
	case types.Time:
		mid := time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, tm.Location())
		return tm.Sub(mid), nil
	}
	return tm, nil
}

func timestampDiff(unit string, a any, at *types.Type, b any, bt *types.Type, env *Env) (any, error) {
	x, ok1 := timeOf(a, at, env)
	y, ok2 := timeOf(b, bt, env)
	if !ok1 || !ok2 {
		return nil, nil
	}
	months := func() int64 { return subtractMonths(y, x) }
	d := y.Sub(x)
	var n int64
	switch strings.TrimPrefix(strings.ToUpper(unit), "SQL_TSI_") {
	case "YEAR":
		n = months() / 12
	case "QUARTER":
		n = months() / 3
	case "MONTH":
		n = months()
	case "WEEK":
		n = int64(d / (7 * 24 * time.Hour))
	case "DAY":
		n = int64(d / (24 * time.Hour))
	case "HOUR":
		n = int64(d / time.Hour)
	case "MINUTE":
		n = int64(d / time.Minute)
	case "SECOND":
		n = int64(d / time.Second)
	case "MILLISECOND":
		n = int64(d / time.Millisecond)
	case "MICROSECOND", "FRAC_SECOND":
		n = int64(d / time.Microsecond)
	case "NANOSECOND":
		n = int64(d)
	default:
		return nil, nil
	}
	return int32(n), nil
}

// subtractMonths is Flink's DateTimeUtils.subtractMonths(t0, t1): the
// whole months from t1 to t0, counted on dates (day of month clamped as
// addMonths does), then one fewer when the dates meet but t0's time of day
// (in milliseconds) is earlier than t1's.
func subtractMonths(t0, t1 time.Time) int64 {
	d0 := time.Date(t0.Year(), t0.Month(), t0.Day(), 0, 0, 0, 0, time.UTC)
	d1 := time.Date(t1.Year(), t1.Month(), t1.Day(), 0, 0, 0, 0, time.UTC)
	ms0 := t0.Sub(time.Date(t0.Year(), t0.Month(), t0.Day(), 0, 0, 0, 0, t0.Location())).Milliseconds()
	ms1 := t1.Sub(time.Date(t1.Year(), t1.Month(), t1.Day(), 0, 0, 0, 0, t1.Location())).Milliseconds()
	x := subtractDateMonths(d0, d1)
	if addMonths(d1, x).Equal(d0) && ms0 < ms1 {
		x--
	}
	return x
}

// subtractDateMonths is Flink's subtractMonths(int date0, int date1) on
// dates at midnight UTC.
func subtractDateMonths(d0, d1 time.Time) int64 {
	if d0.Before(d1) {
		return -subtractDateMonths(d1, d0)
	}
	// No month has more than 31 days: the estimate is at most the answer.
	m := int64(d0.Sub(d1)/(24*time.Hour)) / 31
	for {
		if !addMonths(d1, m).Before(d0) {
			return m
		}
		if addMonths(d1, m+1).After(d0) {
			return m
		}
		m++
	}
}

// unhex decodes hex digits (either case) into bytes, NULL for any other
// character. Of an odd number of digits Flink's decoder keeps a zero first
// byte and decodes the digits after the first one (UNHEX('123') is
// x'0023').
func unhex(s string) any {
	digit := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	out := make([]byte, 0, (len(s)+1)/2)
	i := 0
	if len(s)%2 == 1 {
		if _, ok := digit(s[0]); !ok {
			return nil
		}
		out = append(out, 0)
		i = 1
	}
	for ; i+1 < len(s); i += 2 {
		hi, ok1 := digit(s[i])
		lo, ok2 := digit(s[i+1])
		if !ok1 || !ok2 {
			return nil
		}
		out = append(out, hi<<4|lo)
	}
	return out
}

// bytesOf returns a string or binary value's bytes as a string.
func bytesOf(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return asString(v)
}
