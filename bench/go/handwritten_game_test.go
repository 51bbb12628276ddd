package bench

import (
	"bytes"
	"os"
	"testing"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// The hand-written encoders produce the corpus's bytes for every message, and the
// hand-written decoders read them back to the generated decoder's values.
func TestHandwrittenMatchesCorpus(t *testing.T) {
	dir := os.Getenv("BITWIRE_CORPUS")
	if dir == "" {
		t.Skip("BITWIRE_CORPUS is not set: write a corpus with `cargo run --release -p bitwire-lab --bin corpus -- --quick --out DIR` and set BITWIRE_CORPUS=DIR")
	}
	m, err := corpus.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.LoadGame()
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, i int, got []byte) {
		t.Helper()
		if want := g.Frames[name][i]; !bytes.Equal(got, want) {
			t.Fatalf("%s #%d: hand-written % x\n bitwire % x", name, i, got, want)
		}
	}
	for i := range g.Packet64 {
		same("packet64", i, HandEncode(&g.Packet64[i], nil))
		var p game.Packet64
		if !HandDecode(g.Frames["packet64"][i], &p) || p != g.Packet64[i] {
			t.Fatalf("packet64 #%d: decoded %+v", i, p)
		}
	}
	for i := range g.Input {
		same("input", i, HandEncodeInput(&g.Input[i], nil))
		var in game.Input
		if !HandDecodeInput(g.Frames["input"][i], &in) || in != g.Input[i] {
			t.Fatalf("input #%d: decoded %+v, want %+v", i, in, g.Input[i])
		}
	}
	var s game.Snapshot
	for i := range g.Snapshot {
		same("snapshot", i, HandEncodeSnapshot(&g.Snapshot[i], nil))
		if !HandDecodeSnapshot(g.Frames["snapshot"][i], &s) {
			t.Fatalf("snapshot #%d: truncated", i)
		}
		// Equal values encode alike: compare through the generated encoder.
		a, _ := s.Encode()
		same("snapshot", i, a)
	}
	var e game.Events
	for i := range g.Events {
		same("events", i, HandEncodeEvents(&g.Events[i], nil))
		if !HandDecodeEvents(g.Frames["events"][i], &e) {
			t.Fatalf("events #%d: truncated", i)
		}
		a, _ := e.Encode()
		same("events", i, a)
	}
}

// Without a corpus: the hand-written snapshot codec agrees with the generated one
// on the verify benchmark's snapshots, and its decoder stops at truncation. The
// values are first put on the quantization grids (encoded and decoded by the
// generated code), as every corpus value is: off the grid, math.Round((x-min)/step)
// and the spec's floor((x-min)/(max-min)*steps + 0.5) may round a near-tie
// differently.
func TestHandwrittenSnapshot(t *testing.T) {
	for _, n := range []int{0, 1, 16, 64} {
		want, err := Snapshot(n).Encode()
		if err != nil {
			t.Fatal(err)
		}
		s := new(game.Snapshot)
		if err := s.Decode(want); err != nil {
			t.Fatal(err)
		}
		got := HandEncodeSnapshot(s, nil)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d entities: hand-written % x\n bitwire % x", n, got, want)
		}
		var back, gen game.Snapshot
		if !HandDecodeSnapshot(got, &back) || gen.Decode(got) != nil {
			t.Fatalf("%d entities: decode failed", n)
		}
		a, _ := back.Encode()
		if !bytes.Equal(a, want) {
			t.Fatalf("%d entities: decoded value differs", n)
		}
		if len(got) > 0 && HandDecodeSnapshot(got[:len(got)-1], &back) && n > 0 {
			t.Fatalf("%d entities: truncated input accepted", n)
		}
	}
}

// The generated packet64 codec allocates nothing: AppendTo into a buffer with room,
// Decode into a value.
func TestPacket64ZeroAllocs(t *testing.T) {
	d := data(t)
	buf := make([]byte, 0, 8)
	var p game.Packet64
	i := 0
	enc := testing.AllocsPerRun(1000, func() {
		buf, _ = d.Packets[i%len(d.Packets)].AppendTo(buf[:0])
		i++
	})
	dec := testing.AllocsPerRun(1000, func() {
		_ = p.Decode(d.Wire[8*(i%len(d.Packets)) : 8*(i%len(d.Packets))+8])
		i++
	})
	if enc != 0 || dec != 0 {
		t.Fatalf("allocs per op: AppendTo %v, Decode %v; want 0", enc, dec)
	}
}
