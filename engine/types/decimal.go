package types

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// A DECIMAL value is a *decimal.Decimal (github.com/shopspring/decimal): an
// arbitrary-precision coefficient and a power-of-ten exponent. A value of
// type DECIMAL(p, s) has the exponent -s (exactly s fraction digits) and at
// most p digits; once built it is never mutated, so vectors and rows share
// pointers.

// DecimalValue returns coeff × 10^exp.
func DecimalValue(coeff int64, exp int32) *decimal.Decimal {
	d := decimal.New(coeff, exp)
	return &d
}

// DecimalValueBig returns coeff × 10^exp; it does not keep coeff.
func DecimalValueBig(coeff *big.Int, exp int32) *decimal.Decimal {
	d := decimal.NewFromBigInt(coeff, exp)
	return &d
}

// DecimalOf returns a pointer to a copy of d.
func DecimalOf(d decimal.Decimal) *decimal.Decimal { return &d }

// RoundDecimal returns d rounded half up (away from zero at a half, as
// Java's RoundingMode.HALF_UP) to scale s, or nil when the result needs
// more than p digits (Flink's DecimalData.fromBigDecimal gives null).
func RoundDecimal(d *decimal.Decimal, p, s int) *decimal.Decimal {
	out := d.Round(int32(s))
	if out.NumDigits() > p && !out.IsZero() {
		return nil
	}
	return &out
}

// DecimalText formats d in plain notation with exactly its scale's
// fraction digits, as Java's BigDecimal.toPlainString: 1.50 stays 1.50,
// and a negative exponent never turns into scientific notation.
func DecimalText(d *decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}

// DecimalInt64 returns d truncated toward zero as an int64, and false when
// it does not fit.
func DecimalInt64(d *decimal.Decimal) (int64, bool) {
	c := d.BigInt() // the integer part, truncated toward zero
	if !c.IsInt64() {
		return 0, false
	}
	return c.Int64(), true
}

// DecimalFromInt returns n as a decimal with scale 0.
func DecimalFromInt(n int64) *decimal.Decimal { return DecimalValue(n, 0) }

// ParseDecimal reads a decimal literal (plain or with an exponent).
func ParseDecimal(s string) (*decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// DecimalJavaString formats d as Java's BigDecimal.toString: plain
// notation when the scale is not negative and the adjusted exponent is at
// least -6, scientific notation otherwise (1.2E+4, 1.2E-7).
func DecimalJavaString(d *decimal.Decimal) string {
	c := d.Coefficient()
	neg := c.Sign() < 0
	digits := c.Abs(c).String()
	scale := -int(d.Exponent())
	adjusted := -scale + len(digits) - 1
	if scale >= 0 && adjusted >= -6 {
		return DecimalText(d)
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteByte('E')
	if adjusted >= 0 {
		b.WriteByte('+')
	}
	b.WriteString(strconv.Itoa(adjusted))
	return b.String()
}

// DecimalStripped returns d without the trailing zeros of its coefficient,
// as Java's BigDecimal.stripTrailingZeros (zero becomes 0).
func DecimalStripped(d *decimal.Decimal) *decimal.Decimal {
	r := d.Normalize()
	return &r
}

// DecimalCoefficient returns d's unscaled value at scale: d × 10^scale,
// rounded half up when d has more fraction digits.
func DecimalCoefficient(d *decimal.Decimal, scale int) *big.Int {
	r := d.Round(int32(scale))
	return r.Coefficient()
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// DecimalFloat64 returns the float64 nearest to d (correctly rounded, as
// Java's BigDecimal.doubleValue). A coefficient of at most 15 digits with an
// exponent within ±22 is one exact multiplication or division; other
// values go through the decimal text.
func DecimalFloat64(d *decimal.Decimal) float64 {
	if e := d.Exponent(); e >= -22 && e <= 22 && d.NumDigits() <= 15 {
		// 15 digits stay below 2^53: the coefficient is an exact float64.
		n := d.CoefficientInt64()
		if e < 0 {
			return float64(n) / exactPow10[-e]
		}
		return float64(n) * exactPow10[e]
	}
	f, _ := strconv.ParseFloat(DecimalJavaString(d), 64)
	return f
}
