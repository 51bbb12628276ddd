package bitwire

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unicode/utf8"
)

// ByteReader reads the bincode encoding (spec §13) from a byte slice.
//
// Every read is checked against the input: running past its end is Truncated at
// the first byte of the value being read, and every check reports its error at
// that byte too (Bit = 8 × its offset, spec §13.1). The reader also holds what is
// left of the decode budget (spec §11.5, [Limits]), which every length is charged
// against before anything is allocated. A ByteReader is a value: declare it on the
// stack with [NewByteReader] and pass its address.
type ByteReader struct {
	data []byte
	// Byte offset of the next read.
	pos int
	// Bytes of the decode budget left.
	budget uint64
}

// NewByteReader returns a reader positioned at the first byte of b, with the
// default decode budget for an input of that length ([DefaultLimits]).
func NewByteReader(b []byte) ByteReader {
	return NewByteReaderWithLimits(b, DefaultLimits())
}

// NewByteReaderWithLimits returns a reader positioned at the first byte of b whose
// decode budget is what limits gives for an input of that length.
func NewByteReaderWithLimits(b []byte, limits Limits) ByteReader {
	return ByteReader{data: b, budget: limits.Budget(len(b))}
}

// BitPos returns 8 × the byte offset of the next read: the bit errors report for a
// value that starts there.
func (r *ByteReader) BitPos() uint64 {
	return uint64(r.pos) * 8
}

// Remaining returns the number of bytes left in the input.
func (r *ByteReader) Remaining() int {
	return len(r.data) - r.pos
}

// BudgetLeft returns the bytes left in the decode budget.
func (r *ByteReader) BudgetLeft() uint64 {
	return r.budget
}

// truncated returns Truncated at the reader's position for a value of at least
// need bytes.
//
//go:noinline
func (r *ByteReader) truncated(need uint64) error {
	return detailed(Truncated, r.BitPos(), Bits{bitsOf(need), uint64(r.Remaining()) * 8})
}

// bitsOf returns n bytes in bits, saturating (for details only).
func bitsOf(n uint64) uint64 {
	return satMul(n, 8)
}

// ReadU8 reads one byte.
func (r *ByteReader) ReadU8() (uint8, error) {
	if r.pos >= len(r.data) {
		return 0, r.truncated(1)
	}
	v := r.data[r.pos]
	r.pos++
	return v, nil
}

// ReadU16 reads a little-endian u16.
func (r *ByteReader) ReadU16() (uint16, error) {
	if r.Remaining() < 2 {
		return 0, r.truncated(2)
	}
	v := binary.LittleEndian.Uint16(r.data[r.pos:])
	r.pos += 2
	return v, nil
}

// ReadU32 reads a little-endian u32.
func (r *ByteReader) ReadU32() (uint32, error) {
	if r.Remaining() < 4 {
		return 0, r.truncated(4)
	}
	v := binary.LittleEndian.Uint32(r.data[r.pos:])
	r.pos += 4
	return v, nil
}

// ReadU64 reads a little-endian u64.
func (r *ByteReader) ReadU64() (uint64, error) {
	if r.Remaining() < 8 {
		return 0, r.truncated(8)
	}
	v := binary.LittleEndian.Uint64(r.data[r.pos:])
	r.pos += 8
	return v, nil
}

// ReadI8 reads a two's-complement byte.
func (r *ByteReader) ReadI8() (int8, error) {
	v, err := r.ReadU8()
	return int8(v), err
}

// ReadI16 reads a little-endian two's-complement i16.
func (r *ByteReader) ReadI16() (int16, error) {
	v, err := r.ReadU16()
	return int16(v), err
}

// ReadI32 reads a little-endian two's-complement i32.
func (r *ByteReader) ReadI32() (int32, error) {
	v, err := r.ReadU32()
	return int32(v), err
}

// ReadI64 reads a little-endian two's-complement i64.
func (r *ByteReader) ReadI64() (int64, error) {
	v, err := r.ReadU64()
	return int64(v), err
}

// readUint reads an unsigned integer of size bytes (1, 2, 4 or 8).
func (r *ByteReader) readUint(size int) (uint64, error) {
	switch size {
	case 1:
		v, err := r.ReadU8()
		return uint64(v), err
	case 2:
		v, err := r.ReadU16()
		return uint64(v), err
	case 4:
		v, err := r.ReadU32()
		return uint64(v), err
	default:
		return r.ReadU64()
	}
}

// ReadUintIn reads an unsigned integer of size bytes (1, 2, 4 or 8) whose value
// must lie in min..=max (a narrow or bounded integer, spec §13.2): OutOfRange at
// the value otherwise.
func (r *ByteReader) ReadUintIn(size int, min, max uint64) (uint64, error) {
	at := r.BitPos()
	v, err := r.readUint(size)
	if err != nil {
		return 0, err
	}
	if v < min || v > max {
		return 0, UintRangeError(at, v, min, max)
	}
	return v, nil
}

