package bitwire

// Keyed lists in the delta encoding (spec §12.5): the events of the elements of the
// baseline (gaps of unchanged elements, changed and removed elements), then the
// added elements, merged by key on decoding. Generated code describes each keyed
// list of a delta message with a [Keyed] value and calls its methods.

// Key is the Go type of a keyed list's key field (§12.1): an integer type or an
// enum, ordered by value.
type Key interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Keyed describes the elements of one keyed list to the delta codecs: generated
// code declares one per keyed list of a delta message, with its element type's
// methods and the list's bounds from the codec plan.
type Keyed[T any, K Key] struct {
	// Key returns an element's key.
	Key func(*T) K
	// Equal reports whether two elements have the same full encoding (§12.2).
	Equal func(a, b *T) bool
	// WriteDelta writes the struct row of a changed element v against base,
	// without the key field (§12.5).
	WriteDelta func(v *T, w *BitWriter, base *T) error
	// Write writes an added element's full encoding.
	Write func(v *T, w *BitWriter) error
	// ReadDelta sets v to base with the struct row at r applied; a row with no
	// changed bit is NonCanonical.
	ReadDelta func(v *T, r *BitReader, base *T) error
	// Read sets v to the full encoding at r.
	Read func(v *T, r *BitReader) error
	// Copy sets dst to a deep copy of src, sharing no memory with src.
	Copy func(dst, src *T)
	// Max is the list's bound, when HasMax.
	Max    uint64
	HasMax bool
	// MinBits is the fewest bits of an element's full encoding, PerElem its decode
	// budget charge (§11.5, §12.8).
	MinBits, PerElem uint64
}

// keyInt returns a key as an Int, for error details.
func keyInt[K Key](k K) Int {
	var zero K
	if ^zero < zero {
		return IntOf(int64(k))
	}
	return UintOf(uint64(k))
}

// keyError returns InvalidKey at bit with a KeyOrder detail.
//
//go:noinline
func keyError(bit uint64, d KeyOrder) error {
	return detailed(InvalidKey, bit, d)
}

// CheckOrder returns InvalidKey at bit, with an empty path (the caller adds the
// list's), unless the keys of list are strictly ascending (§12.1).
func (d *Keyed[T, K]) CheckOrder(list []T, bit uint64) error {
	for i := 1; i < len(list); i++ {
		if k, prev := d.Key(&list[i]), d.Key(&list[i-1]); k <= prev {
			return keyError(bit, KeyOrder{Key: keyInt(k), Prev: keyInt(prev)})
		}
	}
	return nil
}

