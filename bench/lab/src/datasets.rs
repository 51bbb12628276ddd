//! Fixed-seed datasets in the shapes of `examples/game.bw`: `packet64`, `snapshot`,
//! `input` and `events` (the string-heavy `profiles` has its own module,
//! [`crate::profiles`]).
//!
//! Every generator draws from [`SplitMix64`] (the one in `bitwire-bench`, which Go and
//! TypeScript reimplement) with its own fixed seed, and returns *canonical* values: each
//! message is passed through the generated bitwire encoder and decoder once, so quantized
//! floats sit exactly on their grid. Every library therefore encodes the very values
//! bitwire decodes, and a Go or TypeScript program reading the corpus gets the same values.
//!
//! The simulations are deliberately simple but shaped like real traffic: positions move
//! smoothly under bounded acceleration at 60 Hz, inputs have persistence (held buttons,
//! keyboard or stick movement, a slowly drifting aim), and events are mostly chat lines
//! and kills with occasional joins, leaves and round ends.

use bitwire::Packed;
use bitwire_bench::dataset::SplitMix64;
use bitwire_example::game::{
    Buttons, Chat, Entity, Event, Events, Input, Kill, Snapshot, Team, Vec2, Weapon,
};

pub use bitwire_bench::dataset::packet64;

/// Ticks per second of the simulated server.
pub const TICK_HZ: f64 = 60.0;
/// Seed of the `snapshot` generator (`packet64` uses 42, as the brief says).
pub const SEED_SNAPSHOT: u64 = 0x5AA9_5407;
/// Seed of the `input` generator.
pub const SEED_INPUT: u64 = 0x1279_7017;
/// Seed of the `events` generator.
pub const SEED_EVENTS: u64 = 0xE7E7_7501;

/// How many messages of each dataset to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scale {
    /// `packet64` packets.
    pub packet64: usize,
    /// Snapshot ticks (one snapshot per tick, as sent to one client).
    pub snapshot_ticks: usize,
    /// Entities in the simulated world (at most `MAX_ENTITIES` = 64).
    pub entities: usize,
    /// Clients sending input.
    pub input_clients: usize,
    /// Ticks of input per client.
    pub input_ticks: usize,
    /// `Events` messages (batches).
    pub events: usize,
    /// `Profiles` pages (the string-heavy dataset).
    pub profiles: usize,
    /// `pod` block sizes in bytes (the largest is the size of each pod file).
    pub pod_blocks: &'static [usize],
}

impl Scale {
    /// The default lab scale: 10 s of a 32-entity world, 8 clients' inputs for 10 s,
    /// 1,000 event batches, 1,000 pages of profiles, 10,000 packets.
    pub const FULL: Scale = Scale {
        packet64: 10_000,
        snapshot_ticks: 600,
        entities: 32,
        input_clients: 8,
        input_ticks: 600,
        events: 1_000,
        profiles: 1_000,
        pod_blocks: crate::pod::data::FULL_BLOCKS,
    };

    /// A tiny scale for smoke tests and CI.
    pub const QUICK: Scale = Scale {
        packet64: 100,
        snapshot_ticks: 30,
        entities: 16,
        input_clients: 2,
        input_ticks: 30,
        events: 50,
        profiles: 50,
        pod_blocks: crate::pod::data::QUICK_BLOCKS,
    };
}

/// Short player names (every one at most `MAX_NAME` = 16 bytes).
pub const NAMES: [&str; 32] = [
    "ada",
    "grace",
    "linus",
    "ken",
    "barbara",
    "dennis",
    "margaret",
    "edsger",
    "alan",
    "hedy",
    "donald",
    "frances",
    "guido",
    "bjarne",
    "radia",
    "tim",
    "sophie",
    "niklaus",
    "john",
    "karen",
    "xX_sn1per_Xx",
    "noob42",
    "zoë",
    "björn",
    "mika",
    "ren",
    "yuki",
    "pat",
    "sam",
    "alex",
    "jo",
    "kai",
];

/// Words chat lines are made of (some non-ASCII, as real chat has).
const WORDS: [&str; 40] = [
    "gg", "wp", "nice", "shot", "lol", "go", "left", "right", "mid", "rush", "b", "a", "push",
    "fall", "back", "need", "heal", "ammo", "sniper", "on", "roof", "behind", "you", "thanks",
    "sorry", "lag", "again", "one", "more", "round", "ok", "no", "yes", "über", "ñandú", "🔥",
    "ez", "team", "where", "?",
];

fn chance(rng: &mut SplitMix64, one_in: u64) -> bool {
    rng.below(one_in) == 0
}

