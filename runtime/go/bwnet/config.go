package bwnet

import (
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The defaults of Config's zero values.
const (
	// DefaultIdleTimeout is how long a connection waits for a frame to start.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultFrameTimeout is how long a started frame may take to arrive whole.
	DefaultFrameTimeout = 10 * time.Second
	// DefaultWriteTimeout is how long writing the send queue to the peer may take.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultMaxSendQueue is the most bytes queued for a peer: 4 MiB, about two
	// frames of the largest size (the same in every runtime: docs/framing.md §6.3).
	DefaultMaxSendQueue = 4 << 20
	// DefaultReadBufferSize is the size of a connection's read buffer; frames up to
	// this size are decoded in it, without a copy.
	DefaultReadBufferSize = 4096
)

// Config holds the settings of a connection. The zero value is ready to use: no
// compression, the default limits and timeouts. A negative timeout turns it off.
//
// Memory per connection is bounded by these: the read buffer, at most
// Frame.MaxFrame+3 bytes of the frame being read, Frame.MaxData for an inflated
// body, the message decode budget (Frame.Limits), and MaxSendQueue (plus one frame)
// for the send queue.
type Config struct {
	// Frame holds the frame settings (compression, MaxFrame, MaxData) and the
	// message decode limits; both ends must agree on compression.
	Frame bitwire.FrameConfig
	// IdleTimeout closes a connection whose peer starts no frame for this long
	// (0: DefaultIdleTimeout).
	IdleTimeout time.Duration
	// FrameTimeout closes a connection whose peer takes longer than this to send the
	// rest of a frame it started (0: DefaultFrameTimeout): a slow-loris sender.
	FrameTimeout time.Duration
	// WriteTimeout closes a connection when writing what is queued for the peer takes
	// longer than this (0: DefaultWriteTimeout): a peer that does not read.
	WriteTimeout time.Duration
	// MaxSendQueue is the most bytes of frames queued for the peer and not yet
	// written (0: DefaultMaxSendQueue); a write that would queue more closes the
	// connection with ErrSendQueueFull.
	MaxSendQueue int
	// ReadBufferSize is the size of the read buffer (0: DefaultReadBufferSize).
	ReadBufferSize int
}

// Normalized returns the settings a connection made with c uses: zero values
// replaced by the defaults, negative timeouts by 0 (none).
func (c Config) Normalized() Config {
	c.Frame = c.Frame.Normalized()
	c.IdleTimeout = timeout(c.IdleTimeout, DefaultIdleTimeout)
	c.FrameTimeout = timeout(c.FrameTimeout, DefaultFrameTimeout)
	c.WriteTimeout = timeout(c.WriteTimeout, DefaultWriteTimeout)
	if c.MaxSendQueue <= 0 {
		c.MaxSendQueue = DefaultMaxSendQueue
	}
	if c.ReadBufferSize <= 0 {
		c.ReadBufferSize = DefaultReadBufferSize
	}
	return c
}

func timeout(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
