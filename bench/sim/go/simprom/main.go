// Command simprom checks the game-server simulator's Prometheus metrics
// (bench/sim/README.md, "Metrics"):
//
//	simprom check --metrics FILE --server SUMMARY.json --clients RESULTS.json...
//
// parses a scrape of /metrics with expfmt (the Prometheus project's parser) and checks
// that it equals the programs' own counts exactly: ticks, snapshots, bytes and inputs
// both ways (the server's totals and the sum of every client process's counters), RTT
// reports (count exactly, sum within rounding), decode errors, joined and connected
// clients, and sim_info's codec. It prints every comparison and exits 1 if one fails.
//
//	simprom query --url URL --match '{codec="bitwire",clients="10"}' --at UNIX_T --window S [--timeout S]
//
// reads one cell's server-side figures from a Prometheus server's query API
// (/api/v1/query) over the S seconds before UNIX_T, once it holds a scrape from after
// UNIX_T, and prints them as JSON.
//
//	simprom up --url URL --match SELECTOR [--timeout S]
//
// waits until Prometheus scrapes the selected target successfully.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
)

const usage = `usage:
  simprom check --metrics FILE --server SUMMARY.json --clients RESULTS.json...
  simprom query --url URL --match SELECTOR --at UNIX_T --window SECONDS [--timeout SECONDS]
  simprom up --url URL --match SELECTOR [--timeout SECONDS]`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: 0 ok, 1 a failed check or query, 2 a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	flags, err := parseFlags(args[1:])
	if err != nil {
		fmt.Fprintf(stderr, "simprom %s: %v\n%s\n", args[0], err, usage)
		return 2
	}
	switch args[0] {
	case "check":
		return runCheck(flags, stdout, stderr)
	case "query":
		return runQuery(flags, stdout, stderr)
	case "up":
		return runUp(flags, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "simprom: unknown command %q\n%s\n", args[0], usage)
		return 2
	}
}

// parseFlags reads `--name value` pairs; a flag may take several values (`--clients a b`),
// up to the next `--`.
func parseFlags(args []string) (map[string][]string, error) {
	out := map[string][]string{}
	name := ""
	for _, a := range args {
		if strings.HasPrefix(a, "--") {
			name = strings.TrimPrefix(a, "--")
			if _, seen := out[name]; seen && name != "clients" {
				return nil, fmt.Errorf("--%s given twice", name)
			}
			if _, seen := out[name]; !seen {
				out[name] = nil
			}
			continue
		}
		if name == "" {
			return nil, fmt.Errorf("unexpected argument %q", a)
		}
		out[name] = append(out[name], a)
	}
	for n, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("--%s needs a value", n)
		}
	}
	return out, nil
}

// one is the single value of a flag that must be given once, among the known ones.
func one(flags map[string][]string, name string) (string, error) {
	v, ok := flags[name]
	if !ok {
		return "", fmt.Errorf("--%s is required", name)
	}
	if len(v) != 1 {
		return "", fmt.Errorf("--%s takes one value, got %d", name, len(v))
	}
	return v[0], nil
}

// only rejects flags a command does not know.
func only(flags map[string][]string, known ...string) error {
	for n := range flags {
		found := false
		for _, k := range known {
			found = found || n == k
		}
		if !found {
			return fmt.Errorf("unknown flag --%s", n)
		}
	}
	return nil
}

func runCheck(flags map[string][]string, stdout, stderr io.Writer) int {
	if err := only(flags, "metrics", "server", "clients"); err != nil {
		fmt.Fprintf(stderr, "simprom check: %v\n%s\n", err, usage)
		return 2
	}
	metrics, err1 := one(flags, "metrics")
	server, err2 := one(flags, "server")
	clients := flags["clients"]
	for _, err := range []error{err1, err2} {
		if err != nil {
			fmt.Fprintf(stderr, "simprom check: %v\n%s\n", err, usage)
			return 2
		}
	}
	if len(clients) == 0 {
		fmt.Fprintf(stderr, "simprom check: --clients is required\n%s\n", usage)
		return 2
	}
	return checkFiles(metrics, server, clients, stdout, stderr)
}

