package conformance

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// connPair returns a client and a server bwnet.Conn over 127.0.0.1, both decoding
// into the generated game.Messages.
func connPair(t testing.TB, cfg bwnet.Config) (*bwnet.Conn, *bwnet.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, _ := ln.Accept()
		accepted <- nc
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bwnet.Dial(ctx, ln.Addr().String(), new(game.Messages), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := bwnet.NewConn(<-accepted, new(game.Messages), cfg)
	t.Cleanup(func() { _ = c.Close(); _ = s.Close() })
	return c, s
}

// A message written on one end of a real connection and read on the other, through
// the generated Messages set, allocates nothing once the buffers have grown: the
// 64-bit packet and a snapshot of 16 entities (strings that do not change), with and
// without compression.
func TestConnMessagesAllocateNothing(t *testing.T) {
	snapshot := sampleSnapshot()
	for _, c := range []struct {
		name string
		msg  bitwire.Message
		cfg  bwnet.Config
	}{
		{"Packet64", samplePacket(), bwnet.Config{}},
		{"Snapshot", snapshot, bwnet.Config{}},
		{"Snapshot, compression on, below the threshold", snapshot, bwnet.Config{Frame: bitwire.FrameConfig{Compression: true, Threshold: 1 << 20}}},
		{"Snapshot, compressed", snapshot, bwnet.Config{Frame: bitwire.FrameConfig{Compression: true, Threshold: 64}}},
	} {
		client, server := connPair(t, c.cfg)
		roundTrip := func() {
			if err := client.WriteMessage(c.msg); err != nil {
				t.Fatal(err)
			}
			m, err := server.ReadMessage()
			if err != nil || m.MessageID() != c.msg.MessageID() {
				t.Fatal(m, err)
			}
		}
		roundTrip()
		allocs := testing.AllocsPerRun(1000, roundTrip)
		t.Logf("%s: bwnet.Conn WriteMessage + ReadMessage over TCP: %v allocs/op", c.name, allocs)
		if allocs != 0 {
			t.Errorf("%s: %v allocs per message", c.name, allocs)
		}
	}
}
