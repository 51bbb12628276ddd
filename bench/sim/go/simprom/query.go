package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxResponse bounds a response of the query API (one cell's figures are tiny).
const maxResponse = 8 << 20

// pollEvery is how often a wait asks the server again.
const pollEvery = 250 * time.Millisecond

// prom is a client of a Prometheus server's HTTP API (`/api/v1/query`).
type prom struct {
	base *url.URL
	http *http.Client
}

func newProm(raw string) (*prom, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--url %q: want http://HOST:PORT", raw)
	}
	return &prom{base: u, http: &http.Client{Timeout: 10 * time.Second}}, nil
}

// apiResponse is the query API's envelope.
type apiResponse struct {
	Status    string          `json:"status"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
	Data      json.RawMessage `json:"data"`
}

// queryData is the `data` of an instant query.
type queryData struct {
	ResultType string          `json:"resultType"`
	Result     json.RawMessage `json:"result"`
}

// vectorSample is one series of an instant vector: its labels and `[time, "value"]`.
type vectorSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// errNoData is a query that returned no series (nothing scraped for the selector).
var errNoData = errors.New("no data")

// parseInstant reads an instant query's response body: the value of its single series
// (a vector of one, or a scalar). NaN (0/0, no observations) is returned as NaN.
func parseInstant(body []byte) (float64, error) {
	var r apiResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return 0, fmt.Errorf("not a query API response: %w", err)
	}
	if r.Status != "success" {
		return 0, fmt.Errorf("prometheus: %s: %s", r.ErrorType, r.Error)
	}
	var d queryData
	if err := json.Unmarshal(r.Data, &d); err != nil {
		return 0, fmt.Errorf("query data: %w", err)
	}
	switch d.ResultType {
	case "scalar":
		var v [2]any
		if err := json.Unmarshal(d.Result, &v); err != nil {
			return 0, fmt.Errorf("scalar: %w", err)
		}
		return sampleValue(v)
	case "vector":
		var v []vectorSample
		if err := json.Unmarshal(d.Result, &v); err != nil {
			return 0, fmt.Errorf("vector: %w", err)
		}
		if len(v) == 0 {
			return 0, errNoData
		}
		if len(v) > 1 {
			return 0, fmt.Errorf("%d series, want 1 (the selector matches more than one target?)", len(v))
		}
		return sampleValue(v[0].Value)
	default:
		return 0, fmt.Errorf("result type %q, want a vector or a scalar", d.ResultType)
	}
}

// sampleValue reads `[time, "value"]`; Prometheus writes values as strings ("NaN", "+Inf").
func sampleValue(v [2]any) (float64, error) {
	s, ok := v[1].(string)
	if !ok {
		return 0, fmt.Errorf("sample value %v is not a string", v[1])
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("sample value %q: %w", s, err)
	}
	return f, nil
}

// instant evaluates `q` at `at`.
func (p *prom) instant(ctx context.Context, q string, at time.Time) (float64, error) {
	u := p.base.JoinPath("api/v1/query")
	params := url.Values{}
	params.Set("query", q)
	params.Set("time", strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64))
	u.RawQuery = params.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, err
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return 0, err
	}
	if len(body) > maxResponse {
		return 0, fmt.Errorf("response of more than %d bytes", maxResponse)
	}
	v, err := parseInstant(body)
	if err != nil && !errors.Is(err, errNoData) && resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	return v, err
}

// waitFor evaluates `q` at the current time every pollEvery until `done` accepts its
// value, or the context ends (then the last error or value says why).
func (p *prom) waitFor(ctx context.Context, q string, done func(float64) bool) (float64, error) {
	var last error
	for {
		v, err := p.instant(ctx, q, time.Now())
		if err == nil && done(v) {
			return v, nil
		}
		if err == nil {
			last = fmt.Errorf("%s = %g", q, v)
		} else {
			last = fmt.Errorf("%s: %w", q, err)
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("gave up waiting: %w", last)
		case <-time.After(pollEvery):
		}
	}
}

// matchers turns `{codec="x",clients="10"}` into what goes between a metric's braces.
func matchers(sel string) (string, error) {
	s := strings.TrimSpace(sel)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") || len(s) < 3 {
		return "", fmt.Errorf("--match %q: want label matchers like {codec=\"bitwire\",clients=\"10\"}", sel)
	}
	return s[1 : len(s)-1], nil
}

// rangeOf is a PromQL range of `seconds`, in whole milliseconds (PromQL durations are
// integers of a unit).
func rangeOf(seconds float64) string {
	return fmt.Sprintf("%dms", int64(math.Round(seconds*1000)))
}

// nullable is a figure for JSON: NaN and infinities (no observations) are null.
type nullable float64

func (n nullable) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(math.Round(f*1000) / 1000)
}
