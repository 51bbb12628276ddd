package baseline

// ring is what both ends keep: N slots, snapshot e in slot e mod N, where e is the
// sequence number unwrapped to 64 bits (the wire carries its low 16; serial-number
// arithmetic recovers the rest, docs/framing.md §10.2). Each slot remembers its e,
// so a lookup never returns another snapshot than the one asked for.
type ring[T any] struct {
	slots []slot[T]
}

type slot[T any] struct {
	ext   uint64
	used  bool
	value T
}

// newRing returns a ring of n slots; n must be in 1..=255.
func newRing[T any](n int) ring[T] {
	if n < 1 || n > 255 {
		panic("baseline: the ring size must be in 1..=255")
	}
	return ring[T]{slots: make([]slot[T], n)}
}

// size returns N.
func (r *ring[T]) size() int { return len(r.slots) }

// at returns the slot of snapshot ext.
func (r *ring[T]) at(ext uint64) *slot[T] {
	return &r.slots[ext%uint64(len(r.slots))]
}

// get returns snapshot ext if its slot still holds it, else nil.
func (r *ring[T]) get(ext uint64) *T {
	s := r.at(ext)
	if !s.used || s.ext != ext {
		return nil
	}
	return &s.value
}

// unwrapSeq unwraps the 16-bit seq against the 64-bit newest (whose low 16 bits are
// the newest sequence number): newest + d, d = seq - newest modulo 2^16 read as a
// signed 16-bit number; false when that would be below 0.
func unwrapSeq(newest uint64, seq uint16) (uint64, bool) {
	d := int64(int16(seq - uint16(newest)))
	if d < 0 && uint64(-d) > newest {
		return 0, false
	}
	return uint64(int64(newest) + d), true
}
