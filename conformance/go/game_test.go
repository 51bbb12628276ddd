package conformance

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Sample messages of examples/game.bw, shared by the allocation and fuzz tests.

func samplePacket() *game.Packet64 {
	return &game.Packet64{IsAlive: true, WeaponID: 2, TeamID: 1, Health: 87, PosX: -310, PosY: 1200, Rotation: 64, Score: 1250}
}

func sampleInput() *game.Input {
	return &game.Input{
		Seq: 7, MoveX: 0.5, MoveY: -1, Yaw: 90, Pitch: -12.5,
		Buttons: game.Buttons{Fire: true, Jump: true},
	}
}

func sampleSnapshot() *game.Snapshot {
	s := &game.Snapshot{Tick: 1234, AckSeq: 7}
	for i := 0; i < 3; i++ {
		s.Entities = append(s.Entities, game.Entity{
			ID: uint16(i), Pos: game.Vec2{X: 12.5, Y: -3}, VelX: 1, VelY: 2, Yaw: 45, Health: 100,
			Weapon: game.WeaponRifle, Team: game.TeamBlue, OnGround: true,
			Target: bitwire.Some[uint16](3), Name: "player",
		})
	}
	return s
}

func sampleEvents() *game.Events {
	return &game.Events{Tick: 99, Events: []game.Event{
		{Tag: game.EventChat, Chat: game.Chat{From: "ann", Text: "gg"}},
		{Tag: game.EventKill, Kill: game.Kill{Killer: 1, Victim: 2, Weapon: game.WeaponSniper, Headshot: true}},
		{Tag: game.EventJoin, Join: "bob"},
		{Tag: game.EventLeave, Leave: 4095},
		{Tag: game.EventRoundOver},
	}}
}

// sampleProfiles is a page of profiles whose strings start at every bit offset:
// short and long, optional present and absent, a list of them.
func sampleProfiles() *game.Profiles {
	p := &game.Profiles{Page: 3}
	for i := 0; i < 8; i++ {
		p.Profiles = append(p.Profiles, game.Profile{
			ID: uint32(1000 + i), Name: "player" + string(rune('a'+i)), Title: "the " + strings.Repeat("x", i*2),
			Region: "eu-west", Presence: game.PresenceInMatch, Level: uint8(1 + i*10), Rating: uint16(1500 + i),
			Badges: []string{"mvp", "ace"}[:i%3],
		})
		if i%2 == 0 {
			p.Profiles[i].Clan = bitwire.Some("CLN")
			p.Profiles[i].Status = bitwire.Some("afk for " + strings.Repeat("z", i*5) + " min, é")
		}
	}
	return p
}

// message is what the tests need of a game message.
type message interface {
	AppendTo(dst []byte) ([]byte, error)
	Decode(b []byte) error
	AppendBinary(b []byte) ([]byte, error)
	UnmarshalBinary(b []byte) error
}

