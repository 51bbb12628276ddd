package lab

import (
	"bytes"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	bench "github.com/bitwire-dev/bitwire/bench/go"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// ScalingSizes are the packet64 dataset sizes of the scaling run.
var (
	ScalingSizes      = []int{100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000}
	ScalingSizesQuick = []int{100, 1_000, 10_000}
)

const noteScaling = "scaling: every packet of the dataset encoded into one stream buffer (variable-size encodings with an offset per packet) and decoded from it into a []game.Packet64; protobuf-go copies each packet into one reused pb.Packet64"

// ScalingPackets generates n packets with the seed-42 SplitMix64 generator
// (dataset.go) and checks that the first of them are the corpus's packets.
func ScalingPackets(n int, corpusPackets []game.Packet64) ([]game.Packet64, error) {
	pk := bench.Packet64(n)
	for i := 0; i < len(pk) && i < len(corpusPackets); i++ {
		if pk[i] != corpusPackets[i] {
			return nil, fmt.Errorf("packet64 scaling: generated packet %d is %+v, the corpus has %+v", i, pk[i], corpusPackets[i])
		}
	}
	return pk, nil
}

// BitfieldMaxPackets is the largest scaling size go-bitfield runs at: it decodes
// by reflection at about 1 µs per packet, so a pass over 10M packets would take
// some 10 s and the runs it needs would overrun the lab's time budget.
const BitfieldMaxPackets = 1_000_000

// ScalingCases returns the libraries' passes over all of pk: encode every packet
// into one stream, decode every packet from it into a []game.Packet64. Each is
// checked once (decoded packets equal pk) before it is returned. go-bitfield is
// included up to BitfieldMaxPackets.
func ScalingCases(pk []game.Packet64) ([]*Case, error) {
	s := &scalingRun{pk: pk, out: make([]game.Packet64, len(pk))}
	s.bitwire()
	s.handwritten()
	s.flatbuffers()
	s.protobuf()
	if len(pk) <= BitfieldMaxPackets {
		s.bitfield()
	}

	for _, c := range s.cases {
		if c.Encode != nil {
			c.Encode()
		}
		c.Decode()
		if err := s.checkOut(c.Library); err != nil {
			return nil, err
		}
	}
	if !bytes.Equal(s.wire, s.hand) {
		return nil, fmt.Errorf("packet64 scaling: hand-written and bitwire streams differ")
	}
	for _, c := range s.cases {
		switch c.Library {
		case "bitwire", "handwritten", "go-bitfield":
			c.Bytes = len(s.wire)
		case "flatbuffers":
			c.Bytes = len(s.fbStream)
		case "protobuf-go":
			c.Bytes = len(s.pbStream)
		}
	}
	return s.cases, nil
}

// The methods that build a case stay out of line (go:noinline) for the reason
// given in pod.go: the timed loops must be compiled as written.

// scalingRun is what the scaling cases of one size share: the packets, the slice
// every case decodes into, and each library's stream (with the end offset of each
// packet where the encodings vary in size).
type scalingRun struct {
	pk, out            []game.Packet64
	cases              []*Case
	wire, hand         []byte
	fbStream, pbStream []byte
	fbEnds, pbEnds     []uint32
}

// checkOut reports the first packet lib decoded differently from pk, and clears
// out for the next library.
func (s *scalingRun) checkOut(lib string) error {
	pk, out := s.pk, s.out
	for i := range pk {
		if out[i] != pk[i] {
			return fmt.Errorf("packet64 scaling %s: packet %d decodes to %+v, not %+v", lib, i, out[i], pk[i])
		}
	}
	clear(out)
	return nil
}

// add appends the case of library lib.
func (s *scalingRun) add(lib string) *Case {
	c := &Case{Dataset: "packet64", Library: lib, Messages: len(s.pk), Note: noteScaling}
	s.cases = append(s.cases, c)
	return c
}

// bitwire: 8 bytes per packet, back to back.
//
//go:noinline
func (s *scalingRun) bitwire() {
	pk, out := s.pk, s.out
	s.wire = make([]byte, 0, 8*len(pk))
	c := s.add("bitwire")
	c.Encode = func() {
		buf := s.wire[:0]
		for i := range pk {
			var err error
			if buf, err = pk[i].AppendTo(buf); err != nil {
				panic(err)
			}
		}
		s.wire = buf
	}
	c.Decode = func() {
		w := s.wire
		for i := range out {
			if err := out[i].Decode(w[8*i : 8*i+8]); err != nil {
				panic(err)
			}
		}
	}
}

// handwritten: the same bytes.
//
//go:noinline
func (s *scalingRun) handwritten() {
	pk, out := s.pk, s.out
	s.hand = make([]byte, 0, 8*len(pk))
	c := s.add("handwritten")
	c.Encode = func() {
		buf := s.hand[:0]
		for i := range pk {
			buf = bench.HandEncode(&pk[i], buf)
		}
		s.hand = buf
	}
	c.Decode = func() {
		w := s.hand
		for i := range out {
			if !bench.HandDecode(w[8*i:8*i+8], &out[i]) {
				panic("truncated")
			}
		}
	}
}

// flatbuffers: each packet's finished buffer appended to the stream.
//
//go:noinline
func (s *scalingRun) flatbuffers() {
	pk, out := s.pk, s.out
	s.fbEnds = make([]uint32, 0, len(pk))
	b := flatbuffers.NewBuilder(64)
	c := s.add("flatbuffers")
	c.Encode = func() {
		st, ends := s.fbStream[:0], s.fbEnds[:0]
		for i := range pk {
			fbBuildPacket64(b, &pk[i])
			st = append(st, b.FinishedBytes()...)
			ends = append(ends, uint32(len(st)))
		}
		s.fbStream, s.fbEnds = st, ends
	}
	c.Decode = func() {
		st, start := s.fbStream, uint32(0)
		for i, end := range s.fbEnds {
			fbReadPacket64(st[start:end], &out[i])
			start = end
		}
	}
}

// protobuf-go: each packet marshalled (appended) to the stream.
//
//go:noinline
func (s *scalingRun) protobuf() {
	pk, out := s.pk, s.out
	s.pbEnds = make([]uint32, 0, len(pk))
	var m pb.Packet64
	c := s.add("protobuf-go")
	c.Encode = func() {
		st, ends := s.pbStream[:0], s.pbEnds[:0]
		for i := range pk {
			fillPBPacket64(&m, &pk[i])
			var err error
			if st, err = (proto.MarshalOptions{}).MarshalAppend(st, &m); err != nil {
				panic(err)
			}
			ends = append(ends, uint32(len(st)))
		}
		s.pbStream, s.pbEnds = st, ends
	}
	c.Decode = func() {
		st, start := s.pbStream, uint32(0)
		for i, end := range s.pbEnds {
			if err := proto.Unmarshal(st[start:end], &m); err != nil {
				panic(err)
			}
			fromPBPacket64(&m, &out[i])
			start = end
		}
	}
}

// bitfield: go-bitfield decodes bitwire's stream.
//
//go:noinline
func (s *scalingRun) bitfield() {
	out := s.out
	var bf BitfieldPacket64
	c := s.add("go-bitfield")
	c.Decode = func() {
		w := s.wire
		for i := range out {
			if err := BitfieldDecode(w[8*i:8*i+8], &bf, &out[i]); err != nil {
				panic(err)
			}
		}
	}
}
