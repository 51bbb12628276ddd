package bitwire

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"
)

// Short byte runs: the strings of game records are mostly a few bytes long and
// start at any bit. These helpers move such a run as one word (a string of at most
// eight bytes is one load and one WriteBits, or one peek), and check it is UTF-8
// with one test when it is ASCII, instead of a loop per byte and a call into
// unicode/utf8.

// asciiMask has the top bit of every byte: a word of bytes is ASCII iff it has
// none of them.
const asciiMask = 0x8080808080808080

// le32 returns the first four bytes of s as a little-endian value.
func le32(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}

// loadShort returns the bytes of s (at most eight) as a little-endian word, the
// bytes past len(s) zero. Two overlapping loads cover lengths 2 to 8 without a
// loop: the bytes both loads hold are the same, so or-ing them is exact.
func loadShort(s string) uint64 {
	n := len(s)
	switch {
	case n >= 4:
		return le32(s) | le32(s[n-4:])<<(8*(n-4))
	case n >= 2:
		return uint64(s[0]) | uint64(s[1])<<8 | (uint64(s[n-2])|uint64(s[n-1])<<8)<<(8*(n-2))
	case n == 1:
		return uint64(s[0])
	}
	return 0
}

// validString reports whether s is UTF-8: an ASCII string (the usual case) with
// one test per eight bytes, anything else by unicode/utf8.
func validString(s string) bool {
	var or uint64
	t := s
	for len(t) >= 8 {
		or |= le64(t)
		t = t[8:]
	}
	if (or|loadShort(t))&asciiMask == 0 {
		return true
	}
	return utf8.ValidString(s)
}

// validBytes is validString for a byte slice.
func validBytes(b []byte) bool {
	var or uint64
	t := b
	for len(t) >= 8 {
		or |= binary.LittleEndian.Uint64(t)
		t = t[8:]
	}
	for _, c := range t {
		or |= uint64(c)
	}
	if or&asciiMask == 0 {
		return true
	}
	return utf8.Valid(b)
}

// arenaChunk is the size of the string arena's blocks. A decoded string that is
// not its destination's old value is copied into the reader's arena: the strings
// of one message share a few allocations of up to arenaChunk bytes (never more than
// the input left, so a small message's string costs a small allocation) instead of
// one each. A block stays alive while any string in it does.
const arenaChunk = 256

// arenaMin is the input left after a string below which a reader without an
// arena yet allocates the string by itself (a small message's one or two strings).
const arenaMin = 32

// newString returns b as a new string, in the reader's arena when it is at most
// half a block. The arena is a strings.Builder, which only ever appends: a string
// it returned is never written again, so strings of the arena are immutable; a
// full block is let go (Reset) and a new one started.
func (r *BitReader) newString(b []byte) string {
	if len(b) == 0 || len(b) > arenaChunk/2 {
		return string(b)
	}
	a := r.arena
	if a == nil || a.Cap()-a.Len() < len(b) {
		// The rest of the message's strings lie in the input left after b.
		left := uint64(len(r.data)) - min(r.pos>>3, uint64(len(r.data)))
		if a == nil {
			if left < arenaMin {
				// Too little input left for many more strings: the arena would cost
				// an allocation more than it saves.
				return string(b)
			}
			a = new(strings.Builder)
			r.arena = a
		} else {
			a.Reset()
		}
		a.Grow(int(min(uint64(len(b))+left, arenaChunk)))
	}
	at := a.Len()
	a.Write(b)
	return a.String()[at:]
}

