package bitwire

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
)

func wantParseError(t *testing.T, text string, kind JSONKind, path string) {
	t.Helper()
	_, err := ParseJSON([]byte(text))
	var e *JSONError
	if !errors.As(err, &e) || e.Kind != kind || e.Path != path {
		t.Errorf("%.60q: got %v, want %v at %q", text, err, kind, path)
	}
}

func TestParseJSONRules(t *testing.T) {
	wantParseError(t, "[1, 1e400]", JSONInvalidNumber, "[1]")
	wantParseError(t, "-1e400", JSONInvalidNumber, "")
	wantParseError(t, `{"a": "\ud800"}`, JSONInvalidUnicode, "a")
	wantParseError(t, `{"a": "\udc00x"}`, JSONInvalidUnicode, "a")
	wantParseError(t, `["\ud800\u0041"]`, JSONInvalidUnicode, "[0]")
	wantParseError(t, "[\"\xff\"]", JSONInvalidUnicode, "")
	wantParseError(t, "\ufeff{}", JSONSyntax, "")
	wantParseError(t, "[\"\x01\"]", JSONSyntax, "[0]")
	wantParseError(t, "[1, 2,]", JSONSyntax, "[2]")
	wantParseError(t, "[1 2]", JSONSyntax, "")
	wantParseError(t, `{"a": {"b": }}`, JSONSyntax, "a.b")
	wantParseError(t, `{"a": 1,}`, JSONSyntax, "")
	wantParseError(t, `{"x": [{"a": 1, "a": 2}]}`, JSONDuplicateKey, "x[0].a")
	for _, bad := range []string{"01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "1.0e+", "{} x", ""} {
		wantParseError(t, bad, JSONSyntax, "")
	}
	v := parse(t, `["a\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00"]`).([]any)
	if v[0] != "a\"\\/\b\f\n\r\t" || v[1] != "é😀" {
		t.Fatalf("escapes: %q", v)
	}
}

func TestDuplicateKeysInLargeObjects(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100; i++ {
		b.WriteString(`"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `": 1,`)
	}
	b.WriteString(`"kaa": 2}`)
	wantParseError(t, b.String(), JSONDuplicateKey, "kaa")
}

func TestNumbersFromText(t *testing.T) {
	if v, err := JSONWideInt[int64](parse(t, "-9223372036854775808")); v != math.MinInt64 || err != nil {
		t.Fatal(v, err)
	}
	if v, err := JSONWideInt[uint64](parse(t, "1.8446744073709551615e19")); v != math.MaxUint64 || err != nil {
		t.Fatal(v, err)
	}
	if v, err := JSONWideInt[int64](parse(t, "5.0000000000000000001")); v != 5 || err != nil {
		t.Fatal(v, err)
	}
	for text, kind := range map[string]JSONKind{
		"-9223372036854775809":   JSONOutOfRange,
		"-9223372036854775808.5": JSONOutOfRange,
		"18446744073709551616":   JSONOutOfRange,
		"2.5":                    JSONTypeMismatch,
	} {
		_, err := JSONWideInt[int64](parse(t, text))
		wantJSONKind(t, err, kind)
	}
	_, err := JSONF32(parse(t, "1e39"))
	wantJSONKind(t, err, JSONInvalidNumber)
	if v, err := JSONF32(parse(t, "3.4028235e38")); v != math.MaxFloat32 || err != nil {
		t.Fatal(v, err)
	}
	if v, _ := JSONF64(parse(t, "-0")); !math.Signbit(v) {
		t.Fatal("-0 is negative zero for a float")
	}
}

// allocated returns the bytes ParseJSON allocates for text, and its error.
func allocated(text []byte) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := ParseJSON(text)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// Hostile text: typed errors before any deep recursion, and memory linear in the
// input (bounded by a small multiple of its length).
func TestHostileText(t *testing.T) {
	deep := bytes.Repeat([]byte("["), 2<<20)
	n, err := allocated(deep)
	var e *JSONError
	t.Logf("2 MB of [: %d bytes allocated", n)
	if !errors.As(err, &e) || e.Kind != JSONTooDeep {
		t.Fatalf("2 MB of [: %v", err)
	}
	if n > 4<<20 {
		t.Errorf("2 MB of [ allocated %d bytes", n)
	}
	objects := bytes.Repeat([]byte(`{"a":`), 1<<20)
	n, err = allocated(objects)
	t.Logf("5 MB of {\"a\": : %d bytes allocated", n)
	if !errors.As(err, &e) || e.Kind != JSONTooDeep {
		t.Fatalf("nested objects: %v", err)
	}
	ok := []byte(strings.Repeat("[", MaxJSONDepth) + strings.Repeat("]", MaxJSONDepth))
	if _, err := ParseJSON(ok); err != nil {
		t.Fatalf("%d levels: %v", MaxJSONDepth, err)
	}
	long := append(append([]byte(`"`), bytes.Repeat([]byte("x"), 10<<20)...), '"')
	n, err = allocated(long)
	t.Logf("10 MB string: %d bytes allocated", n)
	if err != nil || n > 3*uint64(len(long)) {
		t.Errorf("10 MB string: %d bytes allocated, %v", n, err)
	}
	escaped := append(append([]byte(`"`), bytes.Repeat([]byte(`\n`), 5<<20)...), '"')
	n, err = allocated(escaped)
	t.Logf("10 MB of escapes: %d bytes allocated", n)
	if err != nil || n > 3*uint64(len(escaped)) {
		t.Errorf("10 MB of escapes: %d bytes allocated, %v", n, err)
	}
	digits := append([]byte("0."), bytes.Repeat([]byte("1"), 10<<20)...)
	if n, err := allocated(digits); err != nil || n > 3*uint64(len(digits)) {
		t.Errorf("10 MB number: %d bytes allocated, %v", n, err)
	}
	wide := append([]byte("["), bytes.Repeat([]byte("[],"), 1<<20)...)
	wide = append(wide, "[]]"...)
	n, err = allocated(wide)
	t.Logf("1M empty arrays (3 MB): %d bytes allocated", n)
	if err != nil || n > 40*uint64(len(wide)) {
		t.Errorf("1M empty arrays: %d bytes allocated, %v", n, err)
	}
}
