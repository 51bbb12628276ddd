// Package baseline keeps the snapshots behind delta encoding (docs/framing.md §10,
// spec §12.8): the envelope that carries a snapshot's sequence number and baseline,
// a [Sender] per peer with a ring of the last N snapshots it sent, and a [Receiver]
// with a ring of the last N it decoded.
//
// A server keeps one Sender per connection. Each tick, [Sender.Encode] writes the
// envelope — a 3-byte [Header] (Seq uint16 little-endian, Back uint8) and the body —
// encoding the snapshot against the newest one the client acknowledged (the delta
// encoding of spec §12), or in full (spec §2) when there is none. The client's input
// messages carry [Receiver.Ack] (the newest snapshot it decoded) and
// [Receiver.NeedFull]; the server passes them to [Sender.Ack] and
// [Sender.RequestFull]. The envelope is a frame's Data, with the snapshot message's
// id: the generated code of a delta message World has a type WorldEnvelope (an
// [Envelope] with World's id), which its NewMessage, DecodeMessage and Messages set
// hold for World, so that a connection reads and writes envelopes as messages
// (docs/framing.md §10.8):
//
//	env.Data, _, err = sender.Encode(env.Data[:0], world) // env is a game.WorldEnvelope
//	err = conn.WriteMessage(&env)
//
//	m, err := conn.ReadMessage() // conn reads into a *game.Messages
//	if env, ok := m.(*game.WorldEnvelope); ok {
//		h, world, err := receiver.Decode(env.Data)
//	}
//
// The message's encodings come in a [Codec]: the generated methods fit it as method
// expressions ((*T).AppendTo, (*T).DecodeWithLimits for the full encoding).
//
// # Errors
//
// Every error is an [*Error] with a [Kind] (docs/framing.md §10.5), matched with
// errors.Is against [ErrBaselineMissing] and the other sentinels; all of them also
// match [ErrSnapshot] and bitwire.ErrBitwire. A body that does not encode or decode
// is kind [Message], with the packed *bitwire.Error inside (errors.As finds it).
//
// # Memory
//
// Each ring holds at most N values (1 ≤ N ≤ 255, [DefaultRing] 32) and a Receiver
// one more as scratch space; a header never makes either allocate. A Sender keeps
// the values given to Encode as they are: their slices and maps must not change
// afterwards (build each snapshot in new ones).
package baseline
