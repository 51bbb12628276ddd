// Command verify prints the cost of the generated Verify functions against Decode
// on the same bytes: the packet64 dataset, and snapshots of 16 and 64 entities
// (examples/rust/src/samples.rs snapshot(n)).
//
//	go run ./cmd/verify           # 9 interleaved rounds of 1 s benchmarks
//	go run ./cmd/verify --quick   # a smoke run that takes a few seconds
//
// It prints ns/message (median of the rounds) and the speedup decode / verify
// (goal on snapshot: at least 3x). Numbers are printed, never asserted.
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
	rounds, benchtime := 9, "1s"
	if *quick {
		rounds, benchtime = 3, "20ms"
	}
	if err := flag.Set("test.benchtime", benchtime); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	d, err := bench.NewData(bench.DatasetSize)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(1)
	}
	s16, err := bench.NewSnapshotBench(16)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(1)
	}
	s64, err := bench.NewSnapshotBench(64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
		os.Exit(1)
	}
	rows := []struct {
		name           string
		bytes          int
		decode, verify func(*testing.B)
	}{
		{"packet64", 8, d.DecodeGenerated, d.VerifyGenerated},
		{"snapshot16", len(s16.Wire), s16.Decode, s16.Verify},
		{"snapshot64", len(s64.Wire), s64.Decode, s64.Verify},
	}
	fns := make([]func(*testing.B), 0, 2*len(rows))
	for _, r := range rows {
		fns = append(fns, r.decode, r.verify)
	}
	// Interleaved rounds so that noise hits every contender alike; medians reported.
	samples := make([][]float64, len(fns))
	allocs := make([]int64, len(fns))
	for r := 0; r < rounds; r++ {
		for i, fn := range fns {
			res := testing.Benchmark(fn)
			samples[i] = append(samples[i], float64(res.T.Nanoseconds())/float64(res.N))
			allocs[i] = res.AllocsPerOp()
		}
	}
	ns := make([]float64, len(fns))
	for i, s := range samples {
		sort.Float64s(s)
		ns[i] = s[len(s)/2]
	}
	mode := ""
	if *quick {
		mode = " (quick)"
	}
	fmt.Printf("verify vs decode, median of %d interleaved rounds of %s%s\n", rounds, benchtime, mode)
	fmt.Printf("%s %s/%s, %d CPUs\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	fmt.Printf("%-11s %6s %14s %14s %8s %7s\n", "", "bytes", "decode", "verify", "speedup", "allocs")
	for i, r := range rows {
		dn, vn := ns[2*i], ns[2*i+1]
		fmt.Printf("%-11s %6d %11.2f ns %11.2f ns %7.2fx %3d/%-3d\n", r.name, r.bytes, dn, vn, dn/vn, allocs[2*i], allocs[2*i+1])
	}
	fmt.Println("goal: snapshot speedup >= 3x, 0 allocs/op (decode into a reused value)")
}
