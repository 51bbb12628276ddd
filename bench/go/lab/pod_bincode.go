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

const (
	notePodBincode      = "generated code (pod.bw, --encoding bincode): AppendBincode(nil) into a fresh buffer, DecodeBincode into a fresh value (default Limits)"
	notePodBincodeReuse = "generated code (pod.bw, --encoding bincode): AppendBincode(buf[:0]) into a reused buffer, DecodeBincode into a reused value (default Limits)"
)

// podBincodeMessage is a message type generated from bench/schemas/pod.bw with
// --encoding bincode.
type podBincodeMessage interface {
	AppendBincode(dst []byte) ([]byte, error)
	DecodeBincode(b []byte) error
}

// podBincodeFresh encodes msg with AppendBincode into a new buffer and decodes it
// into a new value each pass, the last of which is copied to last (for the check).
//
//go:noinline
func podBincodeFresh[M any, P interface {
	*M
	podBincodeMessage
}](msg, last P) *Case {
	bb := &Case{Library: "bitwire-bincode", Note: notePodBincode}
	var buf []byte
	bb.Encode = func() {
		out, err := msg.AppendBincode(nil)
		if err != nil {
			panic(err)
		}
		buf = out
		bb.Bytes = len(out)
	}
	bb.Decode = func() {
		v := P(new(M))
		if err := v.DecodeBincode(buf); err != nil {
			panic(err)
		}
		*last = *v
	}
	return bb
}

// podBincodeReuse encodes msg with AppendBincode into a reused buffer and decodes
// it into v, a reused value (which the caller gives stale values: each pass must
// replace them).
//
//go:noinline
func podBincodeReuse(msg, v podBincodeMessage) *Case {
	bb := &Case{Library: "bitwire-bincode-reuse", Note: notePodBincodeReuse}
	buf := []byte{0xA5, 0xA5, 0xA5}
	bb.Encode = func() {
		var err error
		if buf, err = msg.AppendBincode(buf[:0]); err != nil {
			panic(err)
		}
		bb.Bytes = len(buf)
	}
	bb.Decode = func() {
		if err := v.DecodeBincode(buf); err != nil {
			panic(err)
		}
	}
	return bb
}
