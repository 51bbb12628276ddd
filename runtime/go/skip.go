package bitwire

import "unicode/utf8"

// The skipping reads of generated Verify functions: each checks exactly what the
// matching Read method checks, and returns exactly its error, but builds no value
// and allocates nothing.

// Skip advances past n bits (any n), or returns Truncated at the reader's position
// if fewer remain, as ReadBits does for n up to 64.
func (r *BitReader) Skip(n uint) error {
	if uint64(n) > r.RemainingBits() {
		return r.truncated(uint64(n))
	}
	r.pos += uint64(n)
	return nil
}

// SkipBytes advances past n bytes read as consecutive u8 values (the bytes of a
// list<u8> or a bytes value whose length was read with the ReadLen functions), or
// returns Truncated as ReadRawBytes does.
func (r *BitReader) SkipBytes(n int) error {
	if err := r.needBytes(n); err != nil {
		return err
	}
	r.pos += uint64(n) * 8
	return nil
}

// SkipByteArray advances past the n bytes of a [N]u8, or returns ReadByteArray's
// error: Truncated at the first incomplete element.
func (r *BitReader) SkipByteArray(n int) error {
	if err := r.needArray(n); err != nil {
		return err
	}
	r.pos += uint64(n) * 8
	return nil
}

// SkipString checks the n bytes of a string that started at bit start as ReadString
// does (room for them, then UTF-8) and advances past them.
func (r *BitReader) SkipString(n int, start uint64) error {
	if err := r.needBytes(n); err != nil {
		return err
	}
	return r.skipUTF8(n, start)
}

// skipUTF8 checks that the next n bytes (length already checked) are UTF-8, for a
// string that started at bit start, and advances past them. Byte-aligned bytes are
// checked in place. Unaligned ones are checked eight at a time while they are
// ASCII; from the first other byte on, skipUTF8Slow checks the rest.
func (r *BitReader) skipUTF8(n int, start uint64) error {
	if r.pos&7 == 0 {
		i := r.pos >> 3
		if b := r.data[i : i+uint64(n)]; !utf8.Valid(b) {
			return utf8Error(start, b, 0, uint64(n))
		}
		r.pos += uint64(n) * 8
		return nil
	}
	const high = 0x8080808080808080
	total := n
	for n >= 8 {
		if r.peek(r.pos)&high != 0 {
			return r.skipUTF8Slow(total-n, n, start)
		}
		r.pos += 64
		n -= 8
	}
	if n > 0 {
		if r.peek(r.pos)&high&(1<<(8*uint(n))-1) != 0 {
			return r.skipUTF8Slow(total-n, n, start)
		}
		r.pos += uint64(n) * 8
	}
	return nil
}

// skipUTF8Slow is skipUTF8 for unaligned bytes that are not all ASCII (starting at
// a rune boundary). They are gathered into a small stack buffer a block at a time,
// cut at a rune boundary (a rune split by the cut is carried over to the next
// block), so that the blocks are all valid iff the whole is. done bytes of the
// string (all ASCII) are behind the reader already.
func (r *BitReader) skipUTF8Slow(done, n int, start uint64) error {
	const block = 64
	var buf [block + utf8.UTFMax]byte
	carry := 0
	// The index in the string of buf[0], and the string's length.
	at, total := uint64(done), uint64(done+n)
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
			return utf8Error(start, buf[:cut], at, total)
		}
		at += uint64(cut)
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