func TestEncodingIntoAReusedBufferAllocatesNothing(t *testing.T) {
	for name, m := range map[string]message{
		"Packet64": samplePacket(), "Input": sampleInput(), "Snapshot": sampleSnapshot(), "Events": sampleEvents(),
		"Profiles": sampleProfiles(),
	} {
		buf := make([]byte, 0, 1024)
		allocs := testing.AllocsPerRun(1000, func() {
			var err error
			if buf, err = m.AppendTo(buf[:0]); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: AppendTo into a reused buffer: %v allocs/op", name, allocs)
		if allocs != 0 {
			t.Errorf("%s: AppendTo allocates %v times per op", name, allocs)
		}
		allocs = testing.AllocsPerRun(1000, func() {
			var err error
			if buf, err = m.AppendBinary(buf[:0]); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: AppendBinary allocates %v times per op", name, allocs)
		}
	}
}

// Packet64 and Input hold no strings or lists: decoding them must never allocate.
// Snapshot, Events and Profiles decoded into a reused value whose strings did not
// change reuse everything too.
func TestDecodingAllocatesNothing(t *testing.T) {
	cases := map[string]struct{ src, dst message }{
		"Packet64": {samplePacket(), new(game.Packet64)},
		"Input":    {sampleInput(), new(game.Input)},
		"Snapshot": {sampleSnapshot(), new(game.Snapshot)},
		"Events":   {sampleEvents(), new(game.Events)},
		"Profiles": {sampleProfiles(), new(game.Profiles)},
	}
	for name, c := range cases {
		b, err := c.src.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.dst.Decode(b); err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(1000, func() {
			if err := c.dst.Decode(b); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: Decode into a reused value: %v allocs/op", name, allocs)
		if allocs != 0 {
			t.Errorf("%s: Decode allocates %v times per op", name, allocs)
		}
		allocs = testing.AllocsPerRun(1000, func() {
			if err := c.dst.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: UnmarshalBinary allocates %v times per op", name, allocs)
		}
		again, err := c.dst.AppendTo(nil)
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: decode → encode gave % x, %v; want % x", name, again, err, b)
		}
	}
}

func TestPacket64IsEightBytesAndMatchesTheReadme(t *testing.T) {
	b, err := samplePacket().Encode()
	if err != nil || len(b) != game.Packet64MaxEncodedSize {
		t.Fatalf("% x, %v", b, err)
	}
	m, err := game.DecodeMessage(game.Packet64MessageID, b)
	if err != nil || *m.(*game.Packet64) != *samplePacket() {
		t.Fatalf("%+v, %v", m, err)
	}
	if _, err := game.DecodeMessage(77, b); err == nil {
		t.Fatal("unknown id must fail")
	}
}

var sink uint64

// The required zero-allocation paths written as users write them: decoding into a
// value on the stack (escape analysis must keep it there) and encoding a value on
// the stack into a reused buffer. (A stack array given as the buffer does escape:
// the writer stores the slice through a pointer, as any append-style API does.)
func TestStackValuesDoNotEscape(t *testing.T) {
	pb, _ := samplePacket().AppendTo(nil)
	ib, _ := sampleInput().AppendTo(nil)
	p, in := *samplePacket(), *sampleInput()
	buf := make([]byte, 0, 64)
	checks := map[string]func(){
		"Packet64.Decode": func() {
			var m game.Packet64
			if err := m.Decode(pb); err != nil {
				t.Fatal(err)
			}
			sink += uint64(m.Score)
		},
		"Input.Decode": func() {
			var m game.Input
			if err := m.Decode(ib); err != nil {
				t.Fatal(err)
			}
			sink += uint64(m.Seq)
		},
		"Packet64.AppendTo": func() {
			out, err := p.AppendTo(buf[:0])
			if err != nil {
				t.Fatal(err)
			}
			sink += uint64(out[0])
		},
		"Input.AppendTo": func() {
			out, err := in.AppendTo(buf[:0])
			if err != nil {
				t.Fatal(err)
			}
			sink += uint64(out[0])
		},
	}
	for name, f := range checks {
		if allocs := testing.AllocsPerRun(1000, f); allocs != 0 {
			t.Errorf("%s: %v allocs/op", name, allocs)
		}
	}
}

// Verify checks an encoding without building a value: it must never allocate on
// valid input, for any of the four messages, and it must accept what Decode accepts.
func TestVerifyAllocatesNothing(t *testing.T) {
	cases := []struct {
		name   string
		src    message
		verify func([]byte) error
	}{
		{"Packet64", samplePacket(), game.VerifyPacket64},
		{"Input", sampleInput(), game.VerifyInput},
		{"Snapshot", sampleSnapshot(), game.VerifySnapshot},
		{"Events", sampleEvents(), game.VerifyEvents},
	}
	for _, c := range cases {
		b, err := c.src.AppendTo(nil)
		if err != nil {
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(1000, func() {
			if err := c.verify(b); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: Verify: %v allocs/op", c.name, allocs)
		if allocs != 0 {
			t.Errorf("%s: Verify allocates %v times per op", c.name, allocs)
		}
	}
}

// Decoding strings that changed allocates their bytes in a few shared blocks of
// the reader's string arena, not once per string (runtime/go/short.go).
func TestDecodedStringsShareAllocations(t *testing.T) {
	a, b := sampleProfiles(), sampleProfiles()
	strs := 0
	for i := range b.Profiles {
		p := &b.Profiles[i]
		p.Name, p.Title, p.Region = strings.ToUpper(p.Name), strings.ToUpper(p.Title), "us-east"
		strs += 3 + len(p.Badges)
	}
	ea, err := a.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := b.AppendTo(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v game.Profiles
	turn := 0
	allocs := testing.AllocsPerRun(100, func() {
		// Every decode replaces the strings of the one before.
		in := ea
		if turn++; turn%2 == 0 {
			in = eb
		}
		if err := v.Decode(in); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Profiles: Decode of a page whose %d+ strings changed: %v allocs/op", strs, allocs)
	if allocs > 4 {
		t.Errorf("Profiles: %v allocations for a page of %d+ changed strings", allocs, strs)
	}
	// The values are the encoded ones, whatever was decoded after them.
	if err := v.Decode(ea); err != nil {
		t.Fatal(err)
	}
	keep := v.Profiles[1].Name
	if err := v.Decode(eb); err != nil {
		t.Fatal(err)
	}
	if keep != a.Profiles[1].Name || v.Profiles[1].Name != b.Profiles[1].Name {
		t.Errorf("names %q and %q, want %q and %q", keep, v.Profiles[1].Name, a.Profiles[1].Name, b.Profiles[1].Name)
	}
}
