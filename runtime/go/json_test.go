package bitwire

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestFloatsPrintLikeTheReferenceCodec(t *testing.T) {
	f64 := map[float64]string{
		0.1: "0.1", 1e15: "1000000000000000.0", 1e16: "1e+16", 1.2345678901234568e+17: "1.2345678901234568e+17",
		1e-5: "0.00001", 1e-6: "1e-6", 0.000123: "0.000123", 1.5e300: "1.5e+300", 5e-324: "5e-324",
		100: "100.0", 1234567.125: "1234567.125", 9.5e-6: "9.5e-6", 1.5e-5: "0.000015", 0.5: "0.5",
		math.Copysign(0, -1): "-0.0", -2.5: "-2.5", math.Inf(1): `"Infinity"`, math.Inf(-1): `"-Infinity"`,
	}
	for v, want := range f64 {
		if got := string(AppendF64(nil, v)); got != want {
			t.Errorf("AppendF64(%v) = %s, want %s", v, got, want)
		}
	}
	if got := string(AppendF64(nil, math.NaN())); got != `"NaN"` {
		t.Errorf("NaN: %s", got)
	}
	f32 := map[float32]string{
		0.1: "0.1", 1e15: "1000000000000000.0", 16777216: "16777216.0", math.MaxFloat32: "3.4028235e+38",
		math.SmallestNonzeroFloat32: "1e-45", 1e-7: "1e-7", 0.25024438: "0.25024438",
	}
	for v, want := range f32 {
		if got := string(AppendF32(nil, v)); got != want {
			t.Errorf("AppendF32(%v) = %s, want %s", v, got, want)
		}
	}
}

func TestStringsHexAndWideInts(t *testing.T) {
	if got := string(AppendString(nil, "a\"\\\n\x01é\xff")); got != `"a\"\\\n\u0001é`+"\ufffd"+`"` {
		t.Fatalf("got %s", got)
	}
	if got := string(AppendHex(nil, []byte{0, 0xab, 0xff})); got != `"00abff"` {
		t.Fatalf("got %s", got)
	}
	if got := string(AppendWideUint(nil, math.MaxUint64)); got != `"18446744073709551615"` {
		t.Fatalf("got %s", got)
	}
	if got := string(AppendWideInt(nil, math.MinInt64)); got != `"-9223372036854775808"` {
		t.Fatalf("got %s", got)
	}
}

func parse(t *testing.T, text string) any {
	t.Helper()
	v, err := ParseJSON([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

func wantJSONKind(t *testing.T, err error, kind JSONKind) {
	t.Helper()
	var e *JSONError
	if !errors.As(err, &e) || e.Kind != kind {
		t.Fatalf("got %v, want %v", err, kind)
	}
}

func TestIntegers(t *testing.T) {
	if v, err := JSONInt[uint8](parse(t, "255")); v != 255 || err != nil {
		t.Fatal(v, err)
	}
	if v, err := JSONInt[uint8](parse(t, "5.0")); v != 5 || err != nil {
		t.Fatal(v, err)
	}
	if v, err := JSONInt[int16](parse(t, "1e3")); v != 1000 || err != nil {
		t.Fatal(v, err)
	}
	_, err := JSONInt[uint8](parse(t, "300"))
	wantJSONKind(t, err, JSONOutOfRange)
	_, err = JSONInt[uint8](parse(t, "-1"))
	wantJSONKind(t, err, JSONOutOfRange)
	_, err = JSONInt[uint8](parse(t, "1.5"))
	wantJSONKind(t, err, JSONTypeMismatch)
	_, err = JSONInt[uint8](parse(t, `"5"`))
	wantJSONKind(t, err, JSONTypeMismatch)
	if v, err := JSONWideInt[uint64](parse(t, `"18446744073709551615"`)); v != math.MaxUint64 || err != nil {
		t.Fatal(v, err)
	}
	if v, err := JSONWideInt[int64](parse(t, `"-9223372036854775808"`)); v != math.MinInt64 || err != nil {
		t.Fatal(v, err)
	}
	_, err = JSONWideInt[uint64](parse(t, `"18446744073709551616"`))
	wantJSONKind(t, err, JSONOutOfRange)
	_, err = JSONWideInt[uint64](parse(t, `"1e3"`))
	wantJSONKind(t, err, JSONInvalidNumber)
	_, err = JSONWideInt[int64](parse(t, "1e30"))
	wantJSONKind(t, err, JSONOutOfRange)
}

func TestFloatsBytesAndNames(t *testing.T) {
	if v, _ := JSONF32(parse(t, "0.10000000149011612")); v != 0.1 {
		t.Fatal(v)
	}
	if v, _ := JSONF64(parse(t, `"NaN"`)); !math.IsNaN(v) {
		t.Fatal(v)
	}
	_, err := JSONF64(parse(t, `"inf"`))
	wantJSONKind(t, err, JSONInvalidNumber)
	if b, err := JSONBytes(parse(t, `"00ABff"`), nil); string(b) != "\x00\xab\xff" || err != nil {
		t.Fatal(b, err)
	}
	_, err = JSONBytes(parse(t, `"abc"`), nil)
	wantJSONKind(t, err, JSONTypeMismatch)
	_, err = JSONName(parse(t, "3"))
	wantJSONKind(t, err, JSONTypeMismatch)
}

func TestObjectsReportUnknownThenMissingFields(t *testing.T) {
	_, err := JSONFields(parse(t, `{"a": 1, "typo": 2, "zz": 3}`), []string{"a", "b"})
	wantJSONKind(t, err, JSONUnknownField)
	if err.(*JSONError).Path != "typo" {
		t.Fatal(err)
	}
	o, err := JSONFields(parse(t, `{"a": 1}`), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := o.Field("a"); v != json.Number("1") {
		t.Fatalf("field a: %v", v)
	}
	_, err = o.Field("b")
	wantJSONKind(t, err, JSONMissingField)
	if InField(err, "outer").(*JSONError).Path != "outer.b" {
		t.Fatal(err)
	}
	if o.Optional("b") != nil {
		t.Fatal("missing optional is null")
	}
}

func TestUnionsAndSyntax(t *testing.T) {
	if name, _, has, err := JSONVariant(parse(t, `"Ping"`)); name != "Ping" || has || err != nil {
		t.Fatal(name, has, err)
	}
	if name, p, has, _ := JSONVariant(parse(t, `{"Chat": 1}`)); name != "Chat" || !has || p != json.Number("1") {
		t.Fatal(name, p, has)
	}
	_, _, _, err := JSONVariant(parse(t, `{"a": 1, "b": 2}`))
	wantJSONKind(t, err, JSONTypeMismatch)
	if JSONUnit(nil, true) != nil || JSONUnit(json.Number("1"), true) == nil {
		t.Fatal("unit payloads")
	}
	_, err = JSONPayload(nil, false)
	wantJSONKind(t, err, JSONTypeMismatch)
	for _, bad := range []string{"", "{", `{"a" 1}`, "[1,]", "1 2", "nul"} {
		_, err := ParseJSON([]byte(bad))
		wantJSONKind(t, err, JSONSyntax)
	}
	if err := JSONFixedLen(make([]any, 2), 3); err == nil {
		t.Fatal("length")
	}
}