// EqualList reports whether two lists have the same full encoding: the same length
// and equal elements (§12.2).
func (d *Keyed[T, K]) EqualList(a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !d.Equal(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// CopyList returns dst (its capacity reused) set to a deep copy of src, sharing no
// memory with src.
func (d *Keyed[T, K]) CopyList(dst, src []T) []T {
	dst = Resize(dst, len(src))
	for i := range src {
		d.Copy(&dst[i], &src[i])
	}
	return dst
}

// WriteList writes the keyed list delta of cur against base (§12.5), which differ.
// A cur longer than the bound is InvalidLength, keys that are not strictly
// ascending InvalidKey (base first, then cur); errors inside a changed element
// carry its index in base, inside an added element its index among the added ones.
// Errors carry the writer's position as their bit (encoder errors have none in the
// contract, §12.7).
func (d *Keyed[T, K]) WriteList(w *BitWriter, cur, base []T) error {
	if d.HasMax && uint64(len(cur)) > d.Max {
		return LengthError(w.BitPos(), uint64(len(cur)), d.Max)
	}
	if err := d.CheckOrder(base, w.BitPos()); err != nil {
		return err
	}
	if err := d.CheckOrder(cur, w.BitPos()); err != nil {
		return err
	}
	q, kept := 0, 0
	gap := uint64(0)
	for p := range base {
		kb := d.Key(&base[p])
		for q < len(cur) && d.Key(&cur[q]) < kb {
			q++
		}
		if q < len(cur) && d.Key(&cur[q]) == kb {
			kept++
			if d.Equal(&cur[q], &base[p]) {
				gap++
				q++
				continue
			}
			w.WriteExpGolomb(gap)
			gap = 0
			w.WriteBits(0, 1)
			if err := d.WriteDelta(&cur[q], w, &base[p]); err != nil {
				return AtIndex(err, p)
			}
			q++
			continue
		}
		w.WriteExpGolomb(gap)
		gap = 0
		w.WriteBits(1, 1)
	}
	if gap > 0 {
		w.WriteExpGolomb(gap)
	}
	w.WriteExpGolomb(uint64(len(cur) - kept))
	p, added := 0, 0
	for q := range cur {
		k := d.Key(&cur[q])
		for p < len(base) && d.Key(&base[p]) < k {
			p++
		}
		if p < len(base) && d.Key(&base[p]) == k {
			continue
		}
		if err := d.Write(&cur[q], w); err != nil {
			return AtIndex(err, added)
		}
		added++
	}
	return nil
}

// ReadList decodes a keyed list delta (§12.5) against base into dst, reusing its
// capacity, and returns it. The decoded list is the kept elements of base (copied,
// or with their changes applied) and the added ones, merged by key. On error the
// returned list holds a partly decoded value. A base whose keys are not strictly
// ascending is InvalidKey at bit 0.
//
// Every element of dst's backing array owns the memory its slices point to
// (elements move by swapping, never by copying), so decoding into the same value
// again can reuse every element's capacity. dst must share no memory with base.
func (d *Keyed[T, K]) ReadList(r *BitReader, dst, base []T) ([]T, error) {
	// The baseline must be ascending too: InvalidKey at bit 0 (§12.7).
	if err := d.CheckOrder(base, 0); err != nil {
		return dst, err
	}
	dst = Resize(dst, len(base))
	kept, p := 0, 0
	events := false
	for p < len(base) {
		g, err := r.ReadGap(len(base) - p)
		if err != nil {
			return dst, err
		}
		for end := p + g; p < end; p++ {
			d.Copy(&dst[kept], &base[p])
			kept++
		}
		if p == len(base) {
			break
		}
		events = true
		removed, err := r.ReadBool()
		if err != nil {
			return dst, AtIndex(err, p)
		}
		if !removed {
			if err := d.ReadDelta(&dst[kept], r, &base[p]); err != nil {
				return dst, AtIndex(err, p)
			}
			kept++
		}
		p++
	}
	a, err := r.ReadAdded(kept, d.Max, d.HasMax, d.MinBits, d.PerElem)
	if err != nil {
		return dst, err
	}
	if !events && a == 0 {
		return dst, UnchangedError(r.pos, "keyed list")
	}
	return d.readAdded(r, dst, base, kept, a)
}

// readAdded decodes the a added elements of a keyed list delta into dst, whose
// first kept elements are the kept ones, and merges the two by key: the kept run
// is rotated to the end, then each added element is decoded into the first free
// slot and swapped into place after the kept elements with smaller keys.
func (d *Keyed[T, K]) readAdded(r *BitReader, dst, base []T, kept, a int) ([]T, error) {
	n := kept + a
	if cap(dst) < n {
		grown := make([]T, n)
		copy(grown, dst[:kept])
		dst = grown
	} else {
		dst = dst[:n]
	}
	reverse(dst[:kept])
	reverse(dst[kept:])
	reverse(dst)
	// Invariants: dst[:w] is final; the kept elements not yet placed are at
	// dst[a+j:]; the slots between are free (each owning its own memory).
	var prev K
	b, j, w := 0, 0, 0
	for i := 0; i < a; i++ {
		start := r.pos
		if err := d.Read(&dst[w], r); err != nil {
			return dst, AtIndex(err, i)
		}
		key := d.Key(&dst[w])
		if i > 0 && key <= prev {
			return dst, AtIndex(keyError(start, KeyOrder{Key: keyInt(key), Prev: keyInt(prev)}), i)
		}
		for b < len(base) && d.Key(&base[b]) < key {
			b++
		}
		if b < len(base) && d.Key(&base[b]) == key {
			return dst, AtIndex(keyError(start, KeyOrder{Key: keyInt(key), InBaseline: true}), i)
		}
		prev = key
		// Kept elements with smaller keys go first; the new element (at at) moves
		// out of their way.
		at := w
		for j < kept && d.Key(&dst[a+j]) < key {
			if at == w {
				at = a + j
			}
			dst[w], dst[a+j] = dst[a+j], dst[w]
			j++
			w++
		}
		dst[w], dst[at] = dst[at], dst[w]
		w++
	}
	return dst, nil
}

// reverse reverses s in place by swapping.
func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// EqualSlices reports whether a and b have the same length and eq holds for every
// pair of elements: the wire equality of two lists or arrays (§12.2).
func EqualSlices[T any](a, b []T, eq func(x, y *T) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !eq(&a[i], &b[i]) {
			return false
		}
	}
	return true
}
