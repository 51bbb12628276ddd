// The Go leg of the cross-language demo (./run demo): reads the sample messages the Rust
// demo wrote, decodes them with the generated Go code, encodes them again and writes
// <Name>.go.bin for the Rust demo to compare with its own bytes.
//
//	go run . [DIR]    # DIR defaults to ../../target/demo, where ./run demo writes them
//
// The package game is generated from ../game.bw by the go:generate line below: run
// `go generate ./...` here (with bitwire on PATH) after changing the schema, and
// commit the result.
package main

//go:generate bitwire gen --lang go --package game --out game ../game.bw

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// codec is what every generated message type provides; the demo needs only these two.
type codec interface {
	Decode(b []byte) error
	AppendTo(dst []byte) ([]byte, error)
}

func main() {
	dir := "../../target/demo"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := run(dir); err != nil {
		fmt.Fprintln(os.Stderr, "go demo:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	messages := []struct {
		name string
		msg  codec
	}{
		{"Packet64", &game.Packet64{}},
		{"Input", &game.Input{}},
		{"Snapshot", &game.Snapshot{}},
		{"Events", &game.Events{}},
	}
	// One buffer for every encoding: AppendTo allocates only while it grows.
	buf := make([]byte, 0, 512)
	for _, m := range messages {
		in, err := os.ReadFile(filepath.Join(dir, m.name+".bin"))
		if err != nil {
			return err
		}
		if err := m.msg.Decode(in); err != nil {
			return fmt.Errorf("decode %s: %w", m.name, err)
		}
		if buf, err = m.msg.AppendTo(buf[:0]); err != nil {
			return fmt.Errorf("encode %s: %w", m.name, err)
		}
		// The encoding is canonical, so decoding and re-encoding must give the same bytes.
		if !bytes.Equal(buf, in) {
			return fmt.Errorf("%s: re-encoded bytes differ from Rust's", m.name)
		}
		if err := os.WriteFile(filepath.Join(dir, m.name+".go.bin"), buf, 0o644); err != nil {
			return err
		}
		fmt.Printf("Go: %-9s %4d B  %s\n", m.name, len(in), summary(m.msg))
	}
	return nil
}

// summary shows a few decoded fields, enough to see the values made it across.
func summary(m codec) string {
	switch m := m.(type) {
	case *game.Packet64:
		return fmt.Sprintf("health %d, pos (%d, %d), score %d", m.Health, m.PosX, m.PosY, m.Score)
	case *game.Input:
		return fmt.Sprintf("seq %d, yaw %.2f, fire %t", m.Seq, m.Yaw, m.Buttons.Fire)
	case *game.Snapshot:
		first := ""
		if len(m.Entities) > 0 {
			first = m.Entities[0].Name
		}
		return fmt.Sprintf("tick %d, %d entities, first %q", m.Tick, len(m.Entities), first)
	case *game.Events:
		kinds := make([]string, len(m.Events))
		for i, e := range m.Events {
			kinds[i] = e.Tag.String()
		}
		return fmt.Sprintf("tick %d, %s", m.Tick, strings.Join(kinds, " "))
	}
	return ""
}
