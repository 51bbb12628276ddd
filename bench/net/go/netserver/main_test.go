package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/bench/net/go/netbench"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// server is a netserver running in the test's process (run), stopped by closing its
// stdin.
type server struct {
	addr   string
	stdin  *io.PipeWriter
	lines  *bufio.Scanner
	result chan error
}

// start runs the server of shape on 127.0.0.1:0 and waits for its `listening` line.
func start(t *testing.T, shape string) *server {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	s := &server{stdin: stdinW, lines: bufio.NewScanner(stdoutR), result: make(chan error, 1)}
	go func() {
		err := run(context.Background(), "127.0.0.1:0", shape, stdinR, stdoutW)
		_ = stdoutW.Close()
		s.result <- err
	}()
	t.Cleanup(func() { _ = stdinW.Close(); _ = stdoutR.Close() })
	if !s.lines.Scan() {
		t.Fatalf("no listening line: %v", <-s.result)
	}
	line := s.lines.Text()
	s.addr = strings.TrimPrefix(line, "listening ")
	if s.addr == line {
		t.Fatalf("first line %q", line)
	}
	return s
}

// stop closes the server's stdin and returns its last line, which must be its
// last.
func (s *server) stop(t *testing.T) string {
	t.Helper()
	_ = s.stdin.Close()
	if !s.lines.Scan() {
		t.Fatalf("no served line: %v", <-s.result)
	}
	line := s.lines.Text()
	if s.lines.Scan() {
		t.Errorf("a line after the served line: %q", s.lines.Text())
	}
	select {
	case err := <-s.result:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
	return line
}

// ping is the Ping of seq whose packed message is size bytes (bench/net/README.md):
// 43 bits of seq and length, so size-6 bytes of data.
func ping(seq uint32, size int) *netbench.Ping {
	data := make([]byte, size-6)
	for i := range data {
		data[i] = byte(int(seq) + i)
	}
	return &netbench.Ping{Seq: seq, Data: data}
}

func dial(t *testing.T, addr string) *bwnet.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bwnet.Dial(ctx, addr, new(netbench.Messages), bwnet.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// exchange sends p and checks that the reply is its Pong.
func exchange(t testing.TB, c *bwnet.Conn, p *netbench.Ping) {
	if err := c.WriteMessage(p); err != nil {
		t.Fatal(err)
	}
	m, err := c.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	pong, ok := m.(*netbench.Pong)
	if !ok || pong.Seq != p.Seq || !bytes.Equal(pong.Data, p.Data) {
		t.Fatalf("the reply to Ping %d (%d bytes of data) is %#v", p.Seq, len(p.Data), m)
	}
}

// The bitwire server answers every Ping with its Pong at every size of the
// benchmark, pipelined too, allocates nothing per packet, closes (and counts) a
// connection that sends a Pong or a malformed frame and goes on serving the others.
func TestBitwire(t *testing.T) {
	s := start(t, "bitwire")
	c := dial(t, s.addr)
	sent := 0
	for i, size := range []int{8, 16, 32, 64, 128, 256, 512, 1024} {
		exchange(t, c, ping(uint32(i), size))
		sent++
	}
	// A window of packets in flight, as the driver's pipeline mode sends them.
	for i := range 32 {
		if err := c.WriteMessage(ping(uint32(100+i), 8+i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 32 {
		m, err := c.ReadMessage()
		if err != nil || m.(*netbench.Pong).Seq != uint32(100+i) {
			t.Fatalf("pipelined reply %d: %v %v", i, m, err)
		}
		sent++
	}
	if !raceEnabled {
		p := ping(7, 64)
		n := testing.AllocsPerRun(1000, func() { exchange(t, c, p) })
		sent += 1001
		if n != 0 {
			t.Errorf("a ping-pong through the server allocates %v times", n)
		}
	}

	bad := dial(t, s.addr)
	if err := bad.WriteMessage(&netbench.Pong{Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if m, err := bad.ReadMessage(); err != io.EOF {
		t.Fatalf("after a Pong the server sent %v, %v", m, err)
	}
	malformed, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer malformed.Close()
	if _, err := malformed.Write([]byte{0x80, 0x00}); err != nil { // non-minimal Length
		t.Fatal(err)
	}
	if _, err := malformed.Read(make([]byte, 1)); err == nil {
		t.Fatal("the server kept a connection that sent a malformed frame")
	}
	exchange(t, c, ping(9, 1024))
	sent++

	if got, want := s.stop(t), fmt.Sprintf("served %d packets, 2 errors", sent); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// The raw server writes back what it reads, however the frames are split, and
// counts them by their Length prefixes.
func TestRaw(t *testing.T) {
	s := start(t, "raw")
	c, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	enc := bitwire.NewFrameEncoder(bitwire.FrameConfig{})
	var stream []byte
	frames := 0
	for i, size := range []int{8, 16, 32, 64, 128, 256, 512, 1024, 1024, 8} {
		if stream, err = enc.AppendMessage(stream, ping(uint32(i), size)); err != nil {
			t.Fatal(err)
		}
		frames++
	}
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	// Writes that split Lengths and bodies anywhere (1, 2, 3, … bytes).
	go func() {
		rest := stream
		for n := 1; len(rest) > 0; n++ {
			k := min(n, len(rest))
			if _, err := c.Write(rest[:k]); err != nil {
				return
			}
			rest = rest[k:]
		}
	}()
	back := make([]byte, len(stream))
	if _, err := io.ReadFull(c, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, stream) {
		t.Fatal("the echo differs from what was sent")
	}
	_ = c.Close()
	if got, want := s.stop(t), fmt.Sprintf("served %d packets, 0 errors", frames); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// The frame counter counts frames split at every byte, with Lengths of 1 to 3 bytes.
func TestFrameCounter(t *testing.T) {
	enc := bitwire.NewFrameEncoder(bitwire.FrameConfig{})
	var stream []byte
	var err error
	for _, n := range []int{0, 1, 125, 126, 127, 200, 16383, 20000} {
		if stream, err = enc.AppendFrame(stream, 1, make([]byte, n)); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []int{1, 2, 3, 7, 4096, len(stream)} {
		var fc frameCounter
		for p := stream; len(p) > 0; {
			k := min(step, len(p))
			fc.scan(p[:k])
			p = p[k:]
		}
		if fc.frames != 8 || fc.body != 0 || fc.shift != 0 {
			t.Errorf("in steps of %d: %+v", step, fc)
		}
	}
}

// An unknown shape is an error, before listening.
func TestUnknownShape(t *testing.T) {
	err := run(context.Background(), "127.0.0.1:0", "bent", strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "bent") {
		t.Fatalf("run: %v", err)
	}
}

// The command itself (this test binary re-run as netserver): `--addr` as the
// orchestrator passes it, and SIGTERM ends it with the served line and status 0.
func TestCommandSIGTERM(t *testing.T) {
	if os.Getenv("NETSERVER_MAIN") == "1" {
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv("NETSERVER_ARGS"))...)
		main()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCommandSIGTERM$")
	cmd.Env = append(os.Environ(), "NETSERVER_MAIN=1", "NETSERVER_ARGS=--addr 127.0.0.1:0 -shape bitwire")
	stdin, err := cmd.StdinPipe() // kept open: only SIGTERM stops the server
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(20*time.Second, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "listening 127.0.0.1:") {
		t.Fatalf("first line %q", lines.Text())
	}
	c := dial(t, strings.TrimPrefix(lines.Text(), "listening "))
	for i := range 3 {
		exchange(t, c, ping(uint32(i), 32))
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var out []string
	for lines.Scan() {
		out = append(out, lines.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if len(out) != 1 || out[0] != "served 3 packets, 0 errors" {
		t.Errorf("after SIGTERM: %q", out)
	}
}
