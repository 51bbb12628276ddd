// Command lab is the Go part of the benchmark lab (bench/README.md): it reads the
// corpus the Rust side writes, checks every library's round trip on it, times
// encode and decode of bitwire and the Go peers (hand-written bit packing,
// flatbuffers-go, protobuf-go, go-bitfield) on every game dataset (packet64,
// snapshot, input, events, profiles), the pod blocks and the packet64 scaling run,
// and writes one raw result file.
//
//	go run ./cmd/lab -corpus ../../target/lab/corpus -out raw/go.json
//	go run ./cmd/lab -quick -corpus ../../target/lab/corpus-quick -out raw/go.json
//
// Figures are medians over interleaved rounds, never asserted; progress goes to
// stderr.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/lab"
)

// Output is the raw result file, format 1.
type Output struct {
	Format   int           `json:"format"`
	Language string        `json:"language"`
	Runtime  string        `json:"runtime"`
	Quick    bool          `json:"quick"`
	Records  []lab.Record  `json:"records"`
	Scaling  []lab.Scaling `json:"scaling"`
}

func main() {
	quick := flag.Bool("quick", false, "tiny datasets and few rounds (CI)")
	dir := flag.String("corpus", "", "corpus directory (default ../../target/lab/corpus, or corpus-quick with -quick)")
	out := flag.String("out", "", "raw result file to write (required)")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: lab [-quick] [-corpus DIR] -out FILE")
		os.Exit(2)
	}
	if *dir == "" {
		*dir = "../../target/lab/corpus"
		if *quick {
			*dir += "-quick"
		}
	}
	start := time.Now()
	res, err := run(*dir, *quick)
	if err != nil {
		fmt.Fprintln(os.Stderr, "[go] error:", err)
		os.Exit(1)
	}
	if err := write(*out, res); err != nil {
		fmt.Fprintln(os.Stderr, "[go] error:", err)
		os.Exit(1)
	}
	lab.Progress("wrote %s (%d records, %d scaling points) in %.1f s", *out, len(res.Records), len(res.Scaling), time.Since(start).Seconds())
}

// plans: how long each part is timed.
type plans struct {
	game, podSmall, podLarge, scaling, scalingLarge lab.Plan
}

func planFor(quick bool) plans {
	if quick {
		p := lab.Plan{Rounds: 3, Target: 2 * time.Millisecond, AllocRuns: 2}
		return plans{game: p, podSmall: p, podLarge: p, scaling: lab.Plan{Rounds: 3, Target: 2 * time.Millisecond}, scalingLarge: lab.Plan{Rounds: 3, Target: 2 * time.Millisecond}}
	}
	return plans{
		game:         lab.Plan{Rounds: 9, Target: 25 * time.Millisecond, AllocRuns: 3},
		podSmall:     lab.Plan{Rounds: 7, Target: 25 * time.Millisecond, AllocRuns: 2},
		podLarge:     lab.Plan{Rounds: 3, Target: 25 * time.Millisecond, AllocsInRound: true},
		scaling:      lab.Plan{Rounds: 7, Target: 25 * time.Millisecond},
		scalingLarge: lab.Plan{Rounds: 3, Target: 25 * time.Millisecond},
	}
}

func run(dir string, quick bool) (*Output, error) {
	res := &Output{Format: 1, Language: "go", Runtime: runtime.Version(), Quick: quick,
		Records: []lab.Record{}, Scaling: []lab.Scaling{}}
	p := planFor(quick)

	m, err := corpus.Load(dir)
	if err != nil {
		return nil, err
	}
	g, err := m.LoadGame()
	if err != nil {
		return nil, err
	}
	lab.Progress("corpus %s: %d packet64, %d snapshot, %d input, %d events, %d profiles; hashes checked, every frame decodes and re-encodes to its bytes",
		dir, len(g.Packet64), len(g.Snapshot), len(g.Input), len(g.Events), len(g.Profiles))

	if err := runGame(res, g, p.game); err != nil {
		return nil, err
	}
	if err := runPod(res, m, p); err != nil {
		return nil, err
	}
	if err := runScaling(res, g, p, quick); err != nil {
		return nil, err
	}
	return res, nil
}

