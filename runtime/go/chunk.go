package bitwire

// Chunk is up to 64 bits read with one load ([BitReader.ReadChunk]), from which
// generated code extracts the scalars of a fixed-width run at constant offsets.
//
// When the input ends inside the chunk, Avail says how many bits are real; Get
// reports Truncated at the first scalar that reaches past them — the scalar a
// scalar-by-scalar decoder would stop at (spec §7.2).
type Chunk struct {
	// Word holds the chunk's bits, the first in bit 0. Bits past the end of the
	// input are zero; bits past the chunk's own width are unspecified (scalars are
	// extracted with their widths).
	Word uint64
	// Avail is how many bits of the chunk the input held.
	Avail uint
	// Start is the stream bit offset of the chunk's first bit.
	Start uint64
}

// RunField describes one scalar of a run for [Chunk.Truncated]: its offset and
// width in the chunk, and its path from the struct being read — one schema name for
// a field of the struct, more for a field of a fixed-width struct nested in it
// ([]string{"buttons", "fire"}).
type RunField struct {
	Offset uint
	Bits   uint
	Path   []string
}

// Bits returns the n-bit scalar at offset bits into the chunk without a truncation
// check: bits past the end of the input read as zero. Generated code uses it for
// scalars whose truncation it checks with one comparison of Avail per run.
func (c Chunk) Bits(offset, n uint) uint64 {
	v := c.Word >> (offset & 63)
	if n >= 64 {
		return v
	}
	return v & (1<<n - 1)
}

// Get returns the n-bit scalar at offset bits into the chunk, or Truncated there if
// the input ended before its last bit.
func (c Chunk) Get(offset, n uint) (uint64, error) {
	if offset+n > c.Avail {
		return 0, chunkTruncated(c.Start, c.Avail, offset, n)
	}
	return c.Bits(offset, n), nil
}

// chunkTruncated is the Truncated error of the n-bit scalar at offset in a chunk
// at start of which the input held avail bits.
//
//go:noinline
func chunkTruncated(start uint64, avail, offset, n uint) *Error {
	left := uint64(0)
	if avail > offset {
		left = uint64(avail - offset)
	}
	return detailed(Truncated, start+uint64(offset), Bits{uint64(n), left})
}

// Truncated returns the Truncated error of a run whose input ended early: fields
// lists the run's scalars in stream order, and the error names the first one that
// reaches past the end, as a scalar-by-scalar decoder would, with its path.
//
//go:noinline
func (c Chunk) Truncated(fields []RunField) error {
	for _, f := range fields {
		if f.Offset+f.Bits > c.Avail {
			e := chunkTruncated(c.Start, c.Avail, f.Offset, f.Bits)
			for i := len(f.Path) - 1; i >= 0; i-- {
				e.Path = prependField(f.Path[i], e.Path)
			}
			return e
		}
	}
	return NewError(Truncated, c.Start+uint64(c.Avail))
}

// BoundedError returns OutOfRange for the signed bounded integer at offset whose
// stored offset raw is above max - min (§4.2); the detail shows the value min + raw.
//
//go:noinline
func (c Chunk) BoundedError(offset uint, raw uint64, min, max int64) error {
	v := IntOf(min).add(raw)
	return detailed(OutOfRange, c.Start+uint64(offset), Range{v, IntOf(min), IntOf(max)})
}

// BoundedUintError is BoundedError for an unsigned bounded integer.
//
//go:noinline
func (c Chunk) BoundedUintError(offset uint, raw uint64, min, max uint64) error {
	v := UintOf(min).add(raw)
	return detailed(OutOfRange, c.Start+uint64(offset), Range{v, UintOf(min), UintOf(max)})
}

// StepsError returns OutOfRange for the quantized float at offset whose stored
// integer q is above steps (§4.3).
//
//go:noinline
func (c Chunk) StepsError(offset uint, q, steps uint64) error {
	return detailed(OutOfRange, c.Start+uint64(offset), Steps{q, steps})
}

// EnumError returns InvalidEnum for the undeclared enum value or union tag v at
// offset (§3, §5.2).
//
//go:noinline
func (c Chunk) EnumError(offset uint, v uint64) error {
	return EnumError(c.Start+uint64(offset), v)
}
