package bitwire

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"testing"
)

// wireOf returns the little-endian bytes of vals written one at a time with the
// writer's scalar methods: what a bulk copy must equal.
func wireOf[T Lane](vals []T) []byte {
	w := NewByteWriter(nil)
	for _, v := range vals {
		switch v := any(v).(type) {
		case int8:
			w.WriteI8(v)
		case uint16:
			w.WriteU16(v)
		case int16:
			w.WriteI16(v)
		case uint32:
			w.WriteU32(v)
		case int32:
			w.WriteI32(v)
		case float32:
			w.WriteF32(v)
		case uint64:
			w.WriteU64(v)
		case int64:
			w.WriteI64(v)
		case float64:
			w.WriteF64(v)
		}
	}
	return w.Bytes()
}

// checkLanes moves vals through every bulk path and compares with wireOf.
func checkLanes[T Lane](t *testing.T, vals []T) {
	t.Helper()
	want := wireOf(vals)
	w := NewByteWriter([]byte{0xEE})
	WriteLanes(&w, vals)
	if !bytes.Equal(w.Bytes()[1:], want) {
		t.Fatalf("%T: WriteLanes gave % x, want % x", vals, w.Bytes()[1:], want)
	}
	if got := appendLanesPortable([]byte{0xEE}, vals); !bytes.Equal(got[1:], want) {
		t.Fatalf("%T: the portable path gave % x, want % x", vals, got[1:], want)
	}
	// Decoding from an odd offset (unaligned) into a slice with room to spare.
	in := append([]byte{0xEE}, want...)
	reused := make([]T, 3, len(vals)+5)
	r := NewByteReader(in)
	r.pos = 1
	got, err := ReadLanes(&r, len(vals), reused)
	if err != nil || r.Finish() != nil || len(got) != len(vals) || &got[:1][0] != &reused[:1][0] {
		t.Fatalf("%T: ReadLanes gave %d elements, %v (reused: %v)", vals, len(got), err,
			&got[:1][0] == &reused[:1][0])
	}
	portable := make([]T, len(vals))
	loadLanesPortable(portable, want)
	arr := make([]T, len(vals))
	r = NewByteReader(want)
	if err := ReadLaneArray(&r, arr); err != nil {
		t.Fatal(err)
	}
	// Compared as bytes, so that NaN payloads count.
	for _, back := range [][]T{got, portable, arr} {
		if b := wireOf(back); !bytes.Equal(b, want) {
			t.Fatalf("%T: read back % x, want % x", vals, b, want)
		}
	}
	// A length the input cannot hold is an error, never a panic.
	r = NewByteReader(want)
	if _, err := ReadLanes(&r, len(vals)+1, reused); err == nil {
		t.Fatalf("%T: read past the input", vals)
	}
	if _, err := ReadLanes(&r, -1, reused); err == nil {
		t.Fatalf("%T: read a negative length", vals)
	}
}

func TestLanesMoveTheWireBytes(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	const n = 37
	u64 := make([]uint64, n)
	for i := range u64 {
		u64[i] = rng.Uint64()
	}
	i8 := make([]int8, n)
	u16 := make([]uint16, n)
	i16 := make([]int16, n)
	u32 := make([]uint32, n)
	i32 := make([]int32, n)
	f32 := make([]float32, n)
	i64 := make([]int64, n)
	f64 := make([]float64, n)
	for i, v := range u64 {
		i8[i], u16[i], i16[i] = int8(v), uint16(v), int16(v>>16)
		u32[i], i32[i], i64[i] = uint32(v), int32(v>>32), int64(v)
		f32[i], f64[i] = math.Float32frombits(uint32(v)), math.Float64frombits(v)
	}
	// NaNs with payloads, signalling and quiet, and a negative zero.
	f32[0], f32[1], f32[2] = math.Float32frombits(0x7fc00001), math.Float32frombits(0xff800001), float32(math.Copysign(0, -1))
	f64[0], f64[1] = math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000abc)
	checkLanes(t, i8)
	checkLanes(t, u16)
	checkLanes(t, i16)
	checkLanes(t, u32)
	checkLanes(t, i32)
	checkLanes(t, f32)
	checkLanes(t, u64)
	checkLanes(t, i64)
	checkLanes(t, f64)
	checkLanes(t, []uint64{})
}

