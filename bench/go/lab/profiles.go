package lab

import (
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
	"google.golang.org/protobuf/proto"

	"github.com/bitwire-dev/bitwire/bench/go/corpus"
	"github.com/bitwire-dev/bitwire/bench/go/peers/fb"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/examples/go/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The profiles dataset (issue 17): pages of player profiles, each with six short
// strings (clan and status optional), a list of up to four badges and a few numbers —
// the string-heavy case. Its peers are bitwire, flatbuffers-go and protobuf-go, each
// round-tripped on every page before it is timed, as on events. There is no
// hand-written baseline here (no goal compares bitwire with one on this dataset), and
// go-bitfield cannot read strings.

const noteProfilesFlatbuffers = noteFlatbuffers + "; an absent clan or status is an absent field, an empty badge list an absent vector"

// profilesCases returns the profiles dataset's cases (not yet checked by add).
func profilesCases(g *corpus.Game, add func(*Case, error)) {
	frames := g.Frames["profiles"]
	for _, mk := range []func([]game.Profiles, [][]byte) (*Case, error){
		profilesBitwire, profilesFlatbuffers, profilesProtobuf} {
		add(mk(g.Profiles, frames))
	}
}

func profilesBitwire(vals []game.Profiles, frames [][]byte) (*Case, error) {
	c := &Case{Library: "bitwire", Note: noteBitwire, Messages: len(vals), Bytes: sumLen(frames)}
	buf := make([]byte, 0, game.ProfilesMaxEncodedSize)
	var v game.Profiles
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
		Sink += uint64(v.Page)
	}
	return c, nil
}

func profilesFlatbuffers(vals []game.Profiles, _ [][]byte) (*Case, error) {
	f := &fbProfiles{b: flatbuffers.NewBuilder(4096)}
	own := fbFrames(vals, func(m *game.Profiles) []byte { f.build(m); return f.b.FinishedBytes() })
	c := &Case{Library: "flatbuffers", Note: noteProfilesFlatbuffers, Messages: len(vals), Bytes: sumLen(own)}
	err := check("profiles", c.Library, vals, func(i int, dst *game.Profiles) error { fbReadProfiles(own[i], dst); return nil })
	var v game.Profiles
	c.Encode = func() {
		for i := range vals {
			f.build(&vals[i])
		}
		Sink += uint64(len(f.b.FinishedBytes()))
	}
	c.Decode = func() {
		for _, fr := range own {
			fbReadProfiles(fr, &v)
		}
		Sink += uint64(v.Page)
	}
	return c, err
}

func profilesProtobuf(vals []game.Profiles, _ [][]byte) (*Case, error) {
	msgs := make([]*pb.Profiles, len(vals))
	for i := range vals {
		msgs[i] = toPBProfiles(&vals[i])
	}
	own, err := protobufFrames(msgs)
	c := &Case{Library: "protobuf-go", Note: noteProtobuf, Messages: len(vals), Bytes: sumLen(own)}
	if err != nil {
		return c, err
	}
	err = check("profiles", c.Library, vals, func(i int, dst *game.Profiles) error {
		var m pb.Profiles
		if err := proto.Unmarshal(own[i], &m); err != nil {
			return err
		}
		return fromPBProfiles(&m, dst)
	})
	buf := make([]byte, 0, 4096)
	var v pb.Profiles
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
		Sink += uint64(v.Page)
	}
	return c, err
}

// --- protobuf conversions (untimed) ---

func optionalPB(o bitwire.Optional[string]) *string {
	if !o.Set {
		return nil
	}
	s := o.Value
	return &s
}

func optionalBW(s *string) bitwire.Optional[string] {
	if s == nil {
		return bitwire.Optional[string]{}
	}
	return bitwire.Optional[string]{Set: true, Value: *s}
}

func toPBProfiles(m *game.Profiles) *pb.Profiles {
	out := &pb.Profiles{Page: m.Page, Profiles: make([]*pb.Profile, len(m.Profiles))}
	for i := range m.Profiles {
		p := &m.Profiles[i]
		out.Profiles[i] = &pb.Profile{
			Id:       p.ID,
			Name:     p.Name,
			Clan:     optionalPB(p.Clan),
			Title:    p.Title,
			Region:   p.Region,
			Presence: pb.Presence(p.Presence),
			Level:    uint32(p.Level),
			Rating:   uint32(p.Rating),
			Status:   optionalPB(p.Status),
			Badges:   append([]string(nil), p.Badges...),
		}
	}
	return out
}

