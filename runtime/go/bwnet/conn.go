package bwnet

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Transport moves whole frames for a Conn: TCP (NewConn) and WebSocket (the bwws
// module) implement it. ReadFrame is called by one goroutine at a time, WriteFrames
// by the Conn's writer goroutine only; Close may be called concurrently with both
// and must make them return.
type Transport interface {
	// ReadFrame reads the next frame: io.EOF at a clean end of the peer's stream, a
	// *bitwire.FrameError for a malformed frame, an *Error for a timeout (the
	// transport applies the idle and frame timeouts of its Config) or a failure.
	ReadFrame() (bitwire.Frame, error)
	// WriteFrames writes the frames that b holds back to back (frame i ends at
	// ends[i]) by deadline (zero: none).
	WriteFrames(b []byte, ends []int, deadline time.Time) error
	// Close closes the transport: after a clean end when reason is nil, else
	// because of reason (a WebSocket sends a close code that says so).
	Close(reason error) error
	// RemoteAddr returns the peer's address.
	RemoteAddr() net.Addr
}

// Conn exchanges the messages of a schema with one peer. One goroutine may read
// (ReadMessage, ReadFrame) while any number write (WriteMessage, WriteFrame, Flush,
// Close).
//
// Writes go through a send queue: WriteMessage appends the message's frame to it
// and returns without waiting for the peer, and a goroutine of the connection
// writes what is queued, as one write when several frames wait. A peer that does
// not read fills the queue (the connection closes with ErrSendQueueFull when a
// write would put more than MaxSendQueue bytes in it) or makes a write outlast
// WriteTimeout (ErrWriteTimeout); either way the connection, not the process, pays.
// Flush waits until everything queued is written.
//
// The first error ends the connection: a malformed frame (*bitwire.FrameError), a
// timeout, a full queue or a failed write (*Error). Every later call returns that
// error, except that a clean end of the peer's stream (io.EOF from ReadMessage)
// leaves writing open.
type Conn struct {
	t      Transport
	set    bitwire.MessageSet
	limits bitwire.Limits
	cfg    Config

	mu        sync.Mutex
	flushed   sync.Cond // signalled when written grows or err is set
	enc       *bitwire.FrameEncoder
	pending   []byte // frames queued for the writer goroutine
	ends      []int
	spare     []byte // the buffer the writer goroutine last wrote, for reuse
	spareEnds []int
	inflight  int   // bytes the writer goroutine is writing
	queued    int64 // bytes ever queued
	written   int64 // bytes ever written
	closing   bool
	err       error // the error that ended the connection
	wake      chan struct{}
	done      chan struct{} // closed when the writer goroutine returns
	closeOnce sync.Once
	closeErr  error
}

// NewConn returns a connection that carries frames over nc (TCP, or any stream) with
// the settings cfg and decodes messages from set (a generated *Messages: one value
// per message, reused). It starts the connection's writer goroutine; Close ends it.
func NewConn(nc net.Conn, set bitwire.MessageSet, cfg Config) *Conn {
	cfg = cfg.Normalized()
	return NewTransportConn(newTCPTransport(nc, cfg), set, cfg)
}

// NewTransportConn returns a connection over t (see NewConn).
func NewTransportConn(t Transport, set bitwire.MessageSet, cfg Config) *Conn {
	cfg = cfg.Normalized()
	c := &Conn{
		t:      t,
		set:    set,
		limits: cfg.Frame.Limits,
		cfg:    cfg,
		enc:    bitwire.NewFrameEncoder(cfg.Frame),
		wake:   make(chan struct{}, 1),
		done:   make(chan struct{}),
	}
	c.flushed.L = &c.mu
	go c.writeLoop()
	return c
}

// Config returns the connection's settings, normalized.
func (c *Conn) Config() Config { return c.cfg }

// RemoteAddr returns the peer's address.
func (c *Conn) RemoteAddr() net.Addr { return c.t.RemoteAddr() }

// ReadFrame reads the next frame (without decoding its message): io.EOF when the
// peer ended its stream cleanly, else a frame, or the error that ends the
// connection. The frame's Data is valid until the next read.
func (c *Conn) ReadFrame() (bitwire.Frame, error) {
	f, err := c.t.ReadFrame()
	if err != nil {
		return bitwire.Frame{}, c.readFailed(err)
	}
	return f, nil
}

// ReadMessage reads the next frame and decodes its message from the connection's
// set: a *Messages set returns its own value, valid until the next read. It returns
// io.EOF when the peer ended its stream cleanly between frames; a frame with an id
// the set does not have, or whose message does not decode, ends the connection
// with a *bitwire.FrameError (FrameUnknownMessage, FrameMessage).
func (c *Conn) ReadMessage() (bitwire.Message, error) {
	f, err := c.t.ReadFrame()
	if err != nil {
		return nil, c.readFailed(err)
	}
	m, err := bitwire.DecodeFrameMessage(f, c.set, c.limits)
	if err != nil {
		return nil, c.readFailed(err)
	}
	return m, nil
}

// readFailed returns what a read reports for err: the error that already ended the
// connection, io.EOF, or err as the error that ends it now.
func (c *Conn) readFailed(err error) error {
	c.mu.Lock()
	if c.err != nil {
		err = c.err
		c.mu.Unlock()
		return err
	}
	if err == io.EOF {
		c.mu.Unlock()
		return io.EOF
	}
	var fe *bitwire.FrameError
	var ce *Error
	if !errors.As(err, &fe) && !errors.As(err, &ce) {
		err = &Error{Kind: IO, Err: err}
	}
	c.failLocked(err)
	c.mu.Unlock()
	c.closeTransport(err)
	return err
}

// WriteMessage queues the frame of message m for the peer and returns without
// waiting for it to be written. A message that does not encode returns its error
// (a packed *bitwire.Error, or a *bitwire.FrameError for a frame above MaxFrame)
// and leaves the connection as it was; a full send queue ends the connection with
// ErrSendQueueFull. Use Flush to wait until the peer's side has it.
func (c *Conn) WriteMessage(m bitwire.Message) error {
	c.mu.Lock()
	if err := c.writable(); err != nil {
		c.mu.Unlock()
		return err
	}
	b, err := c.enc.AppendMessage(c.pending, m)
	return c.queue(b, err)
}

// WriteFrame queues the frame of PacketID id and data (see WriteMessage).
func (c *Conn) WriteFrame(id uint32, data []byte) error {
	c.mu.Lock()
	if err := c.writable(); err != nil {
		c.mu.Unlock()
		return err
	}
	b, err := c.enc.AppendFrame(c.pending, id, data)
	return c.queue(b, err)
}

// writable returns why nothing can be written, or nil. c.mu is held.
func (c *Conn) writable() error {
	if c.err != nil {
		return c.err
	}
	if c.closing {
		return &Error{Kind: Closed}
	}
	return nil
}

// queue makes b, the pending frames with one more appended (unless err), the send
// queue, and unlocks c.mu.
func (c *Conn) queue(b []byte, err error) error {
	if err != nil {
		c.mu.Unlock()
		return err
	}
	if c.inflight+len(b) > c.cfg.MaxSendQueue {
		err := &Error{Kind: SendQueueFull}
		c.failLocked(err)
		c.mu.Unlock()
		c.closeTransport(err)
		return err
	}
	c.queued += int64(len(b) - len(c.pending))
	c.pending = b
	c.ends = append(c.ends, len(b))
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	return nil
}

// Queued returns the bytes of frames queued and not yet written: how far the peer
// is behind (MaxSendQueue is the limit).
func (c *Conn) Queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.inflight + len(c.pending)
}