fn pick<T: Copy>(rng: &mut SplitMix64, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// Puts a message through the generated encoder and decoder, so that quantized fields hold
/// exactly the value a decoder produces.
macro_rules! canonical {
    ($ty:ty, $value:expr) => {{
        let wire = $value
            .encode_to_vec()
            .expect("generated values are in range");
        <$ty>::decode(&wire).expect("bitwire decodes what it encoded")
    }};
}

const WEAPONS: [Weapon; 6] = [
    Weapon::Fist,
    Weapon::Pistol,
    Weapon::Rifle,
    Weapon::Shotgun,
    Weapon::Sniper,
    Weapon::Rocket,
];

/// One simulated entity.
struct Body {
    id: u16,
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    /// Velocity the entity is steering towards.
    want_vx: f64,
    want_vy: f64,
    yaw: f64,
    health: i32,
    dead_ticks: u32,
    air_ticks: u32,
    weapon: Weapon,
    team: Team,
    target: Option<u16>,
    name: &'static str,
}

/// Distinct random entity ids in `0..=4095`.
fn distinct_ids(rng: &mut SplitMix64, n: usize) -> Vec<u16> {
    let mut ids: Vec<u16> = Vec::with_capacity(n);
    while ids.len() < n {
        let id = rng.below(4096) as u16;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

/// `ticks` snapshots of a world of `entities` moving entities, one per 60 Hz tick as sent
/// to one client (whose input sequence the server acknowledges).
pub fn snapshot(ticks: usize, entities: usize) -> Vec<Snapshot> {
    assert!(entities <= 64, "a snapshot carries at most 64 entities");
    let mut rng = SplitMix64::new(SEED_SNAPSHOT);
    let dt = 1.0 / TICK_HZ;
    let ids = distinct_ids(&mut rng, entities);
    let teams = [Team::Red, Team::Blue, Team::Green];
    let mut bodies: Vec<Body> = ids
        .iter()
        .enumerate()
        .map(|(i, &id)| Body {
            id,
            x: (rng.unit() * 2.0 - 1.0) * 900.0,
            y: (rng.unit() * 2.0 - 1.0) * 900.0,
            vx: 0.0,
            vy: 0.0,
            want_vx: 0.0,
            want_vy: 0.0,
            yaw: rng.unit() * 360.0,
            health: 100,
            dead_ticks: 0,
            air_ticks: 0,
            weapon: pick(&mut rng, &WEAPONS),
            // One in eight is watching rather than playing.
            team: if i % 8 == 7 {
                Team::Spectator
            } else {
                teams[i % 3]
            },
            target: None,
            name: NAMES[i % NAMES.len()],
        })
        .collect();
    let first_tick: u32 = 360_001 + rng.below(10_000) as u32;
    let mut ack_seq = rng.below(65_536) as u16;
    let mut out = Vec::with_capacity(ticks);
    for tick in (first_tick..).take(ticks) {
        for b in bodies.iter_mut() {
            step_body(&mut rng, b, &ids, dt);
        }
        // The client's inputs arrive every tick, with an occasional late or lost one.
        if !chance(&mut rng, 20) {
            ack_seq = ack_seq.wrapping_add(1);
        }
        let snap = Snapshot {
            tick,
            ack_seq,
            entities: bodies.iter().map(entity_of).collect(),
        };
        out.push(canonical!(Snapshot, snap));
    }
    out
}

fn step_body(rng: &mut SplitMix64, b: &mut Body, ids: &[u16], dt: f64) {
    if b.dead_ticks > 0 {
        b.dead_ticks -= 1;
        b.vx = 0.0;
        b.vy = 0.0;
        if b.dead_ticks == 0 {
            b.health = 100;
            b.x = (rng.unit() * 2.0 - 1.0) * 900.0;
            b.y = (rng.unit() * 2.0 - 1.0) * 900.0;
        }
        return;
    }
    // Every second or two on average, pick a new heading and pace: stand, walk, run, sprint.
    if chance(rng, 90) {
        let speed = pick(rng, &[0.0, 3.0, 6.0, 6.0, 10.0]);
        let heading = rng.unit() * std::f64::consts::TAU;
        b.want_vx = speed * heading.cos();
        b.want_vy = speed * heading.sin();
    }
    // Bounded acceleration: close a tenth of the gap each tick.
    b.vx += (b.want_vx - b.vx) * 0.1;
    b.vy += (b.want_vy - b.vy) * 0.1;
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    for (p, v, w) in [
        (&mut b.x, &mut b.vx, &mut b.want_vx),
        (&mut b.y, &mut b.vy, &mut b.want_vy),
    ] {
        if p.abs() > 1000.0 {
            *p = p.clamp(-1000.0, 1000.0);
            *v = -*v;
            *w = -*w;
        }
    }
    let speed = (b.vx * b.vx + b.vy * b.vy).sqrt();
    if speed > 0.5 {
        b.yaw = b.vy.atan2(b.vx).to_degrees().rem_euclid(360.0);
    }
    if b.air_ticks > 0 {
        b.air_ticks -= 1;
    } else if chance(rng, 240) {
        b.air_ticks = 30;
    }
    if chance(rng, 120) {
        b.health -= 10 + rng.below(50) as i32;
        if b.health <= 0 {
            b.health = 0;
            b.dead_ticks = 180;
            b.target = None;
            return;
        }
    } else if b.health < 100 && chance(rng, 30) {
        b.health += 1;
    } else if chance(rng, 3000) {
        // An overshield pickup.
        b.health = 200;
    }
    if chance(rng, 600) {
        b.weapon = pick(rng, &WEAPONS);
    }
    match b.target {
        None if chance(rng, 60) => {
            let other = pick(rng, ids);
            if other != b.id {
                b.target = Some(other);
            }
        }
        Some(_) if chance(rng, 90) => b.target = None,
        _ => {}
    }
}

fn entity_of(b: &Body) -> Entity {
    let speed = (b.vx * b.vx + b.vy * b.vy).sqrt();
    Entity {
        id: b.id,
        pos: Vec2 {
            x: b.x as f32,
            y: b.y as f32,
        },
        vel_x: b.vx as f32,
        vel_y: b.vy as f32,
        yaw: b.yaw as f32,
        health: b.health as u8,
        weapon: b.weapon,
        team: b.team,
        on_ground: b.air_ticks == 0,
        sprinting: speed > 8.0,
        target: b.target,
        name: b.name.to_string(),
    }
}

/// Player inputs: `clients` clients each sending one command per tick for `ticks` ticks,
/// interleaved tick by tick (the order a server receives them).
pub fn input(clients: usize, ticks: usize) -> Vec<Input> {
    struct Client {
        seq: u16,
        stick: bool,
        mx: f64,
        my: f64,
        yaw: f64,
        pitch: f64,
        buttons: Buttons,
    }
    let mut rng = SplitMix64::new(SEED_INPUT);
    let mut cs: Vec<Client> = (0..clients)
        .map(|i| Client {
            seq: rng.below(65_536) as u16,
            // One in four plays with a gamepad; the rest with a keyboard.
            stick: i % 4 == 3,
            mx: 0.0,
            my: 0.0,
            yaw: rng.unit() * 360.0,
            pitch: 0.0,
            buttons: Buttons {
                fire: false,
                aim: false,
                jump: false,
                crouch: false,
                reload: false,
                use_item: false,
            },
        })
        .collect();
    let mut out = Vec::with_capacity(clients * ticks);
    for _ in 0..ticks {
        for c in cs.iter_mut() {
            c.seq = c.seq.wrapping_add(1);
            if c.stick {
                c.mx = (c.mx + rng.normal() * 0.08).clamp(-1.0, 1.0);
                c.my = (c.my + rng.normal() * 0.08).clamp(-1.0, 1.0);
            } else if chance(&mut rng, 20) {
                c.mx = pick(&mut rng, &[-1.0, 0.0, 0.0, 1.0]);
                c.my = pick(&mut rng, &[-1.0, 0.0, 1.0, 1.0, 1.0]);
            }
            c.yaw = (c.yaw + rng.normal() * 1.5).rem_euclid(360.0);
            c.pitch = (c.pitch + rng.normal() * 0.7).clamp(-89.0, 89.0);
            let b = &mut c.buttons;
            if chance(&mut rng, 15) {
                b.fire = !b.fire;
            }
            if chance(&mut rng, 60) {
                b.aim = !b.aim;
            }
            if chance(&mut rng, 200) {
                b.crouch = !b.crouch;
            }
            b.jump = chance(&mut rng, 100);
            b.reload = chance(&mut rng, 300);
            b.use_item = chance(&mut rng, 500);
            let inp = Input {
                seq: c.seq,
                move_x: c.mx as f32,
                move_y: c.my as f32,
                buttons: *b,
                yaw: c.yaw as f32,
                pitch: c.pitch as f32,
            };
            out.push(canonical!(Input, inp));
        }
    }
    out
}

/// `n` batches of chat and game events, one message per tick on which something happened.
pub fn events(n: usize) -> Vec<Events> {
    let mut rng = SplitMix64::new(SEED_EVENTS);
    let mut tick: u32 = 360_000 + rng.below(10_000) as u32;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        tick += 1 + rng.below(30) as u32;
        // Mostly one event, sometimes a burst.
        let mut count = 1;
        while count < 8 && chance(&mut rng, 3) {
            count += 1;
        }
        let events = (0..count).map(|_| event(&mut rng)).collect();
        out.push(canonical!(Events, Events { tick, events }));
    }
    out
}

fn event(rng: &mut SplitMix64) -> Event {
    match rng.below(100) {
        0..=39 => {
            let words = 1 + rng.below(12) as usize;
            let text = (0..words)
                .map(|_| pick(rng, &WORDS))
                .collect::<Vec<_>>()
                .join(" ");
            Event::Chat(Chat {
                from: pick(rng, &NAMES).to_string(),
                text,
            })
        }
        40..=74 => Event::Kill(Kill {
            killer: rng.below(4096) as u16,
            victim: rng.below(4096) as u16,
            weapon: pick(rng, &WEAPONS),
            headshot: chance(rng, 4),
        }),
        75..=84 => Event::Join(pick(rng, &NAMES).to_string()),
        85..=96 => Event::Leave(rng.below(4096) as u16),
        _ => Event::RoundOver,
    }
}
