package bitwire

import "encoding/binary"

// The top-level fast path of single-run types. A struct whose fields are all
// fixed-width scalars packed in one run of at most 64 bits (the 64-bit game packet)
// encodes to a single word: its generated AppendTo builds the word and appends it,
// and its Decode, given exactly the encoding's length, loads it — no BitWriter or
// BitReader, and no call the Go compiler cannot inline. (Inputs of any other length
// take the general path, which reports Truncated, InvalidPadding or TrailingData.)

// Chunk64 returns the first 8 bytes of b (which holds at least 8) as a chunk at
// bit 0.
func Chunk64(b []byte) Chunk {
	return Chunk{Word: binary.LittleEndian.Uint64(b), Avail: 64}
}

// ChunkOf returns b (at most 8 bytes) as a chunk at bit 0.
func ChunkOf(b []byte) Chunk {
	var v uint64
	for i, c := range b {
		v |= uint64(c) << (8 * (i & 7))
	}
	return Chunk{Word: v, Avail: uint(len(b)) * 8}
}

// AppendUint64 appends the 8 bytes of v, little-endian (the stream order of §1.1).
func AppendUint64(dst []byte, v uint64) []byte {
	return binary.LittleEndian.AppendUint64(dst, v)
}

// AppendWord appends the low n bytes of v (n at most 8), little-endian.
func AppendWord(dst []byte, v uint64, n int) []byte {
	for i := 0; i < n; i++ {
		dst = append(dst, byte(v>>(8*(i&7))))
	}
	return dst
}
