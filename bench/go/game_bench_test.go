package bench_test

import (
	"os"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/lab"
)

// BenchmarkGame times the lab's bitwire and hand-written cases of every game
// dataset (the same passes cmd/lab times, checked against the corpus first) as Go
// benchmarks, for profiling and benchstat:
//
//	BITWIRE_CORPUS=../../target/lab/corpus go test -run '^$' -bench Game -count 10 .
//
// ns/op is one pass over the dataset; ns/msg is per message. Skipped without a
// corpus.
func BenchmarkGame(b *testing.B) {
	dir := os.Getenv("BITWIRE_CORPUS")
	if dir == "" {
		dir = "../../target/lab/corpus"
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no corpus at %s (set BITWIRE_CORPUS): %v", dir, err)
	}
	m, err := corpus.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	g, err := m.LoadGame()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"packet64", "input", "snapshot", "events", "profiles"} {
		cases, err := lab.GameCases(g, name)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range cases {
			if c.Library != "bitwire" && c.Library != "handwritten" {
				continue
			}
			for _, d := range []struct {
				dir  string
				pass func()
			}{{"encode", c.Encode}, {"decode", c.Decode}} {
				if d.pass == nil {
					continue
				}
				b.Run(name+"/"+d.dir+"/"+c.Library, func(b *testing.B) {
					b.ReportAllocs()
					start := time.Now()
					for i := 0; i < b.N; i++ {
						d.pass()
					}
					b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/float64(c.Messages), "ns/msg")
				})
			}
		}
	}
}
