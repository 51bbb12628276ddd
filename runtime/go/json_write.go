package bitwire

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The JSON mapping of values (docs/json-mapping.md), writing side. Generated
// AppendJSON methods print compact JSON text through these helpers, in the exact
// canonical form the reference codec prints: integers as numbers or, when the type
// is wide, as decimal strings; floats as the shortest decimal that reads back as the
// same value of the field's type; "NaN", "Infinity", "-Infinity"; bytes as lowercase
// hex; strings escaped as the reference codec escapes them.

// AppendBool appends true or false.
func AppendBool(dst []byte, v bool) []byte {
	return strconv.AppendBool(dst, v)
}

// AppendInt appends a narrow signed integer as a JSON number.
func AppendInt(dst []byte, v int64) []byte {
	return strconv.AppendInt(dst, v, 10)
}

// AppendUint appends a narrow unsigned integer as a JSON number.
func AppendUint(dst []byte, v uint64) []byte {
	return strconv.AppendUint(dst, v, 10)
}

// AppendWideInt appends a wide signed integer as a decimal string ("-5").
func AppendWideInt(dst []byte, v int64) []byte {
	dst = append(dst, '"')
	dst = strconv.AppendInt(dst, v, 10)
	return append(dst, '"')
}

// AppendWideUint appends a wide unsigned integer as a decimal string.
func AppendWideUint(dst []byte, v uint64) []byte {
	dst = append(dst, '"')
	dst = strconv.AppendUint(dst, v, 10)
	return append(dst, '"')
}

// AppendF64 appends an f64: the shortest decimal that reads back as v, or "NaN",
// "Infinity", "-Infinity".
func AppendF64(dst []byte, v float64) []byte {
	return appendFloat(dst, v, 64)
}

// AppendF32 appends an f32: the shortest decimal that reads back as the same f32
// (0.1, not 0.10000000149011612), or "NaN", "Infinity", "-Infinity".
func AppendF32(dst []byte, v float32) []byte {
	return appendFloat(dst, float64(v), 32)
}

// appendFloat prints v in the reference codec's layout: plain decimal with at least
// one fractional digit when the decimal exponent is in -5..=15 (0.00001, 100.0,
// -0.0), otherwise scientific with a signed exponent (1e-6, 1.5e+300).
func appendFloat(dst []byte, v float64, bitSize int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, `"NaN"`...)
	case math.IsInf(v, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(v, -1):
		return append(dst, `"-Infinity"`...)
	}
	// Shortest digits and exponent: "-d.ddde±XX".
	var buf [32]byte
	sci := strconv.AppendFloat(buf[:0], v, 'e', -1, bitSize)
	neg := sci[0] == '-'
	if neg {
		sci = sci[1:]
		dst = append(dst, '-')
	}
	e := 0
	mant := sci
	for i, c := range sci {
		if c == 'e' {
			mant = sci[:i]
			exp, _ := strconv.Atoi(string(sci[i+1:]))
			e = exp
			break
		}
	}
	// The significant digits without the point.
	var digits [24]byte
	nd := 0
	for _, c := range mant {
		if c != '.' {
			digits[nd] = byte(c)
			nd++
		}
	}
	d := digits[:nd]
	if e < -5 || e > 15 {
		dst = append(dst, d[0])
		if len(d) > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if e >= 0 {
			dst = append(dst, '+')
		}
		return strconv.AppendInt(dst, int64(e), 10)
	}
	if e < 0 {
		dst = append(dst, '0', '.')
		for i := 0; i < -e-1; i++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	// e+1 digits before the point, padded with zeros; at least one after it.
	point := e + 1
	if len(d) <= point {
		dst = append(dst, d...)
		for i := len(d); i < point; i++ {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, d[:point]...)
	dst = append(dst, '.')
	return append(dst, d[point:]...)
}

// AppendHex appends bytes as a lowercase hex string, two digits per byte.
func AppendHex(dst []byte, b []byte) []byte {
	const digits = "0123456789abcdef"
	dst = append(dst, '"')
	for _, c := range b {
		dst = append(dst, digits[c>>4], digits[c&15])
	}
	return append(dst, '"')
}

// AppendString appends s as a JSON string. Quotes, backslashes and control
// characters are escaped (\n, \t, … and \u00XX with lowercase hex), everything else
// is copied, as the reference codec writes it; bytes that are not UTF-8 (a Go
// string may hold any) become U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\b':
				dst = append(dst, '\\', 'b')
			case c == '\f':
				dst = append(dst, '\\', 'f')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, "\ufffd"...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
