package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The files `deltabench scenarios` and `deltabench encodings` write (bench/delta/README.md):
// manifest.json describes the scenario files, encodings.json the binary files of bitwire
// bytes made from them (src/encodings.rs).

const (
	encodingsFormat = "bitwire-delta-encodings/1"
	manifestFormat  = "bitwire-delta-scenarios/1"
)

// encodingsIndex is encodings.json.
type encodingsIndex struct {
	Format    string            `json:"format"`
	Quick     bool              `json:"quick"`
	Ticks     int               `json:"ticks"`
	Ages      []int             `json:"ages"`
	Scenarios map[string]string `json:"scenarios"`
	Files     []encodingFile    `json:"files"`
}

type encodingFile struct {
	Scenario string `json:"scenario"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Records  int    `json:"records"`
	Fnv1a64  string `json:"fnv1a64"`
}

// manifest is the part of manifest.json checked here: the scenario files' hashes.
type manifest struct {
	Format string `json:"format"`
	Files  []struct {
		Scenario string `json:"scenario"`
		Fnv1a64  string `json:"fnv1a64"`
	} `json:"files"`
}

// scenarioBytes is one scenario's bitwire bytes: full[t] is tick t's full encoding,
// deltas[a][t-1] the delta of tick t against tick max(0, t - ages[a]).
type scenarioBytes struct {
	name   string
	full   [][]byte
	deltas [][][]byte
}

// fnv1a64 is FNV-1a 64 of b.
func fnv1a64(b []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return h
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(text, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readEncodings reads dir/encodings.json and its binary files, checking the formats, that
// the bytes were made from the scenario files of dir/manifest.json, each file's hash and
// its record count.
func readEncodings(dir string) (encodingsIndex, map[string]scenarioBytes, error) {
	var idx encodingsIndex
	if err := readJSON(filepath.Join(dir, "encodings.json"), &idx); err != nil {
		return idx, nil, err
	}
	if idx.Format != encodingsFormat {
		return idx, nil, fmt.Errorf("encodings.json: format %q, expected %q", idx.Format, encodingsFormat)
	}
	var m manifest
	if err := readJSON(filepath.Join(dir, "manifest.json"), &m); err != nil {
		return idx, nil, err
	}
	if m.Format != manifestFormat {
		return idx, nil, fmt.Errorf("manifest.json: format %q, expected %q", m.Format, manifestFormat)
	}
	if len(m.Files) != len(idx.Scenarios) {
		return idx, nil, fmt.Errorf("encodings.json has %d scenarios, manifest.json %d", len(idx.Scenarios), len(m.Files))
	}
	for _, f := range m.Files {
		if idx.Scenarios[f.Scenario] != f.Fnv1a64 {
			return idx, nil, fmt.Errorf("encodings.json was made from another %s file than manifest.json describes: run deltabench encodings", f.Scenario)
		}
	}
	out := make(map[string]scenarioBytes)
	for _, f := range idx.Files {
		s, err := readScenario(dir, idx, f)
		if err != nil {
			return idx, nil, err
		}
		out[f.Scenario] = s
	}
	return idx, out, nil
}

func readScenario(dir string, idx encodingsIndex, f encodingFile) (scenarioBytes, error) {
	path := filepath.Join(dir, f.File)
	b, err := os.ReadFile(path)
	if err != nil {
		return scenarioBytes{}, err
	}
	if h := fmt.Sprintf("%016x", fnv1a64(b)); h != f.Fnv1a64 {
		return scenarioBytes{}, fmt.Errorf("%s: FNV-1a 64 is %s, encodings.json says %s", path, h, f.Fnv1a64)
	}
	recs, err := records(b)
	if err != nil {
		return scenarioBytes{}, fmt.Errorf("%s: %w", path, err)
	}
	perAge := max(idx.Ticks-1, 0)
	want := idx.Ticks + len(idx.Ages)*perAge
	if idx.Ticks < 1 || len(recs) != want || f.Records != want {
		return scenarioBytes{}, fmt.Errorf("%s: %d records, encodings.json says %d, %d ticks at %d ages make %d",
			path, len(recs), f.Records, idx.Ticks, len(idx.Ages), want)
	}
	s := scenarioBytes{name: f.Scenario, full: recs[:idx.Ticks]}
	for a := range idx.Ages {
		at := idx.Ticks + a*perAge
		s.deltas = append(s.deltas, recs[at:at+perAge])
	}
	return s, nil
}

// records splits a binary file into its records: a u32 little-endian length, then
// that many bytes.
func records(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 4 {
			return nil, fmt.Errorf("record %d: its length is cut short", len(out))
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(len(b)) < uint64(n) {
			return nil, fmt.Errorf("record %d claims %d bytes, %d left", len(out), n, len(b))
		}
		out = append(out, b[:n:n])
		b = b[n:]
	}
	return out, nil
}
