//go:build 386 || amd64 || amd64p32 || alpha || arm || arm64 || loong64 || mipsle || mips64le || mips64p32le || nios2 || ppc64le || riscv || riscv64 || sh || wasm

package bitwire

// The bulk copies of the bincode encoding on little-endian hosts (spec §13.8). This
// is the only file of the runtime that imports unsafe: laneBytes views a slice of
// numbers as bytes, and appendBulk reads the address a copy goes to.
//
// The invariant it relies on: on these GOARCHes (the list of encoding/binary's
// native_endian_little.go) the in-memory bytes of an int8, uint16, int16, uint32,
// int32, uint64, int64, float32 or float64 are exactly its little-endian wire bytes
// (spec §13.2: two's complement, IEEE 754 bits as they are), and a slice of them
// has no padding between elements. So the bytes of a []T are the wire form of the
// sequence, and one copy moves it either way. Every other GOARCH builds
// bincode_lanes_be.go instead, which moves values one by one.

import (
	"slices"
	"unsafe"
)

// appendLanes appends the wire bytes of s to dst: one copy.
func appendLanes[T Lane](dst []byte, s []T) []byte {
	return appendBulk(dst, laneBytes(s))
}

// appendBulk is append(dst, src...) for a block of bytes, which it copies in two
// parts when it is large: first the few bytes that bring the destination to a
// 64-byte boundary, then the rest. On amd64, Go's memmove copies a large block with
// REP MOVSQ only to a destination aligned to 16 bytes, and with AVX otherwise,
// which was 30% slower on the project's machine (conformance/go,
// BenchmarkBincodePod); and a bincode sequence starts 8 bytes into whatever its u64
// length followed. It splits only when the source is then 8-aligned too (as the
// memory of a slice of numbers and any large allocation is): from a misaligned
// source the plain copy is the faster one.
func appendBulk(dst, src []byte) []byte {
	n := len(src)
	if n < bulkAlignMin {
		return append(dst, src...)
	}
	off := len(dst)
	dst = slices.Grow(dst, n)[:off+n]
	out := dst[off:]
	// Addresses only, for their low bits: no pointer is made from them.
	to := uintptr(unsafe.Pointer(unsafe.SliceData(out)))
	from := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	head := int(-to & 63)
	if (from+uintptr(head))&7 != 0 {
		copy(out, src)
		return dst
	}
	copy(out[:head], src[:head])
	copy(out[head:], src[head:])
	return dst
}

// loadLanes fills dst from the wire bytes src (at least len(dst) × the lane's size
// of them): one copy, from any alignment of src.
func loadLanes[T Lane](dst []T, src []byte) {
	copy(laneBytes(dst), src)
}

// laneBytes returns the memory of s as bytes: a view, not a copy, which aliases s.
func laneBytes[T Lane](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	// SAFETY: s's backing array holds len(s) contiguous elements of
	// unsafe.Sizeof(s[0]) bytes each, every byte of which is initialized, and every
	// bit pattern is a valid T (Lane admits only integers and floats), so viewing
	// them as bytes and writing any bytes through the view is sound. The view
	// keeps the backing array alive while it is used (it points into it), and
	// []byte needs no alignment.
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
