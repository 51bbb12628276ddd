package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseInstant(t *testing.T) {
	cases := []struct {
		body string
		want float64
		err  string
	}{
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1764201600.5,"300"]}]}}`, 300, ""},
		{`{"status":"success","data":{"resultType":"scalar","result":[1764201600.5,"2.5"]}}`, 2.5, ""},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"NaN"]}]}}`, math.NaN(), ""},
		{`{"status":"success","data":{"resultType":"vector","result":[]}}`, 0, "no data"},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":[1,"1"]},{"metric":{"a":"2"},"value":[1,"2"]}]}}`, 0, "2 series"},
		{`{"status":"success","data":{"resultType":"matrix","result":[]}}`, 0, `result type "matrix"`},
		{`{"status":"error","errorType":"bad_data","error":"parse error at char 5"}`, 0, "bad_data: parse error"},
		{`{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,2]}]}}`, 0, "not a string"},
		{`<html>`, 0, "not a query API response"},
	}
	for _, c := range cases {
		v, err := parseInstant([]byte(c.body))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.body, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.err == "" && !(v == c.want || math.IsNaN(v) && math.IsNaN(c.want)):
			t.Errorf("%s: %g, want %g", c.body, v, c.want)
		}
	}
}

func TestMatchersAndRanges(t *testing.T) {
	if m, err := matchers(` {codec="bitwire",clients="10"} `); err != nil || m != `codec="bitwire",clients="10"` {
		t.Errorf("matchers: %q %v", m, err)
	}
	for _, bad := range []string{`codec="x"`, `{}`, `{codec="x"`} {
		if _, err := matchers(bad); err == nil {
			t.Errorf("matchers(%q) accepted", bad)
		}
	}
	if r := rangeOf(10.0004); r != "10000ms" {
		t.Errorf("rangeOf: %s", r)
	}
	got := expand(figures[0].expr, `codec="a"`, "3000ms")
	if !strings.Contains(got, `sim_sync_duration_seconds_sum{codec="a"}[3000ms]`) {
		t.Errorf("expand: %s", got)
	}
	out, _ := json.Marshal(map[string]nullable{"nan": nullable(math.NaN()), "v": 1.23456})
	if string(out) != `{"nan":null,"v":1.235}` {
		t.Errorf("nullable: %s", out)
	}
}

func TestQueryArgumentErrors(t *testing.T) {
	cases := [][]string{
		{"query", "--url", "http://127.0.0.1:1", "--match", `{a="b"}`, "--at", "x", "--window", "3"},
		{"query", "--url", "http://127.0.0.1:1", "--match", `{a="b"}`, "--at", "1", "--window", "-3"},
		{"query", "--url", "ftp://x", "--match", `{a="b"}`, "--at", "1", "--window", "3"},
		{"query", "--match", `{a="b"}`, "--at", "1", "--window", "3"},
		{"up", "--url", "http://127.0.0.1:1"},
	}
	for _, args := range cases {
		if code, _, errOut := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errOut)
		}
	}
	// Nothing listens on port 1: the wait gives up after its timeout with the reason.
	code, _, errOut := runCmd("up", "--url", "http://127.0.0.1:1", "--match", `{a="b"}`, "--timeout", "0.5")
	if code != 1 || !strings.Contains(errOut, "gave up waiting") {
		t.Errorf("up against nothing: exit %d: %s", code, errOut)
	}
}

