package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bitwire-dev/bitwire/bench/delta/go/deltabw"
)

// The program on small scenarios made here with the generated Go code (the lab's
// scenarios come from the Rust generator, which these tests do not need), and the
// benchmarks on the lab's scenarios for profiling:
//
//	BITWIRE_DELTA_SCENARIOS=DIR go test -run '^$' -bench . -cpuprofile cpu.out

func TestFnv1a64(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
	}{{"", 0xcbf29ce484222325}, {"a", 0xaf63dc4c8601ec8c}, {"foobar", 0x85944171f73967e8}} {
		if got := fnv1a64([]byte(c.in)); got != c.want {
			t.Errorf("fnv1a64(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
}

func TestRecords(t *testing.T) {
	got, err := records([]byte{2, 0, 0, 0, 7, 8, 0, 0, 0, 0, 1, 0, 0, 0, 9})
	if err != nil || len(got) != 3 || string(got[0]) != "\x07\x08" || len(got[1]) != 0 || string(got[2]) != "\x09" {
		t.Fatalf("records = %q, %v", got, err)
	}
	for _, bad := range [][]byte{{1, 0, 0}, {3, 0, 0, 0, 1, 2}, {0xff, 0xff, 0xff, 0xff}} {
		if got, err := records(bad); err == nil {
			t.Errorf("records(%v) = %q, want an error", bad, got)
		}
	}
}

// ticks of a small world: entity 2 walks, 3 turns, 4 is hit and 5 spawns at tick 2; all
// on the schema's grids, so the full encodings decode to the same values.
func worldTicks() []deltabw.World {
	base := []deltabw.Entity{
		{ID: 2, Kind: deltabw.KindPlayer, X: 1, Y: -2, Z: 0.5, Yaw: 0, Vx: 1, Health: 100, Anim: 1},
		{ID: 3, Kind: deltabw.KindNpc, X: 10, Y: 10, Health: 50},
		{ID: 4, Kind: deltabw.KindProp, X: -4, Y: 4, Health: 200},
	}
	out := []deltabw.World{{Tick: 100, Entities: base}}
	for i := 1; i < 4; i++ {
		e := append([]deltabw.Entity(nil), out[i-1].Entities...)
		e[0].X += 0.015625 * 4
		e[1].Yaw = float32(i) * 10
		e[2].Health -= 10
		if i == 2 {
			e = append(e, deltabw.Entity{ID: 5, Kind: deltabw.KindProjectile, X: 1, Y: 1, Z: 1, Vx: 30})
		}
		out = append(out, deltabw.World{Tick: uint32(100 + i), Entities: e})
	}
	return out
}

func cubesTicks() []deltabw.Cubes {
	out := []deltabw.Cubes{{Tick: 0}}
	for id := uint16(0); id < 20; id++ {
		out[0].Cubes = append(out[0].Cubes, deltabw.Cube{ID: id, X: float32(id), Z: 1})
	}
	for i := 1; i < 4; i++ {
		c := append([]deltabw.Cube(nil), out[i-1].Cubes...)
		c[i].Z -= 0.001953125 * 16
		c[i].Interacting = true
		out = append(out, deltabw.Cubes{Tick: uint32(i), Cubes: c})
	}
	return out
}

// bytesOf is a scenario's bytes as deltabench encodings writes them, made with the Go
// code itself.
func bytesOf[T any, P message[T]](t *testing.T, name string, ticks []T, ages []int) scenarioBytes {
	t.Helper()
	s := scenarioBytes{name: name}
	for i := range ticks {
		b, err := P(&ticks[i]).AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		s.full = append(s.full, b)
	}
	for _, age := range ages {
		var ds [][]byte
		for _, p := range pairs(len(ticks), age) {
			d, err := P(&ticks[p.t]).AppendDelta(nil, &ticks[p.b])
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		s.deltas = append(s.deltas, ds)
	}
	return s
}

func TestCheckRejectsADeltaThatIsNotTheReferences(t *testing.T) {
	s := bytesOf[deltabw.World](t, "world", worldTicks(), []int{1, 2})
	codecs := []string{"bitwire-delta-1", "bitwire-delta-2"}
	if _, err := check[deltabw.World](s, []int{1, 2}, codecs); err != nil {
		t.Fatal(err)
	}
	// The age-2 delta of tick 3 with its last byte changed: AppendDelta's differs.
	d := s.deltas[1][2]
	d[len(d)-1] ^= 0x80
	_, err := check[deltabw.World](s, []int{1, 2}, codecs)
	if err == nil || !strings.Contains(err.Error(), "world tick 3, age 2: AppendDelta wrote") {
		t.Fatalf("err = %v", err)
	}
	// A full encoding with a byte too many does not decode.
	s = bytesOf[deltabw.World](t, "world", worldTicks(), []int{1})
	s.full[1] = append(s.full[1], 0)
	if _, err := check[deltabw.World](s, []int{1}, codecs[:1]); err == nil || !strings.Contains(err.Error(), "world tick 1: Decode") {
		t.Fatalf("err = %v", err)
	}
}

// writeDir writes the files deltabench writes for the two small scenarios into a new
// directory.
func writeDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ages := []int{1, 6}
	all := []scenarioBytes{
		bytesOf[deltabw.World](t, "world", worldTicks(), ages),
		bytesOf[deltabw.Cubes](t, "cubes", cubesTicks(), ages),
	}
	idx := encodingsIndex{Format: encodingsFormat, Quick: true, Ticks: 4, Ages: ages, Scenarios: map[string]string{}}
	var m manifest
	m.Format = manifestFormat
	for i, s := range all {
		var file []byte
		n := 0
		for _, r := range append(append([][]byte(nil), s.full...), append(s.deltas[0], s.deltas[1]...)...) {
			file = binary.LittleEndian.AppendUint32(file, uint32(len(r)))
			file = append(file, r...)
			n++
		}
		writeFile(t, filepath.Join(dir, s.name+".bin"), file)
		hash := fmt.Sprintf("%016x", uint64(i+1)) // the scenario files are not read here
		idx.Scenarios[s.name] = hash
		m.Files = append(m.Files, struct {
			Scenario string `json:"scenario"`
			Fnv1a64  string `json:"fnv1a64"`
		}{s.name, hash})
		idx.Files = append(idx.Files, encodingFile{
			Scenario: s.name, Message: map[string]string{"world": "World", "cubes": "Cubes"}[s.name],
			File: s.name + ".bin", Records: n, Fnv1a64: fmt.Sprintf("%016x", fnv1a64(file)),
		})
	}
	writeJSON(t, filepath.Join(dir, "encodings.json"), idx)
	writeJSON(t, filepath.Join(dir, "manifest.json"), m)
	return dir
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, b)
}

func TestRunWritesARawFile(t *testing.T) {
	dir := writeDir(t)
	out := filepath.Join(dir, "raw", "go.json")
	if err := run(dir, out, 1); err != nil {
		t.Fatal(err)
	}
	var raw rawFile
	if err := readJSON(out, &raw); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range raw.Timings {
		ids = append(ids, x.Scenario+" "+x.Codec)
		if !(x.EncodeNs > 0 && x.DecodeNs > 0) || x.Rounds != 1 {
			t.Errorf("%s %s: %+v", x.Scenario, x.Codec, x)
		}
	}
	want := "world bitwire,world bitwire-delta-1,world bitwire-delta-6,cubes bitwire,cubes bitwire-delta-1,cubes bitwire-delta-6"
	if got := strings.Join(ids, ","); got != want || raw.Format != "bitwire-delta-lab/1" || !raw.Quick || raw.Ticks != 4 ||
		raw.Scenarios["cubes"] != "0000000000000002" || raw.Series == nil {
		t.Errorf("raw file: %s\n%+v", got, raw)
	}
}

func TestRunRefusesChangedFiles(t *testing.T) {
	dir := writeDir(t)
	path := filepath.Join(dir, "cubes.bin")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	writeFile(t, path, b)
	if err := run(dir, filepath.Join(dir, "go.json"), 1); err == nil || !strings.Contains(err.Error(), "FNV-1a 64") {
		t.Fatalf("err = %v", err)
	}
	dir = writeDir(t)
	writeJSON(t, filepath.Join(dir, "manifest.json"), manifest{Format: manifestFormat})
	if err := run(dir, filepath.Join(dir, "go.json"), 1); err == nil || !strings.Contains(err.Error(), "manifest.json") {
		t.Fatalf("err = %v", err)
	}
}

// BenchmarkLab times every pass of the lab's scenarios in BITWIRE_DELTA_SCENARIOS (a
// directory `deltabench scenarios` and `deltabench encodings` wrote), one pass over
// every tick per iteration, reported as ns/tick too.
func BenchmarkLab(b *testing.B) {
	dir := os.Getenv("BITWIRE_DELTA_SCENARIOS")
	if dir == "" {
		b.Skip("set BITWIRE_DELTA_SCENARIOS to a scenarios directory")
	}
	idx, all, err := readEncodings(dir)
	if err != nil {
		b.Fatal(err)
	}
	codecs := make([]string, len(idx.Ages))
	for i, age := range idx.Ages {
		codecs[i] = codecID(age)
	}
	for _, name := range []string{"world", "cubes"} {
		var passes []pass
		if name == "world" {
			passes, err = check[deltabw.World](all[name], idx.Ages, codecs)
		} else {
			passes, err = check[deltabw.Cubes](all[name], idx.Ages, codecs)
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range passes {
			for _, op := range []struct {
				name string
				f    func() error
			}{{"encode", p.encode}, {"decode", p.decode}} {
				b.Run(name+"/"+p.codec+"/"+op.name, func(b *testing.B) {
					for range b.N {
						if err := op.f(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*max(p.ticks, 1)), "ns/tick")
				})
			}
		}
	}
}
