use crate::game::{
    Buttons, Chat, Entity, Event, Events, Input, Kill, Packet64, Snapshot, Team, Vec2, Weapon,
};

/// A packet as the benchmarks' `packet64` dataset has them.
pub fn packet64() -> Packet64 {
    Packet64 {
        is_alive: true,
        weapon_id: 2,
        team_id: 1,
        health: 87,
        pos_x: -310,
        pos_y: 1200,
        rotation: 64,
        score: 1250,
    }
}

/// One input frame.
pub fn input() -> Input {
    Input {
        seq: 4711,
        move_x: 1.0,
        move_y: -0.5,
        buttons: Buttons {
            fire: true,
            aim: true,
            jump: false,
            crouch: false,
            reload: false,
            use_item: false,
        },
        yaw: 270.0,
        pitch: -12.5,
    }
}

/// A snapshot of `n` entities.
pub fn snapshot(n: usize) -> Snapshot {
    let names = [
        "ada", "grace", "linus", "ken", "barbara", "dennis", "margaret", "edsger",
    ];
    let entities = (0..n)
        .map(|i| {
            let f = i as f32;
            Entity {
                id: i as u16 * 7 + 1,
                pos: Vec2 {
                    x: -500.0 + f * 13.25,
                    y: 200.0 - f * 7.5,
                },
                vel_x: (f * 1.5) % 64.0 - 32.0,
                vel_y: 3.0,
                yaw: (f * 37.0) % 360.0,
                // Wrapping as u8 arithmetic: what release builds always computed (a debug
                // build panicked on the overflow from 52 entities on).
                health: 100u8.wrapping_add((i as u8).wrapping_mul(3)) % 201,
                weapon: [
                    Weapon::Pistol,
                    Weapon::Rifle,
                    Weapon::Sniper,
                    Weapon::Rocket,
                ][i % 4],
                team: if i % 2 == 0 { Team::Red } else { Team::Blue },
                on_ground: i % 3 != 0,
                sprinting: i % 5 == 0,
                target: (i % 4 == 0).then_some(((i + 1) * 7) as u16),
                name: names[i % names.len()].to_string(),
            }
        })
        .collect();
    Snapshot {
        tick: 360_000,
        ack_seq: 4711,
        entities,
    }
}

/// A batch of chat and game events.
pub fn events() -> Events {
    Events {
        tick: 360_001,
        events: vec![
            Event::Join("grace".to_string()),
            Event::Chat(Chat {
                from: "ada".to_string(),
                text: "gg, nice shot".to_string(),
            }),
            Event::Kill(Kill {
                killer: 8,
                victim: 15,
                weapon: Weapon::Sniper,
                headshot: true,
            }),
            Event::Leave(22),
            Event::RoundOver,
        ],
    }
}
