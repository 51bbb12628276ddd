package bench_test

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// BenchmarkSpeed17Profiles times the string-heavy `profiles` dataset (issue 17):
// AppendTo into a reused buffer and Decode into a reused value, one pass over the
// corpus per op, with ns per message as a metric:
//
//	BITWIRE_CORPUS=DIR go test -run '^$' -bench Speed17 -benchmem .
//
// Skipped without a corpus holding profiles.bin.
func BenchmarkSpeed17Profiles(b *testing.B) {
	frames, vals := loadProfiles(b)
	buf := make([]byte, 0, 4096)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for j := range vals {
				var err error
				if buf, err = vals[j].AppendTo(buf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(perMsg(start, b.N, len(vals)), "ns/msg")
	})
	b.Run("decode", func(b *testing.B) {
		var v game.Profiles
		b.ReportAllocs()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			for _, f := range frames {
				if err := v.Decode(f); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(perMsg(start, b.N, len(frames)), "ns/msg")
	})
	// The same frame decoded again into the value it filled: every string equals
	// the old one, so this path must not allocate.
	b.Run("redecode", func(b *testing.B) {
		var v game.Profiles
		b.ReportAllocs()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			f := frames[i%len(frames)]
			for k := 0; k < 2; k++ {
				if err := v.Decode(f); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(perMsg(start, b.N, 2), "ns/msg")
	})
}

func perMsg(start time.Time, n, msgs int) float64 {
	return float64(time.Since(start).Nanoseconds()) / float64(n) / float64(msgs)
}

// Decoding a frame into a value that already holds it allocates nothing.
func TestSpeed17ProfilesReuseAllocs(t *testing.T) {
	frames, _ := loadProfiles(t)
	var v game.Profiles
	for _, f := range frames {
		if err := v.Decode(f); err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(5, func() { _ = v.Decode(f) }); a != 0 {
			t.Fatalf("re-decoding a frame into its own value: %v allocs", a)
		}
	}
}

func loadProfiles(tb testing.TB) ([][]byte, []game.Profiles) {
	dir := os.Getenv("BITWIRE_CORPUS")
	if dir == "" {
		dir = "../../target/lab/corpus"
	}
	m, err := corpus.Load(dir)
	if err != nil {
		tb.Skipf("no corpus at %s (set BITWIRE_CORPUS): %v", dir, err)
	}
	d, err := m.Dataset("profiles")
	if err != nil {
		tb.Skipf("corpus without profiles: %v", err)
	}
	frames, err := m.Frames(d)
	if err != nil {
		tb.Fatal(err)
	}
	vals := make([]game.Profiles, len(frames))
	var buf []byte
	for i, f := range frames {
		if err := vals[i].Decode(f); err != nil {
			tb.Fatal(err)
		}
		if buf, err = vals[i].AppendTo(buf[:0]); err != nil {
			tb.Fatal(err)
		}
		if !bytes.Equal(buf, f) {
			tb.Fatalf("profiles #%d does not encode back to its frame", i)
		}
	}
	return frames, vals
}
