package lab

import (
	"encoding/binary"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// corpusDir returns the corpus the tests read (env BITWIRE_CORPUS), or skips.
func corpusDir(t testing.TB) string {
	dir := os.Getenv("BITWIRE_CORPUS")
	if dir == "" {
		t.Skip("BITWIRE_CORPUS is not set: write a corpus with `cargo run --release -p bitwire-lab --bin corpus -- --quick --out DIR` and set BITWIRE_CORPUS=DIR")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("BITWIRE_CORPUS=%s: %v", dir, err)
	}
	return dir
}

func loadGame(t *testing.T) *corpus.Game {
	m, err := corpus.Load(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.LoadGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Every library round-trips every game dataset of the corpus (GameCases checks
// each encoding by decoding it; hand-written and bitwire bytes equal the corpus),
// and every pass runs.
func TestGamePeersRoundTrip(t *testing.T) {
	g := loadGame(t)
	for _, name := range corpus.GameDatasets {
		var errs []error
		cases, err := gameCases(g, name, func(err error) { errs = append(errs, err) })
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range errs {
			t.Error(err)
		}
		want := map[string]int{"packet64": 5, "profiles": 3}[name]
		if want == 0 {
			want = 4
		}
		if len(cases) != want {
			t.Errorf("%s: %d libraries, want %d", name, len(cases), want)
		}
		for _, c := range cases {
			if c.Encode != nil {
				c.Encode()
			}
			c.Decode()
		}
	}
}

// Every library round-trips pod blocks of each element type (PodCases checks them),
// on values made here and, when BITWIRE_CORPUS is set, on the corpus's blocks.
func TestPodPeersRoundTrip(t *testing.T) {
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i*131 + i>>8)
	}
	run := func(p *corpus.Pod, data []byte) {
		for _, block := range p.Blocks {
			cases, err := PodCases(p, data, block)
			if err != nil {
				t.Fatal(err)
			}
			var libs []string
			for _, c := range cases {
				libs = append(libs, c.Library)
			}
			if got, want := strings.Join(libs, " "), "bitwire bitwire-bincode bitwire-bincode-reuse handwritten flatbuffers protobuf-go memcpy"; got != want {
				t.Errorf("%s %d: libraries %q, want %q", p.Name, block, got, want)
			}
			for _, c := range cases {
				c.Encode()
				c.Decode()
			}
		}
	}
	for _, elem := range []string{"u64", "u8"} {
		run(&corpus.Pod{Name: "pod_" + elem, Elem: elem, Bytes: len(data), Blocks: []int{8, 1024, len(data)}}, data)
	}
	// Finite floats (a NaN other than the canonical one does not round-trip
	// through bitwire, by design).
	floats := make([]byte, 0, 4096)
	for i := 0; len(floats) < 4096; i++ {
		floats = binary.LittleEndian.AppendUint32(floats, math.Float32bits(float32(i)*-0.37))
	}
	run(&corpus.Pod{Name: "pod_f32", Elem: "f32", Bytes: len(floats), Blocks: []int{4, 1024, len(floats)}}, floats)
	if os.Getenv("BITWIRE_CORPUS") == "" {
		return
	}
	m, err := corpus.Load(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Pod {
		d, err := m.PodData(&m.Pod[i])
		if err != nil {
			t.Fatal(err)
		}
		run(&m.Pod[i], d)
	}
}

// The scaling passes round-trip (ScalingCases checks them) on a few sizes, and the
// generator's packets are the corpus's.
func TestScaling(t *testing.T) {
	var first []game.Packet64
	if os.Getenv("BITWIRE_CORPUS") != "" {
		first = loadGame(t).Packet64
	}
	all, err := ScalingPackets(1000, first)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 100, 1000} {
		cases, err := ScalingCases(all[:n])
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) != 5 {
			t.Errorf("%d: %d libraries", n, len(cases))
		}
	}
}

func TestBlockLabel(t *testing.T) {
	for n, want := range map[int]string{65536: "64KB", 1 << 20: "1MB", 256 << 20: "256MB", 12: "12B"} {
		if got := BlockLabel(n); got != want {
			t.Errorf("BlockLabel(%d) = %s, want %s", n, got, want)
		}
	}
}
