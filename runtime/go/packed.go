package bitwire

import "strconv"

// Packed is implemented (through a pointer) by every type the compiler generates:
// WritePacked writes the value's bit stream at the writer's position, without
// padding; ReadPacked sets the value from the reader's position. Generated types
// call each other through these methods; framing layers and test harnesses use the
// interface to handle any generated type.
type Packed interface {
	WritePacked(w *BitWriter) error
	ReadPacked(r *BitReader) error
}

// Message is implemented by the generated types of schema messages (spec §2.3):
// their dispatch id besides their packed encoding.
type Message interface {
	Packed
	// MessageID returns the message's dispatch id.
	MessageID() uint32
}

// AppendPacked appends the top-level encoding of v (spec §2.1: its bit stream padded
// with zero bits to a byte) to dst; on error it returns dst unchanged. Generated
// AppendTo methods do the same without the interface call.
func AppendPacked(dst []byte, v Packed) ([]byte, error) {
	w := NewBitWriter(dst)
	if err := v.WritePacked(&w); err != nil {
		return dst, err
	}
	return w.Finish(), nil
}

// DecodePacked sets v from the whole of b (spec §2.2: zero padding, no trailing
// bytes), with the default decode budget. Generated Decode methods do the same
// without the interface call.
func DecodePacked(b []byte, v Packed) error {
	return DecodePackedWithLimits(b, v, DefaultLimits())
}

// DecodePackedWithLimits is DecodePacked with the decode budget of limits (spec
// §11) instead of the default one.
func DecodePackedWithLimits(b []byte, v Packed, limits Limits) error {
	r := NewBitReaderWithLimits(b, limits)
	if err := v.ReadPacked(&r); err != nil {
		return err
	}
	return r.Finish()
}

// Resize returns s with length n, reusing its backing array when it is large
// enough. Decoders call it after a length was checked (§5.6), then overwrite every
// element, so stale contents never show.
func Resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// UnknownName is the String form of an enum value or union tag that the schema
// does not declare: "Team(7)".
func UnknownName(typeName string, v uint64) string {
	return typeName + "(" + strconv.FormatUint(v, 10) + ")"
}
