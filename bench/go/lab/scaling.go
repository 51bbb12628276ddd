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
	n := len(pk)
	out := make([]game.Packet64, n)
	checkOut := func(lib string) error {
		for i := range pk {
			if out[i] != pk[i] {
				return fmt.Errorf("packet64 scaling %s: packet %d decodes to %+v, not %+v", lib, i, out[i], pk[i])
			}
		}
		clear(out)
		return nil
	}
	var cases []*Case
	mk := func(lib string) *Case {
		c := &Case{Dataset: "packet64", Library: lib, Messages: n, Note: noteScaling}
		cases = append(cases, c)
		return c
	}

	// bitwire: 8 bytes per packet, back to back.
	wire := make([]byte, 0, 8*n)
	{
		c := mk("bitwire")
		c.Encode = func() {
			buf := wire[:0]
			for i := range pk {
				var err error
				if buf, err = pk[i].AppendTo(buf); err != nil {
					panic(err)
				}
			}
			wire = buf
		}
		c.Decode = func() {
			w := wire
			for i := range out {
				if err := out[i].Decode(w[8*i : 8*i+8]); err != nil {
					panic(err)
				}
			}
		}
	}
	// handwritten: the same bytes.
	hand := make([]byte, 0, 8*n)
	{
		c := mk("handwritten")
		c.Encode = func() {
			buf := hand[:0]
			for i := range pk {
				buf = bench.HandEncode(&pk[i], buf)
			}
			hand = buf
		}
		c.Decode = func() {
			w := hand
			for i := range out {
				if !bench.HandDecode(w[8*i:8*i+8], &out[i]) {
					panic("truncated")
				}
			}
		}
	}
	// flatbuffers: each packet's finished buffer appended to the stream.
	var fbStream []byte
	fbEnds := make([]uint32, 0, n)
	{
		b := flatbuffers.NewBuilder(64)
		c := mk("flatbuffers")
		c.Encode = func() {
			s, ends := fbStream[:0], fbEnds[:0]
			for i := range pk {
				fbBuildPacket64(b, &pk[i])
				s = append(s, b.FinishedBytes()...)
				ends = append(ends, uint32(len(s)))
			}
			fbStream, fbEnds = s, ends
		}
		c.Decode = func() {
			s, start := fbStream, uint32(0)
			for i, end := range fbEnds {
				fbReadPacket64(s[start:end], &out[i])
				start = end
			}
		}
	}
	// protobuf-go: each packet marshalled (appended) to the stream.
	var pbStream []byte
	pbEnds := make([]uint32, 0, n)
	{
		var m pb.Packet64
		c := mk("protobuf-go")
		c.Encode = func() {
			s, ends := pbStream[:0], pbEnds[:0]
			for i := range pk {
				fillPBPacket64(&m, &pk[i])
				var err error
				if s, err = (proto.MarshalOptions{}).MarshalAppend(s, &m); err != nil {
					panic(err)
				}
				ends = append(ends, uint32(len(s)))
			}
			pbStream, pbEnds = s, ends
		}
		c.Decode = func() {
			s, start := pbStream, uint32(0)
			for i, end := range pbEnds {
				if err := proto.Unmarshal(s[start:end], &m); err != nil {
					panic(err)
				}
				fromPBPacket64(&m, &out[i])
				start = end
			}
		}
	}
	// go-bitfield: decodes bitwire's stream.
	if n <= BitfieldMaxPackets {
		var bf BitfieldPacket64
		c := mk("go-bitfield")
		c.Decode = func() {
			w := wire
			for i := range out {
				if err := BitfieldDecode(w[8*i:8*i+8], &bf, &out[i]); err != nil {
					panic(err)
				}
			}
		}
	}

	for _, c := range cases {
		if c.Encode != nil {
			c.Encode()
		}
		c.Decode()
		if err := checkOut(c.Library); err != nil {
			return nil, err
		}
	}
	if !bytes.Equal(wire, hand) {
		return nil, fmt.Errorf("packet64 scaling: hand-written and bitwire streams differ")
	}
	for _, c := range cases {
		switch c.Library {
		case "bitwire", "handwritten", "go-bitfield":
			c.Bytes = len(wire)
		case "flatbuffers":
			c.Bytes = len(fbStream)
		case "protobuf-go":
			c.Bytes = len(pbStream)
		}
	}
	return cases, nil
}
