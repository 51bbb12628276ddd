package main

import (
	"fmt"
	"math"
	"strings"
)

// rttSumTolerance is the relative difference allowed between sim_rtt_seconds_sum and
// the clients' reported sum: the server adds each report as float seconds, so the sums
// differ by rounding only (far below a microsecond for any run).
const rttSumTolerance = 1e-9

// finding is one comparison of the check.
type finding struct {
	ok   bool
	text string
}

// ref is a count from the programs' own files that a metric must equal.
type ref struct {
	name  string
	value uint64
}

// checker collects findings.
type checker struct {
	s        *scrape
	findings []finding
}

func (c *checker) add(ok bool, format string, args ...any) {
	c.findings = append(c.findings, finding{ok: ok, text: fmt.Sprintf(format, args...)})
}

// equal records whether `got` (the metric `metric`) equals every ref.
func (c *checker) equal(metric string, got uint64, refs ...ref) {
	ok := true
	parts := []string{fmt.Sprintf("%s %d", metric, got)}
	for _, r := range refs {
		op := "="
		if r.value != got {
			op, ok = "≠", false
		}
		parts = append(parts, fmt.Sprintf("%s %s %d", op, r.name, r.value))
	}
	c.add(ok, "%s", strings.Join(parts, " "))
}

// atMost records whether `low` ≤ `high` (two counts of one stream, `low` the one that
// can lose frames).
func (c *checker) atMost(low, high ref, why string) {
	op := "≤"
	if low.value > high.value {
		op = ">"
	}
	c.add(low.value <= high.value, "%s %d %s %s %d (%s)", low.name, low.value, op, high.name, high.value, why)
}

// counterEq checks the counter `metric` against refs.
func (c *checker) counterEq(metric string, refs ...ref) {
	v, err := c.s.counter(metric)
	if err == nil {
		var n uint64
		if n, err = whole(metric, v); err == nil {
			c.equal(metric, n, refs...)
			return
		}
	}
	c.add(false, "%v", err)
}

// histogramEq checks the histogram `metric`'s count against countRefs and, when
// sumRef is set, its sum (a count of bytes) against it.
func (c *checker) histogramEq(metric string, sumRef *ref, countRefs ...ref) {
	count, sum, err := c.s.histogram(metric)
	if err != nil {
		c.add(false, "%v", err)
		return
	}
	c.equal(metric+"_count", count, countRefs...)
	if sumRef != nil {
		n, err := whole(metric+"_sum", sum)
		if err != nil {
			c.add(false, "%v", err)
			return
		}
		c.equal(metric+"_sum", n, *sumRef)
	}
}

// gaugeEq checks that the gauge `metric` is `want`.
func (c *checker) gaugeEq(metric string, want float64, why string) {
	v, err := c.s.gauge(metric)
	if err != nil {
		c.add(false, "%v", err)
		return
	}
	c.add(v == want, "%s %g %s %g (%s)", metric, v, map[bool]string{true: "=", false: "≠"}[v == want], want, why)
}

// sums are the clients' counters added up.
type sums struct {
	connected, inputs, bytesOut, snapshots, bytesIn, rttReports, rttSumUs uint64
}

func addClients(clients []*clientResults) sums {
	var t sums
	for _, r := range clients {
		t.connected += r.Connected
		t.inputs += r.InputsSent
		t.bytesOut += r.BytesOut
		t.snapshots += r.Snapshots
		t.bytesIn += r.BytesIn
		t.rttReports += r.RTTReports
		t.rttSumUs += r.RTTReportSumUs
	}
	return t
}

// check compares a scrape taken after the run with the server's summary and the
// client processes' results: every count exactly, the RTT sum within rounding.
func check(s *scrape, srv *serverSummary, clients []*clientResults) []finding {
	c := &checker{s: s}
	t := srv.Totals
	cl := addClients(clients)
	c.counterEq("sim_ticks_total", ref{"server totals.ticks", t.Ticks})
	c.histogramEq("sim_tick_duration_seconds", nil, ref{"server totals.ticks", t.Ticks})
	c.histogramEq("sim_sync_duration_seconds", nil, ref{"server totals.ticks", t.Ticks})
	c.counterEq("sim_tick_overruns_total", ref{"server totals.overruns", t.Overruns})
	c.counterEq("sim_snapshots_sent_total", ref{"server totals.snapshots", t.Snapshots})
	c.counterEq("sim_bytes_out_total", ref{"server totals.bytes_out", t.BytesOut})
	c.histogramEq("sim_snapshot_bytes", &ref{"server totals.bytes_out", t.BytesOut},
		ref{"server totals.snapshots", t.Snapshots})
	c.counterEq("sim_inputs_received_total", ref{"server totals.inputs", t.Inputs})
	c.counterEq("sim_bytes_in_total", ref{"server totals.bytes_in", t.BytesIn})
	c.histogramEq("sim_input_bytes", &ref{"server totals.bytes_in", t.BytesIn},
		ref{"server totals.inputs", t.Inputs})
	c.rttHistogram(t)
	c.streams(t, cl)
	c.counterEq("sim_decode_errors_total", ref{"server totals.decode_errors", t.DecodeErrors})
	c.counterEq("sim_clients_joined_total",
		ref{"server totals.joined", t.Joined}, ref{"clients' connected", cl.connected})
	c.counterEq("sim_clients_dropped_total", ref{"server totals.dropped_clients", t.DroppedClients})
	c.gaugeEq("sim_connected_clients", 0, "every connection ended")
	c.gaugeEq("sim_window_active", 0, "the window ended")
	c.cpu()
	c.info(srv, clients)
	return c.findings
}

