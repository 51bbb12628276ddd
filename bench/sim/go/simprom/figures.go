package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// figure is one server-side figure of a cell and the PromQL that computes it over the
// window: `M` stands for the cell's label matchers, `R` for the window's range.
type figure struct {
	name string
	expr string
}

// figures are what `simprom query` reads, in the report's units. Increases over the
// window are Prometheus's (extrapolated to the range's ends); means and per-frame sizes
// are ratios of two increases, so the extrapolation cancels; quantiles are interpolated
// within the histogram's buckets.
var figures = []figure{
	{"sync_mean_us", "1e6 * sum(increase(sim_sync_duration_seconds_sum{M}[R])) / sum(increase(sim_sync_duration_seconds_count{M}[R]))"},
	{"sync_p99_us", "1e6 * histogram_quantile(0.99, sum by (le) (increase(sim_sync_duration_seconds_bucket{M}[R])))"},
	{"tick_mean_us", "1e6 * sum(increase(sim_tick_duration_seconds_sum{M}[R])) / sum(increase(sim_tick_duration_seconds_count{M}[R]))"},
	{"tick_p99_us", "1e6 * histogram_quantile(0.99, sum by (le) (increase(sim_tick_duration_seconds_bucket{M}[R])))"},
	{"bytes_out_per_snapshot", "sum(increase(sim_bytes_out_total{M}[R])) / sum(increase(sim_snapshots_sent_total{M}[R]))"},
	{"bytes_in_per_input", "sum(increase(sim_bytes_in_total{M}[R])) / sum(increase(sim_inputs_received_total{M}[R]))"},
	{"ticks", "sum(increase(sim_ticks_total{M}[R]))"},
	{"snapshots", "sum(increase(sim_snapshots_sent_total{M}[R]))"},
	{"inputs", "sum(increase(sim_inputs_received_total{M}[R]))"},
	{"overruns", "sum(increase(sim_tick_overruns_total{M}[R]))"},
	{"cpu_percent", "100 * sum(rate(process_cpu_seconds_total{M}[R]))"},
	{"rtt_p50_ms", "1e3 * histogram_quantile(0.5, sum by (le) (increase(sim_rtt_seconds_bucket{M}[R])))"},
	{"rtt_p99_ms", "1e3 * histogram_quantile(0.99, sum by (le) (increase(sim_rtt_seconds_bucket{M}[R])))"},
}

// queryResult is what `simprom query` prints (JSON).
type queryResult struct {
	Source        string              `json:"source"`
	URL           string              `json:"url"`
	Match         string              `json:"match"`
	At            float64             `json:"at"`
	WindowSeconds float64             `json:"window_seconds"`
	Values        map[string]nullable `json:"values"`
	Queries       map[string]string   `json:"queries"`
}

// expand puts the matchers and the range into a figure's expression.
func expand(expr, m, r string) string {
	return strings.NewReplacer("{M}", "{"+m+"}", "[R]", "["+r+"]").Replace(expr)
}

// queryCell waits until Prometheus holds a scrape of the cell taken at or after `at`
// (the window's end), then evaluates every figure at `at` over the `window` before it.
func queryCell(ctx context.Context, p *prom, sel string, at time.Time, window float64) (*queryResult, error) {
	m, err := matchers(sel)
	if err != nil {
		return nil, err
	}
	if window <= 0 {
		return nil, fmt.Errorf("--window %g: want seconds > 0", window)
	}
	atSec := float64(at.UnixMilli()) / 1000
	fresh := fmt.Sprintf("max(timestamp(sim_ticks_total{%s}))", m)
	if _, err := p.waitFor(ctx, fresh, func(t float64) bool { return t >= atSec }); err != nil {
		return nil, fmt.Errorf("no scrape of %s after the window's end: %w", sel, err)
	}
	r := rangeOf(window)
	out := &queryResult{
		Source: "prometheus", URL: p.base.String(), Match: sel, At: atSec, WindowSeconds: window,
		Values: map[string]nullable{}, Queries: map[string]string{},
	}
	for _, f := range figures {
		q := expand(f.expr, m, r)
		v, err := p.instant(ctx, q, at)
		if err != nil && !errors.Is(err, errNoData) {
			return nil, fmt.Errorf("%s: %s: %w", f.name, q, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s: no data for %s", f.name, q, sel)
		}
		out.Values[f.name] = nullable(v)
		out.Queries[f.name] = q
	}
	return out, nil
}

// waitUp waits until Prometheus scrapes the cell's target successfully (`up` is 1).
func waitUp(ctx context.Context, p *prom, sel string) error {
	m, err := matchers(sel)
	if err != nil {
		return err
	}
	_, err = p.waitFor(ctx, fmt.Sprintf("max(up{%s})", m), func(v float64) bool { return v == 1 })
	return err
}
