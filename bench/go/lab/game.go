package lab

import (
	"bytes"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
	bitfield "github.com/jmatsuzawa/go-bitfield"
	"google.golang.org/protobuf/proto"

	bench "github.com/bitwire-dev/bitwire/bench/go"
	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// Notes shown in the report next to each library's figures.
const (
	noteBitwire     = "AppendTo into a reused buffer; Decode into a reused value (full validation)"
	noteHand        = "hand-written shifts and masks, same bytes as bitwire; decode checks only truncation"
	noteFlatbuffers = "one Builder reused with Reset; decode = GetRootAs + read every field into a bitwire value (flatbuffers-go has no verifier: nothing is validated)"
	noteProtobuf    = "proto.MarshalOptions{}.MarshalAppend into a reused buffer; proto.Unmarshal into a reused message (Unmarshal resets it, so nested messages and strings are allocated anew)"
	noteBitfield    = "decode only (the library cannot encode): bitfield.Unmarshal of bitwire's own bytes (same LSB-first order) into a tagged struct, copied into a bitwire value; reflection per field"
)

// Libraries lists the library ids of the game datasets, in report order.
var Libraries = []string{"bitwire", "handwritten", "flatbuffers", "protobuf-go", "go-bitfield"}

// check reports the first message whose decoded value differs from the input.
func check[T any](dataset, library string, vals []T, decode func(i int, dst *T) error) error {
	for i := range vals {
		var got T
		if err := decode(i, &got); err != nil {
			return fmt.Errorf("%s %s: message %d does not decode: %w", dataset, library, i, err)
		}
		if d := Diff(vals[i], got); d != "" {
			return fmt.Errorf("%s %s: message %d decodes to a different value: %s", dataset, library, i, d)
		}
	}
	return nil
}

func sumLen(frames [][]byte) int {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	return n
}

// protobufFrames marshals every message (untimed) for the decode pass.
func protobufFrames[M proto.Message](msgs []M) ([][]byte, error) {
	out := make([][]byte, len(msgs))
	for i, m := range msgs {
		b, err := proto.Marshal(m)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// fbFrames builds every message once (untimed) and copies the finished bytes.
func fbFrames[T any](vals []T, build func(*T) []byte) [][]byte {
	out := make([][]byte, len(vals))
	for i := range vals {
		out[i] = bytes.Clone(build(&vals[i]))
	}
	return out
}

// handCheck checks that a hand-written encoder produces the corpus bytes.
func handCheck(dataset string, frames [][]byte, enc func(i int, buf []byte) []byte) error {
	var buf []byte
	for i, f := range frames {
		buf = enc(i, buf[:0])
		if !bytes.Equal(buf, f) {
			return fmt.Errorf("%s handwritten: message %d encodes to % x, bitwire to % x", dataset, i, buf, f)
		}
	}
	return nil
}

// GameCases returns every library's case for the dataset name of g (packet64,
// snapshot, input, events or profiles; profiles.go has the last), each checked first: hand-written bytes equal the
// corpus, and every other library decodes its own encoding of every message to the
// input value. bitwire's are the corpus frames, which corpus.LoadGame checked
// (they decode to the values, and the values encode to them). A library that fails the check is left out with a note on
// stderr.
func GameCases(g *corpus.Game, name string) ([]*Case, error) {
	return gameCases(g, name, func(err error) { Progress("%v", err) })
}

// gameCases is GameCases reporting each library it leaves out to leftOut.
func gameCases(g *corpus.Game, name string, leftOut func(error)) ([]*Case, error) {
	var cases []*Case
	add := func(c *Case, err error) {
		if err != nil {
			leftOut(fmt.Errorf("%s %s: left out: %w", name, c.Library, err))
			return
		}
		c.Dataset = name
		cases = append(cases, c)
	}
	frames := g.Frames[name]
	switch name {
	case "packet64":
		for _, mk := range []func([]game.Packet64, [][]byte) (*Case, error){
			packet64Bitwire, packet64Hand, packet64Flatbuffers, packet64Protobuf, packet64Bitfield} {
			add(mk(g.Packet64, frames))
		}
	case "input":
		for _, mk := range []func([]game.Input, [][]byte) (*Case, error){
			inputBitwire, inputHand, inputFlatbuffers, inputProtobuf} {
			add(mk(g.Input, frames))
		}
	case "snapshot":
		for _, mk := range []func([]game.Snapshot, [][]byte) (*Case, error){
			snapshotBitwire, snapshotHand, snapshotFlatbuffers, snapshotProtobuf} {
			add(mk(g.Snapshot, frames))
		}
	case "events":
		for _, mk := range []func([]game.Events, [][]byte) (*Case, error){
			eventsBitwire, eventsHand, eventsFlatbuffers, eventsProtobuf} {
			add(mk(g.Events, frames))
		}
	case "profiles":
		profilesCases(g, add)
	default:
		return nil, fmt.Errorf("unknown dataset %q", name)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s: no library round-trips the dataset", name)
	}
	return cases, nil
}

// --- packet64 ---

func packet64Bitwire(vals []game.Packet64, frames [][]byte) (*Case, error) {
	c := &Case{Library: "bitwire", Note: noteBitwire, Messages: len(vals), Bytes: sumLen(frames)}
	buf := make([]byte, 0, 64)
	var v game.Packet64
	c.Encode = func() {
		for i := range vals {
			var err error
			if buf, err = vals[i].AppendTo(buf[:0]); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if err := v.Decode(f); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Score)
	}
	return c, nil
}

func packet64Hand(vals []game.Packet64, frames [][]byte) (*Case, error) {
	c := &Case{Library: "handwritten", Note: "hand-written shifts and masks (bench/go/handwritten.go), same bytes as bitwire; no range checks", Messages: len(vals), Bytes: sumLen(frames)}
	err := handCheck("packet64", frames, func(i int, buf []byte) []byte { return bench.HandEncode(&vals[i], buf) })
	if err == nil {
		err = check("packet64", c.Library, vals, func(i int, dst *game.Packet64) error {
			if !bench.HandDecode(frames[i], dst) {
				return fmt.Errorf("truncated")
			}
			return nil
		})
	}
	buf := make([]byte, 0, 64)
	var v game.Packet64
	c.Encode = func() {
		for i := range vals {
			buf = bench.HandEncode(&vals[i], buf[:0])
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if !bench.HandDecode(f, &v) {
				panic("truncated")
			}
		}
		Sink += uint64(v.Score)
	}
	return c, err
}

func packet64Flatbuffers(vals []game.Packet64, _ [][]byte) (*Case, error) {
	b := flatbuffers.NewBuilder(64)
	own := fbFrames(vals, func(p *game.Packet64) []byte { fbBuildPacket64(b, p); return b.FinishedBytes() })
	c := &Case{Library: "flatbuffers", Note: noteFlatbuffers, Messages: len(vals), Bytes: sumLen(own)}
	err := check("packet64", c.Library, vals, func(i int, dst *game.Packet64) error { fbReadPacket64(own[i], dst); return nil })
	var v game.Packet64
	c.Encode = func() {
		for i := range vals {
			fbBuildPacket64(b, &vals[i])
		}
		Sink += uint64(len(b.FinishedBytes()))
	}
	c.Decode = func() {
		for _, f := range own {
			fbReadPacket64(f, &v)
		}
		Sink += uint64(v.Score)
	}
	return c, err
}

func packet64Protobuf(vals []game.Packet64, _ [][]byte) (*Case, error) {
	msgs := make([]*pb.Packet64, len(vals))
	for i := range vals {
		msgs[i] = toPBPacket64(&vals[i])
	}
	own, err := protobufFrames(msgs)
	c := &Case{Library: "protobuf-go", Note: noteProtobuf, Messages: len(vals), Bytes: sumLen(own)}
	if err != nil {
		return c, err
	}
	err = check("packet64", c.Library, vals, func(i int, dst *game.Packet64) error {
		var m pb.Packet64
		if err := proto.Unmarshal(own[i], &m); err != nil {
			return err
		}
		fromPBPacket64(&m, dst)
		return nil
	})
	buf := make([]byte, 0, 64)
	var v pb.Packet64
	c.Encode = func() {
		for _, m := range msgs {
			var err error
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], m); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range own {
			if err := proto.Unmarshal(f, &v); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Score)
	}
	return c, err
}

// BitfieldPacket64 is packet64 as go-bitfield declares it: fields listed from the
// least significant bit, widths in `bit` tags. The library reads only integer
// fields, so is_alive is a one-bit uint8.
type BitfieldPacket64 struct {
	IsAlive  uint8  `bit:"1"`
	WeaponID uint8  `bit:"4"`
	TeamID   uint8  `bit:"2"`
	Health   uint16 `bit:"9"`
	PosX     int16  `bit:"12"`
	PosY     int16  `bit:"12"`
	Rotation uint8  `bit:"8"`
	Score    uint16 `bit:"16"`
}

// BitfieldDecode decodes b with go-bitfield into p.
func BitfieldDecode(b []byte, bf *BitfieldPacket64, p *game.Packet64) error {
	if err := bitfield.Unmarshal(b, bf); err != nil {
		return err
	}
	*p = game.Packet64{
		IsAlive:  bf.IsAlive != 0,
		WeaponID: bf.WeaponID,
		TeamID:   bf.TeamID,
		Health:   bf.Health,
		PosX:     bf.PosX,
		PosY:     bf.PosY,
		Rotation: bf.Rotation,
		Score:    bf.Score,
	}
	return nil
}

func packet64Bitfield(vals []game.Packet64, frames [][]byte) (*Case, error) {
	c := &Case{Library: "go-bitfield", Note: noteBitfield, Messages: len(vals), Bytes: sumLen(frames)}
	var bf BitfieldPacket64
	err := check("packet64", c.Library, vals, func(i int, dst *game.Packet64) error { return BitfieldDecode(frames[i], &bf, dst) })
	var v game.Packet64
	c.Decode = func() {
		for _, f := range frames {
			if err := BitfieldDecode(f, &bf, &v); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Score)
	}
	return c, err
}

// --- input ---

func inputBitwire(vals []game.Input, frames [][]byte) (*Case, error) {
	c := &Case{Library: "bitwire", Note: noteBitwire, Messages: len(vals), Bytes: sumLen(frames)}
	buf := make([]byte, 0, 64)
	var v game.Input
	c.Encode = func() {
		for i := range vals {
			var err error
			if buf, err = vals[i].AppendTo(buf[:0]); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if err := v.Decode(f); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Seq)
	}
	return c, nil
}

func inputHand(vals []game.Input, frames [][]byte) (*Case, error) {
	c := &Case{Library: "handwritten", Note: noteHand, Messages: len(vals), Bytes: sumLen(frames)}
	err := handCheck("input", frames, func(i int, buf []byte) []byte { return bench.HandEncodeInput(&vals[i], buf) })
	if err == nil {
		err = check("input", c.Library, vals, func(i int, dst *game.Input) error {
			if !bench.HandDecodeInput(frames[i], dst) {
				return fmt.Errorf("truncated")
			}
			return nil
		})
	}
	buf := make([]byte, 0, 64)
	var v game.Input
	c.Encode = func() {
		for i := range vals {
			buf = bench.HandEncodeInput(&vals[i], buf[:0])
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if !bench.HandDecodeInput(f, &v) {
				panic("truncated")
			}
		}
		Sink += uint64(v.Seq)
	}
	return c, err
}

func inputFlatbuffers(vals []game.Input, _ [][]byte) (*Case, error) {
	b := flatbuffers.NewBuilder(64)
	own := fbFrames(vals, func(in *game.Input) []byte { fbBuildInput(b, in); return b.FinishedBytes() })
	c := &Case{Library: "flatbuffers", Note: noteFlatbuffers, Messages: len(vals), Bytes: sumLen(own)}
	err := check("input", c.Library, vals, func(i int, dst *game.Input) error { fbReadInput(own[i], dst); return nil })
	var v game.Input
	c.Encode = func() {
		for i := range vals {
			fbBuildInput(b, &vals[i])
		}
		Sink += uint64(len(b.FinishedBytes()))
	}
	c.Decode = func() {
		for _, f := range own {
			fbReadInput(f, &v)
		}
		Sink += uint64(v.Seq)
	}
	return c, err
}

func inputProtobuf(vals []game.Input, _ [][]byte) (*Case, error) {
	msgs := make([]*pb.Input, len(vals))
	for i := range vals {
		msgs[i] = toPBInput(&vals[i])
	}
	own, err := protobufFrames(msgs)
	c := &Case{Library: "protobuf-go", Note: noteProtobuf, Messages: len(vals), Bytes: sumLen(own)}
	if err != nil {
		return c, err
	}
	err = check("input", c.Library, vals, func(i int, dst *game.Input) error {
		var m pb.Input
		if err := proto.Unmarshal(own[i], &m); err != nil {
			return err
		}
		fromPBInput(&m, dst)
		return nil
	})
	buf := make([]byte, 0, 64)
	var v pb.Input
	c.Encode = func() {
		for _, m := range msgs {
			var err error
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], m); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range own {
			if err := proto.Unmarshal(f, &v); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Seq)
	}
	return c, err
}

// --- snapshot ---

func snapshotBitwire(vals []game.Snapshot, frames [][]byte) (*Case, error) {
	c := &Case{Library: "bitwire", Note: noteBitwire, Messages: len(vals), Bytes: sumLen(frames)}
	buf := make([]byte, 0, game.SnapshotMaxEncodedSize)
	var v game.Snapshot
	c.Encode = func() {
		for i := range vals {
			var err error
			if buf, err = vals[i].AppendTo(buf[:0]); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if err := v.Decode(f); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, nil
}

func snapshotHand(vals []game.Snapshot, frames [][]byte) (*Case, error) {
	c := &Case{Library: "handwritten", Note: noteHand, Messages: len(vals), Bytes: sumLen(frames)}
	err := handCheck("snapshot", frames, func(i int, buf []byte) []byte { return bench.HandEncodeSnapshot(&vals[i], buf) })
	if err == nil {
		err = check("snapshot", c.Library, vals, func(i int, dst *game.Snapshot) error {
			if !bench.HandDecodeSnapshot(frames[i], dst) {
				return fmt.Errorf("truncated")
			}
			return nil
		})
	}
	buf := make([]byte, 0, game.SnapshotMaxEncodedSize)
	var v game.Snapshot
	c.Encode = func() {
		for i := range vals {
			buf = bench.HandEncodeSnapshot(&vals[i], buf[:0])
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if !bench.HandDecodeSnapshot(f, &v) {
				panic("truncated")
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}

func snapshotFlatbuffers(vals []game.Snapshot, _ [][]byte) (*Case, error) {
	f := &fbSnapshot{b: flatbuffers.NewBuilder(4096)}
	own := fbFrames(vals, func(s *game.Snapshot) []byte { f.build(s); return f.b.FinishedBytes() })
	c := &Case{Library: "flatbuffers", Note: noteFlatbuffers, Messages: len(vals), Bytes: sumLen(own)}
	err := check("snapshot", c.Library, vals, func(i int, dst *game.Snapshot) error { fbReadSnapshot(own[i], dst); return nil })
	var v game.Snapshot
	c.Encode = func() {
		for i := range vals {
			f.build(&vals[i])
		}
		Sink += uint64(len(f.b.FinishedBytes()))
	}
	c.Decode = func() {
		for _, fr := range own {
			fbReadSnapshot(fr, &v)
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}

func snapshotProtobuf(vals []game.Snapshot, _ [][]byte) (*Case, error) {
	msgs := make([]*pb.Snapshot, len(vals))
	for i := range vals {
		msgs[i] = toPBSnapshot(&vals[i])
	}
	own, err := protobufFrames(msgs)
	c := &Case{Library: "protobuf-go", Note: noteProtobuf, Messages: len(vals), Bytes: sumLen(own)}
	if err != nil {
		return c, err
	}
	err = check("snapshot", c.Library, vals, func(i int, dst *game.Snapshot) error {
		var m pb.Snapshot
		if err := proto.Unmarshal(own[i], &m); err != nil {
			return err
		}
		fromPBSnapshot(&m, dst)
		return nil
	})
	buf := make([]byte, 0, 4096)
	var v pb.Snapshot
	c.Encode = func() {
		for _, m := range msgs {
			var err error
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], m); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range own {
			if err := proto.Unmarshal(f, &v); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}

// --- events ---

func eventsBitwire(vals []game.Events, frames [][]byte) (*Case, error) {
	c := &Case{Library: "bitwire", Note: noteBitwire, Messages: len(vals), Bytes: sumLen(frames)}
	buf := make([]byte, 0, 4096)
	var v game.Events
	c.Encode = func() {
		for i := range vals {
			var err error
			if buf, err = vals[i].AppendTo(buf[:0]); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if err := v.Decode(f); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, nil
}

func eventsHand(vals []game.Events, frames [][]byte) (*Case, error) {
	c := &Case{Library: "handwritten", Note: noteHand, Messages: len(vals), Bytes: sumLen(frames)}
	err := handCheck("events", frames, func(i int, buf []byte) []byte { return bench.HandEncodeEvents(&vals[i], buf) })
	if err == nil {
		err = check("events", c.Library, vals, func(i int, dst *game.Events) error {
			if !bench.HandDecodeEvents(frames[i], dst) {
				return fmt.Errorf("truncated")
			}
			return nil
		})
	}
	buf := make([]byte, 0, 4096)
	var v game.Events
	c.Encode = func() {
		for i := range vals {
			buf = bench.HandEncodeEvents(&vals[i], buf[:0])
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range frames {
			if !bench.HandDecodeEvents(f, &v) {
				panic("truncated")
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}

func eventsFlatbuffers(vals []game.Events, _ [][]byte) (*Case, error) {
	f := &fbEvents{b: flatbuffers.NewBuilder(4096)}
	own := fbFrames(vals, func(m *game.Events) []byte { f.build(m); return f.b.FinishedBytes() })
	c := &Case{Library: "flatbuffers", Note: noteFlatbuffers, Messages: len(vals), Bytes: sumLen(own)}
	err := check("events", c.Library, vals, func(i int, dst *game.Events) error { fbReadEvents(own[i], dst); return nil })
	var v game.Events
	c.Encode = func() {
		for i := range vals {
			f.build(&vals[i])
		}
		Sink += uint64(len(f.b.FinishedBytes()))
	}
	c.Decode = func() {
		for _, fr := range own {
			fbReadEvents(fr, &v)
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}

func eventsProtobuf(vals []game.Events, _ [][]byte) (*Case, error) {
	msgs := make([]*pb.Events, len(vals))
	for i := range vals {
		msgs[i] = toPBEvents(&vals[i])
	}
	own, err := protobufFrames(msgs)
	c := &Case{Library: "protobuf-go", Note: noteProtobuf, Messages: len(vals), Bytes: sumLen(own)}
	if err != nil {
		return c, err
	}
	err = check("events", c.Library, vals, func(i int, dst *game.Events) error {
		var m pb.Events
		if err := proto.Unmarshal(own[i], &m); err != nil {
			return err
		}
		fromPBEvents(&m, dst)
		return nil
	})
	buf := make([]byte, 0, 4096)
	var v pb.Events
	c.Encode = func() {
		for _, m := range msgs {
			var err error
			if buf, err = (proto.MarshalOptions{}).MarshalAppend(buf[:0], m); err != nil {
				panic(err)
			}
		}
		Sink += uint64(len(buf))
	}
	c.Decode = func() {
		for _, f := range own {
			if err := proto.Unmarshal(f, &v); err != nil {
				panic(err)
			}
		}
		Sink += uint64(v.Tick)
	}
	return c, err
}