// fromPBProfiles converts a decoded message, refusing numbers out of bitwire's ranges
// (they would otherwise be truncated into a value that compares equal by accident).
func fromPBProfiles(m *pb.Profiles, out *game.Profiles) error {
	*out = game.Profiles{Page: m.Page, Profiles: make([]game.Profile, len(m.Profiles))}
	for i, pp := range m.Profiles {
		if pp.Level > 0xff || pp.Rating > 0xffff || pp.Presence < 0 || pp.Presence > 3 {
			return fmt.Errorf("profile %d: level %d, rating %d, presence %d out of range", i, pp.Level, pp.Rating, pp.Presence)
		}
		out.Profiles[i] = game.Profile{
			ID:       pp.Id,
			Name:     pp.Name,
			Clan:     optionalBW(pp.Clan),
			Title:    pp.Title,
			Region:   pp.Region,
			Presence: game.Presence(pp.Presence),
			Level:    uint8(pp.Level),
			Rating:   uint16(pp.Rating),
			Status:   optionalBW(pp.Status),
			Badges:   pp.Badges,
		}
	}
	return nil
}

// --- FlatBuffers ---

// fbProfiles builds pages of profiles, reusing its builder and offset scratch.
type fbProfiles struct {
	b      *flatbuffers.Builder
	offs   []flatbuffers.UOffsetT
	badges []flatbuffers.UOffsetT
}

// vector ends a vector of the offsets offs (started by the caller).
func (f *fbProfiles) vector(offs []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	for i := len(offs) - 1; i >= 0; i-- {
		f.b.PrependUOffsetT(offs[i])
	}
	return f.b.EndVector(len(offs))
}

// profile builds one Profile table: its strings and badge vector first, as
// FlatBuffers requires, then the table.
func (f *fbProfiles) profile(p *game.Profile) flatbuffers.UOffsetT {
	b := f.b
	name, title, region := b.CreateString(p.Name), b.CreateString(p.Title), b.CreateString(p.Region)
	var clan, status, badges flatbuffers.UOffsetT
	if p.Clan.Set {
		clan = b.CreateString(p.Clan.Value)
	}
	if p.Status.Set {
		status = b.CreateString(p.Status.Value)
	}
	if len(p.Badges) > 0 {
		f.badges = f.badges[:0]
		for _, s := range p.Badges {
			f.badges = append(f.badges, b.CreateString(s))
		}
		fb.ProfileStartBadgesVector(b, len(f.badges))
		badges = f.vector(f.badges)
	}
	fb.ProfileStart(b)
	fb.ProfileAddId(b, p.ID)
	fb.ProfileAddName(b, name)
	if p.Clan.Set {
		fb.ProfileAddClan(b, clan)
	}
	fb.ProfileAddTitle(b, title)
	fb.ProfileAddRegion(b, region)
	fb.ProfileAddPresence(b, fb.Presence(p.Presence))
	fb.ProfileAddLevel(b, p.Level)
	fb.ProfileAddRating(b, p.Rating)
	if p.Status.Set {
		fb.ProfileAddStatus(b, status)
	}
	if len(p.Badges) > 0 {
		fb.ProfileAddBadges(b, badges)
	}
	return fb.ProfileEnd(b)
}

func (f *fbProfiles) build(m *game.Profiles) {
	b := f.b
	b.Reset()
	f.offs = f.offs[:0]
	for i := range m.Profiles {
		f.offs = append(f.offs, f.profile(&m.Profiles[i]))
	}
	fb.ProfilesStartProfilesVector(b, len(f.offs))
	list := f.vector(f.offs)
	fb.ProfilesStart(b)
	fb.ProfilesAddPage(b, m.Page)
	fb.ProfilesAddProfiles(b, list)
	b.Finish(fb.ProfilesEnd(b))
}

// setOptional sets o from a FlatBuffers string field (nil when absent), keeping the
// old string when it has the same bytes.
func setOptional(o *bitwire.Optional[string], b []byte) {
	if b == nil {
		*o = bitwire.Optional[string]{}
		return
	}
	o.Set = true
	setString(&o.Value, b)
}

// fbReadProfiles reads every field of a Profiles buffer into m, reusing its slices
// and, where the bytes are the same, its strings.
func fbReadProfiles(buf []byte, m *game.Profiles) {
	t := fb.GetRootAsProfiles(buf, 0)
	m.Page = t.Page()
	n := t.ProfilesLength()
	if cap(m.Profiles) >= n {
		m.Profiles = m.Profiles[:n]
	} else {
		m.Profiles = make([]game.Profile, n)
	}
	var fp fb.Profile
	for j := range m.Profiles {
		p := &m.Profiles[j]
		t.Profiles(&fp, j)
		p.ID = fp.Id()
		setString(&p.Name, fp.Name())
		setOptional(&p.Clan, fp.Clan())
		setString(&p.Title, fp.Title())
		setString(&p.Region, fp.Region())
		p.Presence = game.Presence(fp.Presence())
		p.Level = fp.Level()
		p.Rating = fp.Rating()
		setOptional(&p.Status, fp.Status())
		k := fp.BadgesLength()
		if cap(p.Badges) >= k {
			p.Badges = p.Badges[:k]
		} else {
			p.Badges = make([]string, k)
		}
		for i := range p.Badges {
			setString(&p.Badges[i], fp.Badges(i))
		}
	}
}
