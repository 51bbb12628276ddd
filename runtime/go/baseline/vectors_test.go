package baseline_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
)

// The shared snapshot envelope vectors (testdata/vectors/envelope, docs/framing.md
// §10) with the test codec of their README.

type hexBytes []byte

func (h *hexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	*h = v
	return err
}

type vectorFile struct {
	Headers []struct {
		ID    string   `json:"id"`
		Bytes hexBytes `json:"bytes"`
		Seq   uint16   `json:"seq"`
		Back  uint8    `json:"back"`
		Base  *uint16  `json:"base"`
		Body  hexBytes `json:"body"`
		Error string   `json:"error"`
	} `json:"headers"`
	Sender []struct {
		ID    string `json:"id"`
		Ring  int    `json:"ring"`
		Steps []struct {
			Send        *u32List `json:"send"`
			Header      []int    `json:"header"`
			Packet      hexBytes `json:"packet"`
			Ack         *uint16  `json:"ack"`
			RequestFull bool     `json:"request_full"`
			Error       string   `json:"error"`
			Message     string   `json:"message"`
		} `json:"steps"`
	} `json:"sender"`
	Receiver []struct {
		ID    string `json:"id"`
		Ring  int    `json:"ring"`
		Steps []struct {
			Packet   hexBytes `json:"packet"`
			Seq      uint16   `json:"seq"`
			Value    u32List  `json:"value"`
			Dropped  bool     `json:"dropped"`
			Error    string   `json:"error"`
			Message  string   `json:"message"`
			Ack      *uint16  `json:"ack"`
			NeedFull bool     `json:"need_full"`
		} `json:"steps"`
	} `json:"receiver"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "vectors", "envelope", "envelope.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// kinds returns the snapshot kind of err and, for Message, the packed kind ("" for none).
func kinds(err error) (string, string) {
	var e *baseline.Error
	if !errors.As(err, &e) {
		return "", ""
	}
	var pe *bitwire.Error
	if errors.As(err, &pe) {
		return e.Kind.String(), pe.Kind.String()
	}
	return e.Kind.String(), ""
}

func TestVectorHeaders(t *testing.T) {
	f := loadVectors(t)
	if len(f.Headers) < 7 {
		t.Fatalf("%d header cases", len(f.Headers))
	}
	for _, c := range f.Headers {
		h, body, err := baseline.ReadHeader(c.Bytes)
		if c.Error != "" {
			if k, _ := kinds(err); k != c.Error {
				t.Errorf("%s: got %v, want %s", c.ID, err, c.Error)
			}
			continue
		}
		base, isDelta := h.Base()
		if err != nil || h.Seq != c.Seq || h.Back != c.Back || !bytes.Equal(body, c.Body) ||
			isDelta != (c.Base != nil) || (isDelta && base != *c.Base) {
			t.Errorf("%s: got %+v %x %v", c.ID, h, body, err)
		}
		if got := h.AppendTo(nil); !bytes.Equal(got, c.Bytes[:3]) {
			t.Errorf("%s: written back as %x", c.ID, got)
		}
	}
}

func TestVectorSender(t *testing.T) {
	for _, c := range loadVectors(t).Sender {
		s := baseline.NewSender(listCodec, c.Ring)
		for i, step := range c.Steps {
			switch {
			case step.Send != nil:
				prefix := []byte{0xee} // Encode appends
				out, h, err := s.Encode(prefix, *step.Send)
				if step.Error != "" {
					k, m := kinds(err)
					if k != step.Error || m != step.Message || len(out) != 1 {
						t.Errorf("%s step %d: got %v, want %s %s", c.ID, i, err, step.Error, step.Message)
					}
					continue
				}
				if err != nil || !bytes.Equal(out[1:], step.Packet) ||
					!slices.Equal([]int{int(h.Seq), int(h.Back)}, step.Header) {
					t.Errorf("%s step %d: got %x %+v %v, want %x %v", c.ID, i, out[1:], h, err, step.Packet, step.Header)
				}
			case step.Ack != nil:
				if k, _ := kinds(s.Ack(*step.Ack)); k != step.Error {
					t.Errorf("%s step %d: ack %d gave %q, want %q", c.ID, i, *step.Ack, k, step.Error)
				}
			case step.RequestFull:
				s.RequestFull()
			default:
				t.Fatalf("%s step %d: unknown step", c.ID, i)
			}
		}
	}
}

func TestVectorReceiver(t *testing.T) {
	for _, c := range loadVectors(t).Receiver {
		r := baseline.NewReceiver(listCodec, c.Ring)
		for i, step := range c.Steps {
			h, v, err := r.Decode(step.Packet)
			switch {
			case step.Error != "":
				if k, m := kinds(err); k != step.Error || m != step.Message || v != nil {
					t.Errorf("%s step %d: got %v, want %s %s", c.ID, i, err, step.Error, step.Message)
				}
			case step.Dropped:
				if err != nil || v != nil {
					t.Errorf("%s step %d: got %v %v, want dropped", c.ID, i, v, err)
				}
			default:
				if err != nil || v == nil || h.Seq != step.Seq || !slices.Equal(*v, step.Value) {
					t.Errorf("%s step %d: got %d %v %v, want %d %v", c.ID, i, h.Seq, v, err, step.Seq, step.Value)
				}
			}
			ack, has := r.Ack()
			if has != (step.Ack != nil) || (has && ack != *step.Ack) || r.NeedFull() != step.NeedFull {
				t.Errorf("%s step %d: ack %d %v, need full %v", c.ID, i, ack, has, r.NeedFull())
			}
		}
	}
}