// ReadStringMax reads a string with an n-bit length prefix (n below 64) whose
// values above max are InvalidLength: ReadLenMax(n, max, 8, 1) and then
// ReadString, with the same checks, errors and budget charge in the same order,
// in one call. When the prefix and the bytes lie in one 64-bit window (a length
// prefix and up to seven bytes), one peek reads them all.
func (r *BitReader) ReadStringMax(n uint, max uint64, old string) (string, error) {
	start := r.pos
	if i := start >> 3; i+8 <= uint64(len(r.data)) {
		// The common case: the prefix and at most seven bytes in one load, within the
		// input, within the bound and the budget. Anything else takes the path
		// below, from the start, which finds the error.
		w := binary.LittleEndian.Uint64(r.data[i:]) >> (start & 7)
		l := w & (1<<n - 1)
		bits := uint64(n) + 8*l
		cost := l + AllocationOverhead
		if l == 0 {
			cost = 0
		}
		if l <= max && l <= 7 && start&7+bits <= 64 && cost <= r.budget {
			r.pos = start + bits
			r.budget -= cost
			v := w >> n & (1<<(8*l) - 1)
			if len(old) == int(l) && v&asciiMask == 0 && loadShort(old) == v {
				return old, nil
			}
			return r.wordString(v, 0, int(l), start, old)
		}
		if p := start + uint64(n); l <= max && l <= 16 && cost <= r.budget && p>>3+17 <= uint64(len(r.data)) {
			// Up to sixteen bytes, all in the input: two windows of 64 bits, each
			// one load and the byte after it.
			j, s := p>>3, p&7
			lo := binary.LittleEndian.Uint64(r.data[j:])>>s | uint64(r.data[j+8])<<(63-s)<<1
			hi := binary.LittleEndian.Uint64(r.data[j+8:])>>s | uint64(r.data[j+16])<<(63-s)<<1
			if l < 8 {
				lo, hi = lo&(1<<(8*l)-1), 0
			} else {
				hi &= 1<<(8*(l-8)) - 1
			}
			r.pos = p + 8*l
			r.budget -= cost
			return r.wordString(lo, hi, int(l), start, old)
		}
	}
	return r.readStringMax(n, max, old)
}

// readStringMax is ReadStringMax's general path.
func (r *BitReader) readStringMax(n uint, max uint64, old string) (string, error) {
	start := r.pos
	if uint64(n) > r.RemainingBits() {
		return "", r.truncated(uint64(n))
	}
	w := r.peek(start)
	l := w & (1<<n - 1)
	if l > max {
		return "", LengthError(start, l, max)
	}
	r.pos = start + uint64(n)
	k, err := r.CheckLen(l, 8, 1, start)
	if err != nil {
		return "", err
	}
	if l <= 7 && uint64(n)+8*l <= 64 {
		// The bytes came with the prefix, and CheckLen found them in the input.
		r.pos += 8 * l
		return r.wordString(w>>n&(1<<(8*l)-1), 0, k, start, old)
	}
	return r.ReadString(k, start, old)
}

// WriteLenString writes s with an n-bit length prefix (n below 64; the caller has
// checked len(s) against the bound): InvalidUtf8 at the writer's position, with
// nothing written, unless s is UTF-8 (CheckString); then the prefix and the bytes,
// as one write when they fit in 64 bits.
func (w *BitWriter) WriteLenString(s string, n uint) error {
	bits := n + 8*uint(len(s))
	if bits <= 64 {
		// The prefix and the bytes in one write; only a string with a non-ASCII byte
		// needs the UTF-8 check.
		v := loadShort(s)
		if v&asciiMask != 0 && !utf8.ValidString(s) {
			return utf8Error(w.BitPos(), []byte(s), 0, uint64(len(s)))
		}
		w.WriteBits(uint64(len(s))|v<<n, bits)
		return nil
	}
	if len(s) <= 16 && bits <= 128 {
		// Up to sixteen ASCII bytes: the prefix and the bytes as two writes.
		lo, hi := loadShort(s), uint64(0)
		if len(s) > 8 {
			lo, hi = le64(s), loadShort(s[8:])
		}
		if (lo|hi)&asciiMask == 0 {
			w.WriteBits(uint64(len(s))|lo<<n, 64)
			w.WriteBits(lo>>(64-n)|hi<<n, bits-64)
			return nil
		}
	}
	if !validString(s) {
		return utf8Error(w.BitPos(), []byte(s), 0, uint64(len(s)))
	}
	w.WriteBits(uint64(len(s)), n)
	w.WriteString(s)
	return nil
}
