//! The checks a client runs on every snapshot (bench/sim/README.md, "simclient"): a pure
//! function of the previous snapshot, the snapshot and what the client knows, so each
//! rule is tested with a snapshot that breaks it.

use std::fmt;

use crate::codec::wire;
use crate::rules::{INTEREST_RADIUS, MAX_SPEED, POS_STEP, TICK_HZ, VIEW_CAP};
use crate::sim;

/// What the client knows besides the snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Known {
    /// Its entity, from its first snapshot (`None` before it).
    pub you: Option<u16>,
    /// The newest input `seq` it sent (0: none yet).
    pub newest_sent: u32,
}

/// A rule of the README's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The tick is greater than the previous snapshot's.
    TickIncreases,
    /// `input_seq` never decreases.
    InputSeqKeeps,
    /// `input_seq` is at most the newest input sent.
    InputSeqSent,
    /// Entity ids strictly increase.
    IdsIncrease,
    /// At most `VIEW_CAP` entities.
    ViewCap,
    /// `you` is among the entities.
    YouPresent,
    /// `you` is a `Player`.
    YouPlayer,
    /// `you` is the same id in every snapshot.
    YouSame,
    /// Every entity is within `INTEREST_RADIUS + POS_STEP` of `you`.
    Interest,
    /// Every value is inside its `sim.bw` range.
    Range,
    /// An entity of the previous snapshot moved at most `MAX_SPEED × ticks / 60 +
    /// POS_STEP` on each axis.
    Continuity,
}

/// A snapshot that broke a rule: which, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The rule.
    pub rule: Rule,
    /// What broke it.
    pub detail: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.rule, self.detail)
    }
}

fn broke(rule: Rule, detail: String) -> Result<(), Invalid> {
    Err(Invalid { rule, detail })
}

/// Checks `s` (the first rule broken, in the README's order), after `prev` (the
/// previous snapshot the client decoded, `None` for its first).
pub fn validate(
    prev: Option<&sim::Snapshot>,
    s: &sim::Snapshot,
    known: &Known,
) -> Result<(), Invalid> {
    if let Some(p) = prev {
        if s.tick <= p.tick {
            return broke(
                Rule::TickIncreases,
                format!("tick {} after {}", s.tick, p.tick),
            );
        }
        if s.input_seq < p.input_seq {
            let detail = format!("input_seq {} after {}", s.input_seq, p.input_seq);
            return broke(Rule::InputSeqKeeps, detail);
        }
    }
    if s.input_seq > known.newest_sent {
        let detail = format!(
            "input_seq {}, newest sent {}",
            s.input_seq, known.newest_sent
        );
        return broke(Rule::InputSeqSent, detail);
    }
    if let Some(w) = s.entities.windows(2).find(|w| w[0].id >= w[1].id) {
        return broke(
            Rule::IdsIncrease,
            format!("id {} after {}", w[1].id, w[0].id),
        );
    }
    if s.entities.len() > VIEW_CAP {
        return broke(Rule::ViewCap, format!("{} entities", s.entities.len()));
    }
    check_you(s, known)?;
    check_ranges(s)?;
    if let Some(p) = prev {
        check_continuity(p, s)?;
    }
    Ok(())
}

/// `you`: present, a player, unchanged; everything within the interest radius of it.
fn check_you(s: &sim::Snapshot, known: &Known) -> Result<(), Invalid> {
    let Ok(at) = s.entities.binary_search_by_key(&s.you, |e| e.id) else {
        return broke(Rule::YouPresent, format!("you {} not among them", s.you));
    };
    let me = &s.entities[at];
    if me.kind != sim::Kind::Player {
        return broke(Rule::YouPlayer, format!("you {} is {:?}", s.you, me.kind));
    }
    if let Some(you) = known.you {
        if you != s.you {
            return broke(Rule::YouSame, format!("you {} after {you}", s.you));
        }
    }
    let reach = f64::from(INTEREST_RADIUS) + f64::from(POS_STEP);
    for e in &s.entities {
        let dx = f64::from(e.x) - f64::from(me.x);
        let dy = f64::from(e.y) - f64::from(me.y);
        let d2 = dx * dx + dy * dy;
        // NaN is out of reach too.
        if d2.is_nan() || d2 > reach * reach {
            let d = d2.sqrt();
            return broke(Rule::Interest, format!("entity {} is {d:.3} m away", e.id));
        }
    }
    Ok(())
}

/// Every value inside its `sim.bw` range (decoders check this; a codec that did not
/// would be caught here).
fn check_ranges(s: &sim::Snapshot) -> Result<(), Invalid> {
    if s.you > sim::Snapshot::YOU_MAX {
        return broke(Rule::Range, format!("you {}", s.you));
    }
    for e in &s.entities {
        let grids = [
            (wire::X, e.x),
            (wire::Y, e.y),
            (wire::YAW, e.yaw),
            (wire::VX, e.vx),
            (wire::VY, e.vy),
        ];
        for (grid, v) in grids {
            if grid.q(v).is_err() {
                return broke(Rule::Range, format!("entity {}: {} {v}", e.id, grid.field));
            }
        }
        let ints = [
            ("id", u64::from(e.id), u64::from(sim::Entity::ID_MAX)),
            ("health", e.health.into(), sim::Entity::HEALTH_MAX.into()),
            ("anim", e.anim.into(), sim::Entity::ANIM_MAX.into()),
        ];
        for (field, v, max) in ints {
            if v > max {
                return broke(Rule::Range, format!("entity {}: {field} {v}", e.id));
            }
        }
    }
    Ok(())
}

/// No entity seen in `prev` moved further than it can in the ticks between them: both
/// lists are in id order, so one merge walk finds the entities they share.
fn check_continuity(prev: &sim::Snapshot, s: &sim::Snapshot) -> Result<(), Invalid> {
    let ticks = f64::from(s.tick.wrapping_sub(prev.tick));
    let reach = f64::from(MAX_SPEED) * ticks / f64::from(TICK_HZ) + f64::from(POS_STEP);
    let mut old = prev.entities.iter().peekable();
    for e in &s.entities {
        while old.next_if(|o| o.id < e.id).is_some() {}
        let Some(o) = old.next_if(|o| o.id == e.id) else {
            continue;
        };
        let dx = (f64::from(e.x) - f64::from(o.x)).abs();
        let dy = (f64::from(e.y) - f64::from(o.y)).abs();
        if dx.is_nan() || dy.is_nan() || dx > reach || dy > reach {
            let detail = format!(
                "entity {} moved ({dx:.3}, {dy:.3}) m in {ticks} ticks, at most {reach:.3}",
                e.id
            );
            return broke(Rule::Continuity, detail);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
