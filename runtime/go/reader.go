package bitwire

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// BitReader reads an LSB-first bit stream (spec §1) from a byte slice.
//
// Every read is checked against the input; running past its end is a Truncated
// error at the first bit of the value being read (spec §7.2). Each read is one
// unaligned 64-bit load. The reader also holds what is left of the decode budget
// (spec §11, [Limits]), which every length is charged against before anything is
// allocated. A BitReader is a value: declare it on the stack with [NewBitReader]
// and pass its address.
type BitReader struct {
	data []byte
	// Bit position of the next read.
	pos uint64
	// Bytes of the decode budget left.
	budget uint64
	// The string arena (short.go), made at the first string that needs memory.
	arena *strings.Builder
}

// NewBitReader returns a reader positioned at the first bit of b, with the default
// decode budget for an input of that length ([DefaultLimits]).
func NewBitReader(b []byte) BitReader {
	return BitReader{data: b, budget: DefaultLimits().Budget(len(b))}
}

// NewBitReaderWithLimits returns a reader positioned at the first bit of b whose
// decode budget is what limits gives for an input of that length.
func NewBitReaderWithLimits(b []byte, limits Limits) BitReader {
	return BitReader{data: b, budget: limits.Budget(len(b))}
}

// BudgetLeft returns the bytes left in the decode budget.
func (r *BitReader) BudgetLeft() uint64 {
	return r.budget
}

// BitPos returns the bit position of the next read.
func (r *BitReader) BitPos() uint64 {
	return r.pos
}

// RemainingBits returns the number of bits left in the input.
func (r *BitReader) RemainingBits() uint64 {
	return uint64(len(r.data))*8 - r.pos
}

// peek returns the 64 bits that start at bit pos, zero past the end of the input.
// Every case is one or two loads, with no further call unless the input is shorter
// than eight bytes.
func (r *BitReader) peek(pos uint64) uint64 {
	i, s := pos>>3, pos&7
	n := uint64(len(r.data))
	if i+8 < n {
		// The top s bits come from the ninth byte (shifted out entirely when s is 0).
		return binary.LittleEndian.Uint64(r.data[i:])>>s | uint64(r.data[i+8])<<(63-s)<<1
	}
	if n >= 8 && i < n {
		// Near the end: one load of the input's last eight bytes, shifted down to
		// byte i (every small message reads its last fields here).
		return binary.LittleEndian.Uint64(r.data[n-8:]) >> (8*(i+8-n) + s)
	}
	return peekShort(r.data, i, s)
}

// peekShort is peek on an input shorter than eight bytes (or at its end).
func peekShort(data []byte, i, s uint64) uint64 {
	var v uint64
	for k := uint64(0); i+k < uint64(len(data)) && k < 8; k++ {
		v |= uint64(data[i+k]) << (8 * k)
	}
	return v >> s
}

// ReadBits reads an n-bit unsigned value (n at most 64).
func (r *BitReader) ReadBits(n uint) (uint64, error) {
	pos := r.pos
	if i := pos >> 3; i+8 <= uint64(len(r.data)) && pos&7+uint64(n) <= 64 {
		// The common case: the bits lie in eight bytes the input holds, one load.
		r.pos = pos + uint64(n)
		v := binary.LittleEndian.Uint64(r.data[i:]) >> (pos & 7)
		if n < 64 {
			v &= 1<<n - 1
		}
		return v, nil
	}
	return r.readBitsSlow(n)
}

// readBitsSlow is ReadBits near the end of the input or across nine bytes.
func (r *BitReader) readBitsSlow(n uint) (uint64, error) {
	if uint64(n) > r.RemainingBits() {
		return 0, r.truncated(uint64(n))
	}
	v := r.peek(r.pos)
	r.pos += uint64(n)
	if n < 64 {
		v &= 1<<n - 1
	}
	return v, nil
}

// truncated returns Truncated at the reader's position for a value of at least
// need bits.
//
//go:noinline
func (r *BitReader) truncated(need uint64) error {
	return detailed(Truncated, r.pos, Bits{need, r.RemainingBits()})
}

