package conformance

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/delta"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/deltaworld"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// canonical returns v decoded from its full encoding: a value as a receiver holds
// it (quantized floats on their grid, NaN canonical).
func canonical(c harness.Codec, v harness.Value) (harness.Value, error) {
	b, err := v.AppendTo(nil)
	if err != nil {
		return nil, err
	}
	out := c.New()
	return out, out.Decode(b)
}

func jsonOf(v harness.Value) string {
	b, err := v.AppendJSON(nil)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// checkPair checks the delta of cur against base (spec §12): it decodes against the
// baseline a receiver holds (base's canonical form, which gives the same bytes) to
// what decoding cur's full encoding gives; Verify accepts it; the decoded value
// re-encodes to the same bytes (idempotence), also when decoded into a reused value
// or into the baseline itself; and every mutation of one bit either fails to decode
// or re-encodes to itself (canonical form, §12.6).
func checkPair(c harness.Codec, dc harness.DeltaCodec, base, cur, reused harness.Value) error {
	d, err := dc.AppendDelta(cur, base, nil)
	if err != nil {
		return fmt.Errorf("AppendDelta: %w", err)
	}
	baseC, err := canonical(c, base)
	if err != nil {
		return err
	}
	if d2, err := dc.AppendDelta(cur, baseC, nil); err != nil || !bytes.Equal(d, d2) {
		return fmt.Errorf("against the canonical baseline: %x, not %x (%v)", d2, d, err)
	}
	want, err := fullNormalize(c, cur)
	if err != nil {
		return err
	}
	for _, into := range []harness.Value{c.New(), reused} {
		if err := dc.DecodeDelta(into, baseC, d); err != nil {
			return fmt.Errorf("DecodeDelta of %x: %w", d, err)
		}
		if got := jsonOf(into); got != want {
			return fmt.Errorf("DecodeDelta of %x gave\n%s\nwant\n%s", d, got, want)
		}
		if again, err := dc.AppendDelta(into, baseC, nil); err != nil || !bytes.Equal(again, d) {
			return fmt.Errorf("re-encoded %x to %x (%v)", d, again, err)
		}
	}
	if err := dc.Verify(baseC, d); err != nil {
		return fmt.Errorf("Verify: %w", err)
	}
	// Nothing changed: one zero bit per field that can change.
	if same, err := dc.AppendDelta(baseC, baseC, nil); err != nil || bytes.Count(same, []byte{0}) != len(same) {
		return fmt.Errorf("the delta of the baseline against itself is %x (%v)", same, err)
	}
	for bit := 0; bit < len(d)*8; bit++ {
		m := append([]byte(nil), d...)
		m[bit/8] ^= 1 << (bit % 8)
		if err := checkDecodes(c, dc, baseC, m); err != nil {
			return fmt.Errorf("bit %d flipped: %w", bit, err)
		}
	}
	self, err := canonical(c, base)
	if err != nil {
		return err
	}
	if err := dc.DecodeDelta(self, self, d); err != nil || jsonOf(self) != want {
		return fmt.Errorf("DecodeDelta into the baseline itself gave %s (%v)", jsonOf(self), err)
	}
	return nil
}

// checkDecodes decodes b against base: it must not panic; Verify must agree; and
// what decodes must re-encode to b.
func checkDecodes(c harness.Codec, dc harness.DeltaCodec, base harness.Value, b []byte) error {
	return harness.Guard(func() error {
		v := c.New()
		err := dc.DecodeDelta(v, base, b)
		if verr := harness.CheckVerify(func(b []byte) error { return dc.Verify(base, b) }, b, err); verr != nil {
			return verr
		}
		if err != nil {
			return nil
		}
		again, err := dc.AppendDelta(v, base, nil)
		if err != nil || !bytes.Equal(again, b) {
			return fmt.Errorf("%x decodes to %s, which encodes to %x (%v)", b, jsonOf(v), again, err)
		}
		return nil
	})
}

func TestDeltaRoundTripsRandomPairs(t *testing.T) {
	codecs, deltas := registry.All(), registry.Deltas()
	r := gen{rand.New(rand.NewSource(42))}
	pairs := 0
	for _, dc := range deltas {
		if dc.Suite != "delta" {
			continue
		}
		c, _ := harness.Find(codecs, dc.Suite, dc.Type)
		reused := c.New()
		for i := 0; i < 300; i++ {
			base, cur := deltaPair(r, dc.Type)
			if err := harness.Guard(func() error { return checkPair(c, dc, base, cur, reused) }); err != nil {
				t.Fatalf("%s pair %d: %v\nbaseline %s\nvalue %s", dc.Type, i, err, jsonOf(base), jsonOf(cur))
			}
			pairs++
		}
	}
	if pairs != 1200 {
		t.Fatalf("%d pairs: a delta message of delta.bw has no generator", pairs)
	}
}

// The encoder checks what Go values can hold beyond the schema, on both sides.
func TestDeltaEncoderRejectsWhatOnlyGoCanHold(t *testing.T) {
	ok := &delta.World{Entities: []delta.Entity{{ID: 1, Name: "a"}}}
	cases := []struct {
		name      string
		base, cur *delta.World
		kind      bitwire.Kind
		path      string
	}{
		{"undeclared enum in the value", ok, &delta.World{Entities: []delta.Entity{{ID: 1, Name: "a", Kind: 7}}},
			bitwire.InvalidEnum, "entities[0].kind"},
		// The baseline is checked too, even where nothing changed.
		{"not UTF-8 in the baseline", &delta.World{Entities: []delta.Entity{{ID: 1, Name: "\xff"}}}, ok,
			bitwire.InvalidUtf8, "entities[0].name"},
		{"not UTF-8 on both sides", &delta.World{Entities: []delta.Entity{{ID: 1, Name: "\xff"}}},
			&delta.World{Entities: []delta.Entity{{ID: 1, Name: "\xff"}}}, bitwire.InvalidUtf8, "entities[0].name"},
		{"an id out of range", ok, &delta.World{Entities: []delta.Entity{{ID: 5000}}},
			bitwire.OutOfRange, "entities[0].id"},
		{"duplicate keys", ok, &delta.World{Entities: []delta.Entity{{ID: 2}, {ID: 2}}},
			bitwire.InvalidKey, "entities"},
	}
	for _, c := range cases {
		out, err := c.cur.AppendDelta([]byte{7}, c.base)
		if err := harness.CheckError(err, harness.Expected{Kind: c.kind.String(), Path: &c.path}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if len(out) != 1 {
			t.Errorf("%s: a failed AppendDelta changed the buffer", c.name)
		}
	}
}

func TestDeltaCodecsAllocateNothingOnTheHotPath(t *testing.T) {
	r := gen{rand.New(rand.NewSource(7))}
	base, cur := snapshot(r, 200)
	buf, err := cur.AppendDelta(nil, base)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		buf, err = cur.AppendDelta(buf[:0], base)
	})
	if err != nil || allocs != 0 {
		t.Errorf("AppendDelta into a reused buffer: %v allocs/op (%v)", allocs, err)
	}
	var into deltaworld.Snapshot
	if err := into.DecodeDelta(base, buf); err != nil {
		t.Fatal(err)
	}
	allocs = testing.AllocsPerRun(200, func() {
		err = into.DecodeDelta(base, buf)
	})
	if err != nil || allocs != 0 {
		t.Errorf("DecodeDelta into a reused value: %v allocs/op (%v)", allocs, err)
	}
	full, _ := cur.AppendTo(nil)
	fmt.Printf("delta Snapshot of 200 entities, 20%% moving: %d bytes (full encoding %d): 0 allocs/op\n", len(buf), len(full))
}

