package lab

import (
	"bytes"
	"fmt"
)

// The pod contenders of the bincode encoding (issue 16): the memcpy baseline, and
// the code generated from bench/schemas/pod.bw with --encoding bincode, with and
// without buffer reuse.

const notePodMemcpy = "the baseline: the block's bytes appended to a reused []byte, and copied back into a reused []byte (append/copy: a memmove each way)"

// podMemcpy is the memcpy baseline over the block's bytes (src, the little-endian
// values as the corpus holds them), checked before it is returned.
//
//go:noinline
func podMemcpy(src []byte) (*Case, error) {
	mc := &Case{Library: "memcpy", Note: notePodMemcpy}
	var buf, v []byte
	mc.Encode = func() {
		buf = append(buf[:0], src...)
		mc.Bytes = len(buf)
	}
	mc.Decode = func() {
		v = append(v[:0], buf...)
	}
	// Stale contents first: each pass must replace them.
	buf, v = []byte{0xA5, 0xA5, 0xA5}, []byte{1, 2, 3}
	mc.Encode()
	mc.Decode()
	if !bytes.Equal(v, src) || !bytes.Equal(buf, src) {
		return nil, fmt.Errorf("memcpy: the copies differ from the block")
	}
	return mc, nil
}