// ReadBool reads one bit.
func (r *BitReader) ReadBool() (bool, error) {
	pos := r.pos
	if i := pos >> 3; i < uint64(len(r.data)) {
		r.pos = pos + 1
		return r.data[i]>>(pos&7)&1 != 0, nil
	}
	return false, r.truncated(1)
}

// ReadF32 reads an f32; a NaN other than the canonical one is NonCanonical (§3.2).
func (r *BitReader) ReadF32() (float32, error) {
	at := r.pos
	v, err := r.ReadBits(32)
	if err != nil {
		return 0, err
	}
	return F32FromWire(v, at)
}

// ReadF64 reads an f64; a NaN other than the canonical one is NonCanonical (§3.2).
func (r *BitReader) ReadF64() (float64, error) {
	at := r.pos
	v, err := r.ReadBits(64)
	if err != nil {
		return 0, err
	}
	return F64FromWire(v, at)
}

// ReadChunk reads up to 64 bits as a [Chunk] and advances past them, or to the end
// of the input if it is shorter: the chunk then reports Truncated for the fields
// that reach past the end.
func (r *BitReader) ReadChunk(n uint) Chunk {
	pos := r.pos
	// The common case, kept small enough to inline: the chunk lies within eight
	// bytes that the input holds, so one load fetches it.
	if i := pos >> 3; i+8 <= uint64(len(r.data)) && pos&7+uint64(n) <= 64 {
		r.pos = pos + uint64(n)
		return Chunk{Word: binary.LittleEndian.Uint64(r.data[i:]) >> (pos & 7), Avail: n, Start: pos}
	}
	return r.readChunkSlow(n)
}

// readChunkSlow is ReadChunk near the end of the input or across nine bytes.
func (r *BitReader) readChunkSlow(n uint) Chunk {
	pos := r.pos
	avail := uint64(n)
	if rem := uint64(len(r.data))*8 - pos; avail > rem {
		avail = rem
	}
	r.pos = pos + avail
	return Chunk{Word: r.peek(pos), Avail: uint(avail), Start: pos}
}

// CheckLen checks a length n just read for a list, string or bytes value that
// started at bit start (§5.6, §11), in this order, before anything is allocated:
// n elements of at least minBits bits each must fit in the rest of the input (else
// Truncated at start); the charge of n elements of perElem bytes (n × perElem plus
// AllocationOverhead, nothing for n = 0) must be at most the budget left (else
// LimitExceeded at start), and is then taken from it; n must fit in an int (else
// LimitExceeded at start).
func (r *BitReader) CheckLen(n, minBits, perElem, start uint64) (int, error) {
	// The common case in one test: every product fits, the elements fit in the
	// input, the charge in the budget, the length in an int.
	hi, need := bits.Mul64(n, minBits)
	hi2, size := bits.Mul64(n, perElem)
	cost := size + AllocationOverhead
	if n == 0 {
		cost = 0
	}
	if hi|hi2 == 0 && need <= r.RemainingBits() && size < 1<<63 && cost <= r.budget && n <= math.MaxInt {
		r.budget -= cost
		return int(n), nil
	}
	return 0, r.lenError(n, minBits, perElem, start)
}

// lenError is CheckLen's error, in the order CheckLen lists them.
//
//go:noinline
func (r *BitReader) lenError(n, minBits, perElem, start uint64) error {
	left := r.RemainingBits()
	if hi, need := bits.Mul64(n, minBits); hi != 0 || need > left {
		return lenTruncated(n, minBits, left, start)
	}
	if cost := charge(n, perElem); cost > r.budget {
		return detailed(LimitExceeded, start, Budget{cost, r.budget})
	}
	// The length does not fit an int: no slice can hold it.
	return detailed(LimitExceeded, start, Length{n, math.MaxInt})
}

// lenTruncated is CheckLen's Truncated error.
func lenTruncated(n, minBits, left, start uint64) error {
	hi, need := bits.Mul64(n, minBits)
	if hi != 0 {
		need = 1<<64 - 1
	}
	return detailed(Truncated, start, Bits{need, left})
}

// ReadLen reads the length of a list, string or bytes value from an n-bit prefix
// whose every value is allowed (§5.6), and checks it with CheckLen: elements of at
// least minBits bits, charged perElem bytes each. Errors are at the value's first
// bit.
func (r *BitReader) ReadLen(n uint, minBits, perElem uint64) (int, error) {
	start := r.pos
	v, err := r.ReadBits(n)
	if err != nil {
		return 0, err
	}
	return r.CheckLen(v, minBits, perElem, start)
}

