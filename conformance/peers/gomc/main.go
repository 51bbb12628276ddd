// Command gomc is a Minecraft-protocol peer built on github.com/Tnze/go-mc v1.20.2
// (pk.Packet Pack/UnPack through go-mc's net.Conn), for the interop tests of bitwire's
// framers in every language (README.md next to this file):
//
//	gomc echo-server [--threshold T] [--once]   # prints "listening PORT", echoes packets
//	gomc send --addr HOST:PORT [--threshold T] [--frames]
//	gomc pack [--threshold T]                   # body hex lines → go-mc's frames, hex
//	gomc unpack [--threshold T]                 # a hex stream of frames → body hex lines
//
// A negative or absent threshold means no compression. A packet's "body" is its
// PacketID VarInt followed by its Data (S in docs/framing.md §3), in lowercase hex.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	mcnet "github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs one command and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: gomc echo-server|send|pack|unpack [flags] (see README.md)")
		return 2
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	threshold := fs.Int("threshold", -1, "compression threshold (negative: none)")
	once := fs.Bool("once", false, "echo-server: exit after the first connection ends")
	addr := fs.String("addr", "", "send: the server's HOST:PORT")
	frames := fs.Bool("frames", false, "send: print the frames read back as they arrived, not their bodies")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	var err error
	switch args[0] {
	case "echo-server":
		err = echoServer(*threshold, *once, stdout, stderr)
	case "send":
		err = send(*addr, *threshold, *frames, stdin, stdout)
	case "pack":
		err = pack(*threshold, stdin, stdout)
	case "unpack":
		err = unpack(*threshold, stdin, stdout)
	default:
		err = fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "gomc:", err)
		return 1
	}
	return 0
}

// echoServer listens on 127.0.0.1, prints the port and echoes every packet of every
// connection back, read and written by go-mc.
func echoServer(threshold int, once bool, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Fprintf(stdout, "listening %d\n", ln.Addr().(*net.TCPAddr).Port)
	if f, ok := stdout.(*os.File); ok {
		_ = f.Sync()
	}
	var mu sync.Mutex
	for {
		nc, err := ln.Accept()
		if err != nil {
			return err
		}
		serve := func() {
			defer nc.Close()
			if err := echo(nc, threshold); !errors.Is(err, io.EOF) {
				mu.Lock()
				fmt.Fprintln(stderr, "gomc: connection:", err)
				mu.Unlock()
			}
		}
		if once {
			serve()
			return nil
		}
		go serve()
	}
}

// echo reads packets from nc and writes each back until the peer closes (io.EOF)
// or an error.
func echo(nc net.Conn, threshold int) error {
	c := mcnet.WrapConn(nc)
	c.SetThreshold(threshold)
	var p pk.Packet
	for {
		_ = nc.SetReadDeadline(time.Now().Add(60 * time.Second))
		if err := c.ReadPacket(&p); err != nil {
			return err
		}
		if err := c.WritePacket(p); err != nil {
			return err
		}
	}
}

// send writes the packets of stdin (one body per line) with go-mc, then reads as
// many back and prints each: its body, or with frames the frame as it arrived.
func send(addr string, threshold int, frames bool, stdin io.Reader, stdout io.Writer) error {
	packets, err := readBodies(stdin)
	if err != nil {
		return err
	}
	nc, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		return err
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	rec := &recorder{Conn: nc}
	c := mcnet.WrapConn(rec)
	c.SetThreshold(threshold)
	for _, p := range packets {
		if err := c.WritePacket(p); err != nil {
			return err
		}
	}
	for range packets {
		rec.buf.Reset()
		var p pk.Packet
		if err := c.ReadPacket(&p); err != nil {
			return err
		}
		if frames {
			fmt.Fprintln(stdout, hex.EncodeToString(rec.buf.Bytes()))
		} else {
			fmt.Fprintln(stdout, bodyHex(p))
		}
	}
	return nil
}

// recorder keeps the bytes read from a connection: go-mc reads exactly a frame's
// bytes per packet (it has no buffer), so between two packets they are its frame.
type recorder struct {
	net.Conn
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.Conn.Read(p)
	r.buf.Write(p[:n])
	return n, err
}

// pack prints go-mc's frame of every body line of stdin.
func pack(threshold int, stdin io.Reader, stdout io.Writer) error {
	packets, err := readBodies(stdin)
	if err != nil {
		return err
	}
	for _, p := range packets {
		var b bytes.Buffer
		if err := p.Pack(&b, threshold); err != nil {
			return err
		}
		fmt.Fprintln(stdout, hex.EncodeToString(b.Bytes()))
	}
	return nil
}

// unpack reads stdin as one hex stream of frames (whitespace ignored) and prints the
// body of every packet go-mc reads from it, until the stream ends.
func unpack(threshold int, stdin io.Reader, stdout io.Writer) error {
	text, err := io.ReadAll(stdin)
	if err != nil {
		return err
	}
	stream, err := hex.DecodeString(strings.Join(strings.Fields(string(text)), ""))
	if err != nil {
		return err
	}
	r := bytes.NewReader(stream)
	for r.Len() > 0 {
		var p pk.Packet
		if err := p.UnPack(r, threshold); err != nil {
			return fmt.Errorf("at byte %d: %w", len(stream)-r.Len(), err)
		}
		fmt.Fprintln(stdout, bodyHex(p))
	}
	return nil
}

// readBodies reads one packet body per non-empty line of hex.
func readBodies(r io.Reader) ([]pk.Packet, error) {
	var packets []pk.Packet
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		b, err := hex.DecodeString(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", len(packets)+1, err)
		}
		br := bytes.NewReader(b)
		var id pk.VarInt
		if _, err := id.ReadFrom(br); err != nil {
			return nil, fmt.Errorf("line %d: no PacketID: %w", len(packets)+1, err)
		}
		packets = append(packets, pk.Packet{ID: int32(id), Data: b[len(b)-br.Len():]})
	}
	return packets, sc.Err()
}

// bodyHex returns a packet's body, PacketID VarInt and Data, in hex.
func bodyHex(p pk.Packet) string {
	var b bytes.Buffer
	_, _ = pk.VarInt(p.ID).WriteTo(&b)
	b.Write(p.Data)
	return hex.EncodeToString(b.Bytes())
}