// FuzzDeltaWorld decodes random bytes as deltas of each delta.bw message against
// fixed baselines: no panic, Verify agrees with DecodeDelta, and what decodes
// re-encodes to the same bytes (§12.6).
func FuzzDeltaWorld(f *testing.F) {
	codecs, deltas := registry.All(), registry.Deltas()
	r := gen{rand.New(rand.NewSource(1))}
	type target struct {
		c    harness.Codec
		dc   harness.DeltaCodec
		base harness.Value
	}
	var targets []target
	for _, dc := range deltas {
		if dc.Suite != "delta" {
			continue
		}
		c, _ := harness.Find(codecs, dc.Suite, dc.Type)
		base, cur := deltaPair(r, dc.Type)
		baseC, err := canonical(c, base)
		if err != nil {
			f.Fatal(err)
		}
		targets = append(targets, target{c, dc, baseC})
		d, err := dc.AppendDelta(cur, base, nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(d)
	}
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, tg := range targets {
			if err := checkDecodes(tg.c, tg.dc, tg.base, data); err != nil {
				t.Fatalf("%s: %v", tg.dc.Type, err)
			}
		}
	})
}

func BenchmarkDeltaSnapshot200(b *testing.B) {
	r := gen{rand.New(rand.NewSource(7))}
	base, cur := snapshot(r, 200)
	buf, _ := cur.AppendDelta(nil, base)
	b.Run("AppendDelta", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf, _ = cur.AppendDelta(buf[:0], base)
		}
	})
	b.Run("DecodeDelta", func(b *testing.B) {
		var into deltaworld.Snapshot
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = into.DecodeDelta(base, buf)
		}
	})
	full, _ := cur.AppendTo(nil)
	b.Run("AppendTo", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			full, _ = cur.AppendTo(full[:0])
		}
	})
	b.Run("Decode", func(b *testing.B) {
		var into deltaworld.Snapshot
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = into.Decode(full)
		}
	})
}

// A shallow copy of the baseline (next := *acked) is a valid destination: the
// decoder does not write into the arrays it shares with the baseline.
func TestDeltaDecodesIntoAShallowCopyOfTheBaseline(t *testing.T) {
	codecs := registry.All()
	r := gen{rand.New(rand.NewSource(9))}
	for _, typ := range []string{"World", "Composite"} {
		c, _ := harness.Find(codecs, "delta", typ)
		for i := 0; i < 200; i++ {
			b, cur := deltaPair(r, typ)
			base, err := canonical(c, b)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := fullNormalize(c, cur)
			before := jsonOf(base)
			var next harness.Value
			switch typ {
			case "World":
				d, _ := cur.(*delta.World).AppendDelta(nil, base.(*delta.World))
				n := *base.(*delta.World)
				err, next = n.DecodeDelta(base.(*delta.World), d), &n
			default:
				d, _ := cur.(*delta.Composite).AppendDelta(nil, base.(*delta.Composite))
				n := *base.(*delta.Composite)
				err, next = n.DecodeDelta(base.(*delta.Composite), d), &n
			}
			if err != nil || jsonOf(next) != want || jsonOf(base) != before {
				t.Fatalf("%s %d: decoded %s (%v), want %s; baseline now %s, was %s",
					typ, i, jsonOf(next), err, want, jsonOf(base), before)
			}
		}
	}
}
