package bitwire

import (
	"errors"
	"math/rand"
	"sort"
	"testing"
)

// elem is a keyed list element with memory of its own, to check that merging
// never makes two elements share it.
type elem struct {
	key  int16
	val  uint8
	tags []uint8
}

var elems = Keyed[elem, int16]{
	Key:   func(e *elem) int16 { return e.key },
	Equal: func(a, b *elem) bool { return a.key == b.key && a.val == b.val },
	Copy:  func(dst, src *elem) { dst.key, dst.val = src.key, src.val },
}

func TestCheckOrderNeedsStrictlyAscendingKeys(t *testing.T) {
	if err := elems.CheckOrder([]elem{{key: -2}, {key: 3}}, 0); err != nil {
		t.Fatal(err)
	}
	err := elems.CheckOrder([]elem{{key: -2}, {key: 3}, {key: 3}}, 0)
	var e *Error
	if !errors.As(err, &e) || e.Kind != InvalidKey || e.Bit != 0 || e.Detail.String() != "key 3 is not above 3" {
		t.Fatalf("got %v", err)
	}
}

func TestEventsWalkChangedRemovedAndAdded(t *testing.T) {
	base := []elem{{key: 1}, {key: 2}, {key: 4, val: 1}, {key: 5}, {key: 7}, {key: 8}}
	cur := []elem{{key: 0}, {key: 1}, {key: 2}, {key: 4, val: 2}, {key: 6}, {key: 7}, {key: 8}, {key: 9}}
	ev := elems.Events(cur, base)
	type event struct {
		gap     uint64
		base    int
		removed bool
	}
	var got []event
	for ev.Next() {
		got = append(got, event{ev.Gap, ev.Base, ev.Removed})
	}
	// 1, 2 unchanged then 4 changed; 5 removed; 7, 8 unchanged at the end.
	want := []event{{2, 2, false}, {0, 3, true}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || ev.Gap != 2 || ev.Kept != 5 {
		t.Fatalf("events %v, trailing gap %d, kept %d", got, ev.Gap, ev.Kept)
	}
	var added []int
	for ev.NextAdded() {
		if ev.Added != len(added) {
			t.Fatalf("added index %d", ev.Added)
		}
		added = append(added, int(cur[ev.Cur].key))
	}
	if len(added) != 3 || added[0] != 0 || added[1] != 6 || added[2] != 9 {
		t.Fatalf("added %v", added)
	}
}

// merge decodes kept elements (the first kept of list) and adds the elements of add
// through a KeyedMerge, as generated code does.
func merge(list, base []elem, kept int, add []elem) ([]elem, error) {
	m := elems.Merge(list, base, kept, len(add))
	for i := range add {
		s := m.Slot()
		s.key, s.val, s.tags = add[i].key, add[i].val, append(s.tags[:0], add[i].tags...)
		if err := m.Place(uint64(100 + i)); err != nil {
			return m.List(), AtIndex(err, i)
		}
	}
	return m.List(), nil
}

func TestMergeByKeyKeepsEveryElementsMemoryItsOwn(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var list []elem
	for round := 0; round < 500; round++ {
		keys := rng.Perm(40)[:rng.Intn(20)]
		sort.Ints(keys)
		split := rng.Intn(len(keys) + 1)
		// Kept: a random subset; added: the rest (so no added key is in base).
		var kept, add []elem
		for i, k := range keys {
			e := elem{key: int16(k), val: uint8(k), tags: []uint8{uint8(k), uint8(round)}}
			if i < split || rng.Intn(2) == 0 {
				kept = append(kept, e)
			} else {
				add = append(add, e)
			}
		}
		base := append([]elem(nil), kept...)
		list = Resize(list, len(kept))
		for i := range kept {
			list[i].key, list[i].val = kept[i].key, kept[i].val
			list[i].tags = append(list[i].tags[:0], kept[i].tags...)
		}
		out, err := merge(list, base, len(kept), add)
		if err != nil {
			t.Fatal(err)
		}
		list = out
		if len(list) != len(kept)+len(add) {
			t.Fatalf("round %d: %d elements", round, len(list))
		}
		for i := range list {
			if i > 0 && list[i].key <= list[i-1].key {
				t.Fatalf("round %d: not merged by key: %v", round, list)
			}
			if list[i].tags[0] != uint8(list[i].key) || list[i].tags[1] != uint8(round) {
				t.Fatalf("round %d: element %d holds %v", round, list[i].key, list[i].tags)
			}
		}
		// No two elements of the backing array share memory.
		full := list[:cap(list)]
		seen := map[*uint8]bool{}
		for i := range full {
			if cap(full[i].tags) == 0 {
				continue
			}
			p := &full[i].tags[:1][0]
			if seen[p] {
				t.Fatalf("round %d: two elements share tags", round)
			}
			seen[p] = true
		}
	}
}

func TestMergeRejectsAddedKeysOutOfOrderOrInTheBaseline(t *testing.T) {
	base := []elem{{key: 1}, {key: 5}}
	list := []elem{{key: 1}, {key: 5}}
	_, err := merge(list, base, 2, []elem{{key: 3}, {key: 2}})
	var e *Error
	if !errors.As(err, &e) || e.Kind != InvalidKey || e.Bit != 101 || e.Path != "[1]" {
		t.Fatalf("out of order: %v", err)
	}
	// A removed element's key is still the baseline's.
	list = []elem{{key: 1}}
	_, err = merge(list, base, 1, []elem{{key: 5}})
	if !errors.As(err, &e) || e.Kind != InvalidKey || e.Bit != 100 || e.Path != "[0]" ||
		e.Detail.String() != "added key 5 is in the baseline" {
		t.Fatalf("in the baseline: %v", err)
	}
}
