// Command interop is the go project's side of the interop exchange of
// conformance/projects/run.py: it encodes the shared values of lobby.bw with the
// project's generated package (write), and decodes what every other project wrote
// (read).
//
//	go run ./interop write EXCH   # EXCH/go.Join.bin, go.Chat.bin, go.Move.bin
//	go run ./interop read EXCH    # every EXCH/<project>.<Message>.bin but go's
package main

import (
	"bytes"
	"encoding"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"

	"example.com/myserver/lobby"
)

// message is a generated message through the standard interfaces only.
type message interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// sample is one of the exchanged values: the value every project encodes, a new
// value to decode into, and the fields read checks after decoding.
type sample struct {
	name  string
	value message
	fresh func() message
	check func(m message) error
}

func samples() []sample {
	join := &lobby.Join{Name: "Ada ✓", Role: lobby.RoleHost, Build: 9223372036854775813,
		Region: bitwire.Some[uint8](7)}
	chat := &lobby.Chat{From: 300, Text: "hello, lobby", Mentions: []uint32{1, 2, 70000}}
	move := &lobby.Move{Player: 1023, X: -12.5, Y: 100.0625, Heading: 90, Running: true}
	return []sample{
		{"Join", join, func() message { return new(lobby.Join) }, func(m message) error {
			j := m.(*lobby.Join)
			if j.Name != join.Name || j.Build != join.Build {
				return fmt.Errorf("decoded name %q build %d", j.Name, j.Build)
			}
			return nil
		}},
		{"Chat", chat, func() message { return new(lobby.Chat) }, func(m message) error {
			if c := m.(*lobby.Chat); !slices.Equal(c.Mentions, chat.Mentions) {
				return fmt.Errorf("decoded mentions %v", c.Mentions)
			}
			return nil
		}},
		{"Move", move, func() message { return new(lobby.Move) }, func(m message) error {
			if p := m.(*lobby.Move).Player; p != move.Player {
				return fmt.Errorf("decoded player %d", p)
			}
			return nil
		}},
	}
}

func main() {
	if len(os.Args) != 3 || (os.Args[1] != "write" && os.Args[1] != "read") {
		fmt.Fprintln(os.Stderr, "usage: interop write|read EXCH")
		os.Exit(2)
	}
	run := write
	if os.Args[1] == "read" {
		run = read
	}
	if err := run(os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "go interop:", err)
		os.Exit(1)
	}
}

func write(dir string) error {
	for _, s := range samples() {
		b, err := s.value.MarshalBinary()
		if err != nil {
			return fmt.Errorf("encode %s: %w", s.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go."+s.name+".bin"), b, 0o644); err != nil {
			return err
		}
		fmt.Printf("go wrote go.%s.bin: %d bytes\n", s.name, len(b))
	}
	return nil
}

func read(dir string) error {
	failed := 0
	for _, s := range samples() {
		want, err := s.value.MarshalBinary()
		if err != nil {
			return fmt.Errorf("encode %s: %w", s.name, err)
		}
		files, err := filepath.Glob(filepath.Join(dir, "*."+s.name+".bin"))
		if err != nil {
			return err
		}
		for _, file := range files {
			base := filepath.Base(file)
			if strings.HasPrefix(base, "go.") {
				continue
			}
			if err := readOne(s, file, want); err != nil {
				fmt.Printf("go read %s: FAILED: %v\n", base, err)
				failed++
				continue
			}
			fmt.Printf("go read %s: %d bytes, same as go's, decoded and re-encoded\n", base, len(want))
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d files did not match", failed)
	}
	return nil
}

// readOne checks one file written by another project: its bytes are go's encoding
// of the same value, they decode to the expected fields, and the decoded value
// encodes to the same bytes again.
func readOne(s sample, file string, want []byte) error {
	got, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("bytes % x, go encodes % x", got, want)
	}
	m := s.fresh()
	if err := m.UnmarshalBinary(got); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	if err := s.check(m); err != nil {
		return err
	}
	again, err := m.MarshalBinary()
	if err != nil || !bytes.Equal(again, got) {
		return fmt.Errorf("re-encoded to % x (%v)", again, err)
	}
	return nil
}
