package baseline

// DefaultRing is the ring size by default: the last 32 snapshots (Quake 3's
// PACKET_BACKUP), half a second at 60 Hz.
const DefaultRing = 32

// HeaderSize is the size of a [Header] on the wire in bytes.
const HeaderSize = 3

// Header is the header of a snapshot envelope (docs/framing.md §10.1): the
// snapshot's sequence number and how many snapshots back its baseline is.
type Header struct {
	// Seq is the snapshot's sequence number modulo 2^16: the sender numbers the
	// snapshots it sends to one peer 0, 1, 2, …
	Seq uint16
	// Back is 0 when the body is the snapshot's full encoding (spec §2), else k: the
	// body is its delta (spec §12) against snapshot Seq - k (modulo 2^16).
	Back uint8
}

// Base returns the baseline's sequence number, and false for a full snapshot.
func (h Header) Base() (uint16, bool) {
	return h.Seq - uint16(h.Back), h.Back != 0
}

// AppendTo appends the header's bytes (Seq little-endian, then Back) to dst.
func (h Header) AppendTo(dst []byte) []byte {
	return append(dst, byte(h.Seq), byte(h.Seq>>8), h.Back)
}

// ReadHeader reads the header at the front of an envelope and returns it and the
// body (the rest of packet). Fewer than [HeaderSize] bytes is [Truncated]; every
// header value is valid (whether its baseline is usable is the receiver's question).
func ReadHeader(packet []byte) (Header, []byte, error) {
	if len(packet) < HeaderSize {
		return Header{}, nil, &Error{Kind: Truncated, Len: len(packet)}
	}
	h := Header{Seq: uint16(packet[0]) | uint16(packet[1])<<8, Back: packet[2]}
	return h, packet[HeaderSize:], nil
}

// SeqNewer reports whether sequence number a is newer than b in serial-number
// arithmetic on 16 bits (RFC 1982): a - b modulo 2^16 is in 1..=32767.
func SeqNewer(a, b uint16) bool {
	d := a - b
	return d != 0 && d < 0x8000
}
