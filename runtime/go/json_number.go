package bitwire

// What a JSON number denotes (docs/json-mapping.md §2, §6.3): its exact value when
// that is an integer, however it is written (5, 5.0, 0.5e1), else only that it is
// not one.

// numberClass is the class of a JSON number's exact value.
type numberClass uint8

const (
	// numberInt: an integer in -2^63 ..= 2^64-1 (sign and magnitude given).
	numberInt numberClass = iota
	// numberBig: an integer outside the 64-bit range.
	numberBig
	// numberFraction: not an integer.
	numberFraction
)

// expCap bounds exponent parsing: an exponent this large decides the class on its
// own, since no text holds that many digits.
const expCap = 1 << 40

// classifyNumber classifies s, a number that matches the RFC 8259 grammar. It is
// linear in len(s) and allocates nothing. Negative zero is numberInt with neg set
// and magnitude 0.
func classifyNumber(s string) (class numberClass, neg bool, mag uint64) {
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	var exp int64
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			exp = exponentValue(s[i+1:])
			s = s[:i]
			break
		}
	}
	intPart, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	n := len(intPart) + len(frac)
	digit := func(i int) byte {
		if i < len(intPart) {
			return intPart[i] - '0'
		}
		return frac[i-len(intPart)] - '0'
	}
	first := 0
	for first < n && digit(first) == 0 {
		first++
	}
	if first == n {
		return numberInt, neg, 0
	}
	last := n - 1
	for digit(last) == 0 {
		last--
	}
	scale := exp - int64(len(frac)) + int64(n-1-last)
	if scale < 0 {
		return numberFraction, neg, 0
	}
	// More than 20 decimal digits is at least 10^20 > 2^64.
	if int64(last-first+1)+scale > 20 {
		return numberBig, neg, 0
	}
	// Up to 20 digits: accumulate with overflow checks against 2^64-1.
	const max = ^uint64(0)
	for i := first; i <= last; i++ {
		d := uint64(digit(i))
		if mag > (max-d)/10 {
			return numberBig, neg, 0
		}
		mag = mag*10 + d
	}
	for ; scale > 0; scale-- {
		if mag > max/10 {
			return numberBig, neg, 0
		}
		mag *= 10
	}
	if neg && mag > 1<<63 {
		return numberBig, neg, 0
	}
	return numberInt, neg, mag
}

// exponentValue parses [+-]?[0-9]+, saturating at ±expCap.
func exponentValue(s string) int64 {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	var v int64
	for i := 0; i < len(s); i++ {
		v = min(v*10+int64(s[i]-'0'), expCap)
	}
	if neg {
		return -v
	}
	return v
}
