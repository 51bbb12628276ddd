//! What a simulated player does (bench/sim/README.md, "simclient"): it walks towards
//! random waypoints near the world's hot spots, stands still a moment when it gets
//! there, looks where it walks and fires now and then — from the seed `SEED + i` of
//! client `i`, so a run's inputs are the same every time given the same snapshots.

use crate::rules::{HALF_MAP, SEED};
use crate::world::rng::SplitMix64;
use crate::world::{hot_spots, HOT_SPOTS};

/// How far from its hot spot a waypoint lies (standard deviation, metres).
const WAYPOINT_SIGMA: f64 = 25.0;
/// Waypoints keep this far inside the map's edge, metres.
const MARGIN: f64 = 10.0;
/// A player this close to its waypoint has arrived, metres.
const ARRIVED: f64 = 1.0;
/// After arriving it stands still for up to this many ticks (2 s).
const PAUSE_TICKS: u64 = 120;
/// A burst of fire starts with probability 1 in this many ticks (every 3 s on average)
/// ...
const FIRE_ONE_IN: u64 = 180;
/// ... and lasts this many ticks (half a second).
const FIRE_TICKS: u32 = 30;

/// One tick's controls: the input's fields besides `seq`, `ack` and `rtt_us`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Controls {
    /// Movement axes, -1..=1 (a unit vector while walking).
    pub move_x: f32,
    /// See `move_x`.
    pub move_y: f32,
    /// Where the player looks, degrees in 0..360.
    pub aim: f32,
    /// Firing.
    pub fire: bool,
}

/// One client's behaviour.
#[derive(Debug, Clone)]
pub struct Behaviour {
    rng: SplitMix64,
    phase: f64,
    hot: [(f32, f32); HOT_SPOTS],
    waypoint: Option<(f64, f64)>,
    /// Ticks left standing still.
    pause: u64,
    /// Ticks left in the current burst of fire.
    firing: u32,
    aim: f32,
}

impl Behaviour {
    /// The behaviour of client `i` (seed `SEED + i`).
    pub fn new(i: usize) -> Behaviour {
        let mut rng = SplitMix64::new(SEED.wrapping_add(i as u64));
        Behaviour {
            phase: rng.unit(),
            rng,
            hot: hot_spots(),
            waypoint: None,
            pause: 0,
            firing: 0,
            aim: 0.0,
        }
    }

    /// When in the tick period this client sends its inputs, a fraction in `0..1`:
    /// clients that connect at the same moment would otherwise all send at the same
    /// point of the server's tick, and every RTT of a run would share one arbitrary
    /// phase (measured: p50 from 13 to 16 ms over five 10-client runs without it).
    pub fn phase(&self) -> f64 {
        self.phase
    }

    /// This tick's controls, for a player at `at` (`None`: not known yet — before the
    /// first snapshot — so it stands still).
    pub fn next(&mut self, at: Option<(f32, f32)>) -> Controls {
        let fire = self.fire();
        let Some((x, y)) = at else {
            return Controls {
                fire,
                ..Controls::default()
            };
        };
        let (x, y) = (f64::from(x), f64::from(y));
        let (wx, wy) = match self.waypoint {
            Some(w) => w,
            None => self.new_waypoint(),
        };
        let (dx, dy) = (wx - x, wy - y);
        let d = dx.hypot(dy);
        if d < ARRIVED {
            self.waypoint = None;
            self.pause = self.rng.below(PAUSE_TICKS + 1);
        }
        if self.pause > 0 || d < ARRIVED {
            self.pause = self.pause.saturating_sub(1);
            return Controls {
                aim: self.aim,
                fire,
                ..Controls::default()
            };
        }
        self.aim = degrees(dy.atan2(dx));
        Controls {
            move_x: (dx / d) as f32,
            move_y: (dy / d) as f32,
            aim: self.aim,
            fire,
        }
    }

    /// Whether it fires this tick: bursts that start at random.
    fn fire(&mut self) -> bool {
        if self.firing == 0 && self.rng.below(FIRE_ONE_IN) == 0 {
            self.firing = FIRE_TICKS;
        }
        let fire = self.firing > 0;
        self.firing = self.firing.saturating_sub(1);
        fire
    }

