// Package lab is the Go side of the benchmark lab (bench/README.md): the peer
// libraries' codecs for every dataset, checked against the corpus before they are
// timed, the timing itself, and the raw result records cmd/lab writes.
package lab

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"testing"
	"time"
)

// Sink keeps results alive so that the compiler cannot drop a timed loop.
var Sink uint64

// Case is one library on one dataset (or pod block): a pass encodes or decodes
// every message once.
type Case struct {
	Dataset  string
	Variant  string
	Library  string
	Note     string
	Messages int
	// Bytes is the total encoded size of the messages.
	Bytes int
	// Encode and Decode run one pass; nil when the library cannot do it here.
	Encode func()
	Decode func()
}

// Record is one entry of the raw result file's "records" (bench/README.md).
type Record struct {
	Dataset      string   `json:"dataset"`
	Variant      string   `json:"variant"`
	Library      string   `json:"library"`
	Messages     int      `json:"messages"`
	Bytes        int      `json:"bytes"`
	EncodeNs     *float64 `json:"encode_ns"`
	DecodeNs     *float64 `json:"decode_ns"`
	EncodeAllocs *float64 `json:"encode_allocs"`
	DecodeAllocs *float64 `json:"decode_allocs"`
	Note         string   `json:"note,omitempty"`
}

// Scaling is one entry of the raw result file's "scaling".
type Scaling struct {
	Library   string   `json:"library"`
	Packets   int      `json:"packets"`
	EncodePps *float64 `json:"encode_pps"`
	DecodePps *float64 `json:"decode_pps"`
}

// Plan says how long to time: Rounds interleaved rounds, each running a pass
// repeatedly for about Target (at least once).
type Plan struct {
	Rounds int
	Target time.Duration
	// AllocRuns is the number of passes testing.AllocsPerRun averages over (it
	// runs one more first); 0 skips allocation counting.
	AllocRuns int
	// AllocsInRound counts allocations in the timed rounds instead (the same
	// counter, runtime.MemStats.Mallocs, that testing.AllocsPerRun reads) and
	// keeps the fewest per pass, which drops a stray allocation of the runtime's
	// own; for passes too slow to run twice more.
	AllocsInRound bool
}

// Progress lines go to stderr.
func Progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[go] "+format+"\n", args...)
}

// job is one pass function being timed.
type job struct {
	pass    func()
	reps    int
	samples []float64 // ns per pass
	allocs  float64   // per pass, the fewest of the rounds that counted them
	counted bool
}

// calibrate times one pass (after the caller's untimed check pass) and picks how
// many passes make a round of about target. A pass that alone takes target or
// longer is timed once per round, and this first pass counts as a round.
func (j *job) calibrate(target time.Duration) {
	t0 := time.Now()
	j.pass()
	d := time.Since(t0)
	j.reps = 1
	switch {
	case d >= target:
		j.samples = append(j.samples, float64(d.Nanoseconds()))
	case d > 0:
		j.reps = int(target / d)
	default:
		j.reps = 1000
	}
}

func (j *job) round(countAllocs bool) {
	var before runtime.MemStats
	if countAllocs {
		runtime.ReadMemStats(&before)
	}
	t0 := time.Now()
	for i := 0; i < j.reps; i++ {
		j.pass()
	}
	ns := float64(time.Since(t0).Nanoseconds()) / float64(j.reps)
	if countAllocs {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if a := float64(after.Mallocs-before.Mallocs) / float64(j.reps); !j.counted || a < j.allocs {
			j.allocs, j.counted = a, true
		}
	}
	// Appended after the count: growing samples allocates.
	j.samples = append(j.samples, ns)
}

// Median returns the median of xs (which it sorts).
func Median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Timing is what Run measured for one case: median ns per pass and allocations per
// pass, nil where the case has no such direction (or allocations were not counted).
type Timing struct {
	EncodeNs, DecodeNs         *float64
	EncodeAllocs, DecodeAllocs *float64
}

// Run times the cases' passes in interleaved rounds (every case's encode and decode
// once per round, so that noise from other processes and frequency changes hit
// all alike) and returns median ns per pass and allocations per pass, per case.
func Run(cases []*Case, plan Plan) []Timing {
	out := make([]Timing, len(cases))
	var jobs []*job
	type dest struct{ ns, allocs **float64 }
	dests := make([]dest, 0, 2*len(cases))
	for i, c := range cases {
		for _, d := range []struct {
			pass func()
			dest
		}{{c.Encode, dest{&out[i].EncodeNs, &out[i].EncodeAllocs}}, {c.Decode, dest{&out[i].DecodeNs, &out[i].DecodeAllocs}}} {
			if d.pass == nil {
				continue
			}
			j := &job{pass: d.pass}
			j.calibrate(plan.Target)
			jobs = append(jobs, j)
			dests = append(dests, d.dest)
		}
	}
	for r := 0; r < plan.Rounds; r++ {
		for _, j := range jobs {
			// A job whose calibration pass was its first sample is done a round
			// early.
			if len(j.samples) < plan.Rounds {
				j.round(plan.AllocsInRound)
			}
		}
	}
	for k, j := range jobs {
		m := Median(j.samples)
		*dests[k].ns = &m
		if plan.AllocsInRound {
			a := j.allocs
			*dests[k].allocs = &a
		}
	}
	if plan.AllocRuns > 0 {
		for i, c := range cases {
			if c.Encode != nil {
				a := testing.AllocsPerRun(plan.AllocRuns, c.Encode)
				out[i].EncodeAllocs = &a
			}
			if c.Decode != nil {
				a := testing.AllocsPerRun(plan.AllocRuns, c.Decode)
				out[i].DecodeAllocs = &a
			}
		}
	}
	return out
}

// perMessage divides a per-pass figure by the messages of a pass.
func perMessage(v *float64, messages int) *float64 {
	if v == nil {
		return nil
	}
	x := *v / float64(messages)
	return &x
}

// Record returns the raw result record of c with the timing t.
func (c *Case) Record(t Timing) Record {
	return Record{
		Dataset:      c.Dataset,
		Variant:      c.Variant,
		Library:      c.Library,
		Messages:     c.Messages,
		Bytes:        c.Bytes,
		EncodeNs:     perMessage(t.EncodeNs, c.Messages),
		DecodeNs:     perMessage(t.DecodeNs, c.Messages),
		EncodeAllocs: perMessage(t.EncodeAllocs, c.Messages),
		DecodeAllocs: perMessage(t.DecodeAllocs, c.Messages),
		Note:         c.Note,
	}
}

// FormatNs formats an optional figure for progress lines.
func FormatNs(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *v)
}
