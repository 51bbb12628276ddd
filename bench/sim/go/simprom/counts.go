package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
)

// maxJSON bounds a summary or results file (they are a few kilobytes).
const maxJSON = 4 << 20

// serverSummary is what `simserver --summary` writes (bench/sim/README.md; the fields
// checked here).
type serverSummary struct {
	Codec   string `json:"codec"`
	Clients int    `json:"clients"`
	Totals  totals `json:"totals"`
}

// totals are the server's counters since it started.
type totals struct {
	Ticks          uint64 `json:"ticks"`
	Overruns       uint64 `json:"overruns"`
	Snapshots      uint64 `json:"snapshots"`
	BytesOut       uint64 `json:"bytes_out"`
	Inputs         uint64 `json:"inputs"`
	BytesIn        uint64 `json:"bytes_in"`
	RTTReports     uint64 `json:"rtt_reports"`
	DecodeErrors   uint64 `json:"decode_errors"`
	DroppedClients uint64 `json:"dropped_clients"`
	Joined         uint64 `json:"joined"`
}

// clientResults is what a client process writes (`simclient --results`, the TypeScript
// clients alike); counters are over its whole connections.
type clientResults struct {
	Runtime        string `json:"runtime"`
	Codec          string `json:"codec"`
	Clients        int    `json:"clients"`
	Connected      uint64 `json:"connected"`
	InputsSent     uint64 `json:"inputs_sent"`
	BytesOut       uint64 `json:"bytes_out"`
	Snapshots      uint64 `json:"snapshots"`
	BytesIn        uint64 `json:"bytes_in"`
	RTTReports     uint64 `json:"rtt_reports"`
	RTTReportSumUs uint64 `json:"rtt_report_sum_us"`
}

var (
	serverKeys = []string{"codec", "clients", "totals"}
	totalsKeys = []string{"ticks", "overruns", "snapshots", "bytes_out", "inputs", "bytes_in",
		"rtt_reports", "decode_errors", "dropped_clients", "joined"}
	clientKeys = []string{"runtime", "codec", "clients", "connected", "inputs_sent", "bytes_out",
		"snapshots", "bytes_in", "rtt_reports", "rtt_report_sum_us"}
)

// readJSON decodes the file `path` into `v` after checking that the object (and its
// `nested` object, if named) has every key of `keys` (`nestedKeys`): a missing counter
// must not read as 0.
func readJSON(path string, v any, keys []string, nested string, nestedKeys []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxJSON+1))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > maxJSON {
		return fmt.Errorf("%s: more than %d bytes", path, maxJSON)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := hasKeys(top, keys); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if nested != "" {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(top[nested], &inner); err != nil {
			return fmt.Errorf("%s: %s: %w", path, nested, err)
		}
		if err := hasKeys(inner, nestedKeys); err != nil {
			return fmt.Errorf("%s: %s: %w", path, nested, err)
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func hasKeys(obj map[string]json.RawMessage, keys []string) error {
	var missing []string
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("missing %v", missing)
	}
	return nil
}

func readServer(path string) (*serverSummary, error) {
	s := &serverSummary{}
	return s, readJSON(path, s, serverKeys, "totals", totalsKeys)
}

func readClient(path string) (*clientResults, error) {
	c := &clientResults{}
	return c, readJSON(path, c, clientKeys, "", nil)
}
