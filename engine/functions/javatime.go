package functions

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Java's datetime patterns. DATE_FORMAT and TO_TIMESTAMP follow
// java.time's DateTimeFormatter (DateTimeFormatterBuilder.appendPattern):
// text fields in English, parsing strict and case-sensitive, a day name
// that must agree with the date. UNIX_TIMESTAMP, TO_DATE and FROM_UNIXTIME
// follow java.text.SimpleDateFormat, which reads text in any case, numbers
// of any width, and ignores a contradicting day name.

// patToken is one pattern letter run ("MMM") or a literal.
type patToken struct {
	letter byte // 0 for a literal
	n      int
	lit    string
}

// knownLetters are DateTimeFormatter's pattern letters.
const knownLetters = "GuyDMLdQqYwWEecFaBhKkHmsSAnNVvzOXxZ"

// sdfLetters are SimpleDateFormat's pattern letters.
const sdfLetters = "GyYMLwWDdFEuaHkKhmsSzZX"

// compileJavaPattern splits a pattern into tokens. sdf selects
// SimpleDateFormat's letters and messages.
func compileJavaPattern(p string, sdf bool) ([]patToken, error) {
	var toks []patToken
	lit := func(s string) {
		if n := len(toks); n > 0 && toks[n-1].letter == 0 {
			toks[n-1].lit += s
			return
		}
		toks = append(toks, patToken{lit: s})
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			end := i + 1
			var b strings.Builder
			for end < len(p) {
				if p[end] == '\'' {
					if end+1 < len(p) && p[end+1] == '\'' {
						b.WriteByte('\'')
						end += 2
						continue
					}
					break
				}
				b.WriteByte(p[end])
				end++
			}
			if end >= len(p) {
				if sdf {
					return nil, &EvalError{Exception: "IllegalArgumentException", Msg: "Unterminated quote"}
				}
				return nil, &EvalError{Exception: "IllegalArgumentException",
					Msg: "Pattern ends with an incomplete string literal: " + p}
			}
			if end == i+1 {
				lit("'")
			} else {
				lit(b.String())
			}
			i = end + 1
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			letters := knownLetters
			if sdf {
				letters = sdfLetters
			}
			if !strings.ContainsRune(letters, rune(c)) {
				if sdf {
					return nil, &EvalError{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Illegal pattern character '%c'", c)}
				}
				return nil, &EvalError{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Unknown pattern letter: %c", c)}
			}
			toks = append(toks, patToken{letter: c, n: j - i})
			i = j
		case !sdf && (c == '#' || c == '{' || c == '}'):
			return nil, &EvalError{Exception: "IllegalArgumentException", Msg: fmt.Sprintf("Pattern includes reserved character: '%c'", c)}
		case !sdf && (c == '[' || c == ']'):
			// Optional sections: every field of a date-time is present.
			i++
		default:
			_, size := utf8.DecodeRuneInString(p[i:])
			lit(p[i : i+size])
			i += size
		}
	}
	return toks, nil
}

// ldtString is LocalDateTime.toString, which java.time's messages quote.
func ldtString(t time.Time) string {
	s := t.Format("2006-01-02T15:04")
	if t.Second() != 0 || t.Nanosecond() != 0 {
		s += fmt.Sprintf(":%02d", t.Second())
	}
	if ns := t.Nanosecond(); ns != 0 {
		switch {
		case ns%1000000 == 0:
			s += fmt.Sprintf(".%03d", ns/1000000)
		case ns%1000 == 0:
			s += fmt.Sprintf(".%06d", ns/1000)
		default:
			s += fmt.Sprintf(".%09d", ns)
		}
	}
	return s
}

// usWeek returns the week-based year and week of year with weeks starting
// on Sunday and week 1 holding January 1st (the US locale's WeekFields).
func usWeek(t time.Time) (year, week int) {
	y := t.Year()
	startOfWeek := t.AddDate(0, 0, -int(t.Weekday()))
	nextJan1 := time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)
	if !startOfWeek.AddDate(0, 0, 6).Before(nextJan1) {
		return y + 1, 1
	}
	jan1 := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	return y, (t.YearDay()-1+int(jan1.Weekday()))/7 + 1
}

func padNum(v int64, width int) string {
	s := strconv.FormatInt(v, 10)
	neg := v < 0
	if neg {
		s = s[1:]
	}
	for len(s) < width {
		s = "0" + s
	}
	if neg {
		s = "-" + s
	}
	return s
}

func ordinalQuarter(q int) string {
	return [...]string{"1st", "2nd", "3rd", "4th"}[q-1] + " quarter"
}

