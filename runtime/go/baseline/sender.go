package baseline

import bitwire "github.com/bitwire-dev/bitwire/runtime/go"

// Codec is how a [Sender] and a [Receiver] encode and decode values of T: the full
// encoding (spec §2) and the delta encoding (spec §12) of a delta message. Each
// function takes the value first, as a method takes its receiver, so the generated
// methods fit as method expressions: Append: (*T).AppendTo, Decode:
// (*T).DecodeWithLimits.
type Codec[T any] struct {
	// Append appends the full top-level encoding of v to dst.
	Append func(v *T, dst []byte) ([]byte, error)
	// AppendDelta appends the top-level delta encoding of v against base to dst.
	AppendDelta func(v *T, dst []byte, base *T) ([]byte, error)
	// Decode decodes v from the whole of data, a full encoding, within limits.
	Decode func(v *T, data []byte, limits bitwire.Limits) error
	// DecodeDelta decodes v from the whole of data, a delta against base, within
	// limits. v and base are never the same value.
	DecodeDelta func(v, base *T, data []byte, limits bitwire.Limits) error
}

// Sender is the sending end for one peer (docs/framing.md §10.3): a ring of the last
// N snapshots sent, the newest one the peer acknowledged, and whether it asked for a
// full snapshot. It is not safe for concurrent use.
type Sender[T any] struct {
	codec         Codec[T]
	ring          ring[T]
	pending       T      // the value being encoded: a field, so &pending does not allocate
	last          uint64 // the last snapshot encoded, unwrapped, when sent
	sent          bool
	acked         uint64 // the newest acknowledged snapshot, unwrapped, when hasAck
	hasAck        bool
	fullRequested bool
}

// NewSender returns a sender keeping the last ring snapshots ([DefaultRing] is 32).
// The receiver's ring must be at least as large: a delta further back than it reaches
// is [BaselineStale] there. It panics unless ring is in 1..=255.
func NewSender[T any](codec Codec[T], ring int) *Sender[T] {
	return &Sender[T]{codec: codec, ring: newRing[T](ring)}
}

// Ack records that the peer decoded snapshot seq (the acknowledgement in its input
// message). Acknowledgements older than the newest one so far, or of a snapshot no
// longer in the ring, change nothing; one of a snapshot never sent (newer than the
// last one sent in serial-number arithmetic, or before the first) is [AckNotSent]
// and changes nothing either.
func (s *Sender[T]) Ack(seq uint16) error {
	ext, ok := uint64(0), false
	if s.sent {
		ext, ok = unwrapSeq(s.last, seq)
	}
	if !ok || ext > s.last {
		last := -1
		if s.sent {
			last = int(uint16(s.last))
		}
		return &Error{Kind: AckNotSent, Seq: seq, Last: last}
	}
	if (!s.hasAck || ext > s.acked) && s.ring.get(ext) != nil {
		s.acked, s.hasAck = ext, true
	}
	return nil
}

// RequestFull records that the peer asked for a full snapshot (Quake 3's
// clc_moveNoDelta: its [Receiver.NeedFull]): the next Encode sends one.
func (s *Sender[T]) RequestFull() { s.fullRequested = true }

// Encode appends the envelope of the next snapshot to dst: its header, then v
// encoded against the newest acknowledged snapshot still in the ring, or in full
// (Back 0) when there is none or a full snapshot was requested. It then keeps v under
// its sequence number (v's slices and maps must not change afterwards) and returns
// the extended dst and the header. An encoding error ([Message], the packed error
// inside) returns dst unchanged and leaves the sender as it was.
func (s *Sender[T]) Encode(dst []byte, v T) ([]byte, Header, error) {
	ext := uint64(0)
	if s.sent {
		ext = s.last + 1
	}
	var base *T
	if s.hasAck && !s.fullRequested {
		base = s.ring.get(s.acked)
	}
	h := Header{Seq: uint16(ext)}
	if base != nil {
		// The acknowledged snapshot is in the ring, so at most N back.
		h.Back = uint8(ext - s.acked)
	}
	out := h.AppendTo(dst)
	var err error
	s.pending = v
	if base != nil {
		out, err = s.codec.AppendDelta(&s.pending, out, base)
	} else {
		out, err = s.codec.Append(&s.pending, out)
	}
	var zero T
	s.pending = zero // holds no references between calls
	if err != nil {
		return dst, Header{}, &Error{Kind: Message, Err: err}
	}
	*s.ring.at(ext) = slot[T]{ext: ext, used: true, value: v}
	s.last, s.sent, s.fullRequested = ext, true, false
	return out, h, nil
}

// LastSeq returns the sequence number of the last snapshot encoded, and false before
// the first.
func (s *Sender[T]) LastSeq() (uint16, bool) { return uint16(s.last), s.sent }

// Acked returns the newest acknowledged snapshot (the next delta's baseline while it
// is in the ring), and false when there is none.
func (s *Sender[T]) Acked() (uint16, bool) { return uint16(s.acked), s.hasAck }

// RingSize returns N.
func (s *Sender[T]) RingSize() int { return s.ring.size() }
