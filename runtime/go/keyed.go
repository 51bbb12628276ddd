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
// methods and the list's bounds from the codec plan. The generated code reads and
// writes the list itself, calling the element types' methods directly, so that the
// writer and reader stay on the stack: the helpers here walk the lists and never
// touch them.
type Keyed[T any, K Key] struct {
	// Key returns an element's key.
	Key func(*T) K
	// Equal reports whether two elements have the same full encoding (§12.2).
	Equal func(a, b *T) bool
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

// Events walks the keyed list delta of cur against base (§12.5) for an encoder:
// the events over base (its Next), then the added elements of cur (its NextAdded).
// Both lists must be strictly ascending by key (CheckOrder).
func (d *Keyed[T, K]) Events(cur, base []T) KeyedEvents[T, K] {
	return KeyedEvents[T, K]{d: d, cur: cur, base: base}
}

// KeyedEvents is the walk of [Keyed.Events]. After Next returns true, Gap is the
// number of unchanged elements before the event, Base the event's index in base,
// and either Removed is true or Cur is the changed element's index in cur. After
// Next returns false, Gap is the number of unchanged elements at the end of base
// (written when not 0) and Kept the number of elements kept. After NextAdded returns
// true, Cur is the index in cur of the next added element and Added its index among
// the added ones.
type KeyedEvents[T any, K Key] struct {
	d         *Keyed[T, K]
	cur, base []T
	p, q      int
	Gap       uint64
	Base, Cur int
	Removed   bool
	Kept      int
	Added     int
	added     bool
	b         int
}

// Next advances to the next changed or removed element of base.
func (e *KeyedEvents[T, K]) Next() bool {
	e.Gap = 0
	for e.p < len(e.base) {
		p := e.p
		e.p++
		kb := e.d.Key(&e.base[p])
		for e.q < len(e.cur) && e.d.Key(&e.cur[e.q]) < kb {
			e.q++
		}
		if e.q < len(e.cur) && e.d.Key(&e.cur[e.q]) == kb {
			e.Kept++
			q := e.q
			e.q++
			if e.d.Equal(&e.cur[q], &e.base[p]) {
				e.Gap++
				continue
			}
			e.Base, e.Cur, e.Removed = p, q, false
			return true
		}
		e.Base, e.Removed = p, true
		return true
	}
	return false
}

// NextAdded advances to the next element of cur whose key base does not have.
func (e *KeyedEvents[T, K]) NextAdded() bool {
	if e.added {
		e.Added++
	} else {
		e.added, e.q = true, 0
	}
	for ; e.q < len(e.cur); e.q++ {
		k := e.d.Key(&e.cur[e.q])
		for e.b < len(e.base) && e.d.Key(&e.base[e.b]) < k {
			e.b++
		}
		if e.b < len(e.base) && e.d.Key(&e.base[e.b]) == k {
			continue
		}
		e.Cur = e.q
		e.q++
		return true
	}
	return false
}

// Merge returns the merge of a decoded keyed list (§12.5): list holds the kept
// elements first (kept of them), and a elements are added. The list grows to
// kept + a (keeping its capacity when it has room), the kept run moves to its end,
// and each added element, decoded into Slot, is checked and swapped into place by
// Place. Elements move by swapping, never by copying, so every element of the
// backing array owns the memory its slices point to, and decoding into the same
// value again reuses every element's capacity.
func (d *Keyed[T, K]) Merge(list, base []T, kept, a int) KeyedMerge[T, K] {
	n := kept + a
	if cap(list) < n {
		grown := make([]T, n)
		copy(grown, list[:kept])
		list = grown
	} else {
		list = list[:n]
	}
	reverse(list[:kept])
	reverse(list[kept:])
	reverse(list)
	return KeyedMerge[T, K]{d: d, list: list, base: base, kept: kept, a: a}
}

// KeyedMerge is the merge of [Keyed.Merge]. Invariants: list[:w] is final; the
// kept elements not yet placed are list[a+j:]; the slots between are free.
type KeyedMerge[T any, K Key] struct {
	d          *Keyed[T, K]
	list, base []T
	kept, a    int
	i, j, w, b int
	prev       K
}

// Slot returns the free slot the next added element is decoded into.
func (m *KeyedMerge[T, K]) Slot() *T {
	return &m.list[m.w]
}

// Place checks the added element just decoded into Slot, which started at bit
// start: its key must be above the previous added key and not in the baseline, else
// InvalidKey at start (§12.5), with an empty path (the caller adds the element's
// index among the added ones). Then it moves the element to its place.
func (m *KeyedMerge[T, K]) Place(start uint64) error {
	list, a := m.list, m.a
	key := m.d.Key(&list[m.w])
	if m.i > 0 && key <= m.prev {
		return keyError(start, KeyOrder{Key: keyInt(key), Prev: keyInt(m.prev)})
	}
	for m.b < len(m.base) && m.d.Key(&m.base[m.b]) < key {
		m.b++
	}
	if m.b < len(m.base) && m.d.Key(&m.base[m.b]) == key {
		return keyError(start, KeyOrder{Key: keyInt(key), InBaseline: true})
	}
	m.prev = key
	// Kept elements with smaller keys go first; the new element (at at) moves out
	// of their way.
	at := m.w
	for m.j < m.kept && m.d.Key(&list[a+m.j]) < key {
		if at == m.w {
			at = a + m.j
		}
		list[m.w], list[a+m.j] = list[a+m.j], list[m.w]
		m.j++
		m.w++
	}
	list[m.w], list[at] = list[at], list[m.w]
	m.w++
	m.i++
	return nil
}

// List returns the list: merged once every added element was placed.
func (m *KeyedMerge[T, K]) List() []T {
	return m.list
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

// Unshare returns dst, or nil when dst and base share their backing array (a
// shallow copy of the baseline, `next := acked`): a delta decoder then decodes into
// a new array instead of overwriting the baseline it is still reading.
func Unshare[T any](dst, base []T) []T {
	if cap(dst) > 0 && cap(base) > 0 && &dst[:1][0] == &base[:1][0] {
		return nil
	}
	return dst
}