// ReadLenMax is ReadLen for a prefix that can hold more than the bound max: a
// length above it is InvalidLength at the value (§5.6), checked first.
func (r *BitReader) ReadLenMax(n uint, max, minBits, perElem uint64) (int, error) {
	start := r.pos
	v, err := r.ReadBits(n)
	if err != nil {
		return 0, err
	}
	if v > max {
		return 0, LengthError(start, v, max)
	}
	return r.CheckLen(v, minBits, perElem, start)
}

// ReadVarLen is ReadLen for a varu64 length prefix (an unbounded value).
func (r *BitReader) ReadVarLen(minBits, perElem uint64) (int, error) {
	start := r.pos
	v, err := r.ReadVarint(64)
	if err != nil {
		return 0, err
	}
	return r.CheckLen(v, minBits, perElem, start)
}

// needBytes returns Truncated at the reader's position unless n bytes remain.
func (r *BitReader) needBytes(n int) error {
	if uint64(n) > r.RemainingBits()/8 {
		return r.truncated(uint64(n) * 8)
	}
	return nil
}

// readUnaligned fills b from the stream (length already checked), eight bytes per
// load.
func (r *BitReader) readUnaligned(b []byte) {
	for len(b) >= 8 {
		binary.LittleEndian.PutUint64(b, r.peek(r.pos))
		r.pos += 64
		b = b[8:]
	}
	if len(b) > 0 {
		v := r.peek(r.pos)
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		r.pos += uint64(len(b)) * 8
	}
}

// ReadRawBytes reads n bytes (a length read with the ReadLen functions) and appends
// them to dst, which generated code passes as the destination's old slice cut to
// length zero, so that its capacity is reused. It allocates at most once.
func (r *BitReader) ReadRawBytes(n int, dst []byte) ([]byte, error) {
	if err := r.needBytes(n); err != nil {
		return dst, err
	}
	if r.pos&7 == 0 {
		i := r.pos >> 3
		r.pos += uint64(n) * 8
		return append(dst, r.data[i:i+uint64(n)]...), nil
	}
	start := len(dst)
	if cap(dst)-start < n {
		grown := make([]byte, start, start+n)
		copy(grown, dst)
		dst = grown
	}
	dst = dst[:start+n]
	r.readUnaligned(dst[start:])
	return dst, nil
}

// ReadByteArray fills dst with bytes read as consecutive u8 values (a [N]u8). An
// array has no length to check first (§5.5): when the input ends inside it, the
// error is Truncated at the first incomplete element, with its index as the path
// ("[3]"), as reading one u8 at a time would report.
func (r *BitReader) ReadByteArray(dst []byte) error {
	if err := r.needArray(len(dst)); err != nil {
		return err
	}
	if r.pos&7 == 0 {
		i := r.pos >> 3
		copy(dst, r.data[i:])
		r.pos += uint64(len(dst)) * 8
		return nil
	}
	r.readUnaligned(dst)
	return nil
}

// needArray returns ReadByteArray's error unless n bytes remain.
func (r *BitReader) needArray(n int) error {
	left := r.RemainingBits()
	if uint64(n) <= left/8 {
		return nil
	}
	return arrayTruncated(r.pos, left)
}

// arrayTruncated is the Truncated error of a byte array at bit pos that the input
// ends inside, left bits before its end.
//
//go:noinline
func arrayTruncated(pos, left uint64) error {
	i := left / 8
	return AtIndex(detailed(Truncated, pos+i*8, Bits{8, left - i*8}), int(i))
}

