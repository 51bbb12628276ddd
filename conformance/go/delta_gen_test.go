package conformance

import (
	"math"
	"math/rand"
	"sort"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/delta"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/deltaworld"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Random values of the delta vectors' messages (testdata/vectors/delta/delta.bw) and
// of deltaworld.bw: a baseline, and a current value made from it by changing,
// removing and adding parts, as consecutive snapshots of a game differ. Floats are
// anywhere in their range (off the quantization grid), with NaN, -0.0 and the range
// ends now and then.

type gen struct{ *rand.Rand }

// chance is true with probability p.
func (r gen) chance(p float64) bool { return r.Float64() < p }

// float returns a value in lo..=hi, its ends a tenth of the time.
func (r gen) float(lo, hi float64) float64 {
	switch r.Intn(20) {
	case 0:
		return lo
	case 1:
		return hi
	}
	return lo + r.Float64()*(hi-lo)
}

// f32 returns any f32: random bits, or a NaN, -0.0 or an infinity.
func (r gen) f32() float32 {
	switch r.Intn(10) {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return float32(math.Inf(1 - 2*r.Intn(2)))
	}
	return math.Float32frombits(r.Uint32())
}

func (r gen) f64() float64 {
	switch r.Intn(10) {
	case 0:
		return math.Float64frombits(0x7FF0000000000001 + r.Uint64()%1000)
	case 1:
		return math.Copysign(0, -1)
	}
	return math.Float64frombits(r.Uint64())
}

func (r gen) str(max int) string {
	b := make([]byte, r.Intn(max+1))
	for i := range b {
		b[i] = byte('a' + r.Intn(26))
	}
	if len(b) > 1 && r.chance(0.1) {
		return string(b[:len(b)-2]) + "é"
	}
	return string(b)
}

// keys returns n distinct ascending keys from lo..=hi.
func (r gen) keys(n int, lo, hi int) []int {
	seen := map[int]bool{}
	var out []int
	for len(out) < n && len(out) < hi-lo+1 {
		k := lo + r.Intn(hi-lo+1)
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Ints(out)
	return out
}

// evolve returns a current list made from base: each element kept (changed by
// change with probability pc) or removed, then elements with new keys added; keyOf
// and newElem make and read keys; the result stays ascending and within max.
func evolve[T any](r gen, base []T, max int, keyOf func(*T) int, lo, hi int, pc float64, change func(T) T, newElem func(int) T) []T {
	var out []T
	used := map[int]bool{}
	for _, e := range base {
		used[keyOf(&e)] = true
		switch {
		case r.chance(0.1):
		case r.chance(pc):
			out = append(out, change(e))
		default:
			out = append(out, e)
		}
	}
	for _, k := range r.keys(r.Intn(4), lo, hi) {
		if !used[k] && len(out) < max {
			out = append(out, newElem(k))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return keyOf(&out[i]) < keyOf(&out[j]) })
	return out
}

func (r gen) vec2() delta.Vec2 {
	return delta.Vec2{X: float32(r.float(-512, 512)), Y: float32(r.float(-512, 512))}
}

func (r gen) scalars() *delta.Scalars {
	return &delta.Scalars{
		Flag: r.chance(0.5), Small: uint8(r.Intn(8)), Byte: uint8(r.Intn(256)),
		Signed: int8(r.Intn(128) - 64), Wide: r.Uint64(), Swide: int64(r.Uint64()),
		Bounded: int16(r.Intn(2001) - 1000), Fixed: 7, Quant: float32(r.float(-1, 1)),
		Quant64: r.float(0, 100), Single: r.f32(), Double: r.f64(),
		Kind: delta.Kind(r.Intn(3)), Team: delta.Team(1 + r.Intn(2)),
		Vu: r.Uint32(), Vi: int64(r.Uint64()) >> r.Intn(64),
	}
}

// nudge changes each field of a Scalars with probability p, mostly a little.
func (r gen) nudge(s delta.Scalars, p float64) *delta.Scalars {
	f := r.scalars()
	if r.chance(p) {
		s.Flag = !s.Flag
	}
	if r.chance(p) {
		s.Small = f.Small
	}
	if r.chance(p) {
		s.Byte++
	}
	if r.chance(p) {
		s.Signed = f.Signed
	}
	if r.chance(p) {
		s.Wide += uint64(r.Intn(5)) - 2
	}
	if r.chance(p) {
		s.Swide = f.Swide
	}
	if r.chance(p) {
		s.Bounded = f.Bounded
	}
	if r.chance(p) {
		s.Quant = f.Quant
	}
	if r.chance(p) {
		s.Quant64 = f.Quant64
	}
	if r.chance(p) {
		s.Single = f.Single
	}
	if r.chance(p) {
		s.Double = f.Double
	}
	if r.chance(p) {
		s.Kind = f.Kind
	}
	if r.chance(p) {
		s.Team = f.Team
	}
	if r.chance(p) {
		s.Vu = f.Vu
	}
	if r.chance(p) {
		s.Vi = f.Vi
	}
	return &s
}

func (r gen) action() delta.Action {
	switch r.Intn(3) {
	case 0:
		return delta.Action{Tag: delta.ActionIdle}
	case 1:
		return delta.Action{Tag: delta.ActionMove, Move: r.vec2()}
	}
	return delta.Action{Tag: delta.ActionSay, Say: r.str(6)}
}

func (r gen) composite() *delta.Composite {
	c := &delta.Composite{Pos: r.vec2(), Action: r.action(), Label: r.str(32)}
	for i := range c.Path {
		c.Path[i] = r.vec2()
	}
	for i := range c.Raw {
		c.Raw[i] = uint8(r.Intn(256))
	}
	if r.chance(0.5) {
		c.Target = bitwire.Some(uint16(r.Intn(4096)))
	}
	c.Blob = []byte(r.str(20))
	c.Tags = []byte(r.str(8))
	return c
}

func (r gen) alter(c delta.Composite, p float64) *delta.Composite {
	f := r.composite()
	if r.chance(p) {
		c.Pos.X = f.Pos.X
	}
	for i := range c.Path {
		if r.chance(p / 2) {
			c.Path[i] = f.Path[i]
		}
	}
	if r.chance(p) {
		c.Raw[r.Intn(4)]++
	}
	if r.chance(p) {
		c.Target = f.Target
	}
	if r.chance(p) {
		c.Action = f.Action
	}
	if r.chance(p) {
		c.Label = f.Label
	}
	if r.chance(p) {
		c.Blob = f.Blob
	}
	if r.chance(p) {
		c.Tags = f.Tags
	}
	return &c
}

func (r gen) entity(id int) delta.Entity {
	e := delta.Entity{ID: uint16(id), Kind: delta.Kind(r.Intn(3)), Pos: r.vec2(),
		Yaw: float32(r.float(0, 360)), Alive: r.chance(0.8), Name: r.str(16)}
	for _, k := range r.keys(r.Intn(5), -128, 127) {
		e.Items = append(e.Items, delta.Item{Slot: int8(k), Count: uint8(r.Intn(256))})
	}
	return e
}

func (r gen) moveEntity(e delta.Entity) delta.Entity {
	f := r.entity(int(e.ID))
	if r.chance(0.7) {
		e.Pos = f.Pos
	}
	if r.chance(0.3) {
		e.Yaw = f.Yaw
	}
	if r.chance(0.1) {
		e.Alive, e.Kind, e.Name = f.Alive, f.Kind, f.Name
	}
	if r.chance(0.3) {
		e.Items = evolve(r, e.Items, 4, func(i *delta.Item) int { return int(i.Slot) }, -128, 127, 0.5,
			func(i delta.Item) delta.Item { i.Count++; return i },
			func(k int) delta.Item { return delta.Item{Slot: int8(k), Count: uint8(r.Intn(256))} })
	}
	return e
}

func (r gen) world() *delta.World {
	w := &delta.World{Tick: r.Uint32()}
	for _, id := range r.keys(r.Intn(12), 0, 40) {
		w.Entities = append(w.Entities, r.entity(id))
	}
	return w
}

func (r gen) advance(w delta.World) *delta.World {
	if r.chance(0.9) {
		w.Tick++
	}
	w.Entities = evolve(r, w.Entities, 64, func(e *delta.Entity) int { return int(e.ID) }, 0, 40, 0.4,
		r.moveEntity, r.entity)
	return &w
}

func (r gen) keysMessage() *delta.Keys {
	k := &delta.Keys{}
	for _, t := range r.keys(r.Intn(3), 1, 2) {
		k.ByTeam = append(k.ByTeam, delta.Tagged{Team: delta.Team(t), Score: uint16(r.Intn(65536))})
	}
	for _, s := range r.keys(r.Intn(8), -100, 100) {
		k.BySigned = append(k.BySigned, delta.Signed{K: int8(s), V: uint8(r.Intn(16))})
	}
	return k
}

func (r gen) rekey(k delta.Keys) *delta.Keys {
	k.ByTeam = evolve(r, k.ByTeam, 3, func(t *delta.Tagged) int { return int(t.Team) }, 1, 2, 0.5,
		func(t delta.Tagged) delta.Tagged { t.Score += 3; return t },
		func(t int) delta.Tagged { return delta.Tagged{Team: delta.Team(t), Score: uint16(r.Intn(65536))} })
	k.BySigned = evolve(r, k.BySigned, math.MaxInt32, func(s *delta.Signed) int { return int(s.K) }, -100, 100, 0.5,
		func(s delta.Signed) delta.Signed { s.V = (s.V + 1) & 15; return s },
		func(k int) delta.Signed { return delta.Signed{K: int8(k), V: uint8(r.Intn(16))} })
	return &k
}

// deltaPair returns a random (baseline, current) pair of the delta.bw message typ.
func deltaPair(r gen, typ string) (harness.Value, harness.Value) {
	switch typ {
	case "Scalars":
		b := r.scalars()
		return b, r.nudge(*b, r.float(0, 1))
	case "Composite":
		b := r.composite()
		return b, r.alter(*b, r.float(0, 1))
	case "World":
		b := r.world()
		return b, r.advance(*b)
	case "Keys":
		b := r.keysMessage()
		return b, r.rekey(*b)
	}
	panic("no generator for " + typ)
}

// snapshot returns a deltaworld snapshot of n entities, and the next tick's: a few
// entities moving (most idle), one removed and one added now and then.
func snapshot(r gen, n int) (*deltaworld.Snapshot, *deltaworld.Snapshot) {
	base := &deltaworld.Snapshot{Tick: 1000}
	for _, id := range r.keys(n, 0, 4095) {
		base.Entities = append(base.Entities, deltaworld.Entity{
			ID: uint16(id), Pos: deltaworld.Vec2{X: float32(r.float(-1000, 1000)), Y: float32(r.float(-1000, 1000))},
			Yaw: float32(r.float(0, 360)), Health: 100, Team: deltaworld.Team(r.Intn(4)), OnGround: true,
			Name: r.str(12),
		})
	}
	cur := &deltaworld.Snapshot{Tick: 1001, Entities: make([]deltaworld.Entity, len(base.Entities))}
	copy(cur.Entities, base.Entities)
	for i := range cur.Entities {
		if r.chance(0.2) {
			e := &cur.Entities[i]
			e.VelX, e.VelY = 2.5, -1.25
			e.Pos.X += 2.5 / 60
			e.Pos.Y -= 1.25 / 60
		}
	}
	return base, cur
}
