package bitwire

// Chunk is up to 64 bits read with one load ([BitReader.ReadChunk]), from which
// generated code extracts the fields of a fixed-width run at constant offsets.
//
// When the input ends inside the chunk, Avail says how many bits are real; Get
// reports Truncated at the first field that reaches past them — the field a
// field-by-field decoder would stop at (spec §7.2).
type Chunk struct {
	// Word holds the chunk's bits, the first in bit 0. Bits past the end of the
	// input are zero; bits past the chunk's own width are unspecified (fields are
	// extracted with their widths).
	Word uint64
	// Avail is how many bits of the chunk the input held.
	Avail uint
	// Start is the stream bit offset of the chunk's first bit.
	Start uint64
}

// RunField describes one field of a run for [Chunk.Truncated]: its offset and
// width in the chunk and its schema name.
type RunField struct {
	Offset uint
	Bits   uint
	Name   string
}

// Bits returns the n-bit field at offset bits into the chunk without a truncation
// check: bits past the end of the input read as zero. Generated code uses it for
// fields that need no validation and compares Avail once per run.
func (c Chunk) Bits(offset, n uint) uint64 {
	v := c.Word >> (offset & 63)
	if n >= 64 {
		return v
	}
	return v & (1<<n - 1)
}

// Get returns the n-bit field at offset bits into the chunk, or Truncated there if
// the input ended before the field's last bit.
func (c Chunk) Get(offset, n uint) (uint64, error) {
	if offset+n > c.Avail {
		return 0, NewError(Truncated, c.Start+uint64(offset))
	}
	return c.Bits(offset, n), nil
}

// GetInt returns the n-bit two's-complement field at offset, sign-extended.
func (c Chunk) GetInt(offset, n uint) (int64, error) {
	v, err := c.Get(offset, n)
	return SignExtend(v, n), err
}

// GetF32 returns the f32 at offset; a non-canonical NaN is NonCanonical there.
func (c Chunk) GetF32(offset uint) (float32, error) {
	v, err := c.Get(offset, 32)
	if err != nil {
		return 0, err
	}
	return F32FromWire(v, c.Start+uint64(offset))
}

// GetF64 returns the f64 at offset; a non-canonical NaN is NonCanonical there.
func (c Chunk) GetF64(offset uint) (float64, error) {
	v, err := c.Get(offset, 64)
	if err != nil {
		return 0, err
	}
	return F64FromWire(v, c.Start+uint64(offset))
}

// GetQuantized returns the quantized float stored in n bits at offset (§4.3); a
// stored integer above steps is OutOfRange there. The result is the binary64 grid
// value.
func (c Chunk) GetQuantized(offset, n uint, min, max float64, steps uint64) (float64, error) {
	q, err := c.Get(offset, n)
	if err != nil {
		return 0, err
	}
	if q > steps {
		return 0, c.Error(OutOfRange, offset)
	}
	return Dequantize(q, min, max, steps), nil
}

// Error returns an error of kind for the field at offset bits into the chunk.
func (c Chunk) Error(kind Kind, offset uint) error {
	return NewError(kind, c.Start+uint64(offset))
}

// Truncated returns the Truncated error of a run whose input ended early: fields
// lists the run's fields in order, and the error names the first one that reaches
// past the end, as a field-by-field decoder would.
//
//go:noinline
func (c Chunk) Truncated(fields []RunField) error {
	for _, f := range fields {
		if f.Offset+f.Bits > c.Avail {
			return InField(NewError(Truncated, c.Start+uint64(f.Offset)), f.Name)
		}
	}
	return NewError(Truncated, c.Start+uint64(c.Avail))
}
