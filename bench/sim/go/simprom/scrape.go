package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// maxScrape bounds what is read from one scrape file: the simulator's /metrics is a few
// kilobytes, so anything near this is not a scrape.
const maxScrape = 16 << 20

// scrape is one parsed exposition: its metric families by name, as expfmt names them
// (a counter's family carries its `_total` suffix, a histogram's its base name).
type scrape struct {
	format   string
	families map[string]*dto.MetricFamily
}

// parseScrape parses an exposition with expfmt: OpenMetrics 1.0 when the text ends with
// `# EOF` (what prometheus-client serves), else the classic text format.
func parseScrape(r io.Reader) (*scrape, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxScrape+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxScrape {
		return nil, fmt.Errorf("more than %d bytes: not a scrape of the simulator", maxScrape)
	}
	format := expfmt.NewFormat(expfmt.TypeTextPlain)
	name := "text 0.0.4"
	if bytes.HasSuffix(bytes.TrimRight(data, "\n"), []byte("# EOF")) {
		format = expfmt.NewFormat(expfmt.TypeOpenMetrics)
		name = "OpenMetrics 1.0"
	}
	dec := expfmt.NewDecoder(bytes.NewReader(data), format)
	s := &scrape{format: name, families: map[string]*dto.MetricFamily{}}
	for {
		mf := &dto.MetricFamily{}
		err := dec.Decode(mf)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if _, dup := s.families[mf.GetName()]; dup {
			return nil, fmt.Errorf("%s: metric family %s twice", name, mf.GetName())
		}
		s.families[mf.GetName()] = mf
	}
	if len(s.families) == 0 {
		return nil, fmt.Errorf("%s: no metrics", name)
	}
	return s, nil
}

// single is the one metric of family `name` of type `typ`: the simulator's metrics have
// no labels (but sim_info's), so a family with more than one series is an error.
func (s *scrape) single(name string, typ dto.MetricType) (*dto.Metric, error) {
	mf, ok := s.families[name]
	if !ok {
		return nil, fmt.Errorf("%s: missing", name)
	}
	if mf.GetType() != typ {
		return nil, fmt.Errorf("%s: a %s, not a %s", name, mf.GetType(), typ)
	}
	if len(mf.Metric) != 1 {
		return nil, fmt.Errorf("%s: %d series, want 1", name, len(mf.Metric))
	}
	return mf.Metric[0], nil
}

// counter is the value of the counter `name` (with its `_total`).
func (s *scrape) counter(name string) (float64, error) {
	m, err := s.single(name, dto.MetricType_COUNTER)
	if err != nil {
		return 0, err
	}
	return m.GetCounter().GetValue(), nil
}

// gauge is the value of the gauge `name`.
func (s *scrape) gauge(name string) (float64, error) {
	m, err := s.single(name, dto.MetricType_GAUGE)
	if err != nil {
		return 0, err
	}
	return m.GetGauge().GetValue(), nil
}

// histogram is the observation count and sum of the histogram `name`.
func (s *scrape) histogram(name string) (count uint64, sum float64, err error) {
	m, err := s.single(name, dto.MetricType_HISTOGRAM)
	if err != nil {
		return 0, 0, err
	}
	h := m.GetHistogram()
	return h.GetSampleCount(), h.GetSampleSum(), nil
}

// labelled is the value of the one series of gauge family `name` and its labels (sim_info).
func (s *scrape) labelled(name string) (float64, map[string]string, error) {
	m, err := s.single(name, dto.MetricType_GAUGE)
	if err != nil {
		return 0, nil, err
	}
	labels := map[string]string{}
	for _, l := range m.GetLabel() {
		labels[l.GetName()] = l.GetValue()
	}
	return m.GetGauge().GetValue(), labels, nil
}

// whole is a counter's value as an exact count: a float64 that is a whole number below
// 2^53 (every count the simulator can reach).
func whole(name string, v float64) (uint64, error) {
	if v < 0 || v != math.Trunc(v) || v > 1<<53 || math.IsNaN(v) {
		return 0, fmt.Errorf("%s: %s is not a count", name, strings.TrimSpace(fmt.Sprint(v)))
	}
	return uint64(v), nil
}
