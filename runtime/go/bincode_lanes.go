package bitwire

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
)

// Lane is the element type of a sequence the bincode encoding moves in bulk (spec
// §13.8): a number whose schema type is its whole Go type (u16…u64, i8…i64, the
// varint types, f32, f64). The wire holds such a sequence as the little-endian
// bytes of the Go slice, so on a little-endian host one copy moves it
// (bincode_lanes_le.go); elsewhere it moves value by value (bincode_lanes_be.go).
// A []uint8 is a bytes value instead ([ByteWriter.WriteBytes]).
type Lane interface {
	int8 | uint16 | int16 | uint32 | int32 | uint64 | int64 | float32 | float64
}

// bulkAlignMin is the size from which appendBulk (bincode_lanes_le.go) aligns the
// destination of a copy.
const bulkAlignMin = 4096

// WriteLanes writes the elements of s, little-endian, floats as their bits (NaN
// payloads kept), with no length: a list's length is written first with
// [ByteWriter.WriteLen], an array has none.
func WriteLanes[T Lane](w *ByteWriter, s []T) {
	w.buf = appendLanes(w.buf, s)
}

// ReadLanes reads n elements (a length read with [ByteReader.ReadLen] or
// [ByteReader.ReadLenMax], whose check made sure they are in the input) into dst
// resized to n, reusing its backing array when it is large enough, and returns the
// slice. Input that does not hold n elements is Truncated at the reader's position.
func ReadLanes[T Lane](r *ByteReader, n int, dst []T) ([]T, error) {
	size := laneSize[T]()
	if n < 0 || n > r.Remaining()/size {
		return dst, r.truncated(satMul(uint64(n), uint64(size)))
	}
	dst = Resize(dst, n)
	loadLanes(dst, r.data[r.pos:r.pos+n*size])
	r.pos += n * size
	return dst, nil
}

// ReadLaneArray fills dst, an array of plain numbers (no length, spec §13.3). When
// the input ends inside it, the error is Truncated at the first element whose
// bytes run out, with its index as the path, as reading one element at a time
// would report.
func ReadLaneArray[T Lane](r *ByteReader, dst []T) error {
	size := laneSize[T]()
	if err := r.needArray(len(dst), size); err != nil {
		return err
	}
	loadLanes(dst, r.data[r.pos:r.pos+len(dst)*size])
	r.pos += len(dst) * size
	return nil
}

// satMul returns a × b, saturating (for details only).
func satMul(a, b uint64) uint64 {
	if hi, lo := bits.Mul64(a, b); hi == 0 {
		return lo
	}
	return math.MaxUint64
}

// laneSize returns the bytes of one T.
func laneSize[T Lane]() int {
	var zero T
	switch any(zero).(type) {
	case int8:
		return 1
	case uint16, int16:
		return 2
	case uint32, int32, float32:
		return 4
	}
	return 8
}

// appendLanesPortable appends the little-endian bytes of s to dst value by value:
// what appendLanes does on a big-endian host, and what its one copy must equal on a
// little-endian one (bincode_lanes_test.go).
func appendLanesPortable[T Lane](dst []byte, s []T) []byte {
	size := laneSize[T]()
	off := len(dst)
	dst = slices.Grow(dst, len(s)*size)[:off+len(s)*size]
	out := dst[off:]
	le := binary.LittleEndian
	switch s := any(s).(type) {
	case []int8:
		for i, v := range s {
			out[i] = byte(v)
		}
	case []uint16:
		for i, v := range s {
			le.PutUint16(out[2*i:2*i+2], v)
		}
	case []int16:
		for i, v := range s {
			le.PutUint16(out[2*i:2*i+2], uint16(v))
		}
	case []uint32:
		for i, v := range s {
			le.PutUint32(out[4*i:4*i+4], v)
		}
	case []int32:
		for i, v := range s {
			le.PutUint32(out[4*i:4*i+4], uint32(v))
		}
	case []float32:
		for i, v := range s {
			le.PutUint32(out[4*i:4*i+4], math.Float32bits(v))
		}
	case []uint64:
		for i, v := range s {
			le.PutUint64(out[8*i:8*i+8], v)
		}
	case []int64:
		for i, v := range s {
			le.PutUint64(out[8*i:8*i+8], uint64(v))
		}
	case []float64:
		for i, v := range s {
			le.PutUint64(out[8*i:8*i+8], math.Float64bits(v))
		}
	}
	return dst
}

// loadLanesPortable fills dst from the little-endian bytes src (at least
// len(dst) × the lane's size of them) value by value.
func loadLanesPortable[T Lane](dst []T, src []byte) {
	le := binary.LittleEndian
	switch d := any(dst).(type) {
	case []int8:
		for i := range d {
			d[i] = int8(src[i])
		}
	case []uint16:
		for i := range d {
			d[i] = le.Uint16(src[2*i : 2*i+2])
		}
	case []int16:
		for i := range d {
			d[i] = int16(le.Uint16(src[2*i : 2*i+2]))
		}
	case []uint32:
		for i := range d {
			d[i] = le.Uint32(src[4*i : 4*i+4])
		}
	case []int32:
		for i := range d {
			d[i] = int32(le.Uint32(src[4*i : 4*i+4]))
		}
	case []float32:
		for i := range d {
			d[i] = math.Float32frombits(le.Uint32(src[4*i : 4*i+4]))
		}
	case []uint64:
		for i := range d {
			d[i] = le.Uint64(src[8*i : 8*i+8])
		}
	case []int64:
		for i := range d {
			d[i] = int64(le.Uint64(src[8*i : 8*i+8]))
		}
	case []float64:
		for i := range d {
			d[i] = math.Float64frombits(le.Uint64(src[8*i : 8*i+8]))
		}
	}
}
