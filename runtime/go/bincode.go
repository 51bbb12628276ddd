package bitwire

// The bincode encoding (spec §13): a second, byte-aligned encoding of the same
// values, byte-identical with what bincode 1.3's bincode::serialize and wincode's
// default configuration write for the equivalent Rust types. Every value is a whole
// number of bytes, integers are little-endian in the width of their Rust type,
// lengths are u64, option tags u8, enum and union indices u32; nothing is padded.
//
// Generated code (bitwire gen --encoding bincode) writes through a [ByteWriter] and
// reads through a [ByteReader]; lists and arrays of plain numbers move in bulk
// ([WriteLanes], [ReadLanes]). Errors are the same [*Error] as the packed
// encoding's, with Bit = 8 × the byte offset of the failing value's first byte.

// RuntimeAPIVersion6 exists in every runtime that provides version 6 of the API
// generated code calls (version 6: the bincode encoding of spec §13, [ByteWriter],
// [ByteReader], [Bincode]), and of every earlier version, which this runtime still
// provides. Only code generated with --encoding bincode refers to it; the code of
// other schemas still refers to [RuntimeAPIVersion4] or [RuntimeAPIVersion5].
const RuntimeAPIVersion6 = 6

// Bincode is implemented (through a pointer) by every type the compiler generates
// with --encoding bincode: WriteBincode writes the value's bincode bytes at the
// writer's position, ReadBincode sets the value from the reader's position.
// Generated types call each other through these methods; test harnesses and
// framing layers use the interface to handle any generated type.
type Bincode interface {
	WriteBincode(w *ByteWriter) error
	ReadBincode(r *ByteReader) error
}

// AppendBincode appends the bincode encoding of v (spec §13) to dst; on error it
// returns dst unchanged. Generated AppendBincode methods do the same without the
// interface call.
func AppendBincode(dst []byte, v Bincode) ([]byte, error) {
	w := NewByteWriter(dst)
	if err := v.WriteBincode(&w); err != nil {
		return dst, err
	}
	return w.Bytes(), nil
}

// DecodeBincode sets v from the whole of b (no bytes may follow the value, spec
// §13.5), with the default decode budget. Generated DecodeBincode methods do the
// same without the interface call.
func DecodeBincode(b []byte, v Bincode) error {
	return DecodeBincodeWithLimits(b, v, DefaultLimits())
}

// DecodeBincodeWithLimits is DecodeBincode with the decode budget of limits (spec
// §11.5, §13.7) instead of the default one.
func DecodeBincodeWithLimits(b []byte, v Bincode, limits Limits) error {
	r := NewByteReaderWithLimits(b, limits)
	if err := v.ReadBincode(&r); err != nil {
		return err
	}
	return r.Finish()
}
