use super::*;
use crate::rules::{INTEREST_RADIUS, MAX_SPEED, POS_STEP, VIEW_CAP};

fn input(seq: u32, move_x: f32, move_y: f32, aim: f32, fire: bool) -> sim::Input {
    sim::Input {
        seq,
        move_x,
        move_y,
        aim,
        fire,
        ..Default::default()
    }
}

/// A run: 40 players join, some leave, all steer, 300 ticks.
fn run(world: &mut World) -> Vec<Vec<sim::Entity>> {
    let mut rng = SplitMix64::new(99);
    let mut ids = Vec::new();
    let mut history = Vec::new();
    for t in 0..300u32 {
        if t < 40 {
            ids.push(world.join().unwrap());
        }
        if t == 100 || t == 150 {
            world.leave(ids.remove(3));
        }
        for &id in &ids {
            if rng.below(4) == 0 {
                let m = |rng: &mut SplitMix64| [-1.0, 0.0, 1.0][rng.below(3) as usize];
                let i = input(t, m(&mut rng), m(&mut rng), 90.0, rng.below(10) == 0);
                world.control(id, &i);
            }
        }
        world.step();
        history.push(world.entities().to_vec());
    }
    history
}

#[test]
fn the_same_run_gives_the_same_world() {
    let (mut a, mut b) = (World::new(), World::new());
    assert_eq!(a.entities(), b.entities());
    assert_eq!(run(&mut a), run(&mut b));
    assert_eq!(hot_spots(), hot_spots());
}

#[test]
fn every_value_is_on_its_wire_grid_and_within_the_rules() {
    let mut world = World::new();
    let history = run(&mut world);
    let half = HALF_MAP + POS_STEP;
    for (before, after) in history.iter().zip(&history[1..]) {
        for e in after {
            assert!(snap::on_grid(e), "{e:?}");
            assert!(e.x.abs() <= half && e.y.abs() <= half);
            assert!(e.vx.abs() <= MAX_SPEED && e.vy.abs() <= MAX_SPEED);
            assert!((1..=200).contains(&e.health));
            if let Some(b) = before.iter().find(|b| b.id == e.id) {
                let limit = MAX_SPEED / 60.0 + POS_STEP;
                assert!((e.x - b.x).abs() <= limit && (e.y - b.y).abs() <= limit);
                assert_eq!(e.kind, b.kind);
            }
        }
        let ids: Vec<u16> = after.iter().map(|e| e.id).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "in id order");
    }
    // NPCs move, and some stand still exactly (an unchanged entity is unchanged).
    let (first, last) = (&history[0], &history[history.len() - 1]);
    let npc = |v: &Vec<sim::Entity>| {
        v.iter()
            .filter(|e| e.id >= NPC_BASE)
            .cloned()
            .collect::<Vec<_>>()
    };
    let moved = npc(first)
        .iter()
        .zip(npc(last))
        .filter(|(a, b)| a.x != b.x || a.y != b.y)
        .count();
    assert!(moved > NPCS / 2, "{moved} NPCs moved");
    let still = history[200]
        .iter()
        .zip(&history[201])
        .filter(|(a, b)| a == b)
        .count();
    assert!(still > 0);
    let drifted = npc(first)
        .iter()
        .zip(npc(last))
        .any(|(a, b)| a.health != b.health);
    assert!(drifted);
}

#[test]
fn players_join_in_order_leave_and_ids_are_not_reused() {
    let mut world = World::new();
    assert_eq!(world.entities().len(), NPCS);
    assert_eq!(
        (world.join(), world.join(), world.join()),
        (Ok(1), Ok(2), Ok(3))
    );
    world.leave(2);
    world.leave(2);
    world.leave(NPC_BASE); // not a player: nothing
    assert_eq!(world.players(), 2);
    assert_eq!(world.entities().len(), NPCS + 2);
    assert_eq!(world.join(), Ok(4));
    let ids: Vec<u16> = world.entities().iter().take(4).map(|e| e.id).collect();
    assert_eq!(ids, [1, 3, 4, NPC_BASE]);
    let me = world.entity(4).unwrap();
    assert_eq!(
        (me.kind, me.health, me.vx, me.anim),
        (sim::Kind::Player, 100, 0.0, 0)
    );
    for _ in 5..NPC_BASE {
        world.join().unwrap();
    }
    assert_eq!(world.join(), Err(WorldFull));
    assert_eq!(world.players(), usize::from(NPC_BASE) - 2);
}

#[test]
fn inputs_drive_velocity_yaw_and_animation() {
    let mut world = World::new();
    let id = world.join().unwrap();
    let start = *world.entity(id).unwrap();
    world.control(id, &input(1, 1.0, -1.0, 180.0, false));
    let e = *world.entity(id).unwrap();
    assert_eq!(
        (e.vx, e.vy, e.yaw, e.anim),
        (6.0, -6.0, snap::yaw(180.0), 1)
    );
    assert_ne!(snap::yaw(180.0), 180.0); // 360 / 1023 steps
    for _ in 0..60 {
        world.step();
    }
    let moved = *world.entity(id).unwrap();
    // One second at 6 m/s on each axis, within a position step.
    assert!((moved.x - start.x - 6.0).abs() <= POS_STEP);
    assert!((moved.y - start.y + 6.0).abs() <= POS_STEP);
    world.control(id, &input(2, 0.0, 0.0, 0.0, true));
    let e = *world.entity(id).unwrap();
    assert_eq!((e.vx, e.vy, e.anim), (0.0, 0.0, 3));
    world.control(id, &input(3, 0.0, 0.0, 0.0, false));
    assert_eq!(world.entity(id).unwrap().anim, 0);
    world.control(NPC_BASE, &input(4, 1.0, 1.0, 0.0, false)); // not a player: ignored
    world.control(999, &input(4, 1.0, 1.0, 0.0, false));
}

#[test]
fn views_hold_the_player_and_only_what_is_near() {
    let mut world = World::new();
    let ids: Vec<u16> = (0..300).map(|_| world.join().unwrap()).collect();
    for _ in 0..30 {
        world.step();
    }
    let mut scratch = ViewScratch::default();
    assert!(!world.is_indexed());
    world.index();
    for &id in &ids {
        assert!(world.view_indexed(id, &mut scratch));
        let entities = world.collect(&scratch);
        let me = *world.entity(id).unwrap();
        assert!(entities.contains(&me));
        assert!(entities.len() <= VIEW_CAP);
        assert!(entities.windows(2).all(|w| w[0].id < w[1].id));
        for e in &entities {
            let (dx, dy) = (f64::from(e.x - me.x), f64::from(e.y - me.y));
            assert!(dx.hypot(dy) <= f64::from(INTEREST_RADIUS));
        }
        let center = world.slot(id).unwrap();
        let reference: Vec<u16> = view::view_brute_force(world.entities(), center)
            .into_iter()
            .map(|i| world.entities()[i].id)
            .collect();
        assert_eq!(entities.iter().map(|e| e.id).collect::<Vec<_>>(), reference);
    }
    // The hot spots crowd the views: some reach the cap.
    let full = ids
        .iter()
        .filter(|&&id| world.view_indexed(id, &mut scratch) && scratch.len() == VIEW_CAP)
        .count();
    assert!(full > 0);
    // A stale index gives nothing; `view` re-indexes.
    world.step();
    assert!(!world.view_indexed(ids[0], &mut scratch));
    assert!(scratch.is_empty());
    assert!(world.view(ids[0], &mut scratch));
    assert!(!world.view(NPC_BASE + 9999, &mut scratch));
}
