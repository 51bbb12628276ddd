// The Go leg of the cross-language demo (./run demo): reads the sample messages the Rust
// demo wrote, in the packed encoding (<Name>.bin) and the bincode one
// (<Name>.bincode.bin), decodes them with the generated Go code, checks both decode to
// the same value, encodes them again and writes <Name>.go.bin and <Name>.bincode.go.bin
// for the Rust demo to compare with its own bytes.
//
//	go run . [DIR]    # DIR defaults to ../../target/demo, where ./run demo writes them
//
// The package game is generated from ../game.bw by the go:generate line below: run
// `go generate ./...` here (with bitwire on PATH) after changing the schema, and
// commit the result.
package main

//go:generate bitwire gen --lang go --package game --encoding bincode --out game ../game.bw

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// codec is what every generated message type provides (with --encoding bincode); the
// demo needs only these four.
type codec interface {
	Decode(b []byte) error
	AppendTo(dst []byte) ([]byte, error)
	DecodeBincode(b []byte) error
	AppendBincode(dst []byte) ([]byte, error)
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
	// Two values of each type: one decoded from the packed bytes, one from the bincode
	// bytes, so that the demo can check they are equal.
	messages := []struct {
		name            string
		packed, bincode codec
	}{
		{"Packet64", &game.Packet64{}, &game.Packet64{}},
		{"Input", &game.Input{}, &game.Input{}},
		{"Snapshot", &game.Snapshot{}, &game.Snapshot{}},
		{"Events", &game.Events{}, &game.Events{}},
	}
	// One buffer for every encoding: appending allocates only while it grows.
	buf := make([]byte, 0, 1024)
	var err error
	for _, m := range messages {
		var packedSize, bincodeSize int
		buf, packedSize, err = roundTrip(dir, m.name, m.packed.Decode, m.packed.AppendTo, buf)
		if err != nil {
			return err
		}
		buf, bincodeSize, err = roundTrip(dir, m.name+".bincode", m.bincode.DecodeBincode, m.bincode.AppendBincode, buf)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(m.packed, m.bincode) {
			return fmt.Errorf("%s: the bincode bytes decode to another value than the packed ones", m.name)
		}
		fmt.Printf("Go: %-9s %4d B packed, %4d B bincode  %s\n", m.name, packedSize, bincodeSize, summary(m.packed))
	}
	return nil
}

// roundTrip reads dir/<stem>.bin, decodes it, encodes the value again into buf (returned,
// to be reused), checks the bytes are Rust's and writes them to dir/<stem>.go.bin. It
// returns the size.
func roundTrip(dir, stem string, decode func([]byte) error, appendTo func([]byte) ([]byte, error), buf []byte) ([]byte, int, error) {
	in, err := os.ReadFile(filepath.Join(dir, stem+".bin"))
	if err != nil {
		return buf, 0, err
	}
	if err := decode(in); err != nil {
		return buf, 0, fmt.Errorf("decode %s: %w", stem, err)
	}
	if buf, err = appendTo(buf[:0]); err != nil {
		return buf, 0, fmt.Errorf("encode %s: %w", stem, err)
	}
	// Both encodings write a decoded value back exactly, so re-encoding must give the
	// same bytes.
	if !bytes.Equal(buf, in) {
		return buf, 0, fmt.Errorf("%s: re-encoded bytes differ from Rust's", stem)
	}
	if err := os.WriteFile(filepath.Join(dir, stem+".go.bin"), buf, 0o644); err != nil {
		return buf, 0, err
	}
	return buf, len(in), nil
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
