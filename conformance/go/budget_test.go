package conformance

import (
	"errors"
	"runtime"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/gobudget"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The decode budget (spec §11) on adversarial inputs built from testdata/gobudget.bw:
// lists whose elements take one bit on the wire and 4104 bytes in memory. Before the
// budget, 8 KiB of such input made Decode allocate 260 MB.

// allocated returns the bytes the heap allocated while f ran (TotalAlloc counts each
// object at its size class, or in whole pages for large ones, as the allocator
// hands them out).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// leastAllocated is the least that `runs` calls of f allocated, for a pure f (a Verify)
// held to a tight bound: TotalAlloc counts the whole process, and the fuzzing engine's
// own goroutines allocate a few KiB now and then while f runs; an allocation of f's
// own repeats in every call.
func leastAllocated(f func(), runs int) uint64 {
	least := allocated(f)
	for i := 1; i < runs && least > 0; i++ {
		least = min(least, allocated(f))
	}
	return least
}

// slack covers what the model does not charge: the error value and its path, and
// the rounding of the one large allocation up to whole 8 KiB pages.
const slack = 64 << 10

// roundingBound is what Go may allocate for a budget of b bytes spread over many
// allocations: the allocator rounds each one up to its size class (at most 1/8
// above the request above 1 KiB) or, above 32 KiB, to whole 8 KiB pages (at most
// 1/4 above a 32 KiB request); the model charges contents plus 32 bytes.
func roundingBound(b uint64) uint64 { return b + b/4 + slack }

// listOfZeros is a list length L as a varu64 (spec §5.4), then L zero bits: L
// absent optionals, or L unit variants of tag 0.
func listOfZeros(w *bitwire.BitWriter, l uint64) {
	w.WriteVarint(l, 64)
	for ; l >= 64; l -= 64 {
		w.WriteBits(0, 64)
	}
	w.WriteBits(0, uint(l))
}

func zerosInput(l uint64) []byte {
	w := bitwire.NewBitWriter(nil)
	listOfZeros(&w, l)
	return w.Finish()
}

// elemCharge is what the plan charges an element of Absent.v: an optional
// [512]uint64 is a bool and 4096 bytes aligned to 8.
const elemCharge = 4104

// shapeCharge is what the plan charges an element of Shapes.v (`bitwire plan
// testdata/gobudget.bw`): a union's payload above 128 bytes is held out of line, so
// a Shape is its tag and a pointer (16 bytes) plus the payload's 4096 bytes and the
// 32 bytes of its allocation, whichever variant it holds.
const shapeCharge = 4144

// longestWithin returns the longest list of zeros whose charge, at charge bytes an
// element, the default budget for its own input allows.
func longestWithin(elemCharge uint64) uint64 {
	l := uint64(0)
	for {
		n := len(zerosInput(l + 1))
		if (l+1)*elemCharge+bitwire.AllocationOverhead > bitwire.DefaultLimits().Budget(n) {
			return l
		}
		l++
	}
}

type decoder interface {
	Decode(b []byte) error
}

// checkBounded decodes b into a fresh value of new(), checks the outcome (nil or
// LimitExceeded at bit 0 of v) and that Verify gives the same, and returns the
// bytes Decode allocated. Verify allocates at most the error.
func checkBounded(t *testing.T, name string, b []byte, newValue func() decoder, verify func([]byte) error, wantOver bool) uint64 {
	t.Helper()
	var err error
	alloc := allocated(func() { err = newValue().Decode(b) })
	if wantOver {
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != bitwire.LimitExceeded || e.Bit != 0 || e.Path != "v" {
			t.Fatalf("%s: got %v, want LimitExceeded at bit 0 in v", name, err)
		}
		if _, ok := e.Detail.(bitwire.Budget); !ok {
			t.Fatalf("%s: detail %#v", name, e.Detail)
		}
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var verr error
	valloc := leastAllocated(func() { verr = harness.CheckVerify(verify, b, err) }, 3)
	if verr != nil {
		t.Fatalf("%s: %v", name, verr)
	}
	if valloc > 4<<10 {
		t.Fatalf("%s: Verify allocated %d bytes", name, valloc)
	}
	budget := bitwire.DefaultLimits().Budget(len(b))
	t.Logf("%s: %d input bytes, budget %d, Decode allocated %d bytes", name, len(b), budget, alloc)
	if alloc > budget+slack {
		t.Fatalf("%s: allocated %d bytes, budget %d", name, alloc, budget)
	}
	return alloc
}

func TestDecodeBudgetBoundsAllocations(t *testing.T) {
	newAbsent := func() decoder { return new(gobudget.Absent) }
	newShapes := func() decoder { return new(gobudget.Shapes) }
	// 8 KiB of one-bit elements: 65,000 of them, 267 MB in memory.
	huge := zerosInput(8*8192 - 16)
	checkBounded(t, "Absent, 8 KiB", huge, newAbsent, gobudget.VerifyAbsent, true)
	checkBounded(t, "Shapes, 8 KiB", huge, newShapes, gobudget.VerifyShapes, true)
	// The longest list the budget allows decodes; one more element does not.
	la, ls := longestWithin(elemCharge), longestWithin(shapeCharge)
	for _, c := range []struct {
		name   string
		l      uint64
		over   bool
		newVal func() decoder
		verify func([]byte) error
	}{
		{"Absent, longest", la, false, newAbsent, gobudget.VerifyAbsent},
		{"Absent, one more", la + 1, true, newAbsent, gobudget.VerifyAbsent},
		{"Shapes, longest", ls, false, newShapes, gobudget.VerifyShapes},
		{"Shapes, one more", ls + 1, true, newShapes, gobudget.VerifyShapes},
	} {
		alloc := checkBounded(t, c.name, zerosInput(c.l), c.newVal, c.verify, c.over)
		if !c.over && alloc < c.l*4096 {
			t.Fatalf("%s: allocated %d bytes for %d elements", c.name, alloc, c.l)
		}
	}
}

// nestedInput is k inner lists of m absent elements each.
func nestedInput(k, m uint64) []byte {
	w := bitwire.NewBitWriter(nil)
	w.WriteVarint(k, 64)
	for i := uint64(0); i < k; i++ {
		listOfZeros(&w, m)
	}
	return w.Finish()
}

// TestNestedListsStayWithinTheBudget fills the budget with many inner lists, each
// an allocation of its own, of sizes the allocator rounds up the most (just above a
// size class, and just above 32 KiB).
func TestNestedListsStayWithinTheBudget(t *testing.T) {
	for _, m := range []uint64{1, 8, 100} {
		// The most inner lists of m elements the budget allows.
		var k uint64
		var b []byte
		for {
			next := nestedInput(k+1, m)
			charge := 32 + 24*(k+1) + (k+1)*(m*elemCharge+32)
			if charge > bitwire.DefaultLimits().Budget(len(next)) {
				break
			}
			k, b = k+1, next
		}
		var v gobudget.Nested
		var err error
		alloc := allocated(func() { err = v.Decode(b) })
		if err != nil || uint64(len(v.V)) != k {
			t.Fatalf("m %d: %d lists, %v", m, len(v.V), err)
		}
		budget := bitwire.DefaultLimits().Budget(len(b))
		t.Logf("%d lists of %d: budget %d, allocated %d (%.3f of the budget)", k, m, budget, alloc, float64(alloc)/float64(budget))
		if alloc > roundingBound(budget) {
			t.Fatalf("allocated %d bytes, budget %d", alloc, budget)
		}
		if err := harness.CheckVerify(gobudget.VerifyNested, b, nil); err != nil {
			t.Fatal(err)
		}
		// One more list is over the budget, at that list.
		over := nestedInput(k+1, m)
		err = new(gobudget.Nested).Decode(over)
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != bitwire.LimitExceeded {
			t.Fatalf("m %d: one more list gave %v", m, err)
		}
	}
}

// budgetCase is a vector-style case of the budget: a type, an input, the limits,
// and the error every bitwire decoder reports (spec §5.6, §11).
type budgetCase struct {
	id     string
	value  harness.Value
	verify func(r *bitwire.BitReader) error
	input  func(w *bitwire.BitWriter)
	limits bitwire.Limits
	want   harness.Expected
}

func at(bit uint64, path string) (*uint64, *string) { return &bit, &path }

func TestBudgetCases(t *testing.T) {
	fixed := func(n uint64) bitwire.Limits { return bitwire.Limits{Base: n} }
	expect := func(kind string, bit uint64, path string) harness.Expected {
		b, p := at(bit, path)
		return harness.Expected{Kind: kind, Bit: b, Path: p}
	}
	cases := []budgetCase{
		{"absent.one_within", new(gobudget.Absent), gobudget.VerifyAbsentPacked,
			func(w *bitwire.BitWriter) { listOfZeros(w, 1) }, fixed(4136), harness.Expected{}},
		{"absent.two_over", new(gobudget.Absent), gobudget.VerifyAbsentPacked,
			func(w *bitwire.BitWriter) { listOfZeros(w, 2) }, fixed(4136 + 4103), expect("LimitExceeded", 0, "v")},
		{"absent.empty_costs_nothing", new(gobudget.Absent), gobudget.VerifyAbsentPacked,
			func(w *bitwire.BitWriter) { listOfZeros(w, 0) }, fixed(0), harness.Expected{}},
		{"absent.truncated_before_budget", new(gobudget.Absent), gobudget.VerifyAbsentPacked,
			func(w *bitwire.BitWriter) { w.WriteVarint(1<<40, 64) }, fixed(0), expect("Truncated", 0, "v")},
		{"bounded.bound_before_input", new(gobudget.Bounded), gobudget.VerifyBoundedPacked,
			func(w *bitwire.BitWriter) { w.WriteBits(1001, 10) }, fixed(0), expect("InvalidLength", 0, "v")},
		{"nested.second_list_over", new(gobudget.Nested), gobudget.VerifyNestedPacked,
			func(w *bitwire.BitWriter) {
				w.WriteVarint(2, 64)
				listOfZeros(w, 1)
				listOfZeros(w, 1)
			}, fixed(32 + 48 + 4136), expect("LimitExceeded", 5+5+1, "v[1]")},
		{"blobs.string_over", new(gobudget.Blobs), gobudget.VerifyBlobsPacked,
			func(w *bitwire.BitWriter) {
				w.WriteVarint(1, 64)
				w.WriteVarint(3, 64)
				w.WriteString("abc")
				w.WriteVarint(0, 64)
			}, fixed(32 + 24 + 34), expect("LimitExceeded", 5, "s[0]")},
		{"blobs.within", new(gobudget.Blobs), gobudget.VerifyBlobsPacked,
			func(w *bitwire.BitWriter) {
				w.WriteVarint(1, 64)
				w.WriteVarint(3, 64)
				w.WriteString("abc")
				w.WriteVarint(1, 64)
				w.WriteVarint(2, 64)
				w.WriteBytes([]byte{1, 2})
			}, fixed(56 + 35 + 56 + 34), harness.Expected{}},
	}
	for _, c := range cases {
		w := bitwire.NewBitWriter(nil)
		c.input(&w)
		b := w.Finish()
		err := c.value.(interface {
			DecodeWithLimits([]byte, bitwire.Limits) error
		}).DecodeWithLimits(b, c.limits)
		r := bitwire.NewBitReaderWithLimits(b, c.limits)
		verr := c.verify(&r)
		if verr == nil {
			verr = r.Finish()
		}
		if c.want.Kind == "" {
			if err != nil || verr != nil {
				t.Errorf("%s: decode %v, verify %v", c.id, err, verr)
			}
			continue
		}
		if e := harness.CheckError(err, c.want); e != nil {
			t.Errorf("%s: decode: %v", c.id, e)
		}
		if e := harness.CheckError(verr, c.want); e != nil {
			t.Errorf("%s: verify: %v", c.id, e)
		}
	}
}
