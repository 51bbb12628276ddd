package bench

import (
	"testing"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// Snapshot returns the snapshot of n entities that examples/rust/src/samples.rs
// builds with snapshot(n), field for field (health is computed without u8
// wraparound, which only differs above 51 entities).
func Snapshot(n int) *game.Snapshot {
	names := []string{"ada", "grace", "linus", "ken", "barbara", "dennis", "margaret", "edsger"}
	weapons := []game.Weapon{game.WeaponPistol, game.WeaponRifle, game.WeaponSniper, game.WeaponRocket}
	s := &game.Snapshot{Tick: 360_000, AckSeq: 4711, Entities: make([]game.Entity, n)}
	for i := range s.Entities {
		f := float32(i)
		e := game.Entity{
			ID:        uint16(i*7 + 1),
			Pos:       game.Vec2{X: -500 + f*13.25, Y: 200 - f*7.5},
			VelX:      float32(float64(f*1.5)-64*float64(int(f*1.5/64))) - 32,
			VelY:      3,
			Yaw:       float32(float64(f*37) - 360*float64(int(f*37/360))),
			Health:    uint8((100 + i*3) % 201),
			Weapon:    weapons[i%4],
			Team:      game.TeamRed,
			OnGround:  i%3 != 0,
			Sprinting: i%5 == 0,
			Name:      names[i%len(names)],
		}
		if i%2 != 0 {
			e.Team = game.TeamBlue
		}
		if i%4 == 0 {
			e.Target.Set, e.Target.Value = true, uint16((i+1)*7)
		}
		s.Entities[i] = e
	}
	return s
}

// SnapshotBench holds the encoding of one snapshot for the decode and verify
// benchmarks.
type SnapshotBench struct {
	Wire []byte
}

// NewSnapshotBench encodes Snapshot(n).
func NewSnapshotBench(n int) (*SnapshotBench, error) {
	b, err := Snapshot(n).Encode()
	if err != nil {
		return nil, err
	}
	return &SnapshotBench{Wire: b}, nil
}

// Decode times the generated Decode of the snapshot per op, into a reused value
// (which allocates nothing once its slices have grown).
func (s *SnapshotBench) Decode(b *testing.B) {
	b.ReportAllocs()
	var m game.Snapshot
	if err := m.Decode(s.Wire); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := m.Decode(s.Wire); err != nil {
			b.Fatal(err)
		}
	}
	sink += uint64(m.Tick)
}

// Verify times the generated VerifySnapshot of the same bytes per op.
func (s *SnapshotBench) Verify(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := game.VerifySnapshot(s.Wire); err != nil {
			b.Fatal(err)
		}
	}
}

// VerifyGenerated times the generated VerifyPacket64 of one 8-byte packet per op.
func (d *Data) VerifyGenerated(b *testing.B) {
	b.ReportAllocs()
	n := len(d.Packets)
	b.ResetTimer()
	for i, j := 0, 0; i < b.N; i++ {
		if err := game.VerifyPacket64(d.Wire[j*8 : j*8+8]); err != nil {
			b.Fatal(err)
		}
		if j++; j == n {
			j = 0
		}
	}
}