// syntheticTarget serves an exposition whose counters grow with the time since start as
// a simulator's would: 60 ticks/s of 75 µs sync and 120 µs tick work, 10 clients
// (300-byte snapshots, 12-byte inputs), an RTT report of 2 ms every third tick, and 25 %
// of a core of CPU.
func syntheticTarget(start time.Time) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		e := time.Since(start).Seconds()
		ticks := math.Floor(60 * e)
		snaps, rtts := 10*ticks, math.Floor(ticks/3)
		var b strings.Builder
		counter := func(name string, v float64) {
			fmt.Fprintf(&b, "# TYPE %s counter\n%s_total %s\n", name, name, strconv.FormatFloat(v, 'g', -1, 64))
		}
		histogram := func(name string, count, each float64, les []float64) {
			fmt.Fprintf(&b, "# TYPE %s histogram\n%s_sum %g\n%s_count %g\n", name, name, count*each, name, count)
			for _, le := range les {
				n := 0.0
				if each <= le {
					n = count
				}
				fmt.Fprintf(&b, "%s_bucket{le=\"%g\"} %g\n", name, le, n)
			}
			fmt.Fprintf(&b, "%s_bucket{le=\"+Inf\"} %g\n", name, count)
		}
		counter("sim_ticks", ticks)
		counter("sim_tick_overruns", 0)
		counter("sim_snapshots_sent", snaps)
		counter("sim_bytes_out", 300*snaps)
		counter("sim_inputs_received", snaps)
		counter("sim_bytes_in", 12*snaps)
		counter("process_cpu_seconds", 0.25*e)
		durations := []float64{5e-5, 1e-4, 2e-4, 5e-4}
		histogram("sim_sync_duration_seconds", ticks, 75e-6, durations)
		histogram("sim_tick_duration_seconds", ticks, 120e-6, durations)
		histogram("sim_rtt_seconds", rtts, 0.002, []float64{0.001, 0.002, 0.005})
		b.WriteString("# EOF\n")
		w.Header().Set("Content-Type", "application/openmetrics-text; version=1.0.0; charset=utf-8")
		_, _ = w.Write([]byte(b.String()))
	})
}

// freePort is a port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestQueryRealPrometheus starts the real Prometheus server (bench/sim/prometheus), lets
// it scrape a target for a few seconds and checks every figure of `simprom query`.
func TestQueryRealPrometheus(t *testing.T) {
	script, _ := filepath.Abs("../../prometheus/prometheus.sh")
	if out, err := exec.Command("bash", script, "path").CombinedOutput(); err != nil {
		t.Skipf("no Prometheus server installed (bash %s install builds it): %s", script, bytes.TrimSpace(out))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: syntheticTarget(time.Now()), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()

	dir := t.TempDir()
	start := exec.Command("bash", script, "start", dir, strconv.Itoa(freePort(t)))
	out, err := start.Output()
	if err != nil {
		t.Fatalf("prometheus.sh start: %v", err)
	}
	defer func() {
		if out, err := exec.Command("bash", script, "stop", dir).CombinedOutput(); err != nil {
			t.Errorf("prometheus.sh stop: %v: %s", err, out)
		}
	}()
	url := strings.TrimSpace(string(out))
	target := fmt.Sprintf(`[{"targets": [%q], "labels": {"codec": "test", "clients": "10"}}]`, l.Addr().String())
	if err := os.WriteFile(filepath.Join(dir, "targets", "test-10.json"), []byte(target), 0o644); err != nil {
		t.Fatal(err)
	}
	sel := `{codec="test",clients="10"}`
	if code, out, errOut := runCmd("up", "--url", url, "--match", sel, "--timeout", "30"); code != 0 {
		t.Fatalf("up: exit %d: %s%s", code, out, errOut)
	}
	// A few scrapes (one per second) inside the window, then the figures over its 3 s.
	time.Sleep(4 * time.Second)
	at := float64(time.Now().UnixMilli()) / 1000
	code, stdout, errOut := runCmd("query", "--url", url, "--match", sel,
		"--at", strconv.FormatFloat(at, 'f', 3, 64), "--window", "3", "--timeout", "20")
	if code != 0 {
		t.Fatalf("query: exit %d: %s", code, errOut)
	}
	var res struct {
		Source string              `json:"source"`
		Values map[string]*float64 `json:"values"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	within := func(name string, lo, hi float64) {
		v := res.Values[name]
		if v == nil || *v < lo || *v > hi {
			t.Errorf("%s = %v, want within [%g, %g]\n%s", name, v, lo, hi, stdout)
		}
	}
	// Ratios of two increases are exact whatever the extrapolation; quantiles lie in the
	// observations' bucket; rates follow the counters' slope.
	within("bytes_out_per_snapshot", 299.999, 300.001)
	within("bytes_in_per_input", 11.999, 12.001)
	within("sync_mean_us", 74.999, 75.001)
	within("tick_mean_us", 119.999, 120.001)
	within("sync_p99_us", 50, 100)
	within("tick_p99_us", 100, 200)
	within("rtt_p99_ms", 1, 2)
	within("overruns", 0, 0)
	within("cpu_percent", 20, 30)
	within("snapshots", 1200, 2400)
	t.Logf("simprom query: %s", stdout)
	if res.Source != "prometheus" {
		t.Errorf("source %q", res.Source)
	}
}
