package baseline

import (
	"strconv"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Kind is what went wrong: the closed list of docs/framing.md §10.5, the same in
// every runtime.
type Kind uint8

// The kinds, in docs/framing.md §10.5's order.
const (
	// Truncated: the envelope is shorter than its 3-byte header.
	Truncated Kind = iota + 1
	// BaselineMissing: the delta's baseline is not in the receiver's ring: it never
	// decoded that snapshot (lost, rejected, or from before the receiver started).
	BaselineMissing
	// BaselineStale: the delta's baseline is further back than the receiver's ring
	// reaches (Back above its size): Quake 3's "Delta frame too old".
	BaselineStale
	// Message: the body does not encode or decode; Err is the packed *bitwire.Error.
	Message
	// AckNotSent: an acknowledgement of a sequence number the sender never sent.
	AckNotSent
)

var kindNames = [...]string{
	Truncated:       "Truncated",
	BaselineMissing: "BaselineMissing",
	BaselineStale:   "BaselineStale",
	Message:         "Message",
	AckNotSent:      "AckNotSent",
}

// String returns the kind's stable name ("BaselineMissing").
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ErrSnapshot matches every *Error of this package: errors.Is(err,
// baseline.ErrSnapshot). They also match bitwire.ErrBitwire.
var ErrSnapshot error = &sentinel{"error"}

type sentinel struct{ name string }

func (s *sentinel) Error() string { return "bitwire: snapshot " + s.name }
func (s *sentinel) Is(target error) bool {
	return target == ErrSnapshot || target == bitwire.ErrBitwire
}

// One sentinel per kind, matched with errors.Is(err, baseline.ErrBaselineMissing).
var (
	ErrTruncated       error = &sentinel{"Truncated"}
	ErrBaselineMissing error = &sentinel{"BaselineMissing"}
	ErrBaselineStale   error = &sentinel{"BaselineStale"}
	ErrMessage         error = &sentinel{"Message"}
	ErrAckNotSent      error = &sentinel{"AckNotSent"}
)

var kindSentinels = [...]error{
	Truncated:       ErrTruncated,
	BaselineMissing: ErrBaselineMissing,
	BaselineStale:   ErrBaselineStale,
	Message:         ErrMessage,
	AckNotSent:      ErrAckNotSent,
}

// Error is a snapshot envelope that cannot be decoded, a body that cannot be
// encoded, or an acknowledgement of nothing sent. Kind is the contract; the other
// fields are details for messages, set where the kind has them:
//
//   - Truncated: Len, the envelope's length;
//   - BaselineMissing, BaselineStale: Seq and Back of the snapshot, Ring the ring's
//     size;
//   - Message: Err, the packed *bitwire.Error of the body (Unwrap returns it);
//   - AckNotSent: Seq, the acknowledged sequence number, and Last, the newest one
//     sent (-1: none).
type Error struct {
	Kind Kind
	Seq  uint16
	Back uint8
	Ring int
	Len  int
	Last int
	Err  error
}

// Error formats the error as "bitwire: snapshot BaselineStale: snapshot 9 is a
// delta against 4, 5 back; the ring holds 4".
func (e *Error) Error() string {
	s := "bitwire: snapshot " + e.Kind.String()
	itoa := strconv.Itoa
	switch e.Kind {
	case Truncated:
		s += ": " + itoa(e.Len) + " bytes, the header needs 3"
	case BaselineMissing, BaselineStale:
		base, _ := Header{e.Seq, e.Back}.Base()
		s += ": snapshot " + itoa(int(e.Seq)) + " is a delta against " + itoa(int(base))
		if e.Kind == BaselineStale {
			s += ", " + itoa(int(e.Back)) + " back; the ring holds " + itoa(e.Ring)
		} else {
			s += ", which was not decoded"
		}
	case Message:
		if e.Err != nil {
			s += ": " + e.Err.Error()
		}
	case AckNotSent:
		s += ": snapshot " + itoa(int(e.Seq)) + " was not sent"
		if e.Last >= 0 {
			s += " (the newest is " + itoa(e.Last) + ")"
		}
	}
	return s
}

// Is reports whether target is ErrSnapshot, bitwire.ErrBitwire or the sentinel of
// e's kind.
func (e *Error) Is(target error) bool {
	if target == ErrSnapshot || target == bitwire.ErrBitwire {
		return true
	}
	return int(e.Kind) < len(kindSentinels) && target == kindSentinels[e.Kind]
}

// Unwrap returns the packed error of a Message error.
func (e *Error) Unwrap() error { return e.Err }
