package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The example's contract (examples/net/README.md), checked on the built programs:
// Go clients over TCP and WebSocket against the Go server, with and without
// compression, next to a connection that sends a malformed frame; and --static.

var listening = regexp.MustCompile(`^listening tcp=(127\.0\.0\.1:\d+) ws=(ws://127\.0\.0\.1:\d+/ws)\n$`)

// build compiles the server and the client into a temporary directory.
func build(t *testing.T) (server, client string) {
	t.Helper()
	dir := t.TempDir()
	server, client = filepath.Join(dir, "server"), filepath.Join(dir, "client")
	for out, pkg := range map[string]string{server: ".", client: "../client"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("go build %s: %v", pkg, err)
		}
	}
	return server, client
}

// start runs the server and returns its TCP address, WebSocket URL and a function
// that waits for it to exit and returns its output.
func start(t *testing.T, server string, args ...string) (string, string, func() (string, string)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	cmd := exec.CommandContext(ctx, server, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	m := listening.FindStringSubmatch(line)
	if err != nil || m == nil {
		cancel()
		t.Fatalf("first line %q (%v)", line, err)
	}
	rest := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		rest <- string(b)
	}()
	return m[1], m[2], func() (string, string) {
		defer cancel()
		out := <-rest
		if err := cmd.Wait(); err != nil {
			t.Errorf("server: %v; stderr: %s", err, stderr.String())
		}
		return out, stderr.String()
	}
}

func TestClientsAgainstServer(t *testing.T) {
	server, client := build(t)
	for _, threshold := range []string{"", "0", "64"} {
		args := []string{"--players", "3", "--seconds", "20"}
		cargs := []string{}
		if threshold != "" {
			args = append(args, "--threshold", threshold)
			cargs = append(cargs, "--threshold", threshold)
		}
		tcp, ws, wait := start(t, server, args...)
		// A connection that sends a frame with an unknown message id.
		bad, err := net.Dial("tcp", tcp)
		if err != nil {
			t.Fatal(err)
		}
		frame := []byte{0x0a, 0x63, 0x01, 0xa5, 0x2b, 0xca, 0x0e, 0x4b, 0x40, 0xe2, 0x04}
		if threshold != "" {
			frame = []byte{0x0b, 0x00, 0x63, 0x01, 0xa5, 0x2b, 0xca, 0x0e, 0x4b, 0x40, 0xe2, 0x04}
		}
		_, _ = bad.Write(frame)
		_ = bad.SetReadDeadline(time.Now().Add(10 * time.Second))
		if n, err := bad.Read(make([]byte, 1)); n != 0 || err == nil {
			t.Errorf("the malformed connection stayed open")
		}
		_ = bad.Close()

		var wg sync.WaitGroup
		outs := make([]string, 3)
		for i, target := range [][]string{{"--tcp", tcp}, {"--ws", ws}, {"--tcp", tcp}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(client, append(append(target, "--name", "p"+string(rune('a'+i))), cargs...)...)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("client %v: %v: %s", target, err, out)
				}
				outs[i] = string(out)
			}()
		}
		wg.Wait()
		for _, out := range outs {
			if !regexp.MustCompile(`^go client: player \d+, chat echoed, pose seen among [1-3] players, bye\n$`).MatchString(out) {
				t.Errorf("threshold %q: client printed %q", threshold, out)
			}
		}
		out, stderr := wait()
		if out != "served 3 players (go, go, go)\n" {
			t.Errorf("threshold %q: server printed %q", threshold, out)
		}
		if !strings.Contains(stderr, "UnknownMessage") {
			t.Errorf("threshold %q: the malformed frame was not logged: %q", threshold, stderr)
		}
	}
}

// With --static DIR the WebSocket port serves DIR over HTTP; --seconds ends it.
func TestStatic(t *testing.T) {
	server, _ := build(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>arena</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ws, wait := start(t, server, "--static", dir, "--seconds", "1")
	page := "http://" + strings.TrimSuffix(strings.TrimPrefix(ws, "ws://"), "/ws") + "/"
	resp, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if string(body) != "<p>arena</p>" {
		t.Errorf("GET %s: %q", page, body)
	}
	if out, _ := wait(); out != "served 0 players ()\n" {
		t.Errorf("server printed %q", out)
	}
}
