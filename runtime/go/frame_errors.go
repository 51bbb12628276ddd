package bitwire

import (
	"errors"
	"strconv"
)

// FrameKind is what is wrong with a frame: the closed list of error kinds of
// docs/framing.md §7, shared by every bitwire framer. Kinds are the contract;
// messages are not.
type FrameKind uint8

// The frame error kinds of docs/framing.md §7, in its order. Their String names are
// the document's (FrameTooLarge is "FrameTooLarge", FrameTruncated "Truncated").
const (
	// FrameTruncated: the stream (or WebSocket message) ended inside a frame.
	FrameTruncated FrameKind = iota + 1
	// FrameLengthTooWide: a Length or PacketLength VarInt with a continuation bit on
	// its third byte (§2.2).
	FrameLengthTooWide
	// FrameZeroLength: a Length or PacketLength of 0.
	FrameZeroLength
	// FrameTooLarge: a Length or PacketLength above the maximum frame size; or, when
	// writing, a frame that would be.
	FrameTooLarge
	// FrameVarIntTooLong: a DataLength or PacketID VarInt of more than 5 bytes or of
	// a value ≥ 2^31 (§1.2).
	FrameVarIntTooLong
	// FrameNonMinimalVarInt: a VarInt written longer than needed (§1.2).
	FrameNonMinimalVarInt
	// FrameBelowThreshold: a compressed frame whose DataLength is below the
	// threshold (§3.2).
	FrameBelowThreshold
	// FrameDataTooLarge: a DataLength above the maximum data size (§3.2); or, when
	// writing, a body that would be.
	FrameDataTooLarge
	// FrameBadZlib: the compressed body is not a valid zlib stream (header, deflate
	// data, Adler-32 checksum, early end).
	FrameBadZlib
	// FrameSizeMismatch: the zlib stream inflates to more or fewer bytes than
	// DataLength.
	FrameSizeMismatch
	// FrameTrailingBytes: bytes after the zlib stream inside the frame, or after the
	// frame inside a WebSocket message (§5).
	FrameTrailingBytes
	// FrameUnknownMessage: a PacketID that is not a message id of the schema (§4).
	FrameUnknownMessage
	// FrameMessage: the message's packed bytes do not decode; the packed *Error is
	// inside (§4).
	FrameMessage
)

var frameKindNames = [...]string{
	FrameTruncated:        "Truncated",
	FrameLengthTooWide:    "LengthTooWide",
	FrameZeroLength:       "ZeroLength",
	FrameTooLarge:         "FrameTooLarge",
	FrameVarIntTooLong:    "VarIntTooLong",
	FrameNonMinimalVarInt: "NonMinimalVarInt",
	FrameBelowThreshold:   "BelowThreshold",
	FrameDataTooLarge:     "DataTooLarge",
	FrameBadZlib:          "BadZlib",
	FrameSizeMismatch:     "SizeMismatch",
	FrameTrailingBytes:    "TrailingBytes",
	FrameUnknownMessage:   "UnknownMessage",
	FrameMessage:          "Message",
}

// String returns the kind's name in docs/framing.md §7 ("LengthTooWide").
func (k FrameKind) String() string {
	if int(k) < len(frameKindNames) && frameKindNames[k] != "" {
		return frameKindNames[k]
	}
	return "FrameKind(" + strconv.Itoa(int(k)) + ")"
}

// FrameKindByName returns the frame kind named s in docs/framing.md §7, and false
// if there is none.
func FrameKindByName(s string) (FrameKind, bool) {
	for k, name := range frameKindNames {
		if name != "" && name == s {
			return FrameKind(k), true
		}
	}
	return 0, false
}

// ErrFrame matches every frame error: errors.Is(err, bitwire.ErrFrame). Frame errors
// also match ErrBitwire.
var ErrFrame error = &frameSentinel{"error"}

// frameSentinel is the error value behind ErrFrame and the per-kind sentinels; it
// matches ErrFrame and ErrBitwire.
type frameSentinel struct{ name string }

func (s *frameSentinel) Error() string { return "bitwire: frame " + s.name }
func (s *frameSentinel) Is(target error) bool {
	return target == ErrBitwire || target == ErrFrame
}

// One sentinel per frame kind, matched with errors.Is(err, bitwire.ErrFrameTooLarge).
var (
	ErrFrameTruncated        error = &frameSentinel{"Truncated"}
	ErrFrameLengthTooWide    error = &frameSentinel{"LengthTooWide"}
	ErrFrameZeroLength       error = &frameSentinel{"ZeroLength"}
	ErrFrameTooLarge         error = &frameSentinel{"FrameTooLarge"}
	ErrFrameVarIntTooLong    error = &frameSentinel{"VarIntTooLong"}
	ErrFrameNonMinimalVarInt error = &frameSentinel{"NonMinimalVarInt"}
	ErrFrameBelowThreshold   error = &frameSentinel{"BelowThreshold"}
	ErrFrameDataTooLarge     error = &frameSentinel{"DataTooLarge"}
	ErrFrameBadZlib          error = &frameSentinel{"BadZlib"}
	ErrFrameSizeMismatch     error = &frameSentinel{"SizeMismatch"}
	ErrFrameTrailingBytes    error = &frameSentinel{"TrailingBytes"}
	ErrFrameUnknownMessage   error = &frameSentinel{"UnknownMessage"}
	ErrFrameMessage          error = &frameSentinel{"Message"}
)