    /// A new waypoint near a random hot spot, inside the map.
    fn new_waypoint(&mut self) -> (f64, f64) {
        let (hx, hy) = self.hot[self.rng.below(HOT_SPOTS as u64) as usize];
        let edge = f64::from(HALF_MAP) - MARGIN;
        let x = f64::from(hx) + WAYPOINT_SIGMA * self.rng.normal();
        let y = f64::from(hy) + WAYPOINT_SIGMA * self.rng.normal();
        let w = (x.clamp(-edge, edge), y.clamp(-edge, edge));
        self.waypoint = Some(w);
        w
    }
}

/// An angle in radians as degrees in `0..360`.
fn degrees(radians: f64) -> f32 {
    let d = radians.to_degrees().rem_euclid(360.0) as f32;
    // `rem_euclid` of a tiny negative angle rounds to 360 itself.
    if d >= 360.0 {
        0.0
    } else {
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::wire;

    #[test]
    fn walks_to_its_waypoints_and_stays_on_the_map() {
        let mut b = Behaviour::new(3);
        let (mut x, mut y) = (0.0f32, 0.0f32);
        let (mut moving, mut standing, mut firing) = (0, 0, 0);
        for _ in 0..60 * 600 {
            let c = b.next(Some((x, y)));
            for (grid, v) in [(wire::MOVE_X, c.move_x), (wire::MOVE_Y, c.move_y)] {
                assert!(grid.q(v).is_ok(), "{v}");
            }
            assert!(wire::AIM.q(c.aim).is_ok() && c.aim < 360.0, "{}", c.aim);
            if c.move_x != 0.0 || c.move_y != 0.0 {
                moving += 1;
                let len = c.move_x.hypot(c.move_y);
                assert!((len - 1.0).abs() < 1e-4, "{len}");
            } else {
                standing += 1;
            }
            firing += usize::from(c.fire);
            // The server's rule: velocity = move × PLAYER_SPEED, for 1/60 s.
            x += c.move_x * crate::rules::PLAYER_SPEED / 60.0;
            y += c.move_y * crate::rules::PLAYER_SPEED / 60.0;
            assert!(x.abs() <= HALF_MAP && y.abs() <= HALF_MAP, "({x}, {y})");
        }
        // Ten minutes: mostly walking (waypoints are hundreds of metres apart), some
        // pauses, bursts of fire about a sixth of the time.
        assert!(
            moving > standing * 5,
            "{moving} moving, {standing} standing"
        );
        assert!(standing > 0);
        assert!((2000..10_000).contains(&firing), "{firing} ticks firing");
    }

    #[test]
    fn phases_spread_over_the_period() {
        let phases: Vec<f64> = (0..1000).map(|i| Behaviour::new(i).phase()).collect();
        assert!(phases.iter().all(|p| (0.0..1.0).contains(p)));
        for quarter in 0..4 {
            let range = f64::from(quarter) / 4.0..f64::from(quarter + 1) / 4.0;
            let n = phases.iter().filter(|p| range.contains(p)).count();
            assert!((200..300).contains(&n), "{n} in {range:?}");
        }
    }

    #[test]
    fn stands_still_until_it_knows_where_it_is() {
        let mut b = Behaviour::new(0);
        let c = b.next(None);
        assert_eq!((c.move_x, c.move_y, c.aim), (0.0, 0.0, 0.0));
    }

    #[test]
    fn the_seed_decides() {
        let run = |i| {
            let mut b = Behaviour::new(i);
            (0..600)
                .map(|t| b.next(Some((t as f32 * 0.01, 5.0))))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }

    #[test]
    fn angles_are_in_range() {
        assert_eq!(degrees(-1e-20), 0.0);
        assert_eq!(degrees(std::f64::consts::FRAC_PI_2), 90.0);
        assert_eq!(degrees(-std::f64::consts::FRAC_PI_2), 270.0);
    }
}