// Flush waits until every frame queued before the call is written to the peer's
// side (the kernel's send buffer for TCP), and returns the error that ended the
// connection if one did first.
func (c *Conn) Flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	target := c.queued
	for c.written < target && c.err == nil {
		c.flushed.Wait()
	}
	if c.written >= target {
		return nil
	}
	return c.err
}

// writeLoop is the connection's writer goroutine: it writes what is queued, all at
// once, until the connection ends; when closing, it returns once the queue is empty.
func (c *Conn) writeLoop() {
	defer close(c.done)
	for {
		<-c.wake
		for {
			c.mu.Lock()
			if c.err != nil || len(c.pending) == 0 {
				stop := c.err != nil || c.closing
				c.mu.Unlock()
				if stop {
					return
				}
				break
			}
			b, ends := c.pending, c.ends
			c.pending, c.ends = c.spare[:0], c.spareEnds[:0]
			c.inflight = len(b)
			c.mu.Unlock()

			var deadline time.Time
			if c.cfg.WriteTimeout > 0 {
				deadline = time.Now().Add(c.cfg.WriteTimeout)
			}
			err := c.t.WriteFrames(b, ends, deadline)

			c.mu.Lock()
			c.spare, c.spareEnds = b[:0], ends[:0]
			c.inflight = 0
			c.written += int64(len(b))
			if err != nil {
				if isTimeout(err) {
					err = &Error{Kind: WriteTimeout, Err: err}
				} else if c.err == nil {
					err = &Error{Kind: IO, Err: err}
				}
				c.failLocked(err)
			}
			c.flushed.Broadcast()
			c.mu.Unlock()
			if err != nil {
				c.closeTransport(err)
				return
			}
		}
	}
}

// failLocked records err as the error that ends the connection, unless one already
// did. c.mu is held.
func (c *Conn) failLocked(err error) {
	if c.err == nil {
		c.err = err
	}
	c.flushed.Broadcast()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// closeTransport closes the transport once, with the reason that ended the
// connection.
func (c *Conn) closeTransport(reason error) {
	c.closeOnce.Do(func() {
		if reason != nil && errors.Is(reason, ErrClosed) {
			reason = nil
		}
		c.closeErr = c.t.Close(reason)
	})
}

// Close writes what is queued (within WriteTimeout), then closes the connection;
// reads and writes from then on return ErrClosed. It returns once the connection is
// closed, and nil unless closing the transport failed. Calling it again does
// nothing.
func (c *Conn) Close() error {
	c.mu.Lock()
	c.closing = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	<-c.done
	c.mu.Lock()
	reason := c.err
	if reason == nil {
		reason = &Error{Kind: Closed}
		c.failLocked(reason)
	}
	c.mu.Unlock()
	c.closeTransport(reason)
	return c.closeErr
}

// Err returns the error that ended the connection, or nil while it is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
