package functions

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"eddy/engine/like"
	"eddy/engine/types"
	"eddy/engine/vector"
)

// String kernels (types-and-functions.md §5). Positions are 1-based and
// count characters, as Java's String methods over BMP text do.

func stringKernel(name string, args []*types.Type, ret *types.Type) ScalarKernel {
	str := func(fn func(s string) any) ScalarKernel {
		return strict(ret, func(_ *Env, a []any) (any, error) { return fn(asString(a[0])), nil })
	}
	switch name {
	case "CHAR_LENGTH", "CHARACTER_LENGTH":
		return str(func(s string) any { return int32(utf8.RuneCountInString(s)) })
	case "UPPER", "UCASE":
		// Java's toUpperCase applies the special casing ß -> SS, which
		// Go's per-rune mapping leaves alone.
		return str(func(s string) any { return strings.ReplaceAll(strings.ToUpper(s), "ß", "SS") })
	case "LOWER", "LCASE":
		return str(func(s string) any { return strings.ToLower(s) })
	case "INITCAP":
		return str(func(s string) any { return initCap(s) })
	case "REVERSE":
		return str(func(s string) any {
			r := []rune(s)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return string(r)
		})
	case "ASCII":
		return str(func(s string) any {
			if s == "" {
				return int32(0)
			}
			return int32(s[0])
		})
	case "TO_BASE64":
		return str(func(s string) any { return base64.StdEncoding.EncodeToString([]byte(s)) })
	case "FROM_BASE64":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			b, err := base64.StdEncoding.DecodeString(asString(a[0]))
			if err != nil {
				return nil, nil
			}
			return string(b), nil
		})
	case "MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512":
		return str(func(s string) any { return hashHex(name, s) })
	case "CONCAT":
		return strict(ret, func(_ *Env, a []any) (any, error) { return concatValues(a), nil })
	case "CONCAT_WS":
		return func(env *Env, a []*vector.Vec, n int) (*vector.Vec, error) {
			out := vector.New(ret, n)
			for i := range n {
				if a[0].IsNull(i) {
					out.AppendNull()
					continue
				}
				var parts []string
				for _, v := range a[1:] {
					if !v.IsNull(i) {
						parts = append(parts, asString(v.Get(i)))
					}
				}
				out.Append(strings.Join(parts, asString(a[0].Get(i))))
			}
			return out, nil
		}
	case "SUBSTRING", "SUBSTR":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			r := []rune(asString(a[0]))
			start, _ := types.AsInt64(a[1])
			length := int64(len(r)) + 1
			if len(a) > 2 {
				length, _ = types.AsInt64(a[2])
				if length < 0 {
					// BinaryStringData.substringSQL: a negative length
					// gives NULL.
					return nil, nil
				}
			}
			return substring(r, start, length), nil
		})
	case "LEFT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			r := []rune(asString(a[0]))
			k, _ := types.AsInt64(a[1])
			k = max(min(k, int64(len(r))), 0)
			return string(r[:k]), nil
		})
	case "RIGHT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			r := []rune(asString(a[0]))
			k, _ := types.AsInt64(a[1])
			k = max(min(k, int64(len(r))), 0)
			return string(r[int64(len(r))-k:]), nil
		})
	case "TRIM":
		if len(args) == 3 {
			// TRIM(mode, x, chars) as the validator passes SQL's
			// TRIM(BOTH|LEADING|TRAILING chars FROM x).
			return strict(ret, func(_ *Env, a []any) (any, error) {
				mode, x, cut := asString(a[0]), asString(a[1]), asString(a[2])
				if mode != "TRAILING" {
					x = strings.TrimLeft(x, cut)
				}
				if mode != "LEADING" {
					x = strings.TrimRight(x, cut)
				}
				return x, nil
			})
		}
		return trimKernel(ret, true, true)
	case "BTRIM":
		return trimKernel(ret, true, true)
	case "OVERLAY":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			r, placing := []rune(asString(a[0])), []rune(asString(a[1]))
			from, _ := types.AsInt64(a[2])
			length := int64(len(placing))
			if len(a) > 3 {
				length, _ = types.AsInt64(a[3])
			}
			// SqlFunctionUtils.overlay: a start outside 1..len leaves the
			// string as it is.
			if from <= 0 || from > int64(len(r)) {
				return string(r), nil
			}
			end := min(from-1+max(length, 0), int64(len(r)))
			return string(r[:from-1]) + string(placing) + string(r[end:]), nil
		})
	case "LTRIM":
		return trimKernel(ret, true, false)
	case "RTRIM":
		return trimKernel(ret, false, true)
	case "REPEAT":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			k, _ := types.AsInt64(a[1])
			return strings.Repeat(asString(a[0]), int(max(k, 0))), nil
		})
	case "REPLACE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			return strings.ReplaceAll(asString(a[0]), asString(a[1]), asString(a[2])), nil
		})
	case "POSITION", "LOCATE":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			needle, hay := []rune(asString(a[0])), []rune(asString(a[1]))
			from := int64(1)
			if len(a) > 2 {
				from, _ = types.AsInt64(a[2])
			}
			return int32(indexRunes(hay, needle, from)), nil
		})
	case "INSTR":
		if len(args) == 2 {
			return strict(ret, func(_ *Env, a []any) (any, error) {
				return int32(indexRunes([]rune(asString(a[0])), []rune(asString(a[1])), 1)), nil
			})
		}
	case "LPAD", "RPAD":
		left := name == "LPAD"
		return strict(ret, func(_ *Env, a []any) (any, error) {
			r, pad := []rune(asString(a[0])), []rune(asString(a[2]))
			k, _ := types.AsInt64(a[1])
			// SqlFunctionUtils.lpad/rpad: a negative length or an empty
			// pad gives NULL.
			if k < 0 || len(pad) == 0 {
				return nil, nil
			}
			if int64(len(r)) >= k {
				return string(r[:k]), nil
			}
			fill := make([]rune, 0, k-int64(len(r)))
			for int64(len(fill)) < k-int64(len(r)) {
				fill = append(fill, pad[len(fill)%len(pad)])
			}
			if left {
				return string(fill) + string(r), nil
			}
			return string(r) + string(fill), nil
		})
	case "SPLIT_INDEX":
		return strict(ret, func(_ *Env, a []any) (any, error) {
			sep := asString(a[1])
			if n, ok := types.AsInt64(a[1]); ok {
				sep = string(rune(n))
			}
			k, _ := types.AsInt64(a[2])
			// StringUtils.splitByWholeSeparatorPreserveAllTokens: an
			// empty string has no tokens.
			if asString(a[0]) == "" {
				return nil, nil
			}
			parts := strings.Split(asString(a[0]), sep)
			if k < 0 || int(k) >= len(parts) {
				return nil, nil
			}
			return parts[k], nil
		})
	case "REGEXP":
		return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
			cache := map[string]*regexp.Regexp{}
			return strict(ret, func(_ *Env, a []any) (any, error) {
				p := asString(a[1])
				re, ok := cache[p]
				if !ok {
					re, _ = regexp.Compile(p)
					cache[p] = re
				}
				if p == "" || re == nil {
					return false, nil
				}
				return re.MatchString(asString(a[0])), nil
			})(env, args, n)
		}
	case "REGEXP_REPLACE":
		return regexKernel(ret, func(re *regexp.Regexp, a []any) any {
			return re.ReplaceAllString(asString(a[0]), javaReplacement(asString(a[2])))
		})
	case "REGEXP_EXTRACT":
		// Without an index the whole match (group 0) is returned
		// (SqlFunctionUtils.regexpExtract(str, regex)).
		return regexKernel(ret, func(re *regexp.Regexp, a []any) any {
			g := int64(0)
			if len(a) > 2 {
				g, _ = types.AsInt64(a[2])
			}
			str := asString(a[0])
			m := re.FindStringSubmatchIndex(str)
			// A group that took no part in the match is NULL, as Java's
			// MatchResult.group returns null for it.
			if m == nil || g < 0 || int(2*g+1) >= len(m) || m[2*g] < 0 {
				return nil
			}
			return str[m[2*g]:m[2*g+1]]
		})
	}
	return nil
}

