package bitwire

import (
	"bytes"
	"testing"
)

func TestWordHelpers(t *testing.T) {
	b := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	if c := Chunk64(b); c.Word != 0x0807060504030201 || c.Avail != 64 || c.Start != 0 {
		t.Fatalf("%+v", c)
	}
	if c := ChunkOf(b[:3]); c.Word != 0x030201 || c.Avail != 24 {
		t.Fatalf("%+v", c)
	}
	if got := AppendWord([]byte{0xff}, 0x030201, 3); !bytes.Equal(got, []byte{0xff, 1, 2, 3}) {
		t.Fatalf("% x", got)
	}
	if got := AppendUint64(nil, 0x0807060504030201); !bytes.Equal(got, b[:8]) {
		t.Fatalf("% x", got)
	}
}
