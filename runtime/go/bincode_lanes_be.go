//go:build !(386 || amd64 || amd64p32 || alpha || arm || arm64 || loong64 || mipsle || mips64le || mips64p32le || nios2 || ppc64le || riscv || riscv64 || sh || wasm)

package bitwire

// The bulk moves of the bincode encoding on hosts that are not known to be
// little-endian (the complement of bincode_lanes_le.go's constraint): value by
// value, without unsafe.

// appendLanes appends the little-endian bytes of s to dst.
func appendLanes[T Lane](dst []byte, s []T) []byte {
	return appendLanesPortable(dst, s)
}

// loadLanes fills dst from the little-endian bytes src.
func loadLanes[T Lane](dst []T, src []byte) {
	loadLanesPortable(dst, src)
}

// appendBulk is append(dst, src...).
func appendBulk(dst, src []byte) []byte {
	return append(dst, src...)
}
