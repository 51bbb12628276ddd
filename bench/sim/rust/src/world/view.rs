//! The per-client view: the entities within `INTEREST_RADIUS` of a player, the
//! `VIEW_CAP` nearest of them (the player itself always among them; equal distances
//! ordered by id), in increasing id order. A uniform grid of square cells, rebuilt
//! once per tick, limits a query to the cells the interest circle touches: 1000
//! clients × 60 Hz look at a few hundred candidates each, not at the whole world.

use crate::rules::{HALF_MAP, INTEREST_RADIUS, VIEW_CAP};
use crate::sim;

/// The cell's side, metres: a quarter of the radius, so a query visits at most 9 × 9
/// cells and skips the corners the circle does not reach.
const CELL: f64 = INTEREST_RADIUS as f64 / 4.0;
/// The grid covers the whole wire range of positions (-512..=512), which holds the map.
const ORIGIN: f64 = -512.0;
const COLS: usize = (1024.0 / CELL) as usize + 1;
const RADIUS: f64 = INTEREST_RADIUS as f64;

const _: () = assert!(HALF_MAP <= 512.0, "the grid covers the wire range");

/// An entity in the grid: its position and its index in the world's entity list.
#[derive(Debug, Clone, Copy, Default)]
struct Item {
    x: f64,
    y: f64,
    index: u32,
}

/// The entities by cell: `items[starts[c]..starts[c + 1]]` are cell `c`'s, in index
/// (so id) order. Its buffers are reused from tick to tick.
#[derive(Debug, Default)]
pub struct SpatialGrid {
    starts: Vec<u32>,
    items: Vec<Item>,
    /// Each entity's cell, then each cell's next free slot while filling.
    cells: Vec<u32>,
    fill: Vec<u32>,
}

fn cell_of(v: f64) -> usize {
    (((v - ORIGIN) / CELL).floor().max(0.0) as usize).min(COLS - 1)
}

/// A candidate of a view: its sort key (squared distance's bits, the player itself 0)
/// and its entity index.
type Candidate = (u64, u32);

/// A query's reusable buffers, and its result.
#[derive(Debug, Default)]
pub struct ViewScratch {
    candidates: Vec<Candidate>,
}

impl ViewScratch {
    /// The entity indices of the last view, in increasing order.
    pub fn indices(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.candidates.iter().map(|c| c.1 as usize)
    }

    /// Entities in the last view.
    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    /// Whether the last view was empty (no such player: a view holds its player).
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.candidates.clear();
    }
}

impl SpatialGrid {
    /// Indexes `entities` (a counting sort by cell).
    pub fn build(&mut self, entities: &[sim::Entity]) {
        self.starts.clear();
        self.starts.resize(COLS * COLS + 1, 0);
        self.cells.clear();
        for e in entities {
            let c = cell_of(f64::from(e.y)) * COLS + cell_of(f64::from(e.x));
            self.cells.push(c as u32);
            self.starts[c + 1] += 1;
        }
        for c in 0..COLS * COLS {
            self.starts[c + 1] += self.starts[c];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..COLS * COLS]);
        self.items.clear();
        self.items.resize(entities.len(), Item::default());
        for (index, (e, &c)) in entities.iter().zip(&self.cells).enumerate() {
            let slot = &mut self.fill[c as usize];
            self.items[*slot as usize] = Item {
                x: f64::from(e.x),
                y: f64::from(e.y),
                index: index as u32,
            };
            *slot += 1;
        }
    }

    /// Entities indexed.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The view of the entity at `center` (an index of the list the grid was built
    /// from, at position `(x, y)`) into `scratch`.
    pub fn view(&self, center: usize, x: f64, y: f64, scratch: &mut ViewScratch) {
        let out = &mut scratch.candidates;
        out.clear();
        let r2 = RADIUS * RADIUS;
        let (x0, x1) = (cell_of(x - RADIUS), cell_of(x + RADIUS));
        let (y0, y1) = (cell_of(y - RADIUS), cell_of(y + RADIUS));
        for cy in y0..=y1 {
            let dy = axis_gap(y, cy);
            for cx in x0..=x1 {
                let dx = axis_gap(x, cx);
                if dx * dx + dy * dy > r2 {
                    continue; // a corner cell the circle does not reach
                }
                let c = cy * COLS + cx;
                let items = &self.items[self.starts[c] as usize..self.starts[c + 1] as usize];
                for item in items {
                    let (ex, ey) = (item.x - x, item.y - y);
                    let d2 = ex * ex + ey * ey;
                    if d2 <= r2 {
                        out.push((view_key(d2, item.index as usize == center), item.index));
                    }
                }
            }
        }
        nearest_in_id_order(out);
    }
}

/// The distance from `v` to cell column (or row) `c` along one axis (0 inside it).
fn axis_gap(v: f64, c: usize) -> f64 {
    let lo = ORIGIN + c as f64 * CELL;
    let hi = lo + CELL;
    if v < lo {
        lo - v
    } else if v > hi {
        v - hi
    } else {
        0.0
    }
}

