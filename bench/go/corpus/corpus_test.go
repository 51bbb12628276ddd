package corpus

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// The FNV-1a 64 of a known input (the hash's published test vector for "a").
func TestFNV1a64(t *testing.T) {
	if got := FNV1a64([]byte("a")); got != 0xaf63dc4c8601ec8c {
		t.Fatalf("FNV1a64(a) = %#x", got)
	}
}

func TestSplitFrames(t *testing.T) {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	b = append(b, 7, 8)
	b = binary.LittleEndian.AppendUint32(b, 0)
	frames, err := SplitFrames(b)
	if err != nil || len(frames) != 2 || len(frames[0]) != 2 || len(frames[1]) != 0 {
		t.Fatalf("frames %v, %v", frames, err)
	}
	if _, err := SplitFrames(b[:5]); err == nil {
		t.Fatal("a truncated frame is accepted")
	}
}

// writeCorpus writes a small corpus in the manifest format: a packet64 dataset of
// the given packets and a pod_u64 file.
func writeCorpus(t *testing.T, packets []game.Packet64) string {
	dir := t.TempDir()
	var bin []byte
	payload := 0
	for i := range packets {
		enc, err := packets[i].Encode()
		if err != nil {
			t.Fatal(err)
		}
		bin = binary.LittleEndian.AppendUint32(bin, uint32(len(enc)))
		bin = append(bin, enc...)
		payload += len(enc)
	}
	var pod []byte
	for i := uint64(0); i < 64; i++ {
		pod = binary.LittleEndian.AppendUint64(pod, i*0x9E3779B97F4A7C15)
	}
	for name, b := range map[string][]byte{"packet64.bin": bin, "pod_u64.bin": pod} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := map[string]any{
		"format":             1,
		"schema":             "examples/game.bw",
		"schema_fingerprint": fmt.Sprintf("%016x", game.SchemaFingerprint),
		"datasets": []any{map[string]any{
			"name": "packet64", "type": "Packet64", "seed": 42, "count": len(packets),
			"bin_bytes": len(bin), "payload_bytes": payload,
			"bin_fnv1a64": fmt.Sprintf("%016x", FNV1a64(bin)), "jsonl_fnv1a64": "0000000000000000",
		}},
		"pod": []any{map[string]any{
			"name": "pod_u64", "type": "PodU64", "elem": "u64", "seed": 1, "bytes": len(pod),
			"blocks": []int{64, len(pod)}, "fnv1a64": fmt.Sprintf("%016x", FNV1a64(pod)),
		}},
	}
	text, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var testPackets = []game.Packet64{
	{IsAlive: true, WeaponID: 3, TeamID: 1, Health: 300, PosX: -2048, PosY: 2047, Rotation: 9, Score: 65535},
	{},
}

func TestReadsAndChecks(t *testing.T) {
	dir := writeCorpus(t, testPackets)
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := m.Dataset("packet64")
	if err != nil {
		t.Fatal(err)
	}
	frames, err := m.Frames(d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeAll[game.Packet64]("packet64", frames)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != testPackets[0] || got[1] != testPackets[1] {
		t.Fatalf("decoded %+v", got)
	}
	data, err := m.PodData(&m.Pod[0])
	if err != nil || len(data) != 512 {
		t.Fatalf("pod: %d bytes, %v", len(data), err)
	}
}

// A file whose bytes changed fails its hash check, clearly.
func TestHashMismatch(t *testing.T) {
	dir := writeCorpus(t, testPackets)
	for _, name := range []string{"packet64.bin", "pod_u64.bin"} {
		path := filepath.Join(dir, name)
		b, _ := os.ReadFile(path)
		b[len(b)-1] ^= 1
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := m.Dataset("packet64")
	if _, err := m.Frames(d); err == nil || !strings.Contains(err.Error(), "FNV-1a 64") {
		t.Fatalf("packet64: %v", err)
	}
	if _, err := m.PodData(&m.Pod[0]); err == nil || !strings.Contains(err.Error(), "FNV-1a 64") {
		t.Fatalf("pod: %v", err)
	}
}

// A frame the generated code rejects is reported with its index.
func TestUndecodableFrame(t *testing.T) {
	frames := [][]byte{make([]byte, 8), make([]byte, 7)}
	if _, err := decodeAll[game.Packet64]("packet64", frames); err == nil || !strings.Contains(err.Error(), "#1") {
		t.Fatalf("err = %v", err)
	}
}

// A manifest of another schema is refused.
func TestFingerprintMismatch(t *testing.T) {
	dir := writeCorpus(t, testPackets)
	path := filepath.Join(dir, "manifest.json")
	text, _ := os.ReadFile(path)
	text = []byte(strings.Replace(string(text), fmt.Sprintf("%016x", game.SchemaFingerprint), "0123456789abcdef", 1))
	os.WriteFile(path, text, 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "fingerprint") {
		t.Fatalf("err = %v", err)
	}
}

// The corpus named by BITWIRE_CORPUS (if any) reads and checks.
func TestCorpusFromEnv(t *testing.T) {
	dir := os.Getenv("BITWIRE_CORPUS")
	if dir == "" {
		t.Skip("BITWIRE_CORPUS is not set: write a corpus with `cargo run --release -p bitwire-lab --bin corpus -- --quick --out DIR` and set BITWIRE_CORPUS=DIR")
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.LoadGame(); err != nil {
		t.Fatal(err)
	}
	for i := range m.Pod {
		if _, err := m.PodData(&m.Pod[i]); err != nil {
			t.Fatal(err)
		}
	}
}

// Profiles frames (the string-heavy dataset) decode and re-encode to their bytes; a
// truncated one is reported with its index.
func TestProfilesFrames(t *testing.T) {
	p := game.Profiles{Page: 3, Profiles: []game.Profile{{ID: 9, Name: "Zoë", Title: "Scout", Region: "oce",
		Level: 12, Rating: 1500, Badges: []string{"founder", "mvp"}}}}
	enc, err := p.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeAll[game.Profiles]("profiles", [][]byte{enc})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Profiles[0].Name != "Zoë" || len(got[0].Profiles[0].Badges) != 2 {
		t.Fatalf("decoded %+v", got)
	}
	if _, err := decodeAll[game.Profiles]("profiles", [][]byte{enc, enc[:len(enc)/2]}); err == nil || !strings.Contains(err.Error(), "profiles #1") {
		t.Fatalf("err = %v", err)
	}
}
