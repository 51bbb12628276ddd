// Package bench holds the Go benchmarks: the packet64 dataset of the product brief,
// a hand-written shift-and-mask codec of the same layout, and the benchmark bodies
// that bench_test.go (go test -bench) and cmd/packet64 (ns/packet and ratios) run.
package bench

import (
	"math"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// SplitMix64 is the dataset generator: tiny, fast, and the same sequence in every
// language (bench/rust/src/dataset.rs is the reference; TestDatasetMatchesRust
// checks the two agree).
type SplitMix64 struct{ state uint64 }

// NewSplitMix64 returns a generator from seed.
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{state: seed} }

// Next returns the next 64 random bits.
func (r *SplitMix64) Next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Below returns a value uniform in 0..n.
func (r *SplitMix64) Below(n uint64) uint64 { return r.Next() % n }

// Unit returns a value uniform in [0, 1).
func (r *SplitMix64) Unit() float64 { return float64(r.Next()>>11) / float64(uint64(1)<<53) }

// Normal returns a standard normal value (Box-Muller), in exactly the Rust
// generator's order of operations.
func (r *SplitMix64) Normal() float64 {
	u1 := math.Max(r.Unit(), 2.2250738585072014e-308) // f64::MIN_POSITIVE
	u2 := r.Unit()
	return math.Sqrt(-2.0*math.Log(u1)) * math.Cos(2.0*math.Pi*u2)
}

// Packet64 returns n packets: seed 42, 90% alive, health skewed toward critical
// values, positions normal with sigma 500 clamped to the 12-bit signed range. The
// random draws happen in the Rust generator's order, so both languages get the
// same packets.
func Packet64(n int) []game.Packet64 {
	rng := NewSplitMix64(42)
	pos := func() int16 {
		return int16(math.Max(-2048, math.Min(2047, math.Round(rng.Normal()*500.0))))
	}
	out := make([]game.Packet64, n)
	for i := range out {
		alive := rng.Below(10) != 0
		// Half the packets carry critical health (0..50), the rest anything up to 511.
		var health uint16
		if rng.Below(2) == 0 {
			health = uint16(rng.Below(50))
		} else {
			health = uint16(rng.Below(512))
		}
		if !alive {
			health = 0
		}
		p := &out[i]
		p.IsAlive = alive
		p.WeaponID = uint8(rng.Below(16))
		p.TeamID = uint8(rng.Below(4))
		p.Health = health
		p.PosX = pos()
		p.PosY = pos()
		p.Rotation = uint8(rng.Below(256))
		p.Score = uint16(rng.Below(65536))
	}
	return out
}
