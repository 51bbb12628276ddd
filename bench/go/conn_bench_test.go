package bench

import (
	"bytes"
	"context"
	"net"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/examples/go/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// Frames and connections (docs/go.md, Networking): the packet64 dataset in frames
// (encode to a frame, read it back from a stream), and over a real 127.0.0.1
// bwnet.Conn, one message at a time (a round trip per message) and streamed. Every
// one is 0 allocs/op in steady state (-benchmem).

// BenchmarkFramePacket64: AppendMessage into a reused buffer, then ReadMessage from a
// FrameReader over it into the generated Messages set.
func BenchmarkFramePacket64(b *testing.B) {
	d := data(b)
	enc := bitwire.NewFrameEncoder(bitwire.FrameConfig{})
	var stream []byte
	for i := range d.Packets {
		var err error
		if stream, err = enc.AppendMessage(stream, &d.Packets[i]); err != nil {
			b.Fatal(err)
		}
	}
	src := bytes.NewReader(stream)
	fr := bitwire.NewFrameReader(src, bitwire.FrameConfig{})
	var set game.Messages
	buf := make([]byte, 0, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(d.Packets)
		var err error
		if buf, err = enc.AppendMessage(buf[:0], &d.Packets[j]); err != nil {
			b.Fatal(err)
		}
		if j == 0 && i > 0 {
			src.Reset(stream)
			fr = bitwire.NewFrameReader(src, bitwire.FrameConfig{})
			b.StopTimer()
			b.StartTimer()
		}
		if _, err := fr.ReadMessage(&set); err != nil {
			b.Fatal(err)
		}
	}
}

// connPair returns the two ends of a 127.0.0.1 connection as bwnet.Conns.
func connPair(b *testing.B) (*bwnet.Conn, *bwnet.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, _ := ln.Accept()
		accepted <- nc
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bwnet.Dial(ctx, ln.Addr().String(), new(game.Messages), bwnet.Config{})
	if err != nil {
		b.Fatal(err)
	}
	s := bwnet.NewConn(<-accepted, new(game.Messages), bwnet.Config{})
	b.Cleanup(func() { _ = c.Close(); _ = s.Close() })
	return c, s
}

// BenchmarkConnPacket64RoundTrip: the client writes a packet, the server reads it,
// one at a time: the latency of a message through both ends' goroutines and the
// kernel.
func BenchmarkConnPacket64RoundTrip(b *testing.B) {
	d := data(b)
	c, s := connPair(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.WriteMessage(&d.Packets[i%len(d.Packets)]); err != nil {
			b.Fatal(err)
		}
		if _, err := s.ReadMessage(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConnPacket64Stream: the client writes packets as fast as it can (the send
// queue batches them into few writes; Flush every 1024 waits for the queue, or a
// producer faster than the reader would fill it) while the server reads them:
// throughput.
func BenchmarkConnPacket64Stream(b *testing.B) {
	d := data(b)
	c, s := connPair(b)
	b.ReportAllocs()
	b.ResetTimer()
	done := make(chan error, 1)
	go func() {
		for i := 0; i < b.N; i++ {
			if _, err := s.ReadMessage(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := 0; i < b.N; i++ {
		if err := c.WriteMessage(&d.Packets[i%len(d.Packets)]); err != nil {
			b.Fatal(err)
		}
		if i%1024 == 1023 {
			if err := c.Flush(); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
