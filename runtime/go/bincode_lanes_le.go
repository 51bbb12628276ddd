//go:build 386 || amd64 || amd64p32 || alpha || arm || arm64 || loong64 || mipsle || mips64le || mips64p32le || nios2 || ppc64le || riscv || riscv64 || sh || wasm

package bitwire

// The bulk copies of the bincode encoding on little-endian hosts (spec §13.8). This
// is the only file of the runtime that imports unsafe, and laneBytes is its only
// use of it.
//
// The invariant it relies on: on these GOARCHes (the list of encoding/binary's
// native_endian_little.go) the in-memory bytes of an int8, uint16, int16, uint32,
// int32, uint64, int64, float32 or float64 are exactly its little-endian wire bytes
// (spec §13.2: two's complement, IEEE 754 bits as they are), and a slice of them
// has no padding between elements. So the bytes of a []T are the wire form of the
// sequence, and one copy moves it either way. Every other GOARCH builds
// bincode_lanes_be.go instead, which moves values one by one.

import "unsafe"

// appendLanes appends the wire bytes of s to dst: one copy.
func appendLanes[T Lane](dst []byte, s []T) []byte {
	return append(dst, laneBytes(s)...)
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
