package main

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// The known frames: the handshake (protocol 769, localhost:25565, next state 1) and
// Status Request, and a packet compressed at threshold 3 (Data of 3 bytes).
func TestPack(t *testing.T) {
	for _, c := range []struct {
		args       []string
		body, want string
	}{
		{[]string{"pack"}, "008106096c6f63616c686f737463dd01", "10008106096c6f63616c686f737463dd01"},
		{[]string{"pack"}, "00", "0100"},
		{[]string{"pack", "--threshold", "4"}, "2a010203", "05002a010203"},
		{[]string{"pack", "--threshold", "3"}, "2a010203", "1104789cd262646206040000ffff00b60031"},
	} {
		var out, errs bytes.Buffer
		if code := run(c.args, strings.NewReader(c.body+"\n"), &out, &errs); code != 0 || strings.TrimSpace(out.String()) != c.want {
			t.Errorf("%v %s: %q (%d, %s), want %s", c.args, c.body, out.String(), code, errs.String(), c.want)
		}
	}
}

func TestUnpack(t *testing.T) {
	var out, errs bytes.Buffer
	stream := "10008106096c6f63616c686f737463dd01 0100"
	if code := run([]string{"unpack"}, strings.NewReader(stream), &out, &errs); code != 0 ||
		out.String() != "008106096c6f63616c686f737463dd01\n00\n" {
		t.Errorf("%q (%d, %s)", out.String(), code, errs.String())
	}
	if code := run([]string{"unpack"}, strings.NewReader("0901"), &out, &errs); code != 1 {
		t.Errorf("a truncated stream: exit %d", code)
	}
}

// send through echo-server, at each threshold: every body comes back.
func TestSendThroughEchoServer(t *testing.T) {
	bodies := []string{"00", "008106096c6f63616c686f737463dd01", "2a010203", "ac0207",
		"02" + strings.Repeat("41", 5000)}
	for _, threshold := range []string{"-1", "0", "4", "256"} {
		pr, pw := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- run([]string{"echo-server", "--threshold", threshold, "--once"}, nil, pw, io.Discard)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "listening ") {
			t.Fatalf("%q %v", line, err)
		}
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		port := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
		sent := bodies
		if threshold == "0" {
			// go-mc cannot read a compressed packet without Data (README.md).
			sent = bodies[1:]
		}
		input := strings.Join(sent, "\n") + "\n"
		var out, errs bytes.Buffer
		if code := run([]string{"send", "--addr", "127.0.0.1:" + port, "--threshold", threshold}, strings.NewReader(input), &out, &errs); code != 0 {
			t.Fatalf("T=%s: send: %d %s", threshold, code, errs.String())
		}
		if out.String() != input {
			t.Errorf("T=%s: got back %q", threshold, out.String())
		}
		if code := <-done; code != 0 {
			t.Errorf("T=%s: echo-server exit %d", threshold, code)
		}
	}
}
