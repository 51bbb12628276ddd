package bitwire

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
)

// BitReader reads an LSB-first bit stream (spec §1) from a byte slice.
//
// Every read is checked against the input; running past its end is a Truncated
// error at the first bit of the value being read (spec §7.2). Each read is one
// unaligned 64-bit load. A BitReader is a value: declare it on the stack with
// [NewBitReader] and pass its address.
type BitReader struct {
	data []byte
	// Bit position of the next read.
	pos uint64
}

// NewBitReader returns a reader positioned at the first bit of b.
func NewBitReader(b []byte) BitReader {
	return BitReader{data: b}
}

// BitPos returns the bit position of the next read.
func (r *BitReader) BitPos() uint64 {
	return r.pos
}

// RemainingBits returns the number of bits left in the input.
func (r *BitReader) RemainingBits() uint64 {
	return uint64(len(r.data))*8 - r.pos
}

// Error returns an error of kind for a value that starts offset bits after the
// reader's position.
func (r *BitReader) Error(kind Kind, offset uint) error {
	return NewError(kind, r.pos+uint64(offset))
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
	if uint64(n) > r.RemainingBits() {
		return 0, r.Error(Truncated, 0)
	}
	v := r.peek(r.pos)
	r.pos += uint64(n)
	if n < 64 {
		v &= 1<<n - 1
	}
	return v, nil
}

// ReadBool reads one bit.
func (r *BitReader) ReadBool() (bool, error) {
	v, err := r.ReadBits(1)
	return v != 0, err
}

// ReadInt reads an n-bit two's-complement integer (an iN, §3) and sign-extends it.
func (r *BitReader) ReadInt(n uint) (int64, error) {
	v, err := r.ReadBits(n)
	return SignExtend(v, n), err
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

// ReadQuantized reads a quantized float stored in n bits (§4.3); a stored integer
// above steps is OutOfRange at the value. It returns the binary64 grid value; f32
// fields round it with float32(…).
func (r *BitReader) ReadQuantized(n uint, min, max float64, steps uint64) (float64, error) {
	at := r.pos
	q, err := r.ReadBits(n)
	if err != nil {
		return 0, err
	}
	if q > steps {
		return 0, NewError(OutOfRange, at)
	}
	return Dequantize(q, min, max, steps), nil
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
// started at bit start (§5.6), before anything is allocated: n elements of at least
// minBits bits each must fit in the rest of the input (else Truncated at start), and
// n must fit in an int (else LimitExceeded at start).
func (r *BitReader) CheckLen(n, minBits, start uint64) (int, error) {
	hi, need := bits.Mul64(n, minBits)
	if hi != 0 || need > r.RemainingBits() {
		return 0, NewError(Truncated, start)
	}
	if n > math.MaxInt {
		return 0, NewError(LimitExceeded, start)
	}
	return int(n), nil
}

// needBytes returns Truncated at the reader's position unless n bytes remain.
func (r *BitReader) needBytes(n int) error {
	if uint64(n) > r.RemainingBits()/8 {
		return r.Error(Truncated, 0)
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

// ReadBounded reads the stored offset of a bounded integer (§4.2) in n bits; an
// offset above span (max - min) is OutOfRange at the value.
func (r *BitReader) ReadBounded(n uint, span uint64) (uint64, error) {
	at := r.pos
	v, err := r.ReadBits(n)
	if err != nil {
		return 0, err
	}
	if v > span {
		return 0, NewError(OutOfRange, at)
	}
	return v, nil
}

// ReadLen reads the length of a bounded list, string or bytes value (§5.6): n bits,
// at most max (else InvalidLength), and room in the input for that many elements of
// at least minBits bits (CheckLen). Every error is at the value's first bit.
func (r *BitReader) ReadLen(n uint, max, minBits uint64) (int, error) {
	start := r.pos
	v, err := r.ReadBits(n)
	if err != nil {
		return 0, err
	}
	if v > max {
		return 0, NewError(InvalidLength, start)
	}
	return r.CheckLen(v, minBits, start)
}

// ReadVarLen reads the varint length of an unbounded list, string or bytes value
// (§5.6) and checks it as ReadLen does.
func (r *BitReader) ReadVarLen(minBits uint64) (int, error) {
	start := r.pos
	v, err := r.ReadVarint(64)
	if err != nil {
		return 0, err
	}
	return r.CheckLen(v, minBits, start)
}

// ReadRawBytes reads n bytes (length already checked) and appends them to dst,
// which generated code passes as the destination's old slice cut to length zero, so
// that its capacity is reused.
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

// ReadBytes reads a bounded bytes value (§5.6): its length in n bits (at most max),
// then the bytes, appended to dst as ReadRawBytes does.
func (r *BitReader) ReadBytes(n uint, max uint64, dst []byte) ([]byte, error) {
	l, err := r.ReadLen(n, max, 8)
	if err != nil {
		return dst, err
	}
	return r.ReadRawBytes(l, dst)
}

// ReadVarBytes reads an unbounded bytes value: a varint length, then the bytes.
func (r *BitReader) ReadVarBytes(dst []byte) ([]byte, error) {
	l, err := r.ReadVarLen(8)
	if err != nil {
		return dst, err
	}
	return r.ReadRawBytes(l, dst)
}

// ReadByteArray fills dst with bytes read as consecutive u8 values (a [N]u8).
func (r *BitReader) ReadByteArray(dst []byte) error {
	if err := r.needBytes(len(dst)); err != nil {
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

// ReadString reads a bounded string (§5.6): its length in n bits (at most max), then
// that many bytes of UTF-8 (else InvalidUtf8 at the value). When the bytes equal old
// (the destination's current value) old is returned, so decoding into a value whose
// strings did not change allocates nothing.
func (r *BitReader) ReadString(n uint, max uint64, old string) (string, error) {
	start := r.pos
	l, err := r.ReadLen(n, max, 8)
	if err != nil {
		return "", err
	}
	return r.readStringBytes(l, start, old)
}

// ReadVarString reads an unbounded string: a varint length, then the bytes, as
// ReadString does.
func (r *BitReader) ReadVarString(old string) (string, error) {
	start := r.pos
	l, err := r.ReadVarLen(8)
	if err != nil {
		return "", err
	}
	return r.readStringBytes(l, start, old)
}

// readStringBytes reads n bytes of UTF-8 (length already checked) for a string that
// started at bit start.
func (r *BitReader) readStringBytes(n int, start uint64, old string) (string, error) {
	var b []byte
	if r.pos&7 == 0 {
		i := r.pos >> 3
		b = r.data[i : i+uint64(n)]
		r.pos += uint64(n) * 8
	} else {
		var small [64]byte
		if n <= len(small) {
			b = small[:n]
		} else {
			b = make([]byte, n)
		}
		r.readUnaligned(b)
	}
	if !utf8.Valid(b) {
		return "", NewError(InvalidUtf8, start)
	}
	if string(b) == old {
		return old, nil
	}
	return string(b), nil
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
	if pad != 0 && r.peek(r.pos)&(1<<pad-1) != 0 {
		return NewError(InvalidPadding, r.pos)
	}
	end := r.pos + pad
	if end < uint64(len(r.data))*8 {
		return NewError(TrailingData, end)
	}
	return nil
}

// SignExtend returns the low n bits of raw as a two's-complement value (§3).
func SignExtend(raw uint64, n uint) int64 {
	shift := (64 - n) & 63
	return int64(raw<<shift) >> shift
}
