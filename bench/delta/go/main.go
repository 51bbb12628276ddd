// Command deltago is the delta lab's Go program (bench/delta/README.md): it checks and
// times the Go code generated from bench/delta/delta.bw on the lab's scenarios.
//
//	go run . -scenarios DIR -out FILE [-rounds N] [-cpuprofile FILE]
//
// DIR is what `deltabench scenarios` and `deltabench encodings` wrote. For each scenario
// it decodes every tick's full encoding with the generated decoder (and checks that the
// encoder writes the same bytes back), checks that AppendDelta writes the reference
// codec's bytes for every tick at both baseline ages and that DecodeDelta of them gives
// the tick, then times the full codec and the delta codec: the median over N passes
// (default 21, 3 for quick scenarios; one untimed pass first) of the ns per tick of a
// pass over every tick. FILE gets a raw file of the lab (format bitwire-delta-lab/1)
// with those timings and no series: the sizes are the reference codec's, measured by
// `deltabench measure`. Nothing here asserts on a time.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/bitwire-dev/bitwire/bench/delta/go/deltabw"
)

// Timed passes per figure: as `deltabench measure`.
const (
	rounds      = 21
	quickRounds = 3
)

// rawFile is a raw file of the lab (src/raw.rs), with timings only.
type rawFile struct {
	Format    string            `json:"format"`
	Program   string            `json:"program"`
	Runtime   string            `json:"runtime"`
	Quick     bool              `json:"quick"`
	Ticks     int               `json:"ticks"`
	Scenarios map[string]string `json:"scenarios"`
	Series    []struct{}        `json:"series"`
	Timings   []timing          `json:"timings"`
}

// codecID is the raw file's codec id of a delta at baseline age `age`.
func codecID(age int) string { return fmt.Sprintf("bitwire-delta-%d", age) }

func run(dir, out string, n int) error {
	idx, scenarios, err := readEncodings(dir)
	if err != nil {
		return err
	}
	if n <= 0 {
		n = rounds
		if idx.Quick {
			n = quickRounds
		}
	}
	codecs := make([]string, len(idx.Ages))
	for i, age := range idx.Ages {
		codecs[i] = codecID(age)
	}
	raw := rawFile{
		Format:    "bitwire-delta-lab/1",
		Program:   "go/ (deltago)",
		Runtime:   runtime.Version(),
		Quick:     idx.Quick,
		Ticks:     idx.Ticks,
		Scenarios: idx.Scenarios,
		Series:    []struct{}{},
	}
	for _, name := range []string{"world", "cubes"} {
		s, ok := scenarios[name]
		if !ok {
			return fmt.Errorf("encodings.json has no %s file", name)
		}
		var t []timing
		if name == "world" {
			t, err = measure[deltabw.World](s, idx.Ages, codecs, n)
		} else {
			t, err = measure[deltabw.Cubes](s, idx.Ages, codecs, n)
		}
		if err != nil {
			return err
		}
		raw.Timings = append(raw.Timings, t...)
	}
	text, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, append(text, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d timings (%s), every delta byte-identical to the reference codec's and decoded back\n",
		out, len(raw.Timings), raw.Runtime)
	return nil
}

func main() {
	dir := flag.String("scenarios", "", "the scenarios' directory (manifest.json, encodings.json, *.bin)")
	out := flag.String("out", "", "the raw file to write (raw/go.json)")
	n := flag.Int("rounds", 0, "timed passes per figure (default 21, 3 for quick scenarios)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *dir == "" || *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	err := withProfile(*profile, func() error { return run(*dir, *out, *n) })
	if err != nil {
		fmt.Fprintf(os.Stderr, "deltago: %v\n", err)
		os.Exit(1)
	}
}

// withProfile runs f, under a CPU profile written to path unless path is empty.
func withProfile(path string, f func() error) (err error) {
	if path == "" {
		return f()
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, file.Close()) }()
	if err := pprof.StartCPUProfile(file); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	return f()
}
