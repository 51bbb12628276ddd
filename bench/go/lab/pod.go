package lab

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/peers/fb"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/bench/go/pod"
)

// The pod dataset: one block of plain numbers per message (bench/schemas/pod.bw).

const (
	notePodBitwire = "generated code for bench/schemas/pod.bw: AppendTo into a reused buffer, Decode into a reused value"
	notePodHand    = "hand-written: the raw little-endian values, the block length being the frame's (binary.LittleEndian loop; append/copy for u8)"
	notePodFB      = "Builder reused with Reset, StartVector + Prepend per value (CreateByteVector for u8); decode = GetRootAs + read every value into a reused slice (no verifier)"
	notePodPB      = "packed repeated field (bytes for u8): MarshalOptions{}.MarshalAppend into a reused buffer; proto.Unmarshal into a reused message (allocates the values anew)"
)

// BlockLabel is the variant name of a pod block: "64KB", "1MB", "256MB".
func BlockLabel(n int) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dKB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// PodCases returns the libraries' cases for the first block bytes of the pod file
// p (data is its contents), each checked first.
func PodCases(p *corpus.Pod, data []byte, block int) ([]*Case, error) {
	var cases []*Case
	var err error
	switch p.Elem {
	case "u64":
		vals := make([]uint64, block/8)
		for i := range vals {
			vals[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		cases, err = podU64Cases(vals)
	case "u8":
		cases, err = podU8Cases(data[:block:block])
	case "f32":
		vals := make([]float32, block/4)
		for i := range vals {
			vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		cases, err = podF32Cases(vals)
	default:
		return nil, fmt.Errorf("pod %s: unknown element type %q", p.Name, p.Elem)
	}
	if err != nil {
		return nil, fmt.Errorf("pod %s %s: %w", p.Name, BlockLabel(block), err)
	}
	mc, err := podMemcpy(data[:block:block])
	if err != nil {
		return nil, fmt.Errorf("pod %s %s: %w", p.Name, BlockLabel(block), err)
	}
	cases = append(cases, mc)
	for _, c := range cases {
		c.Dataset, c.Variant, c.Messages = p.Name, BlockLabel(block), 1
	}
	return cases, nil
}

// podCheck runs each case's encode and decode once and keeps the cases whose
// decoded values equal the block; the others are left out with a note on stderr.
func podCheck(cases []*Case, same func(lib string) bool) ([]*Case, error) {
	var ok []*Case
	for _, c := range cases {
		c.Encode()
		c.Decode()
		if !same(c.Library) {
			Progress("pod: %s left out: decoded values differ from the block", c.Library)
			continue
		}
		ok = append(ok, c)
	}
	if len(ok) == 0 {
		return nil, fmt.Errorf("no library round-trips the block")
	}
	return ok, nil
}

// The functions that build a case stay out of line (go:noinline): a closure in a
// body the compiler inlines is compiled without inlining the calls in it (Go 1.26:
// binary.LittleEndian.AppendUint64 in the hand-written encode became a call, 4-10x
// slower), and the timed loops must be compiled as written.

// podMessage is a message type generated from bench/schemas/pod.bw (pod.PodU64,
// pod.PodU8, pod.PodF32).
type podMessage interface {
	AppendTo(dst []byte) ([]byte, error)
	Decode(b []byte) error
}

// podBitwireCase encodes msg with AppendTo into a reused buffer and decodes it into v.
//
//go:noinline
func podBitwireCase(msg, v podMessage) *Case {
	bw := &Case{Library: "bitwire", Note: notePodBitwire}
	var buf []byte
	bw.Encode = func() {
		var err error
		if buf, err = msg.AppendTo(buf[:0]); err != nil {
			panic(err)
		}
		bw.Bytes = len(buf)
	}
	bw.Decode = func() {
		if err := v.Decode(buf); err != nil {
			panic(err)
		}
	}
	return bw
}

// podProtobufCase marshals msg into a reused buffer and unmarshals it into m.
//
//go:noinline
func podProtobufCase(msg, m proto.Message) *Case {
	pbc := &Case{Library: "protobuf-go", Note: notePodPB}
	var buf []byte
	pbc.Encode = func() {
		var err error
		if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], msg); err != nil {
			panic(err)
		}
		pbc.Bytes = len(buf)
	}
	pbc.Decode = func() {
		if err := proto.Unmarshal(buf, m); err != nil {
			panic(err)
		}
	}
	return pbc
}

func podU64Cases(vals []uint64) ([]*Case, error) {
	n := len(vals)
	var bv pod.PodU64
	var pm pb.PodU64
	bw := podBitwireCase(&pod.PodU64{Values: vals}, &bv)
	var bf pod.PodU64
	br := pod.PodU64{Values: []uint64{1, 2, 3}}
	bbf := podBincodeFresh(&pod.PodU64{Values: vals}, &bf)
	bbr := podBincodeReuse(&pod.PodU64{Values: vals}, &br)
	hw, hv := podU64Hand(vals)
	fbc, fv := podU64FB(vals)
	pbc := podProtobufCase(&pb.PodU64{Values: vals}, &pm)
	dec := map[string]*[]uint64{bw.Library: &bv.Values, bbf.Library: &bf.Values, bbr.Library: &br.Values, hw.Library: hv, fbc.Library: fv, pbc.Library: &pm.Values}
	cases := []*Case{bw, bbf, bbr, hw, fbc, pbc}
	return podCheck(cases, func(lib string) bool {
		got := *dec[lib]
		if len(got) != n {
			return false
		}
		for i := range got {
			if got[i] != vals[i] {
				return false
			}
		}
		return true
	})
}

// podU64Hand writes the values as little-endian uint64s and reads them back into
// a reused slice (returned for the check).
//
//go:noinline
func podU64Hand(vals []uint64) (*Case, *[]uint64) {
	hw := &Case{Library: "handwritten", Note: notePodHand}
	var buf []byte
	var v []uint64
	hw.Encode = func() {
		out := buf[:0]
		for _, x := range vals {
			out = binary.LittleEndian.AppendUint64(out, x)
		}
		buf = out
		hw.Bytes = len(buf)
	}
	hw.Decode = func() {
		b := buf
		v = resize(v, len(b)/8)
		for i := range v {
			v[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
	}
	return hw, &v
}

// podU64FB builds a PodU64 table value by value and reads it back into a reused
// slice (returned for the check).
//
//go:noinline
func podU64FB(vals []uint64) (*Case, *[]uint64) {
	n := len(vals)
	fbc := &Case{Library: "flatbuffers", Note: notePodFB}
	b := flatbuffers.NewBuilder(0)
	var v []uint64
	fbc.Encode = func() {
		b.Reset()
		fb.PodU64StartValuesVector(b, n)
		for i := n - 1; i >= 0; i-- {
			b.PrependUint64(vals[i])
		}
		vec := b.EndVector(n)
		fb.PodU64Start(b)
		fb.PodU64AddValues(b, vec)
		b.Finish(fb.PodU64End(b))
		fbc.Bytes = len(b.FinishedBytes())
	}
	fbc.Decode = func() {
		t := fb.GetRootAsPodU64(b.FinishedBytes(), 0)
		v = resize(v, t.ValuesLength())
		for j := range v {
			v[j] = t.Values(j)
		}
	}
	return fbc, &v
}

func podU8Cases(vals []byte) ([]*Case, error) {
	n := len(vals)
	var bv pod.PodU8
	var pm pb.PodU8
	bw := podBitwireCase(&pod.PodU8{Values: vals}, &bv)
	var bf pod.PodU8
	br := pod.PodU8{Values: []byte{1, 2, 3}}
	bbf := podBincodeFresh(&pod.PodU8{Values: vals}, &bf)
	bbr := podBincodeReuse(&pod.PodU8{Values: vals}, &br)
	hw, hv := podU8Hand(vals)
	fbc, fv := podU8FB(vals)
	pbc := podProtobufCase(&pb.PodU8{Values: vals}, &pm)
	dec := map[string]*[]byte{bw.Library: &bv.Values, bbf.Library: &bf.Values, bbr.Library: &br.Values, hw.Library: hv, fbc.Library: fv, pbc.Library: &pm.Values}
	cases := []*Case{bw, bbf, bbr, hw, fbc, pbc}
	return podCheck(cases, func(lib string) bool {
		got := *dec[lib]
		return len(got) == n && bytes.Equal(got, vals)
	})
}

// podU8Hand copies the bytes out and back into a reused slice (returned for the
// check).
//
//go:noinline
func podU8Hand(vals []byte) (*Case, *[]byte) {
	hw := &Case{Library: "handwritten", Note: notePodHand}
	var buf []byte
	var v []byte
	hw.Encode = func() {
		buf = append(buf[:0], vals...)
		hw.Bytes = len(buf)
	}
	hw.Decode = func() {
		v = append(v[:0], buf...)
	}
	return hw, &v
}

// podU8FB builds a PodU8 table with CreateByteVector and copies its bytes into a
// reused slice (returned for the check).
//
//go:noinline
func podU8FB(vals []byte) (*Case, *[]byte) {
	fbc := &Case{Library: "flatbuffers", Note: notePodFB}
	b := flatbuffers.NewBuilder(0)
	var v []byte
	fbc.Encode = func() {
		b.Reset()
		vec := b.CreateByteVector(vals)
		fb.PodU8Start(b)
		fb.PodU8AddValues(b, vec)
		b.Finish(fb.PodU8End(b))
		fbc.Bytes = len(b.FinishedBytes())
	}
	fbc.Decode = func() {
		t := fb.GetRootAsPodU8(b.FinishedBytes(), 0)
		v = append(v[:0], t.ValuesBytes()...)
	}
	return fbc, &v
}

func podF32Cases(vals []float32) ([]*Case, error) {
	n := len(vals)
	var bv pod.PodF32
	var pm pb.PodF32
	bw := podBitwireCase(&pod.PodF32{Values: vals}, &bv)
	var bf pod.PodF32
	br := pod.PodF32{Values: []float32{1, 2, 3}}
	bbf := podBincodeFresh(&pod.PodF32{Values: vals}, &bf)
	bbr := podBincodeReuse(&pod.PodF32{Values: vals}, &br)
	hw, hv := podF32Hand(vals)
	fbc, fv := podF32FB(vals)
	pbc := podProtobufCase(&pb.PodF32{Values: vals}, &pm)
	dec := map[string]*[]float32{bw.Library: &bv.Values, bbf.Library: &bf.Values, bbr.Library: &br.Values, hw.Library: hv, fbc.Library: fv, pbc.Library: &pm.Values}
	cases := []*Case{bw, bbf, bbr, hw, fbc, pbc}
	return podCheck(cases, func(lib string) bool {
		got := *dec[lib]
		if len(got) != n {
			return false
		}
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(vals[i]) {
				return false
			}
		}
		return true
	})
}

// podF32Hand writes the values' bits as little-endian uint32s and reads them back
// into a reused slice (returned for the check).
//
//go:noinline
func podF32Hand(vals []float32) (*Case, *[]float32) {
	hw := &Case{Library: "handwritten", Note: notePodHand}
	var buf []byte
	var v []float32
	hw.Encode = func() {
		out := buf[:0]
		for _, x := range vals {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
		}
		buf = out
		hw.Bytes = len(buf)
	}
	hw.Decode = func() {
		b := buf
		v = resize(v, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return hw, &v
}

// podF32FB builds a PodF32 table value by value and reads it back into a reused
// slice (returned for the check).
//
//go:noinline
func podF32FB(vals []float32) (*Case, *[]float32) {
	n := len(vals)
	fbc := &Case{Library: "flatbuffers", Note: notePodFB}
	b := flatbuffers.NewBuilder(0)
	var v []float32
	fbc.Encode = func() {
		b.Reset()
		fb.PodF32StartValuesVector(b, n)
		for i := n - 1; i >= 0; i-- {
			b.PrependFloat32(vals[i])
		}
		vec := b.EndVector(n)
		fb.PodF32Start(b)
		fb.PodF32AddValues(b, vec)
		b.Finish(fb.PodF32End(b))
		fbc.Bytes = len(b.FinishedBytes())
	}
	fbc.Decode = func() {
		t := fb.GetRootAsPodF32(b.FinishedBytes(), 0)
		v = resize(v, t.ValuesLength())
		for j := range v {
			v[j] = t.Values(j)
		}
	}
	return fbc, &v
}
