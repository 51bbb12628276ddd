package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	goodProm   = "testdata/good.prom"
	serverJSON = "testdata/server.json"
	rustJSON   = "testdata/rust.json"
	nodeJSON   = "testdata/node.json"
)

// runCmd runs simprom with args and returns its exit code and output.
func runCmd(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func checkArgs(metrics string, clients ...string) []string {
	args := []string{"check", "--metrics", metrics, "--server", serverJSON, "--clients"}
	return append(args, clients...)
}

func TestGoodScrapeMatchesEveryCount(t *testing.T) {
	code, out, errOut := runCmd(checkArgs(goodProm, rustJSON, nodeJSON)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "FAIL") || !strings.Contains(out, "simprom check: ok") {
		t.Fatalf("unexpected output:\n%s", out)
	}
	for _, want := range []string{
		"ok   sim_ticks_total 720 = server totals.ticks 720",
		"ok   sim_bytes_out_total 2040000 = server totals.bytes_out 2040000",
		"ok   server totals.bytes_out 2040000 = clients' bytes_in 2040000",
		"ok   sim_inputs_received_total 6700 = server totals.inputs 6700",
		"ok   server totals.inputs 6700 = clients' inputs_sent 6700",
		"ok   sim_rtt_seconds_count 218 = server totals.rtt_reports 218",
		"ok   server totals.rtt_reports 218 = clients' rtt_reports 218",
		"ok   sim_connected_clients 0 = 0",
		`ok   sim_info{codec="bitwire"} 1`,
		"OpenMetrics 1.0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestRealScrape checks a scrape of the real simserver (classic text format) against its
// summary and its simclient's results, saved from a smoke run (bitwire-delta, 10 clients).
func TestRealScrape(t *testing.T) {
	code, out, errOut := runCmd("check", "--metrics", "testdata/real-text.prom",
		"--server", "testdata/real-server.json", "--clients", "testdata/real-rust.json")
	if code != 0 || !strings.Contains(out, "(text 0.0.4, ") || strings.Contains(out, "FAIL") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	// A client file the server never saw: the sums no longer match.
	code, out, _ = runCmd("check", "--metrics", "testdata/real-text.prom",
		"--server", "testdata/real-server.json", "--clients", "testdata/real-rust.json", "testdata/node.json")
	if code != 1 || !strings.Contains(out, "≠ clients' snapshots") {
		t.Fatalf("an extra client file: exit %d\n%s", code, out)
	}
}

func TestWrongFixtureFails(t *testing.T) {
	code, out, errOut := runCmd(checkArgs("testdata/wrong-bytes-out.prom", rustJSON, nodeJSON)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	want := "FAIL sim_bytes_out_total 2040001 ≠ server totals.bytes_out 2040000"
	if !strings.Contains(out, want) || !strings.Contains(errOut, "1 of ") {
		t.Fatalf("want %q and one failure:\n%s%s", want, out, errOut)
	}
}

// edited writes good.prom with line `from` replaced by `to` into a temporary file.
func edited(t *testing.T, from, to string) string {
	t.Helper()
	data, err := os.ReadFile(goodProm)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if !strings.Contains(text, from+"\n") {
		t.Fatalf("good.prom has no line %q", from)
	}
	path := filepath.Join(t.TempDir(), "edited.prom")
	if err := os.WriteFile(path, []byte(strings.Replace(text, from+"\n", to+"\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEveryComparedValueCanFail(t *testing.T) {
	cases := []struct{ from, to, fail string }{
		{"sim_ticks_total 720", "sim_ticks_total 719", "FAIL sim_ticks_total 719"},
		{"sim_tick_duration_seconds_count 720", "sim_tick_duration_seconds_count 721", "FAIL sim_tick_duration_seconds_count 721"},
		{"sim_sync_duration_seconds_count 720", "sim_sync_duration_seconds_count 7", "FAIL sim_sync_duration_seconds_count 7"},
		{"sim_tick_overruns_total 0", "sim_tick_overruns_total 3", "FAIL sim_tick_overruns_total 3"},
		{"sim_snapshots_sent_total 6850", "sim_snapshots_sent_total 6851", "FAIL sim_snapshots_sent_total 6851"},
		{"sim_snapshot_bytes_sum 2040000.0", "sim_snapshot_bytes_sum 2040008.0", "FAIL sim_snapshot_bytes_sum 2040008"},
		{"sim_snapshot_bytes_count 6850", "sim_snapshot_bytes_count 6849", "FAIL sim_snapshot_bytes_count 6849"},
		{"sim_inputs_received_total 6700", "sim_inputs_received_total 6699", "FAIL sim_inputs_received_total 6699"},
		{"sim_bytes_in_total 80400", "sim_bytes_in_total 80412", "FAIL sim_bytes_in_total 80412"},
		{"sim_input_bytes_sum 80400.0", "sim_input_bytes_sum 80400.5", "FAIL sim_input_bytes_sum: 80400.5 is not a count"},
		{"sim_rtt_seconds_count 218", "sim_rtt_seconds_count 217", "FAIL sim_rtt_seconds_count 217"},
		{"sim_rtt_seconds_sum 0.19444000000000034", "sim_rtt_seconds_sum 0.194441", "FAIL sim_rtt_seconds_sum 0.194441000 ≠"},
		{"sim_decode_errors_total 0", "sim_decode_errors_total 1", "FAIL sim_decode_errors_total 1"},
		{"sim_clients_joined_total 10", "sim_clients_joined_total 11", "FAIL sim_clients_joined_total 11"},
		{"sim_clients_dropped_total 0", "sim_clients_dropped_total 2", "FAIL sim_clients_dropped_total 2"},
		{"sim_connected_clients 0", "sim_connected_clients 1", "FAIL sim_connected_clients 1 ≠ 0"},
		{"sim_window_active 0", "sim_window_active 1", "FAIL sim_window_active 1 ≠ 0"},
		{"process_cpu_seconds_total 1.83", "process_cpu_seconds_total 0", "FAIL process_cpu_seconds_total 0"},
		{`sim_info{codec="bitwire"} 1`, `sim_info{codec="bitcode"} 1`, `FAIL sim_info{codec="bitcode"} 1, server codec "bitwire"`},
	}
	for _, c := range cases {
		code, out, _ := runCmd(checkArgs(edited(t, c.from, c.to), rustJSON, nodeJSON)...)
		if code != 1 || !strings.Contains(out, c.fail) {
			t.Errorf("%s -> %s: exit %d, want 1 with %q:\n%s", c.from, c.to, code, c.fail, out)
		}
		if n := strings.Count(out, "FAIL"); n != 1 {
			t.Errorf("%s -> %s: %d failures, want 1:\n%s", c.from, c.to, n, out)
		}
	}
}

// TestDroppedClientsBoundTheStreams: when the server dropped clients (a full send
// queue), what the receiving side counted can only be smaller; the metrics still equal
// the server's summary exactly.
func TestDroppedClientsBoundTheStreams(t *testing.T) {
	data, err := os.ReadFile(serverJSON)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"dropped_clients": 0`, `"dropped_clients": 2`, 1)
	server := filepath.Join(t.TempDir(), "server.json")
	if err := os.WriteFile(server, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	metrics := edited(t, "sim_clients_dropped_total 0", "sim_clients_dropped_total 2")
	args := func(clients ...string) []string {
		return append([]string{"check", "--metrics", metrics, "--server", server, "--clients"}, clients...)
	}
	code, out, _ := runCmd(args(rustJSON, nodeJSON)...)
	if code != 0 || !strings.Contains(out, "ok   clients' snapshots 6850 ≤ server totals.snapshots 6850 (the server dropped 2 clients)") {
		t.Fatalf("dropped clients, equal counts: exit %d\n%s", code, out)
	}
	// The server cannot have read more inputs than the clients sent.
	code, out, _ = runCmd(args(rustJSON)...)
	if code != 1 || !strings.Contains(out, "FAIL server totals.inputs 6700 > clients' inputs_sent 4000") {
		t.Fatalf("more inputs read than sent: exit %d\n%s", code, out)
	}
}

func TestRTTSumWithinRounding(t *testing.T) {
	path := edited(t, "sim_rtt_seconds_sum 0.19444000000000034", "sim_rtt_seconds_sum 0.19444000000000001")
	if code, out, _ := runCmd(checkArgs(path, rustJSON, nodeJSON)...); code != 0 {
		t.Fatalf("a sum that differs by rounding failed:\n%s", out)
	}
}

func TestClientsAreSummed(t *testing.T) {
	code, out, _ := runCmd(checkArgs(goodProm, rustJSON)...)
	if code != 1 || !strings.Contains(out, "≠ clients' snapshots 4100") {
		t.Fatalf("one client file of two: exit %d\n%s", code, out)
	}
}

func TestBadInputIsAnError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noTotals := write("server.json", `{"codec": "bitwire", "clients": 10, "totals": {"ticks": 1}}`)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{checkArgs(write("garbage.prom", "sim_ticks_total{ 1\n# EOF\n"), rustJSON), 1, "OpenMetrics 1.0"},
		{checkArgs(write("empty.prom", ""), rustJSON), 1, "no metrics"},
		// prometheus-client's Info type: expfmt rejects it, so sim_info must be a gauge.
		{checkArgs(write("info.prom", "# TYPE sim info\nsim_info{codec=\"x\"} 1\n# EOF\n"), rustJSON), 1, `unsupported metric type "info"`},
		{checkArgs(write("missing.prom", "# TYPE sim_ticks counter\nsim_ticks_total 720\n# EOF\n"), rustJSON, nodeJSON), 1, "sim_bytes_out_total: missing"},
		{[]string{"check", "--metrics", goodProm, "--server", noTotals, "--clients", rustJSON}, 1, "missing [bytes_in bytes_out"},
		{checkArgs(goodProm, filepath.Join(dir, "none.json")), 1, "no such file"},
		{[]string{"check", "--metrics", goodProm, "--server", serverJSON}, 2, "--clients is required"},
		{[]string{"check", "--metrics", goodProm, "--bogus", "x"}, 2, "unknown flag --bogus"},
		{[]string{"check", "--metrics"}, 2, "--metrics needs a value"},
		{[]string{"nope"}, 2, "unknown command"},
		{nil, 2, "usage"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd(c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, want %d with %q:\n%s%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
}