// rttHistogram checks the RTT histogram's count against the server's count of reports.
func (c *checker) rttHistogram(t totals) {
	count, _, err := c.s.histogram("sim_rtt_seconds")
	if err != nil {
		c.add(false, "%v", err)
		return
	}
	c.equal("sim_rtt_seconds_count", count, ref{"server totals.rtt_reports", t.RTTReports})
}

// streams compares what the server counted with what the clients counted, both ways.
// Without dropped clients every frame sent arrived: equal counts, and the RTT sum within
// rounding. When the server dropped clients (a full send queue: clients that fell
// behind), it discarded their queued snapshots and stopped reading their inputs, so the
// receiving side's counts can only be smaller.
func (c *checker) streams(t totals, cl sums) {
	sum, sumErr := c.rttSum()
	if t.DroppedClients == 0 {
		c.equal("server totals.snapshots", t.Snapshots, ref{"clients' snapshots", cl.snapshots})
		c.equal("server totals.bytes_out", t.BytesOut, ref{"clients' bytes_in", cl.bytesIn})
		c.equal("server totals.inputs", t.Inputs, ref{"clients' inputs_sent", cl.inputs})
		c.equal("server totals.bytes_in", t.BytesIn, ref{"clients' bytes_out", cl.bytesOut})
		c.equal("server totals.rtt_reports", t.RTTReports, ref{"clients' rtt_reports", cl.rttReports})
		if sumErr != nil {
			c.add(false, "%v", sumErr)
			return
		}
		want := float64(cl.rttSumUs) / 1e6
		ok := math.Abs(sum-want) <= rttSumTolerance*math.Max(1, math.Abs(want))
		op := "≈"
		if !ok {
			op = "≠"
		}
		c.add(ok, "sim_rtt_seconds_sum %.9f %s clients' rtt_report_sum_us / 1e6 %.9f (relative tolerance %g)",
			sum, op, want, rttSumTolerance)
		return
	}
	why := fmt.Sprintf("the server dropped %d clients", t.DroppedClients)
	c.atMost(ref{"clients' snapshots", cl.snapshots}, ref{"server totals.snapshots", t.Snapshots}, why)
	c.atMost(ref{"clients' bytes_in", cl.bytesIn}, ref{"server totals.bytes_out", t.BytesOut}, why)
	c.atMost(ref{"server totals.inputs", t.Inputs}, ref{"clients' inputs_sent", cl.inputs}, why)
	c.atMost(ref{"server totals.bytes_in", t.BytesIn}, ref{"clients' bytes_out", cl.bytesOut}, why)
	c.atMost(ref{"server totals.rtt_reports", t.RTTReports}, ref{"clients' rtt_reports", cl.rttReports}, why)
	if sumErr != nil {
		c.add(false, "%v", sumErr)
		return
	}
	want := float64(cl.rttSumUs) / 1e6
	ok := sum <= want*(1+rttSumTolerance)
	c.add(ok, "sim_rtt_seconds_sum %.9f ≤ clients' rtt_report_sum_us / 1e6 %.9f (%s)", sum, want, why)
}

// rttSum is the RTT histogram's sum, seconds.
func (c *checker) rttSum() (float64, error) {
	_, sum, err := c.s.histogram("sim_rtt_seconds")
	return sum, err
}

// cpu checks that the server exports its CPU time.
func (c *checker) cpu() {
	v, err := c.s.counter("process_cpu_seconds_total")
	switch {
	case err != nil:
		c.add(false, "%v", err)
	case v <= 0 || math.IsNaN(v) || math.IsInf(v, 0):
		c.add(false, "process_cpu_seconds_total %g: not a CPU time", v)
	default:
		c.add(true, "process_cpu_seconds_total %g > 0", v)
	}
}

// info checks sim_info{codec} against the server's and every client's codec.
func (c *checker) info(srv *serverSummary, clients []*clientResults) {
	v, labels, err := c.s.labelled("sim_info")
	if err != nil {
		c.add(false, "%v", err)
		return
	}
	codec, has := labels["codec"]
	ok := v == 1 && has && codec == srv.Codec
	c.add(ok, "sim_info{codec=%q} %g, server codec %q", codec, v, srv.Codec)
	for _, r := range clients {
		c.add(r.Codec == srv.Codec, "%s clients' codec %q, server codec %q", r.Runtime, r.Codec, srv.Codec)
	}
}