func asString(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case []byte:
		return string(s)
	}
	return types.ValueString(v, nil)
}

func initCap(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if up {
				b.WriteRune(unicode.ToUpper(r))
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
			up = false
		} else {
			b.WriteRune(r)
			up = true
		}
	}
	return b.String()
}

// substring is SQL's SUBSTRING(s FROM start FOR length) over characters:
// a start below 1 still counts the positions before the string.
func substring(r []rune, start, length int64) string {
	if start == 0 {
		start = 1
	}
	if start < 0 {
		start = int64(len(r)) + start + 1
		if start < 1 {
			return ""
		}
	}
	from := start - 1
	to := from + length
	from = max(from, 0)
	to = min(to, int64(len(r)))
	if from >= to {
		return ""
	}
	return string(r[from:to])
}

func indexRunes(hay, needle []rune, from int64) int {
	if from < 1 {
		return 0
	}
	for i := int(from - 1); i+len(needle) <= len(hay); i++ {
		if string(hay[i:i+len(needle)]) == string(needle) {
			return i + 1
		}
	}
	return 0
}

func trimKernel(ret *types.Type, left, right bool) ScalarKernel {
	return strict(ret, func(_ *Env, a []any) (any, error) {
		s := asString(a[0])
		cut := " "
		if len(a) > 1 {
			// TRIM(chars FROM s) arrives as (s, chars).
			cut = asString(a[1])
		}
		if left {
			s = strings.TrimLeft(s, cut)
		}
		if right {
			s = strings.TrimRight(s, cut)
		}
		return s, nil
	})
}

