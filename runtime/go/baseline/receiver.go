package baseline

import bitwire "github.com/bitwire-dev/bitwire/runtime/go"

// Receiver is the receiving end (docs/framing.md §10.4): a ring of the last N
// snapshots decoded, the newest one's sequence number (what the client
// acknowledges) and whether to ask for a full snapshot. It is not safe for
// concurrent use.
type Receiver[T any] struct {
	codec    Codec[T]
	ring     ring[T]
	scratch  T // what a body decodes into before it takes its slot
	newest   uint64
	has      bool
	needFull bool
	limits   bitwire.Limits
}

// NewReceiver returns a receiver keeping the last ring snapshots (at least the
// sender's ring size; [DefaultRing] is 32), decoding with bitwire.DefaultLimits. It
// panics unless ring is in 1..=255.
func NewReceiver[T any](codec Codec[T], ring int) *Receiver[T] {
	return &Receiver[T]{codec: codec, ring: newRing[T](ring), limits: bitwire.DefaultLimits()}
}

// SetLimits sets the decode budget of the bodies (spec §11).
func (r *Receiver[T]) SetLimits(limits bitwire.Limits) { r.limits = limits }

// Ack returns the sequence number of the newest snapshot decoded — what the client
// puts in its input messages for [Sender.Ack] — and false before the first.
func (r *Receiver[T]) Ack() (uint16, bool) { return uint16(r.newest), r.has }

// NeedFull reports whether to ask for a full snapshot: set when Decode fails,
// cleared when it succeeds. The client sends it in its input messages; the server
// calls [Sender.RequestFull].
func (r *Receiver[T]) NeedFull() bool { return r.needFull }

// Latest returns the newest snapshot decoded and its sequence number, or nil.
func (r *Receiver[T]) Latest() (uint16, *T) {
	if !r.has {
		return 0, nil
	}
	return uint16(r.newest), r.ring.get(r.newest)
}

// RingSize returns N.
func (r *Receiver[T]) RingSize() int { return r.ring.size() }

// Decode decodes a snapshot envelope (a frame's Data), in the order of
// docs/framing.md §10.4:
//
//  1. fewer than 3 bytes: [Truncated];
//  2. a sequence number not newer than the newest decoded (a duplicate or a late
//     packet): the header and a nil value, no error; nothing is read or changed;
//  3. a delta whose Back is above the ring size: [BaselineStale]; whose baseline the
//     ring does not hold: [BaselineMissing] — both before reading the body;
//  4. a body that does not decode: [Message], with the packed error inside.
//
// Any error sets NeedFull and changes nothing else; a decoded snapshot clears it, is
// stored and becomes the newest. The value returned lives in the ring: it stays
// valid until N more snapshots are decoded (copy it to keep it longer).
func (r *Receiver[T]) Decode(packet []byte) (Header, *T, error) {
	h, body, err := ReadHeader(packet)
	if err != nil {
		r.needFull = true
		return h, nil, err
	}
	ext := uint64(h.Seq)
	if r.has {
		var ok bool
		ext, ok = unwrapSeq(r.newest, h.Seq)
		if !ok || ext <= r.newest {
			return h, nil, nil
		}
	}
	if err := r.decodeBody(ext, h, body); err != nil {
		r.needFull = true
		return h, nil, err
	}
	s := r.ring.at(ext)
	s.value, r.scratch = r.scratch, s.value
	s.ext, s.used = ext, true
	r.newest, r.has, r.needFull = ext, true, false
	return h, &s.value, nil
}

// decodeBody decodes the body of snapshot ext into r.scratch (steps 3 and 4).
func (r *Receiver[T]) decodeBody(ext uint64, h Header, body []byte) error {
	var err error
	if h.Back == 0 {
		err = r.codec.Decode(&r.scratch, body, r.limits)
	} else {
		if int(h.Back) > r.ring.size() {
			return &Error{Kind: BaselineStale, Seq: h.Seq, Back: h.Back, Ring: r.ring.size()}
		}
		var base *T
		if uint64(h.Back) <= ext {
			base = r.ring.get(ext - uint64(h.Back))
		}
		if base == nil {
			return &Error{Kind: BaselineMissing, Seq: h.Seq, Back: h.Back, Ring: r.ring.size()}
		}
		err = r.codec.DecodeDelta(&r.scratch, base, body, r.limits)
	}
	if err != nil {
		return &Error{Kind: Message, Err: err}
	}
	return nil
}
