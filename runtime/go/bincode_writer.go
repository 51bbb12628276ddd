package bitwire

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// ByteWriter appends the bincode encoding (spec §13) to a caller's byte slice.
//
// Every write is an append of whole little-endian bytes; appending to a reused
// slice (dst[:0]) makes encoding allocation-free once the slice has grown to the
// largest value. The Check methods return the encoder's errors (spec §13.2, §13.3)
// at the position the offending value would start. A ByteWriter is a value: declare
// it on the stack with [NewByteWriter] and pass its address.
type ByteWriter struct {
	buf []byte
	// len(buf) when the writer was created; error offsets count from here.
	start int
}

// NewByteWriter returns a writer that appends to dst (its contents are kept).
func NewByteWriter(dst []byte) ByteWriter {
	return ByteWriter{buf: dst, start: len(dst)}
}

// BitPos returns 8 × the number of bytes written so far by this writer: the bit
// offset of the next value, as errors report it (spec §13.1).
func (w *ByteWriter) BitPos() uint64 {
	return uint64(len(w.buf)-w.start) * 8
}

// Bytes returns the buffer with everything this writer appended.
func (w *ByteWriter) Bytes() []byte {
	return w.buf
}

// WriteU8 writes one byte.
func (w *ByteWriter) WriteU8(v uint8) {
	w.buf = append(w.buf, v)
}

// WriteU16 writes v in two bytes, little-endian.
func (w *ByteWriter) WriteU16(v uint16) {
	w.buf = binary.LittleEndian.AppendUint16(w.buf, v)
}

// WriteU32 writes v in four bytes, little-endian (also an enum or union variant
// index, spec §13.4).
func (w *ByteWriter) WriteU32(v uint32) {
	w.buf = binary.LittleEndian.AppendUint32(w.buf, v)
}

// WriteU64 writes v in eight bytes, little-endian.
func (w *ByteWriter) WriteU64(v uint64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
}

// WriteI8 writes v as one two's-complement byte.
func (w *ByteWriter) WriteI8(v int8) {
	w.buf = append(w.buf, uint8(v))
}

// WriteI16 writes v in two bytes, two's complement, little-endian.
func (w *ByteWriter) WriteI16(v int16) {
	w.WriteU16(uint16(v))
}

// WriteI32 writes v in four bytes, two's complement, little-endian.
func (w *ByteWriter) WriteI32(v int32) {
	w.WriteU32(uint32(v))
}

// WriteI64 writes v in eight bytes, two's complement, little-endian.
func (w *ByteWriter) WriteI64(v int64) {
	w.WriteU64(uint64(v))
}

// WriteBool writes 01 for true and 00 for false; an optional's tag is written the
// same way (01 present, 00 absent).
func (w *ByteWriter) WriteBool(b bool) {
	w.buf = append(w.buf, uint8(Bit(b)))
}

// WriteF32 writes v's IEEE 754 bits, little-endian, as they are: a NaN keeps its
// payload (spec §13.2).
func (w *ByteWriter) WriteF32(v float32) {
	w.WriteU32(math.Float32bits(v))
}

// WriteF64 writes v's IEEE 754 bits, little-endian, as they are.
func (w *ByteWriter) WriteF64(v float64) {
	w.WriteU64(math.Float64bits(v))
}

// WriteLen writes a list's length prefix: n as a u64 (spec §13.3).
func (w *ByteWriter) WriteLen(n int) {
	w.WriteU64(uint64(n))
}

// WriteString writes s as a string value: its length in bytes as a u64, then its
// bytes. The caller has checked its bound and UTF-8 ([ByteWriter.CheckLen],
// [ByteWriter.CheckString]).
func (w *ByteWriter) WriteString(s string) {
	w.WriteLen(len(s))
	w.buf = append(w.buf, s...)
}

// WriteBytes writes b as a bytes value or a list<u8>: its length as a u64, then
// the bytes.
func (w *ByteWriter) WriteBytes(b []byte) {
	w.WriteLen(len(b))
	w.buf = appendBulk(w.buf, b)
}

// WriteRaw writes b with no length: a [u8; N] (spec §13.3).
func (w *ByteWriter) WriteRaw(b []byte) {
	w.buf = appendBulk(w.buf, b)
}

// CheckUint returns OutOfRange at the writer's position unless min <= v <= max
// (a narrow or bounded unsigned integer, spec §13.2).
func (w *ByteWriter) CheckUint(v, min, max uint64) error {
	if v < min || v > max {
		return UintRangeError(w.BitPos(), v, min, max)
	}
	return nil
}

// CheckInt returns OutOfRange at the writer's position unless min <= v <= max (a
// narrow or bounded signed integer).
func (w *ByteWriter) CheckInt(v, min, max int64) error {
	if v < min || v > max {
		return IntRangeError(w.BitPos(), v, min, max)
	}
	return nil
}

// CheckFloat returns OutOfRange at the writer's position unless min <= v <= max (a
// quantized float, which is written as it is: no grid); NaN is outside.
func (w *ByteWriter) CheckFloat(v, min, max float64) error {
	if !(v >= min && v <= max) {
		return FloatRangeError(w.BitPos(), v, min, max)
	}
	return nil
}

// CheckLen returns InvalidLength at the writer's position when a list, string or
// bytes value of n elements is longer than its bound max (spec §13.3).
func (w *ByteWriter) CheckLen(n int, max uint64) error {
	if uint64(n) > max {
		return LengthError(w.BitPos(), uint64(n), max)
	}
	return nil
}

// CheckString returns InvalidUtf8 at the writer's position when s is not UTF-8. A
// Go string may hold any bytes, but every decoder rejects a string that is not
// UTF-8 (spec §13.3), so the encoder refuses to write one.
func (w *ByteWriter) CheckString(s string) error {
	if !utf8.ValidString(s) {
		return utf8Error(w.BitPos(), []byte(s), 0, uint64(len(s)))
	}
	return nil
}
