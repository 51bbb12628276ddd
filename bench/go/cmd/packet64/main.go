// Command packet64 prints the packet64 benchmark: encode and decode through the Go
// code generated from examples/game.bw against a hand-written shift-and-mask codec
// of the same layout, on the fixed-seed dataset the Rust benchmark uses.
//
//	go run ./cmd/packet64           # 15 interleaved rounds of 1 s benchmarks
//	go run ./cmd/packet64 --quick   # a smoke run that takes a few seconds
//
// It prints ns/packet (median of the rounds), the ratio generated / hand-written
// (goal: at most 1.2) and the -benchmem figures. The hand-written encoder masks
// out-of-range fields; the generated one must reject them (spec §3.1), so encode is
// also compared with hand-written code that does the same checks. Numbers are
// printed, never asserted.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"testing"

	bench "github.com/bitwire-dev/bitwire/bench/go"
)

func main() {
	testing.Init()
	quick := flag.Bool("quick", false, "a short smoke run (CI)")
	flag.Parse()
	rounds, benchtime := 15, "1s"
	if *quick {
		rounds, benchtime = 3, "20ms"
	}
	if err := flag.Set("test.benchtime", benchtime); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Same bytes first: a benchmark of two codecs that disagree would be meaningless.
	d, err := bench.NewData(bench.DatasetSize)
	if err != nil {
		fmt.Fprintln(os.Stderr, "packet64:", err)
		os.Exit(1)
	}
	contenders := []struct {
		name string
		fn   func(*testing.B)
	}{
		{"encode generated", d.EncodeGenerated},
		{"encode hand-written", d.EncodeHand},
		{"encode hand-written, checked", d.EncodeHandChecked},
		{"decode generated", d.DecodeGenerated},
		{"decode hand-written", d.DecodeHand},
	}
	// Interleaved rounds (A, B, C, …, A, B, C, …) so that frequency changes and
	// noise from other processes hit every contender alike; the median is reported.
	samples := make([][]float64, len(contenders))
	last := make([]testing.BenchmarkResult, len(contenders))
	for r := 0; r < rounds; r++ {
		for i, c := range contenders {
			res := testing.Benchmark(c.fn)
			samples[i] = append(samples[i], float64(res.T.Nanoseconds())/float64(res.N))
			last[i] = res
		}
	}
	ns := make([]float64, len(contenders))
	for i, s := range samples {
		sort.Float64s(s)
		ns[i] = s[len(s)/2]
	}
	mode := ""
	if *quick {
		mode = " (quick)"
	}
	fmt.Printf("packet64, %d packets, median of %d interleaved rounds of %s%s\n", bench.DatasetSize, rounds, benchtime, mode)
	fmt.Printf("%s %s/%s, %d CPUs\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Printf("%-8s %14s %14s %8s\n", "", "generated", "hand-written", "ratio")
	fmt.Printf("%-8s %11.2f ns %11.2f ns %7.2fx\n", "encode", ns[0], ns[1], ns[0]/ns[1])
	fmt.Printf("%-8s %11.2f ns %11.2f ns %7.2fx\n", "decode", ns[3], ns[4], ns[3]/ns[4])
	fmt.Printf("encode, hand-written with the same range checks: %.2f ns, generated / that = %.2fx\n", ns[2], ns[0]/ns[2])
	fmt.Println("goal: ratio <= 1.20, 0 allocs/op")
	fmt.Println()
	fmt.Println("-benchmem (last round):")
	for i, c := range contenders {
		fmt.Printf("  %-30s %8.2f ns/op %4d B/op %4d allocs/op\n", c.name,
			float64(last[i].T.Nanoseconds())/float64(last[i].N), last[i].AllocedBytesPerOp(), last[i].AllocsPerOp())
	}
}
