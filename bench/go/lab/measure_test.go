package lab

import (
	"testing"
	"time"
)

var keep [][]byte

// Run reports a figure for each direction a case has, and counts allocations both
// ways (testing.AllocsPerRun, or in the last round for slow passes).
func TestRunCountsAllocs(t *testing.T) {
	alloc := func() { keep = append(keep[:0], make([]byte, 64)) }
	slow := func() { // a pass slower than the target, timed once per round
		for t0 := time.Now(); time.Since(t0) < 2*time.Millisecond; {
		}
		alloc()
	}
	for _, plan := range []Plan{
		{Rounds: 3, Target: time.Millisecond, AllocRuns: 2},
		{Rounds: 3, Target: time.Millisecond, AllocsInRound: true},
	} {
		cases := []*Case{{Library: "a", Messages: 1, Encode: alloc, Decode: slow}, {Library: "b", Messages: 1, Decode: alloc}}
		ts := Run(cases, plan)
		if ts[0].EncodeNs == nil || ts[0].DecodeNs == nil || ts[1].EncodeNs != nil || ts[1].DecodeNs == nil {
			t.Fatalf("%+v: figures %+v", plan, ts)
		}
		for _, a := range []*float64{ts[0].EncodeAllocs, ts[0].DecodeAllocs, ts[1].DecodeAllocs} {
			if a == nil || *a < 1 || *a > 1.1 { // the round count may catch a stray runtime allocation
				t.Fatalf("%+v: allocations per pass %v, want 1 (up to 1.1)", plan, fmtAllocs(a))
			}
		}
	}
}

func fmtAllocs(a *float64) any {
	if a == nil {
		return nil
	}
	return *a
}