/// The sort key of a candidate at squared distance `d2`: non-negative floats order as
/// their bits; the player itself comes before anything at distance 0.
fn view_key(d2: f64, itself: bool) -> u64 {
    if itself {
        0
    } else {
        d2.to_bits() + 1
    }
}

/// Keeps the `VIEW_CAP` nearest of `candidates` (by key, then index) and orders them
/// by index.
fn nearest_in_id_order(candidates: &mut Vec<Candidate>) {
    if candidates.len() > VIEW_CAP {
        candidates.select_nth_unstable(VIEW_CAP - 1);
        candidates.truncate(VIEW_CAP);
    }
    candidates.sort_unstable_by_key(|c| c.1);
}

/// The view by brute force over every entity: what [`SpatialGrid::view`] must give.
#[cfg(test)]
pub(crate) fn view_brute_force(entities: &[sim::Entity], center: usize) -> Vec<usize> {
    let (x, y) = (f64::from(entities[center].x), f64::from(entities[center].y));
    let mut all: Vec<Candidate> = entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (dx, dy) = (f64::from(e.x) - x, f64::from(e.y) - y);
            let d2 = dx * dx + dy * dy;
            (d2 <= RADIUS * RADIUS).then_some((view_key(d2, i == center), i as u32))
        })
        .collect();
    all.sort_unstable();
    all.truncate(VIEW_CAP);
    let mut ids: Vec<usize> = all.into_iter().map(|c| c.1 as usize).collect();
    ids.sort_unstable();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::rng::SplitMix64;
    use crate::world::snap;

    fn entity(id: u16, x: f64, y: f64) -> sim::Entity {
        sim::Entity {
            id,
            x: snap::position(x),
            y: snap::position(y),
            ..Default::default()
        }
    }

    fn grid_view(grid: &SpatialGrid, entities: &[sim::Entity], center: usize) -> Vec<usize> {
        let mut scratch = ViewScratch::default();
        let e = &entities[center];
        grid.view(center, f64::from(e.x), f64::from(e.y), &mut scratch);
        scratch.indices().collect()
    }

    /// Crowds, sparse areas, the map's edges and corners: the grid's view equals the
    /// brute-force view for every entity.
    #[test]
    fn grid_view_equals_brute_force() {
        let mut rng = SplitMix64::new(15);
        for round in 0..6 {
            let crowds = [
                (0.0, 0.0),
                (-480.0, 490.0),
                (300.0, -200.0),
                (499.0, -499.0),
            ];
            let entities: Vec<sim::Entity> = (0..1500u16)
                .map(|i| {
                    let (cx, cy) = crowds[rng.below(4) as usize];
                    let sigma = [5.0, 40.0, 150.0][round % 3];
                    let x = (cx + rng.normal() * sigma).clamp(-500.0, 500.0);
                    let y = (cy + rng.normal() * sigma).clamp(-500.0, 500.0);
                    entity(i + 1, x, y)
                })
                .collect();
            let mut grid = SpatialGrid::default();
            grid.build(&entities);
            assert_eq!(grid.len(), entities.len());
            for center in (0..entities.len()).step_by(7) {
                let view = grid_view(&grid, &entities, center);
                assert_eq!(view, view_brute_force(&entities, center), "entity {center}");
                assert!(view.contains(&center));
                assert!(view.len() <= VIEW_CAP);
            }
        }
    }

    #[test]
    fn the_player_is_kept_among_many_at_the_same_point() {
        // 200 entities on one point: the player (index 150) is in its own view, with
        // the lowest ids after it.
        let entities: Vec<sim::Entity> = (0..200u16).map(|i| entity(i, 10.0, 10.0)).collect();
        let mut grid = SpatialGrid::default();
        grid.build(&entities);
        let view = grid_view(&grid, &entities, 150);
        assert_eq!(view.len(), VIEW_CAP);
        assert!(view.contains(&150));
        assert_eq!(
            view[..VIEW_CAP - 1],
            (0..VIEW_CAP - 1).collect::<Vec<_>>()[..]
        );
    }

    #[test]
    fn the_radius_is_inclusive_and_ties_go_to_lower_ids() {
        let entities = vec![
            entity(1, 0.0, 0.0),
            entity(2, 120.0, 0.0),      // exactly on the circle: in
            entity(3, 0.0, -120.0),     // in
            entity(4, 120.015625, 0.0), // one step outside: out
            entity(5, 85.0, 85.0),      // 120.2 m: out
        ];
        let mut grid = SpatialGrid::default();
        grid.build(&entities);
        assert_eq!(grid_view(&grid, &entities, 0), [0, 1, 2]);
        assert_eq!(grid_view(&grid, &entities, 3), [1, 3, 4]);
    }
}
