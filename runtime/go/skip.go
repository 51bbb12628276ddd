package bitwire

import "unicode/utf8"

// The skipping reads of generated Verify functions: each checks exactly what the
// matching Read method checks, and returns exactly its error, but builds no value
// and allocates nothing.

// Skip advances past n bits (any n), or returns Truncated at the reader's position
// if fewer remain, as ReadBits does for n up to 64.
func (r *BitReader) Skip(n uint) error {
	if uint64(n) > r.RemainingBits() {
		return r.Error(Truncated, 0)
	}
	r.pos += uint64(n)
	return nil
}

// SkipBytes advances past n bytes read as consecutive u8 values (the bytes of a
// [N]u8 array, a list<u8> or a bytes value whose length was already read), or
// returns Truncated at the reader's position if fewer remain, as ReadByteArray and
// ReadRawBytes do.
func (r *BitReader) SkipBytes(n int) error {
	if err := r.needBytes(n); err != nil {
		return err
	}
	r.pos += uint64(n) * 8
	return nil
}

// SkipString checks a bounded string (§5.6) as ReadString does — its length in n
// bits (at most max), room for it, then UTF-8 — and advances past it.
func (r *BitReader) SkipString(n uint, max uint64) error {
	start := r.pos
	l, err := r.ReadLen(n, max, 8)
	if err != nil {
		return err
	}
	return r.skipUTF8(l, start)
}

// SkipVarString checks an unbounded string as ReadVarString does and advances past
// it.
func (r *BitReader) SkipVarString() error {
	start := r.pos
	l, err := r.ReadVarLen(8)
	if err != nil {
		return err
	}
	return r.skipUTF8(l, start)
}

// skipUTF8 checks that the next n bytes (length already checked) are UTF-8, for a
// string that started at bit start, and advances past them. Byte-aligned bytes are
// checked in place. Unaligned ones are checked eight at a time while they are
// ASCII; from the first other byte on, skipUTF8Slow checks the rest.
func (r *BitReader) skipUTF8(n int, start uint64) error {
	if r.pos&7 == 0 {
		i := r.pos >> 3
		if !utf8.Valid(r.data[i : i+uint64(n)]) {
			return NewError(InvalidUtf8, start)
		}
		r.pos += uint64(n) * 8
		return nil
	}
	const high = 0x8080808080808080
	for n >= 8 {
		if r.peek(r.pos)&high != 0 {
			return r.skipUTF8Slow(n, start)
		}
		r.pos += 64
		n -= 8
	}
	if n > 0 {
		if r.peek(r.pos)&high&(1<<(8*uint(n))-1) != 0 {
			return r.skipUTF8Slow(n, start)
		}
		r.pos += uint64(n) * 8
	}
	return nil
}

// skipUTF8Slow is skipUTF8 for unaligned bytes that are not all ASCII (starting at
// a rune boundary). They are gathered into a small stack buffer a block at a time,
// cut at a rune boundary (a rune split by the cut is carried over to the next
// block), so that the blocks are all valid iff the whole is.
func (r *BitReader) skipUTF8Slow(n int, start uint64) error {
	const block = 64
	var buf [block + utf8.UTFMax]byte
	carry := 0
	for n > 0 {
		k := min(n, block)
		r.readUnaligned(buf[carry : carry+k])
		n -= k
		end := carry + k
		cut := end
		if n > 0 {
			cut = runeCut(buf[:end])
		}
		if !utf8.Valid(buf[:cut]) {
			return NewError(InvalidUtf8, start)
		}
		carry = copy(buf[:], buf[cut:end])
	}
	return nil
}

// runeCut returns where to cut b so that no rune that more bytes could complete
// is split: before the last rune start among b's final UTFMax-1 bytes if that rune
// is incomplete, else at the end.
func runeCut(b []byte) int {
	for j := len(b) - 1; j >= 0 && j >= len(b)-(utf8.UTFMax-1); j-- {
		if b[j]&0xC0 != 0x80 {
			if utf8.FullRune(b[j:]) {
				return len(b)
			}
			return j
		}
	}
	return len(b)
}
