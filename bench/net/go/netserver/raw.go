package main

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"sync"
)

// rawBufferSize is the raw echo's read buffer: bwnet's (DefaultReadBufferSize), so
// both shapes read the stream in pieces of the same size.
const rawBufferSize = 4096

// serveRaw serves ln until ctx is done: every connection writes back each chunk it
// reads, as it reads it (see echo). Cancelling ctx closes the listener and every
// connection, and serveRaw returns once their goroutines have.
func serveRaw(ctx context.Context, ln net.Listener, c *counts) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			closeOnDone := context.AfterFunc(ctx, func() { _ = nc.Close() })
			defer closeOnDone()
			defer nc.Close()
			n, err := echo(nc)
			c.packets.Add(n)
			if err != nil && ctx.Err() == nil {
				c.errors.Add(1)
				log.Printf("closed %v: %v", nc.RemoteAddr(), err)
			}
		}()
	}
}

// echo writes back every chunk it reads from rw until the peer ends its stream
// (nil) or a read or write fails. It returns the frames that went through, counted
// by their Length prefixes (frameCounter) without checking them: a raw echo does
// not frame, the count only makes its `served` line comparable with the others'.
func echo(rw io.ReadWriter) (int64, error) {
	buf := make([]byte, rawBufferSize)
	var fc frameCounter
	for {
		n, err := rw.Read(buf)
		if n > 0 {
			fc.scan(buf[:n])
			if _, werr := rw.Write(buf[:n]); werr != nil {
				return fc.frames, werr
			}
		}
		if errors.Is(err, io.EOF) {
			return fc.frames, nil
		}
		if err != nil {
			return fc.frames, err
		}
	}
}

// frameCounter counts the frames of a stream of uncompressed frames
// (docs/framing.md §2: a Length VarInt, then Length bytes) from the chunks it is
// given, wherever they split: a few steps per frame, none per byte of a body.
type frameCounter struct {
	frames int64
	body   int    // bytes of the current frame's body still to come
	length uint32 // the Length VarInt read so far
	shift  uint   // its bits read so far
}

// scan counts the frames that end in p.
func (f *frameCounter) scan(p []byte) {
	for len(p) > 0 {
		if f.body > 0 {
			skip := min(f.body, len(p))
			f.body -= skip
			p = p[skip:]
			if f.body == 0 {
				f.frames++
			}
			continue
		}
		b := p[0]
		p = p[1:]
		if f.shift < 28 {
			f.length |= uint32(b&0x7f) << f.shift
		}
		f.shift += 7
		if b&0x80 != 0 {
			continue
		}
		f.body = int(f.length)
		f.length, f.shift = 0, 0
		if f.body == 0 {
			f.frames++
		}
	}
}
