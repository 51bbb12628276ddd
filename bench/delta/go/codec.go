package main

import (
	"bytes"
	"fmt"
	"sort"
	"time"
)

// message is what the timing needs of a generated delta message (docs/go.md): *T with
// its full and delta codecs.
type message[T any] interface {
	*T
	AppendTo(dst []byte) ([]byte, error)
	Decode(b []byte) error
	AppendDelta(dst []byte, baseline *T) ([]byte, error)
	DecodeDelta(baseline *T, b []byte) error
}

// timing is one row of a raw file's `timings` (src/raw.rs).
type timing struct {
	Scenario string  `json:"scenario"`
	Codec    string  `json:"codec"`
	EncodeNs float64 `json:"encode_ns"`
	DecodeNs float64 `json:"decode_ns"`
	Rounds   int     `json:"rounds"`
	Note     string  `json:"note"`
}

// pair is a delta's tick and its baseline's.
type pair struct{ t, b int }

func pairs(ticks, age int) []pair {
	out := make([]pair, 0, max(ticks-1, 0))
	for t := 1; t < ticks; t++ {
		out = append(out, pair{t, max(t-age, 0)})
	}
	return out
}

// decodeAll decodes every full encoding of s with the generated decoder and checks
// that the generated encoder writes it back byte for byte.
func decodeAll[T any, P message[T]](s scenarioBytes) ([]T, error) {
	values := make([]T, len(s.full))
	var buf []byte
	for i, b := range s.full {
		if err := P(&values[i]).Decode(b); err != nil {
			return nil, fmt.Errorf("%s tick %d: Decode: %w", s.name, i, err)
		}
		var err error
		if buf, err = P(&values[i]).AppendTo(buf[:0]); err != nil {
			return nil, fmt.Errorf("%s tick %d: AppendTo: %w", s.name, i, err)
		}
		if !bytes.Equal(buf, b) {
			return nil, fmt.Errorf("%s tick %d: the decoded tick encodes to other bytes", s.name, i)
		}
	}
	return values, nil
}

// checkDeltas checks that AppendDelta writes the reference codec's bytes for every tick
// at baseline age `age`, and that DecodeDelta of those bytes against the baseline gives
// the tick (what its full encoding decodes to: the same full bytes again).
func checkDeltas[T any, P message[T]](s scenarioBytes, values []T, age int, want [][]byte) error {
	var buf, full []byte
	for i, p := range pairs(len(values), age) {
		var err error
		if buf, err = P(&values[p.t]).AppendDelta(buf[:0], &values[p.b]); err != nil {
			return fmt.Errorf("%s tick %d, age %d: AppendDelta: %w", s.name, p.t, age, err)
		}
		if !bytes.Equal(buf, want[i]) {
			return fmt.Errorf("%s tick %d, age %d: AppendDelta wrote %d bytes that differ from the reference codec's %d",
				s.name, p.t, age, len(buf), len(want[i]))
		}
		var got T
		if err := P(&got).DecodeDelta(&values[p.b], want[i]); err != nil {
			return fmt.Errorf("%s tick %d, age %d: DecodeDelta: %w", s.name, p.t, age, err)
		}
		if full, err = P(&got).AppendTo(full[:0]); err != nil {
			return fmt.Errorf("%s tick %d, age %d: AppendTo of the decoded delta: %w", s.name, p.t, age, err)
		}
		if !bytes.Equal(full, s.full[p.t]) {
			return fmt.Errorf("%s tick %d, age %d: the delta decodes to another value than the tick", s.name, p.t, age)
		}
	}
	return nil
}

// pass is one timed figure: encode and decode run once over every tick they cover.
type pass struct {
	codec          string
	ticks          int
	note           string
	encode, decode func() error
}

// check decodes s (decodeAll), checks its deltas at every age (checkDeltas) and returns
// the passes to time: the full codec, then the delta codec at each age.
func check[T any, P message[T]](s scenarioBytes, ages []int, codecs []string) ([]pass, error) {
	values, err := decodeAll[T, P](s)
	if err != nil {
		return nil, err
	}
	for a, age := range ages {
		if err := checkDeltas[T, P](s, values, age, s.deltas[a]); err != nil {
			return nil, err
		}
	}
	buf := make([]byte, 0, 1<<16)
	var into T
	out := []pass{{
		codec: "bitwire",
		ticks: len(values),
		note:  "full snapshot: AppendTo into a reused buffer; Decode into a reused value",
		encode: func() (err error) {
			for i := range values {
				if buf, err = P(&values[i]).AppendTo(buf[:0]); err != nil {
					return err
				}
			}
			return nil
		},
		decode: func() error {
			for _, b := range s.full {
				if err := P(&into).Decode(b); err != nil {
					return err
				}
			}
			return nil
		},
	}}
	for a, age := range ages {
		ps := pairs(len(values), age)
		deltas := s.deltas[a]
		out = append(out, pass{
			codec: codecs[a],
			ticks: len(ps),
			note: fmt.Sprintf("delta against the tick %d older (ticks 1..): AppendDelta into a reused buffer; "+
				"DecodeDelta into a reused value against the decoded baseline (unchanged elements copied from it)", age),
			encode: func() (err error) {
				for _, p := range ps {
					if buf, err = P(&values[p.t]).AppendDelta(buf[:0], &values[p.b]); err != nil {
						return err
					}
				}
				return nil
			},
			decode: func() error {
				for i, p := range ps {
					if err := P(&into).DecodeDelta(&values[p.b], deltas[i]); err != nil {
						return err
					}
				}
				return nil
			},
		})
	}
	return out, nil
}

// measure checks s ([check]) and times its passes: median ns per tick over `rounds`
// passes.
func measure[T any, P message[T]](s scenarioBytes, ages []int, codecs []string, rounds int) ([]timing, error) {
	passes, err := check[T, P](s, ages, codecs)
	if err != nil {
		return nil, err
	}
	var failed error
	timed := func(f func() error) func() {
		return func() {
			if err := f(); err != nil && failed == nil {
				failed = err
			}
		}
	}
	out := make([]timing, 0, len(passes))
	for _, p := range passes {
		out = append(out, timing{
			Scenario: s.name,
			Codec:    p.codec,
			EncodeNs: perTick(rounds, p.ticks, timed(p.encode)),
			DecodeNs: perTick(rounds, p.ticks, timed(p.decode)),
			Rounds:   rounds,
			Note:     p.note,
		})
	}
	if failed != nil {
		return nil, fmt.Errorf("%s: while timing: %w", s.name, failed)
	}
	return out, nil
}

// perTick is the median over `rounds` runs of pass (one pass over `ticks` ticks), in ns
// per tick, after one untimed pass.
func perTick(rounds, ticks int, pass func()) float64 {
	pass()
	ns := make([]float64, max(rounds, 1))
	for i := range ns {
		start := time.Now()
		pass()
		ns[i] = float64(time.Since(start).Nanoseconds()) / float64(max(ticks, 1))
	}
	return median(ns)
}

// median of xs (sorted in place): the middle value, or the mean of the two middle ones.
func median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
