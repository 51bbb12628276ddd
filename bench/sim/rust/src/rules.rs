//! The simulation's fixed numbers, shared by the server, the Rust clients and their
//! checks (bench/sim/README.md, "The world"; the TypeScript clients copy them from
//! there, and `bench/sim/ts` tests that the copies match this file's `rules.json`).

/// Ticks per second.
pub const TICK_HZ: u32 = 60;
/// The map is the square [-HALF_MAP, HALF_MAP]² metres.
pub const HALF_MAP: f32 = 500.0;
/// A client sees the entities within this distance of its player (metres) ...
pub const INTEREST_RADIUS: f32 = 120.0;
/// ... at most this many, the nearest first (its own player always among them).
pub const VIEW_CAP: usize = 128;
/// The fastest anything moves, metres per second.
pub const MAX_SPEED: f32 = 8.0;
/// A player's speed at full stick, metres per second.
pub const PLAYER_SPEED: f32 = 6.0;
/// NPCs in the world (ids after the players' range).
pub const NPCS: usize = 256;
/// The first NPC id; players get 1, 2, ... up to `NPC_BASE - 1`.
pub const NPC_BASE: u16 = 2048;
/// A client reports its round-trip time in every `RTT_EVERY`-th input.
pub const RTT_EVERY: u32 = 30;
/// The fixed seed of the world (NPCs) and of the clients' behaviour.
pub const SEED: u64 = 0x51A1_0015;
/// Position tolerance of the continuity check: one quantization step of `x`/`y`.
pub const POS_STEP: f32 = 0.015625;

/// The tick period in seconds.
pub fn tick_seconds() -> f64 {
    1.0 / f64::from(TICK_HZ)
}

/// The rules as JSON (`simserver --rules` prints it), so the TypeScript clients can be
/// checked against the same numbers.
pub fn rules_json() -> serde_json::Value {
    serde_json::json!({
        "tick_hz": TICK_HZ,
        "half_map": HALF_MAP,
        "interest_radius": INTEREST_RADIUS,
        "view_cap": VIEW_CAP,
        "max_speed": MAX_SPEED,
        "player_speed": PLAYER_SPEED,
        "npcs": NPCS,
        "npc_base": NPC_BASE,
        "rtt_every": RTT_EVERY,
        "seed": SEED,
        "pos_step": POS_STEP,
    })
}