var frameKindSentinels = [...]error{
	FrameTruncated:        ErrFrameTruncated,
	FrameLengthTooWide:    ErrFrameLengthTooWide,
	FrameZeroLength:       ErrFrameZeroLength,
	FrameTooLarge:         ErrFrameTooLarge,
	FrameVarIntTooLong:    ErrFrameVarIntTooLong,
	FrameNonMinimalVarInt: ErrFrameNonMinimalVarInt,
	FrameBelowThreshold:   ErrFrameBelowThreshold,
	FrameDataTooLarge:     ErrFrameDataTooLarge,
	FrameBadZlib:          ErrFrameBadZlib,
	FrameSizeMismatch:     ErrFrameSizeMismatch,
	FrameTrailingBytes:    ErrFrameTrailingBytes,
	FrameUnknownMessage:   ErrFrameUnknownMessage,
	FrameMessage:          ErrFrameMessage,
}

// Sentinel returns the sentinel error of the kind (ErrFrameTooLarge for
// FrameTooLarge).
func (k FrameKind) Sentinel() error {
	if int(k) < len(frameKindSentinels) && frameKindSentinels[k] != nil {
		return frameKindSentinels[k]
	}
	return ErrFrame
}

// FrameError is a malformed frame (docs/framing.md §7): its kind, the byte offset in
// the stream (or WebSocket message) of the frame's first byte, and the values and
// limits involved. Kind and Offset are the contract every bitwire framer agrees on;
// the other fields are details for messages, set where the kind has them:
//
//   - FrameTruncated: Length (0 when the stream ended inside the length itself);
//   - FrameTooLarge: Length and Max (the maximum frame size);
//   - FrameBelowThreshold: DataLength and Threshold;
//   - FrameDataTooLarge: DataLength and Max (the maximum data size);
//   - FrameSizeMismatch: DataLength and Inflated (DataLength+1 when the stream
//     inflates to more: inflating stops there);
//   - FrameUnknownMessage and FrameMessage: MessageID;
//   - FrameMessage: Err, the packed *Error (errors.As finds it); FrameBadZlib: Err,
//     what is wrong with the stream.
//
// A writer's errors (FrameTooLarge, FrameDataTooLarge, FrameVarIntTooLong,
// FrameMessage) have Offset -1: they are not in a stream.
type FrameError struct {
	Kind       FrameKind
	Offset     int64
	Length     int
	DataLength int
	Inflated   int
	Threshold  int
	Max        int
	MessageID  uint32
	Err        error
}

// Error formats the error as "bitwire: frame at byte 10: FrameTooLarge: length
// 1025, at most 1024".
func (e *FrameError) Error() string {
	s := "bitwire: frame"
	if e.Offset >= 0 {
		s += " at byte " + strconv.FormatInt(e.Offset, 10)
	}
	s += ": " + e.Kind.String()
	if d := e.detail(); d != "" {
		s += ": " + d
	}
	return s
}

// detail renders the fields the kind sets.
func (e *FrameError) detail() string {
	itoa := strconv.Itoa
	switch e.Kind {
	case FrameTruncated:
		if e.Length > 0 {
			return "the stream ends inside a frame of length " + itoa(e.Length)
		}
		return "the stream ends inside the frame's length"
	case FrameTooLarge:
		if e.Length == 0 {
			// A WebSocket message over the read limit: its length is not known.
			return "longer than the maximum " + itoa(e.Max)
		}
		return "length " + itoa(e.Length) + ", at most " + itoa(e.Max)
	case FrameBelowThreshold:
		return "data length " + itoa(e.DataLength) + " is below the threshold " + itoa(e.Threshold)
	case FrameDataTooLarge:
		return "data length " + itoa(e.DataLength) + ", at most " + itoa(e.Max)
	case FrameSizeMismatch:
		if e.Inflated > e.DataLength {
			return "inflates past the data length " + itoa(e.DataLength)
		}
		return "inflates to " + itoa(e.Inflated) + " bytes, not the data length " + itoa(e.DataLength)
	case FrameUnknownMessage:
		return "no message has id " + strconv.FormatUint(uint64(e.MessageID), 10)
	case FrameMessage:
		if e.Err != nil {
			return "message id " + strconv.FormatUint(uint64(e.MessageID), 10) + ": " + e.Err.Error()
		}
	case FrameBadZlib:
		if e.Err != nil {
			return e.Err.Error()
		}
	}
	return ""
}

// Is reports whether target is ErrBitwire, ErrFrame or the sentinel of e's kind.
func (e *FrameError) Is(target error) bool {
	return target == ErrBitwire || target == ErrFrame || target == e.Kind.Sentinel()
}

// Unwrap returns the cause: the packed *Error of a FrameMessage error, what is wrong
// with the zlib stream of a FrameBadZlib error, else nil.
func (e *FrameError) Unwrap() error { return e.Err }

// frameError returns an error of kind for the frame at offset.
//
//go:noinline
func frameError(kind FrameKind, offset int64) *FrameError {
	return &FrameError{Kind: kind, Offset: offset}
}

// What can be wrong with a zlib stream besides its deflate data (FrameBadZlib's Err).
var (
	errZlibHeader   = errors.New("not a zlib header (RFC 1950: deflate, window at most 32 KiB, no dictionary, check bits)")
	errZlibChecksum = errors.New("the Adler-32 checksum does not match")
	errZlibEnd      = errors.New("the stream ends before its end")
)