// checkFiles reads the three kinds of file and prints the check.
func checkFiles(metrics, server string, clientFiles []string, stdout, stderr io.Writer) int {
	f, err := os.Open(metrics)
	if err != nil {
		fmt.Fprintf(stderr, "simprom check: %v\n", err)
		return 1
	}
	s, err := parseScrape(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(stderr, "simprom check: %s: %v\n", metrics, err)
		return 1
	}
	srv, err := readServer(server)
	if err != nil {
		fmt.Fprintf(stderr, "simprom check: %v\n", err)
		return 1
	}
	var clients []*clientResults
	for _, path := range clientFiles {
		c, err := readClient(path)
		if err != nil {
			fmt.Fprintf(stderr, "simprom check: %v\n", err)
			return 1
		}
		clients = append(clients, c)
	}
	findings := check(s, srv, clients)
	failed := 0
	for _, fd := range findings {
		mark := "ok  "
		if !fd.ok {
			mark = "FAIL"
			failed++
		}
		fmt.Fprintf(stdout, "%s %s\n", mark, fd.text)
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "simprom check: %s: %d of %d comparisons FAILED against %s and %d client file(s)\n",
			metrics, failed, len(findings), server, len(clients))
		return 1
	}
	fmt.Fprintf(stdout, "simprom check: ok: %s (%s, %d families): %d comparisons against %s and %d client file(s)\n",
		metrics, s.format, len(s.families), len(findings), server, len(clients))
	return 0
}

// seconds parses a flag of seconds (> 0 unless zero is allowed), or its default.
func seconds(flags map[string][]string, name string, def float64) (float64, error) {
	if _, ok := flags[name]; !ok && def > 0 {
		return def, nil
	}
	v, err := one(flags, name)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("--%s %q: want seconds > 0", name, v)
	}
	return f, nil
}

func runQuery(flags map[string][]string, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "simprom query: %v\n", err)
		if code == 2 {
			fmt.Fprintln(stderr, usage)
		}
		return code
	}
	if err := only(flags, "url", "match", "at", "window", "timeout"); err != nil {
		return fail(2, err)
	}
	raw, err := one(flags, "url")
	if err != nil {
		return fail(2, err)
	}
	sel, err := one(flags, "match")
	if err != nil {
		return fail(2, err)
	}
	at, err := seconds(flags, "at", 0)
	if err != nil {
		return fail(2, err)
	}
	window, err := seconds(flags, "window", 0)
	if err != nil {
		return fail(2, err)
	}
	timeout, err := seconds(flags, "timeout", 15)
	if err != nil {
		return fail(2, err)
	}
	p, err := newProm(raw)
	if err != nil {
		return fail(2, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout*float64(time.Second)))
	defer cancel()
	res, err := queryCell(ctx, p, sel, time.UnixMilli(int64(math.Round(at*1000))), window)
	if err != nil {
		return fail(1, err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return fail(1, err)
	}
	return 0
}

func runUp(flags map[string][]string, stdout, stderr io.Writer) int {
	if err := only(flags, "url", "match", "timeout"); err != nil {
		fmt.Fprintf(stderr, "simprom up: %v\n%s\n", err, usage)
		return 2
	}
	raw, err1 := one(flags, "url")
	sel, err2 := one(flags, "match")
	timeout, err3 := seconds(flags, "timeout", 30)
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			fmt.Fprintf(stderr, "simprom up: %v\n%s\n", err, usage)
			return 2
		}
	}
	p, err := newProm(raw)
	if err != nil {
		fmt.Fprintf(stderr, "simprom up: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(timeout*float64(time.Second)))
	defer cancel()
	if err := waitUp(ctx, p, sel); err != nil {
		fmt.Fprintf(stderr, "simprom up: %s: %v\n", sel, err)
		return 1
	}
	fmt.Fprintf(stdout, "simprom up: %s is scraped\n", sel)
	return 0
}
