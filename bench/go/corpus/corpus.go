// Package corpus reads the benchmark lab's corpus directory, written by the Rust
// side (`cargo run --release -p bitwire-lab --bin corpus`; format in the module doc
// of bench/lab/src/corpus.rs and in bench/README.md): manifest.json, the
// `<dataset>.bin` frame files and the raw `pod_*.bin` blocks. Every file is checked
// against the FNV-1a 64 hash and size the manifest records, and every frame is
// decoded with the Go code generated from examples/game.bw and encoded back to the
// same bytes, so a benchmark never runs on data the Go side reads differently.
package corpus

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// Format is the corpus layout version this reader understands.
const Format = 1

// Manifest is manifest.json.
type Manifest struct {
	Format            int       `json:"format"`
	Schema            string    `json:"schema"`
	SchemaFingerprint string    `json:"schema_fingerprint"`
	Datasets          []Dataset `json:"datasets"`
	Pod               []Pod     `json:"pod"`
	// Dir is the directory the manifest was read from (not in the file).
	Dir string `json:"-"`
}

// Dataset is one entry of the manifest's "datasets": messages of examples/game.bw.
type Dataset struct {
	Name         string `json:"name"`
	Type         string `json:"type"`
	Seed         uint64 `json:"seed"`
	Count        int    `json:"count"`
	BinBytes     int    `json:"bin_bytes"`
	PayloadBytes int    `json:"payload_bytes"`
	BinFNV       string `json:"bin_fnv1a64"`
	JSONLFNV     string `json:"jsonl_fnv1a64"`
}

// Pod is one entry of the manifest's "pod": a file of raw little-endian values whose
// prefixes are the benchmark blocks.
type Pod struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Elem   string `json:"elem"`
	Seed   uint64 `json:"seed"`
	Bytes  int    `json:"bytes"`
	Blocks []int  `json:"blocks"`
	FNV    string `json:"fnv1a64"`
}

// ElemSize returns the size in bytes of one value of the pod's element type.
func (p *Pod) ElemSize() (int, error) {
	switch p.Elem {
	case "u64":
		return 8, nil
	case "u8":
		return 1, nil
	case "f32":
		return 4, nil
	}
	return 0, fmt.Errorf("pod %s: unknown element type %q", p.Name, p.Elem)
}

// FNV1a64 is the hash the manifest records for each file.
func FNV1a64(b []byte) uint64 {
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// Load reads and checks dir/manifest.json.
func Load(dir string) (*Manifest, error) {
	text, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w (write one with `cargo run --release -p bitwire-lab --bin corpus`)", err)
	}
	var m Manifest
	if err := json.Unmarshal(text, &m); err != nil {
		return nil, fmt.Errorf("corpus: %s/manifest.json: %w", dir, err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("corpus: %s/manifest.json has format %d, this reader knows %d", dir, m.Format, Format)
	}
	if want := fmt.Sprintf("%016x", game.SchemaFingerprint); m.SchemaFingerprint != want {
		return nil, fmt.Errorf("corpus: schema fingerprint %s, the Go code was generated from %s (regenerate the corpus or the Go code)", m.SchemaFingerprint, want)
	}
	m.Dir = dir
	return &m, nil
}

// Dataset returns the manifest entry called name.
func (m *Manifest) Dataset(name string) (*Dataset, error) {
	for i := range m.Datasets {
		if m.Datasets[i].Name == name {
			return &m.Datasets[i], nil
		}
	}
	return nil, fmt.Errorf("corpus: no dataset %q in %s/manifest.json", name, m.Dir)
}

// readChecked reads dir/file and checks its size and FNV-1a 64 hash.
func readChecked(dir, file string, size int, hash string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if len(b) != size {
		return nil, fmt.Errorf("corpus: %s is %d bytes, the manifest says %d", file, len(b), size)
	}
	want, err := strconv.ParseUint(hash, 16, 64)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: bad hash %q in the manifest", file, hash)
	}
	if got := FNV1a64(b); got != want {
		return nil, fmt.Errorf("corpus: %s has FNV-1a 64 %016x, the manifest says %016x", file, got, want)
	}
	return b, nil
}

// SplitFrames splits a .bin file into its frames (u32 little-endian length, then
// that many bytes). The frames alias b.
func SplitFrames(b []byte) ([][]byte, error) {
	var out [][]byte
	for off := 0; off < len(b); {
		if len(b)-off < 4 {
			return nil, fmt.Errorf("truncated frame length at byte %d", off)
		}
		n := int(binary.LittleEndian.Uint32(b[off:]))
		off += 4
		if len(b)-off < n {
			return nil, fmt.Errorf("frame at byte %d says %d bytes, %d left", off-4, n, len(b)-off)
		}
		out = append(out, b[off:off+n:off+n])
		off += n
	}
	return out, nil
}

