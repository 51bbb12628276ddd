package bitwire

import (
	"math"
	"testing"
)

func TestBudgetGrowsWithTheInputAndSaturates(t *testing.T) {
	if got := DefaultLimits().Budget(0); got != 1<<20 {
		t.Fatal(got)
	}
	if got := DefaultLimits().Budget(1000); got != 1<<20+64000 {
		t.Fatal(got)
	}
	if got := (Limits{Base: 10}).Budget(math.MaxInt); got != 10 {
		t.Fatal(got)
	}
	if got := (Limits{Base: math.MaxUint64, PerInputByte: 2}).Budget(5); got != math.MaxUint64 {
		t.Fatal(got)
	}
	if got := (Limits{PerInputByte: math.MaxUint64}).Budget(2); got != math.MaxUint64 {
		t.Fatal(got)
	}
	if charge(0, 100) != 0 || charge(3, 100) != 332 || charge(math.MaxUint64, 2) != math.MaxUint64 {
		t.Fatal("charge")
	}
	if r := NewBitReader(make([]byte, 16)); r.BudgetLeft() != 1<<20+64*16 {
		t.Fatal(r.BudgetLeft())
	}
}

func TestLengthsAreChargedAgainstTheBudget(t *testing.T) {
	// 16 input bytes and a fixed budget of 200 bytes.
	r := NewBitReaderWithLimits(make([]byte, 16), Limits{Base: 200})
	if n, err := r.CheckLen(4, 1, 40, 0); n != 4 || err != nil {
		t.Fatal(n, err)
	}
	if r.BudgetLeft() != 8 {
		t.Fatal(r.BudgetLeft())
	}
	// An empty sequence costs nothing.
	if n, err := r.CheckLen(0, 1, 1000, 0); n != 0 || err != nil || r.BudgetLeft() != 8 {
		t.Fatal(n, err)
	}
	_, err := r.CheckLen(1, 1, 1, 7)
	wantErr(t, err, LimitExceeded, 7)
	if d := err.(*Error).Detail; d != (Budget{33, 8}) {
		t.Fatalf("detail %v", d)
	}
	// Truncated comes first: the input is checked before the budget.
	_, err = r.CheckLen(1000, 1, 1, 0)
	wantErr(t, err, Truncated, 0)
	// A charge that overflows saturates and is over any budget.
	r = NewBitReaderWithLimits(make([]byte, 16), Limits{Base: math.MaxUint64 - 1})
	_, err = r.CheckLen(100, 1, math.MaxUint64/64, 0)
	wantErr(t, err, LimitExceeded, 0)
}
