package lab

import (
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/examples/go/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Pages with every shape a profile field takes: optional strings absent, empty and
// set, non-ASCII text, no badges and four, an empty page.
var testProfiles = []game.Profiles{
	{Page: 0},
	{Page: 7, Profiles: []game.Profile{
		{ID: 1, Name: "Ana", Title: "Rookie", Region: "eu-west", Presence: game.PresenceOnline, Level: 1},
		{ID: 0xffffffff, Name: "Jörg_ö", Clan: bitwire.Optional[string]{Set: true, Value: "ÆON"},
			Title: "Früh Aufsteher", Region: "me-central", Presence: game.PresenceAway, Level: 100, Rating: 65535,
			Status: bitwire.Optional[string]{Set: true, Value: "back in 5 — brb"},
			Badges: []string{"founder", "", "ünïcode", "x"}},
		{ID: 3, Name: "", Clan: bitwire.Optional[string]{Set: true}, Status: bitwire.Optional[string]{Set: true},
			Presence: game.PresenceInMatch, Level: 50, Badges: []string{"solo"}},
	}},
}

func testProfilesGame(t *testing.T) *corpus.Game {
	var frames [][]byte
	for i := range testProfiles {
		b, err := testProfiles[i].Encode()
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, b)
	}
	return &corpus.Game{Profiles: testProfiles, Frames: map[string][][]byte{"profiles": frames}}
}

// bitwire, flatbuffers-go and protobuf-go round-trip every page (gameCases checks
// each one's decoding of its own encoding), and every pass runs twice (the second
// into the reused values).
func TestProfilesPeers(t *testing.T) {
	var errs []error
	cases, err := gameCases(testProfilesGame(t), "profiles", func(err error) { errs = append(errs, err) })
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range errs {
		t.Error(err)
	}
	var libs []string
	for _, c := range cases {
		libs = append(libs, c.Library)
		if c.Dataset != "profiles" || c.Messages != len(testProfiles) || c.Bytes == 0 {
			t.Errorf("%s: dataset %q, %d messages, %d bytes", c.Library, c.Dataset, c.Messages, c.Bytes)
		}
		for range 2 {
			c.Encode()
			c.Decode()
		}
	}
	if got, want := strings.Join(libs, " "), "bitwire flatbuffers protobuf-go"; got != want {
		t.Errorf("libraries %q, want %q", got, want)
	}
}

// The FlatBuffers reader gives back absent and empty optional strings as they were,
// also into a value that held other profiles before.
func TestProfilesFlatbuffersReuse(t *testing.T) {
	f := &fbProfiles{b: flatbuffers.NewBuilder(64)}
	page := testProfiles[1]
	reversed := game.Profiles{Page: 8}
	for i := len(page.Profiles) - 1; i >= 0; i-- {
		reversed.Profiles = append(reversed.Profiles, page.Profiles[i])
	}
	var got game.Profiles
	for i, want := range []*game.Profiles{&page, &reversed, &testProfiles[0], &page} {
		f.build(want)
		fbReadProfiles(f.b.FinishedBytes(), &got)
		if d := Diff(*want, got); d != "" {
			t.Fatalf("read %d: %s", i, d)
		}
	}
}

// A protobuf message whose numbers do not fit bitwire's types is refused, not
// truncated into a value that might compare equal.
func TestProfilesFromPBRange(t *testing.T) {
	var out game.Profiles
	for _, p := range []*pb.Profile{{Level: 256}, {Rating: 65536}, {Presence: 4}} {
		if err := fromPBProfiles(&pb.Profiles{Profiles: []*pb.Profile{p}}, &out); err == nil {
			t.Errorf("%v: accepted", p)
		}
	}
	if err := fromPBProfiles(toPBProfiles(&testProfiles[1]), &out); err != nil {
		t.Fatal(err)
	}
	if d := Diff(testProfiles[1], out); d != "" {
		t.Fatal(d)
	}
}
