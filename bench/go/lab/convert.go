package lab

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/bitwire-dev/bitwire/bench/go/peers/fb"
	"github.com/bitwire-dev/bitwire/bench/go/peers/pb"
	"github.com/bitwire-dev/bitwire/examples/go/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Conversions between the bitwire-generated types and the peers' own: protobuf
// messages (filled untimed before encoding, read back for the round-trip check) and
// FlatBuffers tables (built from the bitwire values with a Builder, read field by
// field into a bitwire value — which is also the timed FlatBuffers decode).

// --- protobuf ---

func toPBPacket64(p *game.Packet64) *pb.Packet64 {
	m := &pb.Packet64{}
	fillPBPacket64(m, p)
	return m
}

func fillPBPacket64(m *pb.Packet64, p *game.Packet64) {
	m.IsAlive = p.IsAlive
	m.WeaponId = uint32(p.WeaponID)
	m.TeamId = uint32(p.TeamID)
	m.Health = uint32(p.Health)
	m.PosX = int32(p.PosX)
	m.PosY = int32(p.PosY)
	m.Rotation = uint32(p.Rotation)
	m.Score = uint32(p.Score)
}

func fromPBPacket64(m *pb.Packet64, p *game.Packet64) {
	*p = game.Packet64{
		IsAlive:  m.IsAlive,
		WeaponID: uint8(m.WeaponId),
		TeamID:   uint8(m.TeamId),
		Health:   uint16(m.Health),
		PosX:     int16(m.PosX),
		PosY:     int16(m.PosY),
		Rotation: uint8(m.Rotation),
		Score:    uint16(m.Score),
	}
}

func toPBInput(in *game.Input) *pb.Input {
	b := &in.Buttons
	return &pb.Input{
		Seq:   uint32(in.Seq),
		MoveX: in.MoveX,
		MoveY: in.MoveY,
		Buttons: &pb.Buttons{Fire: b.Fire, Aim: b.Aim, Jump: b.Jump, Crouch: b.Crouch,
			Reload: b.Reload, UseItem: b.UseItem},
		Yaw:   in.Yaw,
		Pitch: in.Pitch,
	}
}

func fromPBInput(m *pb.Input, in *game.Input) {
	b := m.GetButtons()
	*in = game.Input{
		Seq:   uint16(m.Seq),
		MoveX: m.MoveX,
		MoveY: m.MoveY,
		Buttons: game.Buttons{Fire: b.GetFire(), Aim: b.GetAim(), Jump: b.GetJump(),
			Crouch: b.GetCrouch(), Reload: b.GetReload(), UseItem: b.GetUseItem()},
		Yaw:   m.Yaw,
		Pitch: m.Pitch,
	}
}

func toPBSnapshot(s *game.Snapshot) *pb.Snapshot {
	m := &pb.Snapshot{Tick: s.Tick, AckSeq: uint32(s.AckSeq)}
	for i := range s.Entities {
		e := &s.Entities[i]
		pe := &pb.Entity{
			Id:        uint32(e.ID),
			Pos:       &pb.Vec2{X: e.Pos.X, Y: e.Pos.Y},
			VelX:      e.VelX,
			VelY:      e.VelY,
			Yaw:       e.Yaw,
			Health:    uint32(e.Health),
			Weapon:    pb.Weapon(e.Weapon),
			Team:      pb.Team(e.Team),
			OnGround:  e.OnGround,
			Sprinting: e.Sprinting,
			Name:      e.Name,
		}
		if e.Target.Set {
			t := uint32(e.Target.Value)
			pe.Target = &t
		}
		m.Entities = append(m.Entities, pe)
	}
	return m
}

func fromPBSnapshot(m *pb.Snapshot, s *game.Snapshot) {
	*s = game.Snapshot{Tick: m.Tick, AckSeq: uint16(m.AckSeq), Entities: make([]game.Entity, len(m.Entities))}
	for i, pe := range m.Entities {
		e := &s.Entities[i]
		*e = game.Entity{
			ID:        uint16(pe.Id),
			Pos:       game.Vec2{X: pe.GetPos().GetX(), Y: pe.GetPos().GetY()},
			VelX:      pe.VelX,
			VelY:      pe.VelY,
			Yaw:       pe.Yaw,
			Health:    uint8(pe.Health),
			Weapon:    game.Weapon(pe.Weapon),
			Team:      game.Team(pe.Team),
			OnGround:  pe.OnGround,
			Sprinting: pe.Sprinting,
			Name:      pe.Name,
		}
		if pe.Target != nil {
			e.Target = bitwire.Optional[uint16]{Set: true, Value: uint16(*pe.Target)}
		}
	}
}