func hashHex(name, s string) string {
	var h hash.Hash
	switch name {
	case "MD5":
		h = md5.New()
	case "SHA1":
		h = sha1.New()
	case "SHA224":
		h = sha256.New224()
	case "SHA256":
		h = sha256.New()
	case "SHA384":
		h = sha512.New384()
	default:
		h = sha512.New()
	}
	h.Write([]byte(s))
	return hex.EncodeToString(h.Sum(nil))
}

// javaReplacement turns Java's $1 group references into Go's ${1}.
func javaReplacement(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			b.WriteString("${" + s[i+1:j] + "}")
			i = j - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// regexKernel compiles the pattern (the second argument) once per
// distinct pattern; an invalid pattern gives NULL, as Flink's REGEXP
// functions do.
func regexKernel(ret *types.Type, fn func(re *regexp.Regexp, a []any) any) ScalarKernel {
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		cache := map[string]*regexp.Regexp{}
		return strict(ret, func(_ *Env, a []any) (any, error) {
			p := asString(a[1])
			re, ok := cache[p]
			if !ok {
				re, _ = regexp.Compile(p)
				cache[p] = re
			}
			if re == nil {
				return nil, nil
			}
			return fn(re, a), nil
		})(env, args, n)
	}
}

// likeKernel is LIKE / ILIKE / SIMILAR TO with an optional escape
// character. LIKE and ILIKE match with package like; SIMILAR TO, whose
// patterns are regular expressions, through regexp.
func likeKernel(name string, ret *types.Type) ScalarKernel {
	negate := strings.HasPrefix(name, "NOT ")
	if strings.HasSuffix(name, "SIMILAR TO") {
		return similarKernel(negate)
	}
	fold := name == "ILIKE"
	boolT := types.New(types.Boolean)
	_ = ret
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		cache := map[string]*like.Pattern{}
		return strict(boolT, func(_ *Env, a []any) (any, error) {
			p := asString(a[1])
			esc := ""
			if len(a) > 2 {
				esc = asString(a[2])
			}
			key := p + "\x00" + esc
			pat, ok := cache[key]
			if !ok {
				pat = like.Compile(p, escapeRune(esc), fold)
				cache[key] = pat
			}
			return pat.Match(asString(a[0])) != negate, nil
		})(env, args, n)
	}
}

// escapeRune is the escape character of an ESCAPE clause: its first
// character, or none for an empty one.
func escapeRune(esc string) rune {
	for _, r := range esc {
		return r
	}
	return like.NoEscape
}

// similarKernel is [NOT] SIMILAR TO.
func similarKernel(negate bool) ScalarKernel {
	boolT := types.New(types.Boolean)
	return func(env *Env, args []*vector.Vec, n int) (*vector.Vec, error) {
		cache := map[string]*regexp.Regexp{}
		return strict(boolT, func(_ *Env, a []any) (any, error) {
			p := asString(a[1])
			esc := ""
			if len(a) > 2 {
				esc = asString(a[2])
			}
			key := p + "\x00" + esc
			re, ok := cache[key]
			if !ok {
				var err error
				re, err = regexp.Compile(similarPattern(p, esc))
				if err != nil {
					return nil, &EvalError{Exception: "IllegalArgumentException", Msg: "Invalid pattern: " + p}
				}
				cache[key] = re
			}
			return re.MatchString(asString(a[0])) != negate, nil
		})(env, args, n)
	}
}

// similarPattern translates a SIMILAR TO pattern into a regular
// expression: '%' and '_' as in LIKE, the regular-expression operators
// kept, everything else literal.
func similarPattern(p, esc string) string {
	var b strings.Builder
	b.WriteString("(?s)^")
	rs := []rune(p)
	escR := rune(-1)
	if esc != "" {
		escR = []rune(esc)[0]
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == escR && i+1 < len(rs):
			i++
			b.WriteString(regexp.QuoteMeta(string(rs[i])))
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		case strings.ContainsRune("|*+?{}()[]", r):
			b.WriteRune(r)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return b.String()
}
