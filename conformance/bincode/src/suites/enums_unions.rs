//! `bincode_enums_unions`: a u32 declaration index for enums and unions, never the
//! declared value; a union's payload after it.

use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, put};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
#[repr(u8)]
enum Team {
    Red = 0,
    Blue = 1,
    Spectator = 7,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
#[repr(u16)]
enum Wide {
    A = 0,
    B = 300,
    C = 301,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
#[repr(u64)]
enum Huge {
    Zero = 0,
    Top = 18446744073709551615,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
#[repr(u8)]
enum Lone {
    Only = 0,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Kill {
    killer: u32,
    victim: u32,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
enum Event {
    Chat(String),
    Frag(Kill),
    Ping,
    Pair([u8; 2]),
    Side(Team),
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
enum Nested {
    Inner(Event),
    Plain(u8),
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Player {
    team: Team,
    event: Event,
    wide: Wide,
    huge: Huge,
    lone: Lone,
}

const INDEX: &str = "an index at or past the number of variants";

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_enums_unions",
        "Enums and unions in the bincode encoding (spec §13.2, §13.4): a u32 of the declaration index, as serde's and wincode's derives write it — not the declared value (Spectator = 7 is index 2), whatever the declared tag type (u16, u64) — then a union arm's payload; an index at or past the number of variants is InvalidEnum, which bincode and wincode reject too.",
    );
    enums(&mut s);
    events(&mut s);
    nested(&mut s);
    player(&mut s);
    s
}

fn enums(s: &mut Suite) {
    s.valid("bincode_enums_unions.team.red", "Team", &Team::Red, "");
    s.valid("bincode_enums_unions.team.blue", "Team", &Team::Blue, "");
    s.valid(
        "bincode_enums_unions.team.spectator",
        "Team",
        &Team::Spectator,
        "Spectator = 7 is index 2: 02 00 00 00, not 07.",
    );
    let bad: [(&str, u32, &str); 3] = [
        ("index_3", 3, "Index = the number of variants."),
        ("index_7", 7, "Spectator's declared value is not its index."),
        ("index_max", u32::MAX, ""),
    ];
    for (name, index, note) in bad {
        s.bad_bytes(
            &format!("bincode_enums_unions.team.{name}"),
            "Team",
            &Team::Red,
            put(0, &index.to_le_bytes()),
            at("InvalidEnum", "", 0),
            &format!("{INDEX}: {note}"),
        );
    }
    s.bad_bytes(
        "bincode_enums_unions.team.truncated",
        "Team",
        &Team::Blue,
        cut(3),
        at("Truncated", "", 0),
        "Three of the index's four bytes.",
    );
    s.valid(
        "bincode_enums_unions.wide.b",
        "Wide",
        &Wide::B,
        "B = 300 in a u16 tag: still the u32 index 1.",
    );
    s.valid("bincode_enums_unions.wide.c", "Wide", &Wide::C, "");
    s.bad_bytes(
        "bincode_enums_unions.wide.index_300",
        "Wide",
        &Wide::B,
        put(0, &300u32.to_le_bytes()),
        at("InvalidEnum", "", 0),
        "B's declared value as an index.",
    );
    s.valid(
        "bincode_enums_unions.huge.top",
        "Huge",
        &Huge::Top,
        "A declared value of 2^64 − 1: index 1.",
    );
    s.valid("bincode_enums_unions.huge.zero", "Huge", &Huge::Zero, "");
    s.valid(
        "bincode_enums_unions.lone.only",
        "Lone",
        &Lone::Only,
        "Zero bits in packed, four bytes here.",
    );
    s.bad_bytes(
        "bincode_enums_unions.lone.index_1",
        "Lone",
        &Lone::Only,
        put(0, &1u32.to_le_bytes()),
        at("InvalidEnum", "", 0),
        "",
    );
}

fn events(s: &mut Suite) {
    let frag = Event::Frag(Kill {
        killer: 1,
        victim: 2,
    });
    let valid = [
        (
            "chat",
            Event::Chat("gg".into()),
            "Index 0, then the string.",
        ),
        ("frag", frag.clone(), "Frag = 4 in the schema: index 1."),
        (
            "ping",
            Event::Ping,
            "A unit arm: the index alone (the schema's tag is 5).",
        ),
        ("pair", Event::Pair([1, 2]), "An array payload: no length."),
        (
            "side",
            Event::Side(Team::Spectator),
            "An enum payload: two u32 indexes.",
        ),
        ("chat_empty", Event::Chat(String::new()), ""),
    ];
    for (name, e, note) in &valid {
        s.valid(
            &format!("bincode_enums_unions.event.{name}"),
            "Event",
            e,
            note,
        );
    }
    for (name, index) in [("index_5", 5u32), ("index_max", u32::MAX)] {
        s.bad_bytes(
            &format!("bincode_enums_unions.event.{name}"),
            "Event",
            &Event::Ping,
            put(0, &index.to_le_bytes()),
            at("InvalidEnum", "", 0),
            &format!("{INDEX}."),
        );
    }
    s.bad_bytes(
        "bincode_enums_unions.event.truncated_index",
        "Event",
        &Event::Ping,
        cut(2),
        at("Truncated", "", 0),
        "",
    );
    s.bad_bytes(
        "bincode_enums_unions.event.truncated_payload",
        "Event",
        &frag,
        cut(10),
        at("Truncated", "Frag.victim", 8),
        "The path names the arm.",
    );
    s.bad_bytes(
        "bincode_enums_unions.event.chat_truncated",
        "Event",
        &Event::Chat("gg".into()),
        cut(13),
        at("Truncated", "Chat", 4),
        "The string's length (2) is more than the bytes left (1).",
    );
    s.bad_bytes(
        "bincode_enums_unions.event.side_bad_team",
        "Event",
        &Event::Side(Team::Red),
        put(4, &3u32.to_le_bytes()),
        at("InvalidEnum", "Side", 4),
        "The payload's enum index.",
    );
}

fn nested(s: &mut Suite) {
    let frag = Nested::Inner(Event::Frag(Kill {
        killer: 7,
        victim: 8,
    }));
    s.valid(
        "bincode_enums_unions.nested.inner_ping",
        "Nested",
        &Nested::Inner(Event::Ping),
        "",
    );
    s.valid(
        "bincode_enums_unions.nested.inner_chat",
        "Nested",
        &Nested::Inner(Event::Chat("é".into())),
        "",
    );
    s.valid(
        "bincode_enums_unions.nested.inner_frag",
        "Nested",
        &frag,
        "",
    );
    s.valid(
        "bincode_enums_unions.nested.plain",
        "Nested",
        &Nested::Plain(255),
        "",
    );
    s.bad_bytes(
        "bincode_enums_unions.nested.inner_index_9",
        "Nested",
        &Nested::Inner(Event::Ping),
        put(4, &9u32.to_le_bytes()),
        at("InvalidEnum", "Inner", 4),
        "",
    );
    s.bad_bytes(
        "bincode_enums_unions.nested.inner_truncated",
        "Nested",
        &frag,
        cut(15),
        at("Truncated", "Inner.Frag.victim", 12),
        "",
    );
    s.bad_bytes(
        "bincode_enums_unions.nested.index_2",
        "Nested",
        &Nested::Plain(1),
        put(0, &2u32.to_le_bytes()),
        at("InvalidEnum", "", 0),
        "",
    );
}

fn player(s: &mut Suite) {
    let p = Player {
        team: Team::Spectator,
        event: Event::Chat("hi".into()),
        wide: Wide::C,
        huge: Huge::Top,
        lone: Lone::Only,
    };
    s.valid("bincode_enums_unions.player.all", "Player", &p, "");
    // team 0..4, event 4..18 (index, length, "hi"), wide 18, huge 22, lone 26.
    let bad = [
        ("team_7", "team", 0usize, 7u32),
        ("event_5", "event", 4, 5),
        ("wide_3", "wide", 18, 3),
        ("huge_2", "huge", 22, 2),
        ("lone_1", "lone", 26, 1),
    ];
    for (name, field, off, index) in bad {
        s.bad_bytes(
            &format!("bincode_enums_unions.player.{name}"),
            "Player",
            &p,
            put(off, &index.to_le_bytes()),
            at("InvalidEnum", field, off as u64),
            "",
        );
    }
    s.bad_bytes(
        "bincode_enums_unions.player.truncated_in_lone",
        "Player",
        &p,
        cut(28),
        at("Truncated", "lone", 26),
        "",
    );
}
