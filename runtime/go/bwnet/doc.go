// Package bwnet carries the messages of a bitwire schema over connections: [Conn]
// over a net.Conn (TCP) or any [Transport] (the WebSocket one is in the module
// github.com/bitwire-dev/bitwire/runtime/go/bwws, which depends on
// github.com/coder/websocket; this package depends on nothing outside the standard
// library), [Dial], and a [Server] that serves each connection in its own goroutine
// and shuts down with its context.
//
// Frames are docs/framing.md's (the bitwire package's FrameReader and
// FrameEncoder). A connection reads with a buffer and decodes each frame into a
// message of a [bitwire.MessageSet] — the generated Messages type reuses one value
// per message, so reading allocates nothing — and writes through a bounded send
// queue that a goroutine of its own drains, so writing never waits for the peer.
// Every limit is a setting ([Config]): the frame and data sizes, the message decode
// budget, an idle timeout, a frame timeout (a started frame must complete: slow
// loris), a write timeout and the send queue's size. A malformed frame, a timeout, a
// full send queue or a failed write closes the connection with a typed error
// (*bitwire.FrameError or *[Error]); a server closes that one connection and keeps
// serving the others.
package bwnet