func TestLanesDoNotAllocateIntoReusedBuffers(t *testing.T) {
	vals := make([]uint64, 1000)
	for i := range vals {
		vals[i] = uint64(i) * 0x0101010101
	}
	buf := make([]byte, 0, 8*len(vals)+8)
	dst := make([]uint64, len(vals))
	allocs := testing.AllocsPerRun(50, func() {
		w := NewByteWriter(buf[:0])
		w.WriteLen(len(vals))
		WriteLanes(&w, vals)
		r := NewByteReader(w.Bytes())
		n, err := r.ReadLen(8, 8)
		if err != nil {
			t.Fatal(err)
		}
		if dst, err = ReadLanes(&r, n, dst); err != nil || r.Finish() != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || dst[999] != vals[999] {
		t.Fatalf("%v allocs per round trip, last value %x", allocs, dst[999])
	}
	if binary.LittleEndian.Uint64(buf[:cap(buf)][8+8*999:]) != vals[999] {
		t.Fatal("the writer did not write into the reused buffer")
	}
}

// The bulk paths against a plain copy of the same bytes, 64 MiB of u64 (8 Mi
// elements, the pod dataset size), buffers reused:
//
//	go test -run '^$' -bench BincodeLanes -benchtime 20x .
func BenchmarkBincodeLanes(b *testing.B) {
	const n = 8 << 20
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	wire := appendLanesPortable(make([]byte, 0, 8*n+1), vals)
	// Decoding reads from an odd offset, as a list after a one-byte field does.
	unaligned := append([]byte{0}, wire...)[1:]
	out := make([]byte, 0, 8*n)
	dst := make([]uint64, n)
	into := make([]byte, 8*n)
	b.Run("copy", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			out = append(out[:0], wire...)
		}
	})
	b.Run("copy-unaligned", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			copy(into, unaligned)
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			w := NewByteWriter(out[:0])
			WriteLanes(&w, vals)
			out = w.Bytes()
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			r := NewByteReader(unaligned)
			dst, _ = ReadLanes(&r, n, dst)
		}
	})
	b.Run("encode-portable", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			out = appendLanesPortable(out[:0], vals)
		}
	})
	b.Run("decode-portable", func(b *testing.B) {
		b.SetBytes(8 * n)
		for range b.N {
			loadLanesPortable(dst, unaligned)
		}
	})
}

// appendBulk appends exactly what append does, at every alignment of the
// destination and the source, into room to spare and into a slice it must grow.
func TestAppendBulkIsAppend(t *testing.T) {
	src := make([]byte, 3*bulkAlignMin+80)
	for i := range src {
		src[i] = byte(i*7 + 3)
	}
	for _, n := range []int{0, 100, bulkAlignMin - 1, bulkAlignMin, 2*bulkAlignMin + 13} {
		for from := 0; from < 10; from++ {
			for to := 0; to < 70; to += 3 {
				part := src[from : from+n]
				prefix := bytes.Repeat([]byte{0xEE}, to)
				want := append(append([]byte{}, prefix...), part...)
				roomy := append(make([]byte, 0, to+n+64), prefix...)
				if got := appendBulk(roomy, part); !bytes.Equal(got, want) || &got[:1][0] != &roomy[:1][0] {
					t.Fatalf("n %d, from %d, to %d: wrong bytes or a new array", n, from, to)
				}
				if got := appendBulk(prefix[:to:to], part); !bytes.Equal(got, want) {
					t.Fatalf("n %d, from %d, to %d, growing: wrong bytes", n, from, to)
				}
			}
		}
	}
	out := make([]byte, 0, len(src)+64)
	if allocs := testing.AllocsPerRun(20, func() { out = appendBulk(out[:8], src) }); allocs != 0 {
		t.Fatalf("appendBulk into room to spare: %v allocs", allocs)
	}
}