// ReadIntIn reads a two's-complement integer of size bytes (1, 2, 4 or 8) whose
// value must lie in min..=max: OutOfRange at the value otherwise.
func (r *ByteReader) ReadIntIn(size int, min, max int64) (int64, error) {
	at := r.BitPos()
	raw, err := r.readUint(size)
	if err != nil {
		return 0, err
	}
	v := SignExtend(raw, uint(size)*8)
	if v < min || v > max {
		return 0, IntRangeError(at, v, min, max)
	}
	return v, nil
}

// ReadBool reads a bool: 00 or 01, any other byte is OutOfRange (spec §13.2).
func (r *ByteReader) ReadBool() (bool, error) {
	at := r.BitPos()
	v, err := r.ReadU8()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, UintRangeError(at, uint64(v), 0, 1)
	}
	return v == 1, nil
}

// ReadOptionTag reads an optional's tag: 00 absent, 01 present, any other byte is
// InvalidEnum (spec §13.4).
func (r *ByteReader) ReadOptionTag() (bool, error) {
	at := r.BitPos()
	v, err := r.ReadU8()
	if err != nil {
		return false, err
	}
	if v > 1 {
		return false, EnumError(at, uint64(v))
	}
	return v == 1, nil
}

// ReadIndex reads an enum or union variant index, a u32 that must be below count,
// the number of variants: InvalidEnum otherwise (spec §13.2, §13.4).
func (r *ByteReader) ReadIndex(count uint32) (uint32, error) {
	at := r.BitPos()
	v, err := r.ReadU32()
	if err != nil {
		return 0, err
	}
	if v >= count {
		return 0, EnumError(at, uint64(v))
	}
	return v, nil
}

// ReadF32 reads an f32's IEEE 754 bits as they are: any NaN passes, payload kept.
func (r *ByteReader) ReadF32() (float32, error) {
	v, err := r.ReadU32()
	return math.Float32frombits(v), err
}

// ReadF64 reads an f64's IEEE 754 bits as they are.
func (r *ByteReader) ReadF64() (float64, error) {
	v, err := r.ReadU64()
	return math.Float64frombits(v), err
}

// ReadF32In reads an f32 that must lie in min..=max (a quantized float, spec
// §13.2): NaN or a value outside is OutOfRange at the value.
func (r *ByteReader) ReadF32In(min, max float64) (float32, error) {
	at := r.BitPos()
	v, err := r.ReadF32()
	if err != nil {
		return 0, err
	}
	if x := float64(v); !(x >= min && x <= max) {
		return 0, FloatRangeError(at, x, min, max)
	}
	return v, nil
}

// ReadF64In reads an f64 that must lie in min..=max: NaN or a value outside is
// OutOfRange at the value.
func (r *ByteReader) ReadF64In(min, max float64) (float64, error) {
	at := r.BitPos()
	v, err := r.ReadF64()
	if err != nil {
		return 0, err
	}
	if !(v >= min && v <= max) {
		return 0, FloatRangeError(at, v, min, max)
	}
	return v, nil
}

// ReadLen reads the u64 length of a list, string or bytes value whose every length
// is allowed, and checks it (spec §13.3) in this order, before anything is
// allocated: n elements of at least minBytes bytes each must fit in the rest of the
// input (else Truncated); the charge of n elements of perElem bytes (spec §11.5:
// n × perElem plus AllocationOverhead, nothing for n = 0) must be at most the
// budget left (else LimitExceeded), and is then taken from it; n must fit in an int
// (else LimitExceeded). Every error is at the length's first byte.
func (r *ByteReader) ReadLen(minBytes, perElem uint64) (int, error) {
	start := r.pos
	n, err := r.ReadU64()
	if err != nil {
		return 0, err
	}
	return r.checkLen(n, minBytes, perElem, start)
}

// ReadLenMax is ReadLen for a value with a bound: a length above max is
// InvalidLength at the value, checked first.
func (r *ByteReader) ReadLenMax(max, minBytes, perElem uint64) (int, error) {
	start := r.pos
	n, err := r.ReadU64()
	if err != nil {
		return 0, err
	}
	if n > max {
		return 0, LengthError(uint64(start)*8, n, max)
	}
	return r.checkLen(n, minBytes, perElem, start)
}

// checkLen is the rest of ReadLen's checks of a length n that started at byte
// start.
func (r *ByteReader) checkLen(n, minBytes, perElem uint64, start int) (int, error) {
	// The common case in one test: every product fits, the elements fit in the
	// input, the charge in the budget, the length in an int.
	hi, need := bits.Mul64(n, minBytes)
	hi2, size := bits.Mul64(n, perElem)
	cost := size + AllocationOverhead
	if n == 0 {
		cost = 0
	}
	left := uint64(r.Remaining())
	if hi|hi2 == 0 && need <= left && size < 1<<63 && cost <= r.budget && n <= math.MaxInt {
		r.budget -= cost
		return int(n), nil
	}
	return 0, r.lenError(n, minBytes, perElem, start)
}

