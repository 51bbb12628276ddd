package bwnet

import (
	"errors"
	"strconv"
)

// Kind is what ended a connection, besides a malformed frame (which is a
// *bitwire.FrameError).
type Kind uint8

// The kinds of connection errors.
const (
	// Closed: the connection was closed on this side (Close, or a server shutting
	// down).
	Closed Kind = iota + 1
	// IdleTimeout: the peer started no frame within Config.IdleTimeout.
	IdleTimeout
	// FrameTimeout: the peer did not finish a frame within Config.FrameTimeout.
	FrameTimeout
	// WriteTimeout: writing to the peer took longer than Config.WriteTimeout.
	WriteTimeout
	// SendQueueFull: a write would have queued more than Config.MaxSendQueue bytes.
	SendQueueFull
	// NotBinary: a WebSocket peer sent a text message (closed with code 1003).
	NotBinary
	// IO: the transport failed (a reset, a refused write, a WebSocket error); Err
	// says how.
	IO
)

var kindNames = [...]string{
	Closed:        "Closed",
	IdleTimeout:   "IdleTimeout",
	FrameTimeout:  "FrameTimeout",
	WriteTimeout:  "WriteTimeout",
	SendQueueFull: "SendQueueFull",
	NotBinary:     "NotBinary",
	IO:            "IO",
}

// String returns the kind's name ("IdleTimeout").
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ErrConn matches every *Error: errors.Is(err, bwnet.ErrConn).
var ErrConn = errors.New("bwnet: connection error")

type sentinel struct{ name string }

func (s *sentinel) Error() string        { return "bwnet: " + s.name }
func (s *sentinel) Is(target error) bool { return target == ErrConn }

// One sentinel per kind, matched with errors.Is(err, bwnet.ErrIdleTimeout).
var (
	ErrClosed        error = &sentinel{"Closed"}
	ErrIdleTimeout   error = &sentinel{"IdleTimeout"}
	ErrFrameTimeout  error = &sentinel{"FrameTimeout"}
	ErrWriteTimeout  error = &sentinel{"WriteTimeout"}
	ErrSendQueueFull error = &sentinel{"SendQueueFull"}
	ErrNotBinary     error = &sentinel{"NotBinary"}
	ErrIO            error = &sentinel{"IO"}
)

var kindSentinels = [...]error{
	Closed:        ErrClosed,
	IdleTimeout:   ErrIdleTimeout,
	FrameTimeout:  ErrFrameTimeout,
	WriteTimeout:  ErrWriteTimeout,
	SendQueueFull: ErrSendQueueFull,
	NotBinary:     ErrNotBinary,
	IO:            ErrIO,
}

// Error is what ended a connection, other than a malformed frame: its kind and the
// cause (the deadline error of a timeout, the transport's error), which Unwrap
// returns.
type Error struct {
	Kind Kind
	Err  error
}

// Error formats the error as "bwnet: IdleTimeout: read tcp …: i/o timeout".
func (e *Error) Error() string {
	s := "bwnet: " + e.Kind.String()
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports whether target is ErrConn or the sentinel of e's kind.
func (e *Error) Is(target error) bool {
	return target == ErrConn || (int(e.Kind) < len(kindSentinels) && target == kindSentinels[e.Kind])
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
