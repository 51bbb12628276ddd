// The simulation's fixed numbers (bench/sim/README.md, "The world"), as the Rust side has
// them in bench/sim/rust/src/rules.rs. The TypeScript clients and the live view read them
// from here only; test/rules.test.ts checks every one against the Rust `rules_json()`.

/** Ticks per second. */
export const TICK_HZ = 60;
/** The map is the square [-HALF_MAP, HALF_MAP]² metres. */
export const HALF_MAP = 500;
/** A client sees the entities within this distance of its player (metres) ... */
export const INTEREST_RADIUS = 120;
/** ... at most this many, the nearest first (its own player always among them). */
export const VIEW_CAP = 128;
/** The fastest anything moves, metres per second. */
export const MAX_SPEED = 8;
/** A player's speed at full stick, metres per second. */
export const PLAYER_SPEED = 6;
/** NPCs in the world (ids after the players' range). */
export const NPCS = 256;
/** The first NPC id; players get 1, 2, ... up to `NPC_BASE - 1`. */
export const NPC_BASE = 2048;
/** A client reports its round-trip time in every `RTT_EVERY`-th input. */
export const RTT_EVERY = 30;
/** The fixed seed of the world (NPCs) and of the clients' behaviour (a u64: a bigint). */
export const SEED = 0x51a1_0015n;
/** Position tolerance of the continuity check: one quantization step of `x`/`y`. */
export const POS_STEP = 0.015625;

/** The tick period in milliseconds. */
export const TICK_MS = 1000 / TICK_HZ;

/** The rules in the shape of Rust's `rules_json()` (`simserver --rules`), for the comparison. */
export function rulesJson(): Record<string, number | bigint> {
  return {
    tick_hz: TICK_HZ,
    half_map: HALF_MAP,
    interest_radius: INTEREST_RADIUS,
    view_cap: VIEW_CAP,
    max_speed: MAX_SPEED,
    player_speed: PLAYER_SPEED,
    npcs: NPCS,
    npc_base: NPC_BASE,
    rtt_every: RTT_EVERY,
    seed: SEED,
    pos_step: POS_STEP,
  };
}