// formatJava formats a wall-clock time t (a TIMESTAMP, no zone) with the
// tokens of a pattern.
func formatJava(t time.Time, toks []patToken, sdf bool) (string, error) {
	var b strings.Builder
	for _, tk := range toks {
		if tk.letter == 0 {
			b.WriteString(tk.lit)
			continue
		}
		n := tk.n
		num := func(v int) { b.WriteString(padNum(int64(v), n)) }
		text := func(short, full string) {
			switch {
			case sdf && n >= 4, !sdf && n == 4:
				b.WriteString(full)
			case !sdf && n == 5:
				b.WriteString(full[:1])
			default:
				b.WriteString(short)
			}
		}
		hour := t.Hour()
		switch tk.letter {
		case 'G':
			if !sdf && n == 4 {
				b.WriteString("Anno Domini")
			} else if !sdf && n == 5 {
				b.WriteString("A")
			} else {
				b.WriteString("AD")
			}
		case 'y', 'u', 'Y':
			y := t.Year()
			if tk.letter == 'Y' {
				y, _ = usWeek(t)
			}
			if tk.letter == 'u' && sdf {
				wd := int(t.Weekday())
				if wd == 0 {
					wd = 7
				}
				num(wd)
				continue
			}
			if n == 2 {
				b.WriteString(padNum(int64(y%100), 2))
			} else {
				b.WriteString(padNum(int64(y), n))
			}
		case 'M', 'L':
			if n <= 2 {
				num(int(t.Month()))
			} else {
				text(t.Month().String()[:3], t.Month().String())
			}
		case 'd':
			num(t.Day())
		case 'D':
			num(t.YearDay())
		case 'Q', 'q':
			q := (int(t.Month())-1)/3 + 1
			switch n {
			case 1, 2:
				num(q)
			case 3:
				b.WriteString("Q" + strconv.Itoa(q))
			case 4:
				b.WriteString(ordinalQuarter(q))
			default:
				b.WriteString(strconv.Itoa(q))
			}
		case 'w':
			_, w := usWeek(t)
			num(w)
		case 'W':
			first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
			num((t.Day()-1+int(first.Weekday()))/7 + 1)
		case 'E':
			text(t.Weekday().String()[:3], t.Weekday().String())
		case 'e', 'c':
			if n <= 2 {
				num(int(t.Weekday()) + 1)
			} else {
				text(t.Weekday().String()[:3], t.Weekday().String())
			}
		case 'F':
			if sdf {
				num((t.Day()-1)/7 + 1)
			} else {
				num((t.Day()-1)%7 + 1)
			}
		case 'a':
			if hour < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'B':
			switch {
			case hour >= 6 && hour < 12:
				b.WriteString("in the morning")
			case hour >= 12 && hour < 18:
				b.WriteString("in the afternoon")
			case hour >= 18 && hour < 21:
				b.WriteString("in the evening")
			default:
				b.WriteString("at night")
			}
		case 'h':
			num((hour+11)%12 + 1)
		case 'K':
			num(hour % 12)
		case 'k':
			if hour == 0 {
				num(24)
			} else {
				num(hour)
			}
		case 'H':
			num(hour)
		case 'm':
			num(t.Minute())
		case 's':
			num(t.Second())
		case 'S':
			if sdf {
				num(t.Nanosecond() / 1e6)
				continue
			}
			frac := fmt.Sprintf("%09d", t.Nanosecond())
			for len(frac) < n {
				frac += "0"
			}
			b.WriteString(frac[:n])
		case 'A':
			ms := ((hour*60+t.Minute())*60+t.Second())*1000 + t.Nanosecond()/1e6
			num(ms)
		case 'n':
			num(t.Nanosecond())
		case 'N':
			ns := int64((hour*60+t.Minute())*60+t.Second())*1e9 + int64(t.Nanosecond())
			b.WriteString(padNum(ns, n))
		case 'z', 'v', 'V':
			if sdf {
				b.WriteString(t.Format("MST"))
				continue
			}
			return "", &EvalError{Exception: "DateTimeException", Msg: "Unable to extract ZoneId from temporal " + ldtString(t)}
		case 'O', 'X', 'x', 'Z':
			if sdf {
				if tk.letter == 'X' {
					b.WriteString(t.Format("Z07"))
				} else {
					b.WriteString(t.Format("-0700"))
				}
				continue
			}
			return "", &EvalError{Exception: "UnsupportedTemporalTypeException", Msg: "Unsupported field: OffsetSeconds"}
		}
	}
	return b.String(), nil
}

// numericField reports a letter whose field parses as digits.
func numericField(c byte) bool { return strings.IndexByte("yuYMLdDHhKkmsSwWFeQ", c) >= 0 }

