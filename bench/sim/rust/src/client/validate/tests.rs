//! Each rule of `validate`, broken by one snapshot that keeps every other rule.

use super::*;

fn entity(id: u16, kind: sim::Kind, x: f32, y: f32) -> sim::Entity {
    sim::Entity {
        id,
        kind,
        x,
        y,
        yaw: 90.0,
        vx: 0.0,
        vy: 0.0,
        health: 100,
        anim: 0,
    }
}

/// The previous snapshot: player 3 at (10, 10), player 5 and NPC 2050 near it.
fn prev() -> sim::Snapshot {
    sim::Snapshot {
        tick: 100,
        input_seq: 50,
        you: 3,
        entities: vec![
            entity(3, sim::Kind::Player, 10.0, 10.0),
            entity(5, sim::Kind::Player, 30.0, -20.0),
            entity(2050, sim::Kind::Npc, 20.0, 10.0),
        ],
    }
}

/// The next tick: everything moved a little (at most 8 m/s for 1/60 s, 0.133 m).
fn next() -> sim::Snapshot {
    let mut s = prev();
    s.tick = 101;
    s.input_seq = 51;
    s.entities[0].x += 0.125;
    s.entities[2].y -= 0.109375;
    s
}

const KNOWN: Known = Known {
    you: Some(3),
    newest_sent: 60,
};

/// The rule `s` breaks after `prev()`.
fn rule(s: &sim::Snapshot) -> Option<Rule> {
    validate(Some(&prev()), s, &KNOWN).err().map(|e| e.rule)
}

fn broken(change: impl FnOnce(&mut sim::Snapshot)) -> Option<Rule> {
    let mut s = next();
    change(&mut s);
    rule(&s)
}

#[test]
fn a_valid_pair_passes() {
    assert_eq!(rule(&next()), None);
    // The first snapshot has no previous one; nothing known yet but the inputs sent.
    let first = Known {
        you: None,
        newest_sent: 2,
    };
    let mut s = prev();
    s.input_seq = 0;
    assert_eq!(validate(None, &s, &first), Ok(()));
    // An entity that was not in the previous snapshot can be anywhere in the view.
    assert_eq!(
        broken(|s| s.entities.push(entity(2100, sim::Kind::Npc, 10.0, 129.0))),
        None
    );
    // Ticks may be skipped: 4 ticks allow 0.55 m.
    assert_eq!(
        broken(|s| {
            s.tick = 104;
            s.entities[2].x += 0.5;
        }),
        None
    );
}

#[test]
fn tick_increases() {
    assert_eq!(broken(|s| s.tick = 100), Some(Rule::TickIncreases));
    assert_eq!(broken(|s| s.tick = 7), Some(Rule::TickIncreases));
}

#[test]
fn input_seq_never_decreases() {
    assert_eq!(broken(|s| s.input_seq = 49), Some(Rule::InputSeqKeeps));
    assert_eq!(broken(|s| s.input_seq = 50), None);
}

#[test]
fn input_seq_was_sent() {
    assert_eq!(broken(|s| s.input_seq = 61), Some(Rule::InputSeqSent));
    assert_eq!(broken(|s| s.input_seq = 60), None);
}

#[test]
fn ids_strictly_increase() {
    let dup = entity(5, sim::Kind::Npc, 30.0, -20.0);
    assert_eq!(
        broken(|s| s.entities.insert(2, dup)),
        Some(Rule::IdsIncrease)
    );
    assert_eq!(broken(|s| s.entities.swap(1, 2)), Some(Rule::IdsIncrease));
}

#[test]
fn at_most_view_cap_entities() {
    let crowd = |n: u16| {
        let mut s = next();
        s.entities.truncate(1);
        s.entities
            .extend((0..n).map(|i| entity(100 + i, sim::Kind::Npc, 0.0, 0.0)));
        s
    };
    assert_eq!(rule(&crowd(VIEW_CAP as u16 - 1)), None);
    assert_eq!(rule(&crowd(VIEW_CAP as u16)), Some(Rule::ViewCap));
}

#[test]
fn you_is_present() {
    assert_eq!(
        broken(|s| s.entities.retain(|e| e.id != 3)),
        Some(Rule::YouPresent)
    );
    assert_eq!(broken(|s| s.you = 4), Some(Rule::YouPresent));
}

#[test]
fn you_is_a_player() {
    assert_eq!(
        broken(|s| s.entities[0].kind = sim::Kind::Npc),
        Some(Rule::YouPlayer)
    );
}

#[test]
fn you_stays_the_same() {
    assert_eq!(broken(|s| s.you = 5), Some(Rule::YouSame));
}

#[test]
fn everything_is_within_the_interest_radius() {
    // Player 3 is at (10.125, 10); the radius and one step reach 120.015625 m.
    let at = |dy: f32| {
        broken(|s| {
            s.entities
                .push(entity(3000, sim::Kind::Npc, 10.125, 10.0 + dy))
        })
    };
    assert_eq!(at(120.015625), None);
    assert_eq!(at(120.03125), Some(Rule::Interest));
    assert_eq!(broken(|s| s.entities[2].x = f32::NAN), Some(Rule::Interest));
}

#[test]
fn every_value_is_in_its_range() {
    let spoil: [fn(&mut sim::Entity); 7] = [
        |e| e.yaw = 360.5,
        |e| e.yaw = -0.5,
        |e| e.vx = 64.0,
        |e| e.vy = -64.125,
        |e| e.health = 201,
        |e| e.anim = 16,
        |e| e.id = 4096,
    ];
    for (i, f) in spoil.iter().enumerate() {
        assert_eq!(
            broken(|s| f(&mut s.entities[2])),
            Some(Rule::Range),
            "case {i}"
        );
    }
}

#[test]
fn nothing_teleports() {
    // One tick allows 8/60 + 1/64 = 0.1490 m on each axis.
    assert_eq!(broken(|s| s.entities[2].x += 0.140625), None);
    assert_eq!(
        broken(|s| s.entities[2].x += 0.15625),
        Some(Rule::Continuity)
    );
    assert_eq!(
        broken(|s| s.entities[1].y -= 0.15625),
        Some(Rule::Continuity)
    );
    assert_eq!(broken(|s| s.entities[0].x += 1.0), Some(Rule::Continuity));
}