func toPBEvents(m *game.Events) *pb.Events {
	out := &pb.Events{Tick: m.Tick}
	for i := range m.Events {
		e := &m.Events[i]
		pe := &pb.Event{}
		switch e.Tag {
		case game.EventChat:
			pe.Kind = &pb.Event_Chat{Chat: &pb.Chat{From: e.Chat.From, Text: e.Chat.Text}}
		case game.EventKill:
			k := &e.Kill
			pe.Kind = &pb.Event_Kill{Kill: &pb.Kill{Killer: uint32(k.Killer), Victim: uint32(k.Victim),
				Weapon: pb.Weapon(k.Weapon), Headshot: k.Headshot}}
		case game.EventJoin:
			pe.Kind = &pb.Event_Join{Join: e.Join}
		case game.EventLeave:
			pe.Kind = &pb.Event_Leave{Leave: uint32(e.Leave)}
		case game.EventRoundOver:
			pe.Kind = &pb.Event_RoundOver{RoundOver: &pb.RoundOver{}}
		}
		out.Events = append(out.Events, pe)
	}
	return out
}

func fromPBEvents(m *pb.Events, out *game.Events) {
	*out = game.Events{Tick: m.Tick, Events: make([]game.Event, len(m.Events))}
	for i, pe := range m.Events {
		e := &out.Events[i]
		switch k := pe.Kind.(type) {
		case *pb.Event_Chat:
			*e = game.Event{Tag: game.EventChat, Chat: game.Chat{From: k.Chat.GetFrom(), Text: k.Chat.GetText()}}
		case *pb.Event_Kill:
			*e = game.Event{Tag: game.EventKill, Kill: game.Kill{Killer: uint16(k.Kill.GetKiller()),
				Victim: uint16(k.Kill.GetVictim()), Weapon: game.Weapon(k.Kill.GetWeapon()), Headshot: k.Kill.GetHeadshot()}}
		case *pb.Event_Join:
			*e = game.Event{Tag: game.EventJoin, Join: k.Join}
		case *pb.Event_Leave:
			*e = game.Event{Tag: game.EventLeave, Leave: uint16(k.Leave)}
		case *pb.Event_RoundOver:
			*e = game.Event{Tag: game.EventRoundOver}
		default:
			// No variant set: not a value this dataset holds.
			*e = game.Event{Tag: 7}
		}
	}
}

// --- FlatBuffers ---

// setString sets *dst to b, keeping the old string when it has the same bytes (the
// comparison does not allocate), as the bitwire and hand-written decoders do.
func setString(dst *string, b []byte) {
	if string(b) != *dst {
		*dst = string(b)
	}
}

func fbBuildPacket64(b *flatbuffers.Builder, p *game.Packet64) {
	b.Reset()
	fb.Packet64Start(b)
	fb.Packet64AddIsAlive(b, p.IsAlive)
	fb.Packet64AddWeaponId(b, p.WeaponID)
	fb.Packet64AddTeamId(b, p.TeamID)
	fb.Packet64AddHealth(b, p.Health)
	fb.Packet64AddPosX(b, p.PosX)
	fb.Packet64AddPosY(b, p.PosY)
	fb.Packet64AddRotation(b, p.Rotation)
	fb.Packet64AddScore(b, p.Score)
	b.Finish(fb.Packet64End(b))
}

func fbReadPacket64(buf []byte, p *game.Packet64) {
	t := fb.GetRootAsPacket64(buf, 0)
	p.IsAlive = t.IsAlive()
	p.WeaponID = t.WeaponId()
	p.TeamID = t.TeamId()
	p.Health = t.Health()
	p.PosX = t.PosX()
	p.PosY = t.PosY()
	p.Rotation = t.Rotation()
	p.Score = t.Score()
}