var (
	monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// matchName finds one of names (full when full is set, else their first
// three letters) at the start of s and returns its index and length.
func matchName(s string, names []string, full, lenient bool) (int, int) {
	for i, name := range names {
		cands := []string{name[:3]}
		if full {
			cands = []string{name}
		}
		if lenient {
			cands = []string{name, name[:3]}
		}
		for _, c := range cands {
			if len(s) >= len(c) && (s[:len(c)] == c || lenient && strings.EqualFold(s[:len(c)], c)) {
				return i, len(c)
			}
		}
	}
	return -1, 0
}

// parseJava reads s with the tokens of a pattern into a wall-clock time;
// ok is false when s does not fit. Fields the pattern lacks default to
// 1970-01-01 00:00:00. lenient selects SimpleDateFormat's reading.
func parseJava(s string, toks []patToken, lenient bool) (time.Time, bool) {
	year, month, day, hour, minute, second, nanos := 1970, 1, 1, 0, 0, 0, 0
	hour12, pm, hasAmPm := -1, false, false
	weekday := -1
	pos := 0
	for i, tk := range toks {
		if tk.letter == 0 {
			if !strings.HasPrefix(s[pos:], tk.lit) {
				if !lenient || !strings.HasPrefix(strings.TrimLeft(s[pos:], " "), strings.TrimLeft(tk.lit, " ")) {
					return time.Time{}, false
				}
				pos += len(s[pos:]) - len(strings.TrimLeft(s[pos:], " "))
				pos += len(strings.TrimLeft(tk.lit, " "))
				continue
			}
			pos += len(tk.lit)
			continue
		}
		rest := s[pos:]
		isText := (tk.letter == 'M' || tk.letter == 'L') && tk.n >= 3 || tk.letter == 'E' || tk.letter == 'a' || tk.letter == 'G'
		if isText {
			switch tk.letter {
			case 'M', 'L':
				idx, l := matchName(rest, monthNames[:], tk.n >= 4, lenient)
				if idx < 0 {
					return time.Time{}, false
				}
				month, pos = idx+1, pos+l
			case 'E':
				idx, l := matchName(rest, dayNames[:], tk.n >= 4, lenient)
				if idx < 0 {
					return time.Time{}, false
				}
				weekday, pos = idx, pos+l
			case 'a':
				switch {
				case strings.HasPrefix(rest, "AM") || lenient && len(rest) >= 2 && strings.EqualFold(rest[:2], "AM"):
					pm = false
				case strings.HasPrefix(rest, "PM") || lenient && len(rest) >= 2 && strings.EqualFold(rest[:2], "PM"):
					pm = true
				default:
					return time.Time{}, false
				}
				hasAmPm, pos = true, pos+2
			case 'G':
				if !strings.HasPrefix(rest, "AD") {
					return time.Time{}, false
				}
				pos += 2
			}
			continue
		}
		if !numericField(tk.letter) {
			return time.Time{}, false
		}
		// Digits: a fixed width for two-letter fields and fractions, the
		// letter count when the next field is numeric too, else greedy.
		adjacent := i+1 < len(toks) && toks[i+1].letter != 0 && numericField(toks[i+1].letter) &&
			!((toks[i+1].letter == 'M' || toks[i+1].letter == 'L') && toks[i+1].n >= 3)
		minW, maxW := 1, 19
		switch {
		case tk.letter == 'S':
			minW, maxW = tk.n, tk.n
		case tk.n == 2 && !lenient:
			minW, maxW = 2, 2
		case adjacent:
			minW, maxW = tk.n, tk.n
		case !lenient:
			minW = tk.n
		}
		j := 0
		for j < len(rest) && j < maxW && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j < minW || j == 0 {
			return time.Time{}, false
		}
		v, _ := strconv.Atoi(rest[:j])
		pos += j
		switch tk.letter {
		case 'y', 'u', 'Y':
			if tk.n == 2 && j == 2 {
				v += 2000
			}
			year = v
		case 'M', 'L':
			month = v
		case 'd':
			day = v
		case 'H', 'k':
			hour = v
		case 'h', 'K':
			hour12 = v
		case 'm':
			minute = v
		case 's':
			second = v
		case 'S':
			for k := tk.n; k < 9; k++ {
				v *= 10
			}
			nanos = v
		}
	}
	if pos != len(s) && !lenient {
		return time.Time{}, false
	}
	if hour12 >= 0 {
		hour = hour12 % 12
		if pm {
			hour += 12
		}
	} else if hasAmPm && pm && hour < 12 {
		hour += 12
	}
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nanos, time.UTC)
	if t.Day() != day {
		return time.Time{}, false
	}
	if weekday >= 0 && !lenient && int(t.Weekday()) != weekday {
		return time.Time{}, false
	}
	return t, true
}