// Frames reads the dataset's .bin file, checks it against the manifest (size, hash,
// frame count, payload bytes) and returns its frames.
func (m *Manifest) Frames(d *Dataset) ([][]byte, error) {
	file := d.Name + ".bin"
	b, err := readChecked(m.Dir, file, d.BinBytes, d.BinFNV)
	if err != nil {
		return nil, err
	}
	frames, err := SplitFrames(b)
	if err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", file, err)
	}
	if len(frames) != d.Count {
		return nil, fmt.Errorf("corpus: %s holds %d frames, the manifest says %d", file, len(frames), d.Count)
	}
	payload := 0
	for _, f := range frames {
		payload += len(f)
	}
	if payload != d.PayloadBytes {
		return nil, fmt.Errorf("corpus: %s holds %d payload bytes, the manifest says %d", file, payload, d.PayloadBytes)
	}
	return frames, nil
}

// codec is what every generated message type provides.
type codec interface {
	Decode([]byte) error
	AppendTo([]byte) ([]byte, error)
}

// decodeAll decodes every frame into a new T and checks that it encodes back to the
// same bytes.
func decodeAll[T any, P interface {
	*T
	codec
}](name string, frames [][]byte) ([]T, error) {
	out := make([]T, len(frames))
	var buf []byte
	for i, f := range frames {
		p := P(&out[i])
		if err := p.Decode(f); err != nil {
			return nil, fmt.Errorf("corpus: %s #%d: the generated Go code cannot decode it: %w", name, i, err)
		}
		var err error
		if buf, err = p.AppendTo(buf[:0]); err != nil {
			return nil, fmt.Errorf("corpus: %s #%d: the decoded value does not encode: %w", name, i, err)
		}
		if !bytes.Equal(buf, f) {
			return nil, fmt.Errorf("corpus: %s #%d: decodes and encodes back to different bytes\n  file: % x\n  Go:   % x", name, i, f, buf)
		}
	}
	return out, nil
}

// Game holds the five game datasets, decoded, with their frames.
type Game struct {
	Packet64 []game.Packet64
	Snapshot []game.Snapshot
	Input    []game.Input
	Events   []game.Events
	Profiles []game.Profiles
	// Frames by dataset name: each message's bitwire encoding from the corpus.
	Frames map[string][][]byte
}

// GameDatasets names the game datasets LoadGame reads, in report order.
var GameDatasets = []string{"packet64", "snapshot", "input", "events", "profiles"}

// LoadGame reads, checks and decodes every dataset of GameDatasets.
func (m *Manifest) LoadGame() (*Game, error) {
	g := &Game{Frames: map[string][][]byte{}}
	for _, name := range GameDatasets {
		d, err := m.Dataset(name)
		if err != nil {
			return nil, err
		}
		frames, err := m.Frames(d)
		if err != nil {
			return nil, err
		}
		g.Frames[name] = frames
		switch name {
		case "packet64":
			err = checkType(d, "Packet64")
			if err == nil {
				g.Packet64, err = decodeAll[game.Packet64](name, frames)
			}
		case "snapshot":
			err = checkType(d, "Snapshot")
			if err == nil {
				g.Snapshot, err = decodeAll[game.Snapshot](name, frames)
			}
		case "input":
			err = checkType(d, "Input")
			if err == nil {
				g.Input, err = decodeAll[game.Input](name, frames)
			}
		case "events":
			err = checkType(d, "Events")
			if err == nil {
				g.Events, err = decodeAll[game.Events](name, frames)
			}
		case "profiles":
			err = checkType(d, "Profiles")
			if err == nil {
				g.Profiles, err = decodeAll[game.Profiles](name, frames)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return g, nil
}

func checkType(d *Dataset, want string) error {
	if d.Type != want {
		return fmt.Errorf("corpus: dataset %s has type %s, expected %s", d.Name, d.Type, want)
	}
	return nil
}

// PodData reads the pod file p (checked against its size and hash) and checks its
// block sizes: each a whole number of values and at most the file.
func (m *Manifest) PodData(p *Pod) ([]byte, error) {
	size, err := p.ElemSize()
	if err != nil {
		return nil, err
	}
	b, err := readChecked(m.Dir, p.Name+".bin", p.Bytes, p.FNV)
	if err != nil {
		return nil, err
	}
	if len(p.Blocks) == 0 {
		return nil, fmt.Errorf("corpus: pod %s lists no blocks", p.Name)
	}
	for _, n := range p.Blocks {
		if n <= 0 || n > len(b) || n%size != 0 {
			return nil, fmt.Errorf("corpus: pod %s: block of %d bytes does not fit %d-byte values in a %d-byte file", p.Name, n, size, len(b))
		}
	}
	return b, nil
}