func fbBuildInput(b *flatbuffers.Builder, in *game.Input) {
	b.Reset()
	bt := &in.Buttons
	fb.InputStart(b)
	fb.InputAddSeq(b, in.Seq)
	fb.InputAddMoveX(b, in.MoveX)
	fb.InputAddMoveY(b, in.MoveY)
	fb.InputAddButtons(b, fb.CreateButtons(b, bt.Fire, bt.Aim, bt.Jump, bt.Crouch, bt.Reload, bt.UseItem))
	fb.InputAddYaw(b, in.Yaw)
	fb.InputAddPitch(b, in.Pitch)
	b.Finish(fb.InputEnd(b))
}

func fbReadInput(buf []byte, in *game.Input) {
	t := fb.GetRootAsInput(buf, 0)
	in.Seq = t.Seq()
	in.MoveX = t.MoveX()
	in.MoveY = t.MoveY()
	var bt fb.Buttons
	if t.Buttons(&bt) != nil {
		in.Buttons = game.Buttons{Fire: bt.Fire(), Aim: bt.Aim(), Jump: bt.Jump(),
			Crouch: bt.Crouch(), Reload: bt.Reload(), UseItem: bt.UseItem()}
	} else {
		in.Buttons = game.Buttons{}
	}
	in.Yaw = t.Yaw()
	in.Pitch = t.Pitch()
}

// fbSnapshot builds snapshots, reusing its builder and offset scratch.
type fbSnapshot struct {
	b    *flatbuffers.Builder
	offs []flatbuffers.UOffsetT
}

func (f *fbSnapshot) build(s *game.Snapshot) {
	b := f.b
	b.Reset()
	f.offs = f.offs[:0]
	for i := range s.Entities {
		e := &s.Entities[i]
		name := b.CreateString(e.Name)
		fb.EntityStart(b)
		fb.EntityAddId(b, e.ID)
		fb.EntityAddPos(b, fb.CreateVec2(b, e.Pos.X, e.Pos.Y))
		fb.EntityAddVelX(b, e.VelX)
		fb.EntityAddVelY(b, e.VelY)
		fb.EntityAddYaw(b, e.Yaw)
		fb.EntityAddHealth(b, e.Health)
		fb.EntityAddWeapon(b, fb.Weapon(e.Weapon))
		fb.EntityAddTeam(b, fb.Team(e.Team))
		fb.EntityAddOnGround(b, e.OnGround)
		fb.EntityAddSprinting(b, e.Sprinting)
		if e.Target.Set {
			fb.EntityAddTarget(b, e.Target.Value)
		}
		fb.EntityAddName(b, name)
		f.offs = append(f.offs, fb.EntityEnd(b))
	}
	fb.SnapshotStartEntitiesVector(b, len(f.offs))
	for i := len(f.offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(f.offs[i])
	}
	ents := b.EndVector(len(f.offs))
	fb.SnapshotStart(b)
	fb.SnapshotAddTick(b, s.Tick)
	fb.SnapshotAddAckSeq(b, s.AckSeq)
	fb.SnapshotAddEntities(b, ents)
	b.Finish(fb.SnapshotEnd(b))
}

func fbReadSnapshot(buf []byte, s *game.Snapshot) {
	t := fb.GetRootAsSnapshot(buf, 0)
	s.Tick = t.Tick()
	s.AckSeq = t.AckSeq()
	n := t.EntitiesLength()
	if cap(s.Entities) >= n {
		s.Entities = s.Entities[:n]
	} else {
		s.Entities = make([]game.Entity, n)
	}
	var fe fb.Entity
	var pos fb.Vec2
	for j := range s.Entities {
		e := &s.Entities[j]
		t.Entities(&fe, j)
		e.ID = fe.Id()
		if fe.Pos(&pos) != nil {
			e.Pos = game.Vec2{X: pos.X(), Y: pos.Y()}
		} else {
			e.Pos = game.Vec2{}
		}
		e.VelX = fe.VelX()
		e.VelY = fe.VelY()
		e.Yaw = fe.Yaw()
		e.Health = fe.Health()
		e.Weapon = game.Weapon(fe.Weapon())
		e.Team = game.Team(fe.Team())
		e.OnGround = fe.OnGround()
		e.Sprinting = fe.Sprinting()
		if tg := fe.Target(); tg != nil {
			e.Target = bitwire.Optional[uint16]{Set: true, Value: *tg}
		} else {
			e.Target = bitwire.Optional[uint16]{}
		}
		setString(&e.Name, fe.Name())
	}
}

