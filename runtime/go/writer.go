package bitwire

import "encoding/binary"

// BitWriter appends an LSB-first bit stream (spec §1) to a caller's byte slice.
//
// Bits collect in a 64-bit accumulator; every time it fills, its eight bytes are
// appended little-endian, which is exactly the byte order §1.1 prescribes. Appending
// to a reused slice (dst[:0]) makes encoding allocation-free once the slice has
// grown to the largest message. A BitWriter is a value: declare it on the stack with
// [NewBitWriter] and pass its address.
type BitWriter struct {
	buf []byte
	// Pending bits, the oldest in bit 0.
	acc uint64
	// Number of pending bits in acc, always below 64.
	n uint
	// len(buf) when the writer was created; bit offsets count from here.
	start int
}

// NewBitWriter returns a writer that appends to dst (its contents are kept).
func NewBitWriter(dst []byte) BitWriter {
	return BitWriter{buf: dst, start: len(dst)}
}

// BitPos returns the number of bits written so far by this writer.
func (w *BitWriter) BitPos() uint64 {
	return uint64(len(w.buf)-w.start)*8 + uint64(w.n)
}

// Error returns an error of kind for a value that starts offset bits after the
// writer's position.
func (w *BitWriter) Error(kind Kind, offset uint) error {
	return NewError(kind, w.BitPos()+uint64(offset))
}

// WriteBits writes the low n bits of v (§1.2). n is at most 64 and v must have no
// bits set at or above n: generated code checks ranges before it writes.
func (w *BitWriter) WriteBits(v uint64, n uint) {
	old := w.n
	w.acc |= v << (old & 63)
	w.n = old + n
	if w.n >= 64 {
		w.spill(v, old)
	}
}

// spill appends the full accumulator and keeps the bits of v that did not fit.
// Out of line, so that WriteBits stays small enough to inline.
func (w *BitWriter) spill(v uint64, old uint) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, w.acc)
	w.n -= 64
	// The top old bits of v did not fit; shifting in two steps keeps the amount
	// below 64 when old is 0 (then nothing is carried).
	w.acc = (v >> 1) >> (63 - old)
}

// WriteWord writes 64 bits: a whole run of fixed-width fields built by generated
// code. Branch-free, and small enough to inline: the word and the pending bits
// below it go out as eight bytes, and the bits that did not fit stay pending.
func (w *BitWriter) WriteWord(v uint64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, w.acc|v<<(w.n&63))
	// Shifting in two steps makes the carry zero when nothing was pending.
	w.acc = (v >> 1) >> (63 - w.n)
}

// WriteBool writes one bit: 1 for true.
func (w *BitWriter) WriteBool(b bool) {
	w.WriteBits(Bit(b), 1)
}

// WriteInt writes the low n bits of the two's-complement value v (an iN, §3). The
// caller has checked that v fits in n bits.
func (w *BitWriter) WriteInt(v int64, n uint) {
	w.WriteBits(TwosComplement(v, n), n)
}

// WriteF32 writes an f32, any NaN as the canonical NaN (§3.2).
func (w *BitWriter) WriteF32(v float32) {
	w.WriteBits(F32ToWire(v), 32)
}

// WriteF64 writes an f64, any NaN as the canonical NaN (§3.2).
func (w *BitWriter) WriteF64(v float64) {
	w.WriteBits(F64ToWire(v), 64)
}

// WriteBytes writes b as consecutive u8 values (§5.6). Nothing is aligned first
// (§5.7); when the stream happens to be at a byte boundary the bytes are copied.
func (w *BitWriter) WriteBytes(b []byte) {
	if w.n&7 == 0 {
		w.flushBytes()
		w.buf = append(w.buf, b...)
		return
	}
	for len(b) >= 8 {
		w.WriteBits(binary.LittleEndian.Uint64(b), 64)
		b = b[8:]
	}
	for _, c := range b {
		w.WriteBits(uint64(c), 8)
	}
}

// WriteString writes the bytes of s, as WriteBytes does.
func (w *BitWriter) WriteString(s string) {
	if w.n&7 == 0 {
		w.flushBytes()
		w.buf = append(w.buf, s...)
		return
	}
	for len(s) >= 8 {
		w.WriteBits(le64(s), 64)
		s = s[8:]
	}
	if len(s) > 0 {
		// The last bytes (most strings: all of them) in one write.
		w.WriteBits(loadShort(s), uint(len(s))*8)
	}
}

// flushBytes moves the whole bytes of the accumulator to the buffer; only called at
// a byte boundary.
func (w *BitWriter) flushBytes() {
	for w.n > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
}

// CheckString returns an InvalidUtf8 error, with the writer's position plus offset
// as bit, when s is not valid UTF-8. A Go string may hold any bytes, but the wire
// carries only UTF-8 (§5.6): encoding such a string would produce input that every
// decoder rejects.
func (w *BitWriter) CheckString(s string, offset uint) error {
	if !validString(s) {
		return utf8Error(w.BitPos()+uint64(offset), []byte(s), 0, uint64(len(s)))
	}
	return nil
}

// Finish pads the stream with zero bits to the next byte boundary (§2.1) and returns
// the buffer with everything this writer appended.
func (w *BitWriter) Finish() []byte {
	for i := uint(0); i < w.n; i += 8 {
		w.buf = append(w.buf, byte(w.acc>>i))
	}
	w.acc, w.n = 0, 0
	return w.buf
}

// Bit returns 1 for true and 0 for false: a bool as the bit the wire carries.
func Bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TwosComplement returns the low n bits of v's two's-complement form, for writing
// an iN (§3).
func TwosComplement(v int64, n uint) uint64 {
	if n >= 64 {
		return uint64(v)
	}
	return uint64(v) & (1<<n - 1)
}