// ReadString reads the n bytes of a string (a length read with the ReadLen
// functions) that started at bit start; bytes that are not UTF-8 are InvalidUtf8 at
// start (§5.6). When the bytes equal old (the destination's current value), old is
// returned, so decoding into a value whose strings did not change allocates
// nothing; otherwise the string is allocated once.
func (r *BitReader) ReadString(n int, start uint64, old string) (string, error) {
	if err := r.needBytes(n); err != nil {
		return "", err
	}
	if n <= 8 && r.pos&7 != 0 {
		return r.readShortString(n, start, old)
	}
	var b []byte
	var small [64]byte
	switch {
	case r.pos&7 == 0:
		i := r.pos >> 3
		b = r.data[i : i+uint64(n)]
		r.pos += uint64(n) * 8
	case n <= len(small):
		b = small[:n]
		r.readUnaligned(b)
	default:
		return r.readLongString(n, start, old)
	}
	if !validBytes(b) {
		return "", utf8Error(start, b, 0, uint64(n))
	}
	if string(b) == old {
		return old, nil
	}
	return r.newString(b), nil
}

// readShortString is ReadString for at most eight bytes at a bit offset that is
// not a multiple of 8 (length checked): one peek holds them all, one test checks
// an ASCII string, and one comparison finds them equal to old.
func (r *BitReader) readShortString(n int, start uint64, old string) (string, error) {
	v := r.peek(r.pos)
	if n < 8 {
		v &= 1<<(8*n) - 1
	}
	r.pos += uint64(n) * 8
	return r.wordString(v, 0, n, start, old)
}

// wordString returns the string of the n bytes held in lo and hi (n at most 16,
// the bytes past n zero) that started at bit start: InvalidUtf8 at start unless
// UTF-8, old when they equal it, else a new string.
func (r *BitReader) wordString(lo, hi uint64, n int, start uint64, old string) (string, error) {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
	if (lo|hi)&asciiMask != 0 && !utf8.Valid(b[:n]) {
		return "", utf8Error(start, b[:n], 0, uint64(n))
	}
	if string(b[:n]) == old {
		return old, nil
	}
	return r.newString(b[:n]), nil
}

// readLongString is ReadString for more than 64 unaligned bytes: compared with old
// in place, else gathered through a stack buffer into one allocation of n bytes.
func (r *BitReader) readLongString(n int, start uint64, old string) (string, error) {
	if len(old) == n && r.equalsAhead(old) {
		if !utf8.ValidString(old) {
			return "", utf8Error(start, []byte(old), 0, uint64(n))
		}
		r.pos += uint64(n) * 8
		return old, nil
	}
	var buf [64]byte
	var sb strings.Builder
	sb.Grow(n)
	for n > 0 {
		k := min(n, len(buf))
		r.readUnaligned(buf[:k])
		sb.Write(buf[:k])
		n -= k
	}
	s := sb.String()
	if !utf8.ValidString(s) {
		return "", utf8Error(start, []byte(s), 0, uint64(len(s)))
	}
	return s, nil
}

// equalsAhead reports whether the next len(s) bytes of the stream (all in the
// input) are s, without advancing.
func (r *BitReader) equalsAhead(s string) bool {
	pos := r.pos
	for len(s) >= 8 {
		if r.peek(pos) != le64(s) {
			return false
		}
		pos += 64
		s = s[8:]
	}
	v := r.peek(pos)
	for i := 0; i < len(s); i++ {
		if byte(v>>(8*i)) != s[i] {
			return false
		}
	}
	return true
}

// le64 returns the first eight bytes of s as a little-endian uint64.
func le64(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Finish ends a top-level decode (§2.2): the padding up to the next byte boundary
// must be zero (else InvalidPadding at its first bit), and no bytes may follow it
// (else TrailingData at the boundary).
func (r *BitReader) Finish() error {
	if r.pos == uint64(len(r.data))*8 {
		// Ended exactly at the end of the input: no padding, nothing after it.
		return nil
	}
	return r.finishSlow()
}

func (r *BitReader) finishSlow() error {
	pad := (8 - r.pos&7) & 7
	if pad != 0 {
		if v := r.peek(r.pos) & (1<<pad - 1); v != 0 {
			return PaddingError(r.pos, v, pad)
		}
	}
	end := r.pos + pad
	if n := uint64(len(r.data)); end < n*8 {
		return detailed(TrailingData, end, Trailing{n, end / 8})
	}
	return nil
}

// SignExtend returns the low n bits of raw as a two's-complement value (§3).
func SignExtend(raw uint64, n uint) int64 {
	shift := (64 - n) & 63
	return int64(raw<<shift) >> shift
}