// fbEvents builds event batches, reusing its builder and offset scratch.
type fbEvents struct {
	b    *flatbuffers.Builder
	offs []flatbuffers.UOffsetT
}

func (f *fbEvents) build(m *game.Events) {
	b := f.b
	b.Reset()
	f.offs = f.offs[:0]
	for i := range m.Events {
		e := &m.Events[i]
		var payload flatbuffers.UOffsetT
		var typ fb.Event
		switch e.Tag {
		case game.EventChat:
			from, text := b.CreateString(e.Chat.From), b.CreateString(e.Chat.Text)
			fb.ChatStart(b)
			fb.ChatAddFrom(b, from)
			fb.ChatAddText(b, text)
			payload, typ = fb.ChatEnd(b), fb.EventChat
		case game.EventKill:
			fb.KillStart(b)
			fb.KillAddKiller(b, e.Kill.Killer)
			fb.KillAddVictim(b, e.Kill.Victim)
			fb.KillAddWeapon(b, fb.Weapon(e.Kill.Weapon))
			fb.KillAddHeadshot(b, e.Kill.Headshot)
			payload, typ = fb.KillEnd(b), fb.EventKill
		case game.EventJoin:
			name := b.CreateString(e.Join)
			fb.JoinStart(b)
			fb.JoinAddName(b, name)
			payload, typ = fb.JoinEnd(b), fb.EventJoin
		case game.EventLeave:
			fb.LeaveStart(b)
			fb.LeaveAddId(b, e.Leave)
			payload, typ = fb.LeaveEnd(b), fb.EventLeave
		case game.EventRoundOver:
			fb.RoundOverStart(b)
			payload, typ = fb.RoundOverEnd(b), fb.EventRoundOver
		}
		fb.EventItemStart(b)
		fb.EventItemAddEventType(b, typ)
		fb.EventItemAddEvent(b, payload)
		f.offs = append(f.offs, fb.EventItemEnd(b))
	}
	fb.EventsStartEventsVector(b, len(f.offs))
	for i := len(f.offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(f.offs[i])
	}
	evs := b.EndVector(len(f.offs))
	fb.EventsStart(b)
	fb.EventsAddTick(b, m.Tick)
	fb.EventsAddEvents(b, evs)
	b.Finish(fb.EventsEnd(b))
}

func fbReadEvents(buf []byte, m *game.Events) {
	t := fb.GetRootAsEvents(buf, 0)
	m.Tick = t.Tick()
	n := t.EventsLength()
	if cap(m.Events) >= n {
		m.Events = m.Events[:n]
	} else {
		m.Events = make([]game.Event, n)
	}
	var item fb.EventItem
	var tab flatbuffers.Table
	for j := range m.Events {
		e := &m.Events[j]
		t.Events(&item, j)
		typ := item.EventType()
		if !item.Event(&tab) {
			typ = fb.EventNONE
		}
		switch typ {
		case fb.EventChat:
			var c fb.Chat
			c.Init(tab.Bytes, tab.Pos)
			e.Tag, e.Kill, e.Join, e.Leave = game.EventChat, game.Kill{}, "", 0
			setString(&e.Chat.From, c.From())
			setString(&e.Chat.Text, c.Text())
		case fb.EventKill:
			var k fb.Kill
			k.Init(tab.Bytes, tab.Pos)
			*e = game.Event{Tag: game.EventKill, Kill: game.Kill{Killer: k.Killer(), Victim: k.Victim(),
				Weapon: game.Weapon(k.Weapon()), Headshot: k.Headshot()}}
		case fb.EventJoin:
			var jn fb.Join
			jn.Init(tab.Bytes, tab.Pos)
			e.Tag, e.Chat, e.Kill, e.Leave = game.EventJoin, game.Chat{}, game.Kill{}, 0
			setString(&e.Join, jn.Name())
		case fb.EventLeave:
			var l fb.Leave
			l.Init(tab.Bytes, tab.Pos)
			*e = game.Event{Tag: game.EventLeave, Leave: l.Id()}
		case fb.EventRoundOver:
			*e = game.Event{Tag: game.EventRoundOver}
		default:
			*e = game.Event{Tag: 7}
		}
	}
}