// runGame times the game datasets.
func runGame(res *Output, g *corpus.Game, plan lab.Plan) error {
	for _, name := range corpus.GameDatasets {
		cases, err := lab.GameCases(g, name)
		if err != nil {
			return err
		}
		lab.Progress("%s: %d libraries checked (round trip), timing %d rounds", name, len(cases), plan.Rounds)
		timings := lab.Run(cases, plan)
		for i, c := range cases {
			r := c.Record(timings[i])
			res.Records = append(res.Records, r)
			progressRecord(r)
		}
	}
	return nil
}

// runPod times the pod blocks. Blocks of up to 256 MB, held by four libraries at
// once (for interleaved rounds), plus protobuf-go's fresh allocation per decode: a
// lower GC target keeps the heap near what is live.
func runPod(res *Output, m *corpus.Manifest, p plans) error {
	old := debug.SetGCPercent(25)
	if len(m.Pod) == 0 {
		lab.Progress("pod: the manifest lists no pod files; skipped")
	}
	for i := range m.Pod {
		if err := runPodFile(res, m, &m.Pod[i], p); err != nil {
			return err
		}
	}
	debug.SetGCPercent(old)
	return nil
}

// runPodFile times every block of one pod file, then lets its data go.
func runPodFile(res *Output, m *corpus.Manifest, pf *corpus.Pod, p plans) error {
	data, err := m.PodData(pf)
	if err != nil {
		return err
	}
	for _, block := range pf.Blocks {
		cases, err := lab.PodCases(pf, data, block)
		if err != nil {
			return err
		}
		plan := p.podSmall
		if block >= 64<<20 {
			plan = p.podLarge
		}
		lab.Progress("%s %s: %d libraries checked (round trip), timing %d rounds", pf.Name, lab.BlockLabel(block), len(cases), plan.Rounds)
		timings := lab.Run(cases, plan)
		for i, c := range cases {
			r := c.Record(timings[i])
			res.Records = append(res.Records, r)
			progressRecord(r)
		}
		cases, timings = nil, nil
		runtime.GC()
	}
	data = nil
	debug.FreeOSMemory()
	return nil
}

// runScaling times the packet64 scaling run.
func runScaling(res *Output, g *corpus.Game, p plans, quick bool) error {
	sizes := lab.ScalingSizes
	if quick {
		sizes = lab.ScalingSizesQuick
	}
	all, err := lab.ScalingPackets(sizes[len(sizes)-1], g.Packet64)
	if err != nil {
		return err
	}
	lab.Progress("packet64 scaling: %d packets generated (seed 42); the first %d equal the corpus's", len(all), min(len(all), len(g.Packet64)))
	for _, n := range sizes {
		cases, err := lab.ScalingCases(all[:n])
		if err != nil {
			return err
		}
		if n > lab.BitfieldMaxPackets {
			lab.Progress("packet64 scaling %d go-bitfield: left out (reflection, ~1 µs/packet: a pass would take ~%d s)", n, n/1_000_000)
		}
		plan := p.scaling
		if n >= 1_000_000 {
			plan = p.scalingLarge
		}
		timings := lab.Run(cases, plan)
		for i, c := range cases {
			s := lab.Scaling{Library: c.Library, Packets: n,
				EncodePps: pps(timings[i].EncodeNs, n), DecodePps: pps(timings[i].DecodeNs, n)}
			res.Scaling = append(res.Scaling, s)
			lab.Progress("packet64 scaling %d %s: encode %s pkt/s, decode %s pkt/s", n, c.Library, formatG(s.EncodePps), formatG(s.DecodePps))
		}
		cases, timings = nil, nil
		debug.FreeOSMemory()
	}
	return nil
}

func pps(nsPerPass *float64, packets int) *float64 {
	if nsPerPass == nil {
		return nil
	}
	v := float64(packets) / (*nsPerPass / 1e9)
	return &v
}

// formatG formats an optional number (packets/s, allocations) with 3 significant digits.
func formatG(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3g", *v)
}

func progressRecord(r lab.Record) {
	name := r.Dataset
	if r.Variant != "" {
		name += " " + r.Variant
	}
	lab.Progress("%s %s: encode %s ns, decode %s ns, allocs %s/%s, %d bytes", name, r.Library,
		lab.FormatNs(r.EncodeNs), lab.FormatNs(r.DecodeNs), formatG(r.EncodeAllocs), formatG(r.DecodeAllocs), r.Bytes)
}

func write(path string, res *Output) error {
	text, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if d := filepath.Dir(path); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(text, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
