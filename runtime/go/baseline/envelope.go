package baseline

import bitwire "github.com/bitwire-dev/bitwire/runtime/go"

// Envelope is a snapshot envelope as a message (docs/framing.md §10.8): the Data of
// a frame of a delta message, kept as it is — the 3-byte [Header], then the body —
// for a [Receiver] to decode. Generated code embeds it in one type per delta message
// (WorldEnvelope for message World), which adds the message id: that type is what
// the generated NewMessage, DecodeMessage and Messages set hold for the message, so
// a connection reads its frames without decoding them as the message's full
// encoding, and writes them as they are.
//
// To send a snapshot, encode it into Data ([Sender.Encode] with Data[:0], which
// reuses its capacity) and write the generated type; to receive one, pass Data to
// [Receiver.Decode]. Reading an envelope copies the frame's Data into Data, reusing
// its capacity: reading into a reused Messages set does not allocate once Data has
// grown. Writing or reading fewer than 3 bytes is a *bitwire.Error of kind
// Truncated at bit 0 (on a connection, a frame error of kind FrameMessage).
type Envelope struct {
	// Data is the whole envelope: the header, then the body.
	Data []byte
}

// Header returns the envelope's header; fewer than [HeaderSize] bytes is an
// [*Error] of kind [Truncated].
func (e *Envelope) Header() (Header, error) {
	h, _, err := ReadHeader(e.Data)
	return h, err
}

// Body returns the body: the snapshot's full encoding when the header's Back is 0,
// else its delta; nil when Data is shorter than a header.
func (e *Envelope) Body() []byte {
	if len(e.Data) < HeaderSize {
		return nil
	}
	return e.Data[HeaderSize:]
}

// AppendTo appends Data to dst; on error (fewer than 3 bytes) it returns dst
// unchanged. Framing writes a message with it.
func (e *Envelope) AppendTo(dst []byte) ([]byte, error) {
	if err := checkLen(len(e.Data), 0); err != nil {
		return dst, err
	}
	return append(dst, e.Data...), nil
}

// DecodeWithLimits sets Data to a copy of b, reusing Data's capacity; b must hold at
// least a header. Framing reads a message with it. The body is not looked at: the
// receiver decodes it, within its own limits.
func (e *Envelope) DecodeWithLimits(b []byte, _ bitwire.Limits) error {
	if err := checkLen(len(b), 0); err != nil {
		return err
	}
	e.Data = append(e.Data[:0], b...)
	return nil
}

// WritePacked writes Data (bitwire.Packed), as AppendTo does.
func (e *Envelope) WritePacked(w *bitwire.BitWriter) error {
	if err := checkLen(len(e.Data), w.BitPos()); err != nil {
		return err
	}
	w.WriteBytes(e.Data)
	return nil
}

// ReadPacked reads every whole byte left in r into Data (bitwire.Packed), as
// DecodeWithLimits does.
func (e *Envelope) ReadPacked(r *bitwire.BitReader) error {
	n := int(r.RemainingBits() / 8)
	if err := checkLen(n, r.BitPos()); err != nil {
		return err
	}
	data, err := r.ReadRawBytes(n, e.Data[:0])
	if err != nil {
		return err
	}
	e.Data = data
	return nil
}

// checkLen returns Truncated at bit for an envelope of n bytes, shorter than its
// header.
func checkLen(n int, bit uint64) error {
	if n >= HeaderSize {
		return nil
	}
	return &bitwire.Error{
		Kind:   bitwire.Truncated,
		Bit:    bit,
		Detail: bitwire.Bits{Need: 8 * HeaderSize, Left: 8 * uint64(n)},
	}
}