// lenError is ReadLen's error, in the order ReadLen lists them.
//
//go:noinline
func (r *ByteReader) lenError(n, minBytes, perElem uint64, start int) error {
	at := uint64(start) * 8
	left := uint64(r.Remaining())
	if hi, need := bits.Mul64(n, minBytes); hi != 0 || need > left {
		if hi != 0 {
			need = math.MaxUint64
		}
		return detailed(Truncated, at, Bits{bitsOf(need), left * 8})
	}
	if cost := charge(n, perElem); cost > r.budget {
		return detailed(LimitExceeded, at, Budget{cost, r.budget})
	}
	// The length does not fit an int: no slice can hold it.
	return detailed(LimitExceeded, at, Length{n, math.MaxInt})
}

// ReadString reads the n bytes of a string (a length read with ReadLen or
// ReadLenMax) whose length started at bit start; bytes that are not UTF-8 are
// InvalidUtf8 at start. When the bytes equal old (the destination's current value),
// old is returned, so decoding into a value whose strings did not change allocates
// nothing; otherwise the string is allocated once.
func (r *ByteReader) ReadString(n int, start uint64, old string) (string, error) {
	if n < 0 || n > r.Remaining() {
		return "", r.truncated(uint64(n))
	}
	b := r.data[r.pos : r.pos+n]
	if !utf8.Valid(b) {
		return "", utf8Error(start, b, 0, uint64(n))
	}
	r.pos += n
	if string(b) == old {
		return old, nil
	}
	return string(b), nil
}

// ReadBytes reads n bytes (a length read with ReadLen or ReadLenMax) and appends
// them to dst, which generated code passes as the destination's old slice cut to
// length zero, so that its capacity is reused.
func (r *ByteReader) ReadBytes(n int, dst []byte) ([]byte, error) {
	if n < 0 || n > r.Remaining() {
		return dst, r.truncated(uint64(n))
	}
	dst = append(dst, r.data[r.pos:r.pos+n]...)
	r.pos += n
	return dst, nil
}

// ReadByteArray fills dst from the input: a [u8; N], which has no length (spec
// §13.3). When the input ends inside it, the error is Truncated at the first
// missing element, with its index as the path ("[3]"), as reading one u8 at a time
// would report.
func (r *ByteReader) ReadByteArray(dst []byte) error {
	if err := r.needArray(len(dst), 1); err != nil {
		return err
	}
	r.pos += copy(dst, r.data[r.pos:])
	return nil
}

// needArray returns the error of an array of n elements of size bytes each when
// the input ends inside it: Truncated at the first element whose bytes run out,
// with its index as the path.
func (r *ByteReader) needArray(n, size int) error {
	left := r.Remaining()
	if n <= left/size {
		return nil
	}
	return r.arrayTruncated(size)
}

// arrayTruncated is needArray's error.
//
//go:noinline
func (r *ByteReader) arrayTruncated(size int) error {
	left := r.Remaining()
	i := left / size
	at := uint64(r.pos+i*size) * 8
	err := detailed(Truncated, at, Bits{uint64(size) * 8, uint64(left-i*size) * 8})
	return AtIndex(err, i)
}

// Skip advances past n bytes, or returns Truncated at the reader's position if
// fewer remain (the elements of a list of plain numbers, whose length check made
// sure they are there).
func (r *ByteReader) Skip(n int) error {
	if n < 0 || n > r.Remaining() {
		return r.truncated(uint64(n))
	}
	r.pos += n
	return nil
}

// SkipArray advances past an array of n elements of size bytes each (a [u8; N], or
// an array of plain numbers), or returns ReadByteArray's error: Truncated at the
// first element whose bytes run out.
func (r *ByteReader) SkipArray(n, size int) error {
	if err := r.needArray(n, size); err != nil {
		return err
	}
	r.pos += n * size
	return nil
}

// SkipString checks the n bytes of a string whose length started at bit start as
// ReadString does, and advances past them without allocating.
func (r *ByteReader) SkipString(n int, start uint64) error {
	if n < 0 || n > r.Remaining() {
		return r.truncated(uint64(n))
	}
	if b := r.data[r.pos : r.pos+n]; !utf8.Valid(b) {
		return utf8Error(start, b, 0, uint64(n))
	}
	r.pos += n
	return nil
}

// Finish ends a top-level decode: no bytes may follow the value (spec §13.5), else
// TrailingData at the first of them.
func (r *ByteReader) Finish() error {
	if r.pos == len(r.data) {
		return nil
	}
	return detailed(TrailingData, r.BitPos(), Trailing{uint64(len(r.data)), uint64(r.pos)})
}
