//! The peers' integers are bitwire's: for every quantized field, `wire`'s `q` of a value
//! is the integer bitwire's generated encoder writes at that field's bits, and `wire`'s
//! value of a `q` is what bitwire's generated decoder reads from those bits — for every
//! grid point (exhaustively), for random values between them, and at the range's ends.

mod codec_support;

use bitwire::{BitReader, Packed};
use bitwire_sim::codec::wire::{self, Grid};
use bitwire_sim::sim;
use bitwire_sim::world::rng::SplitMix64;

/// A quantized field: its grid, where bitwire puts it (bit offset and width, from the
/// generated code's `Schema:` lines), and how to set it.
struct Field<T> {
    grid: Grid,
    bit: u32,
    width: u32,
    set: fn(&mut T, f32),
    get: fn(&T) -> f32,
}

const ENTITY: [Field<sim::Entity>; 5] = [
    Field {
        grid: wire::X,
        bit: 13,
        width: 17,
        set: |e, v| e.x = v,
        get: |e| e.x,
    },
    Field {
        grid: wire::Y,
        bit: 30,
        width: 17,
        set: |e, v| e.y = v,
        get: |e| e.y,
    },
    Field {
        grid: wire::YAW,
        bit: 47,
        width: 10,
        set: |e, v| e.yaw = v,
        get: |e| e.yaw,
    },
    Field {
        grid: wire::VX,
        bit: 57,
        width: 10,
        set: |e, v| e.vx = v,
        get: |e| e.vx,
    },
    Field {
        grid: wire::VY,
        bit: 67,
        width: 10,
        set: |e, v| e.vy = v,
        get: |e| e.vy,
    },
];

const INPUT: [Field<sim::Input>; 3] = [
    Field {
        grid: wire::MOVE_X,
        bit: 48,
        width: 8,
        set: |i, v| i.move_x = v,
        get: |i| i.move_x,
    },
    Field {
        grid: wire::MOVE_Y,
        bit: 56,
        width: 8,
        set: |i, v| i.move_y = v,
        get: |i| i.move_y,
    },
    Field {
        grid: wire::AIM,
        bit: 64,
        width: 10,
        set: |i, v| i.aim = v,
        get: |i| i.aim,
    },
];

/// The `width` bits at `bit` of `bytes`.
fn bits_at(bytes: &[u8], bit: u32, width: u32) -> u64 {
    let mut r = BitReader::new(bytes);
    r.skip_bits(bit.into()).unwrap();
    r.read_bits(width).unwrap()
}

/// `bytes` with the `width` bits at `bit` set to `q`.
fn with_bits(bytes: &[u8], bit: u32, width: u32, q: u64) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for i in 0..width {
        let p = (bit + i) as usize;
        let mask = 1u8 << (p % 8);
        if q >> i & 1 == 1 {
            out[p / 8] |= mask;
        } else {
            out[p / 8] &= !mask;
        }
    }
    out
}

/// For `field` of `value`: bitwire writes `wire`'s `q` of `v`; and for every grid
/// point `q`, bitwire reads `wire`'s value of `q` (the same bits) and `wire` gives `q`
/// back.
fn check_field<T: Packed + Clone>(value: &T, field: &Field<T>, rng: &mut SplitMix64) {
    let name = field.grid.field;
    let written = |v: f32| {
        let mut m = value.clone();
        (field.set)(&mut m, v);
        let bytes = m.encode_to_vec().expect("in range");
        bits_at(&bytes, field.bit, field.width)
    };
    // Between the grid points, and the range's ends.
    let (min, max) = (field.grid.min as f32, field.grid.max as f32);
    for v in [min, max, (min + max) / 2.0] {
        assert_eq!(field.grid.q(v).unwrap(), written(v), "{name} {v}");
    }
    for _ in 0..2000 {
        let v = min + (max - min) * rng.unit() as f32;
        assert_eq!(field.grid.q(v).unwrap(), written(v), "{name} {v}");
    }
    // Every grid point.
    let bytes = value.encode_to_vec().unwrap();
    for q in 0..=field.grid.steps {
        let v = field.grid.value(q).unwrap();
        let decoded = T::decode(&with_bits(&bytes, field.bit, field.width, q)).unwrap();
        let got = (field.get)(&decoded);
        assert_eq!(got.to_bits(), v.to_bits(), "{name} q {q}");
        assert_eq!(field.grid.q(v), Ok(q), "{name} q {q}");
    }
    // Beyond the grid: bitwire's decoder and `wire` both refuse `steps + 1` when the
    // field's bits can hold it.
    let over = field.grid.steps + 1;
    if over < 1 << field.width {
        assert!(T::decode(&with_bits(&bytes, field.bit, field.width, over)).is_err());
        assert!(field.grid.value(over).is_err(), "{name}");
    }
}

#[test]
fn entity_grids_are_bitwires() {
    let mut rng = SplitMix64::new(30);
    let e = codec_support::entity(&mut rng, 77);
    for field in &ENTITY {
        check_field(&e, field, &mut rng);
    }
}

#[test]
fn input_grids_are_bitwires() {
    let mut rng = SplitMix64::new(31);
    let input = codec_support::input(&mut rng);
    for field in &INPUT {
        check_field(&input, field, &mut rng);
    }
}

#[test]
fn values_bitwire_refuses_wire_refuses() {
    for grid in ENTITY
        .iter()
        .map(|f| f.grid)
        .chain(INPUT.iter().map(|f| f.grid))
    {
        let (min, max) = (grid.min as f32, grid.max as f32);
        for v in [f32::NAN, f32::INFINITY, min - 0.001, max + 0.001] {
            assert!(grid.q(v).is_err(), "{} {v}", grid.field);
        }
    }
    let e = sim::Entity {
        x: 512.001,
        ..sim::Entity::default()
    };
    assert!(e.encode_to_vec().is_err());
    assert!(wire::Entity::from_sim(&e).is_err());
}

#[test]
fn snapping_is_a_bitwire_round_trip() {
    let mut rng = SplitMix64::new(32);
    for _ in 0..5000 {
        let mut e = codec_support::entity(&mut rng, 1);
        e.x = -512.0 + 1024.0 * rng.unit() as f32;
        e.vy = -64.0 + 127.875 * rng.unit() as f32;
        let back = sim::Entity::decode(&e.encode_to_vec().unwrap()).unwrap();
        assert_eq!(wire::X.snap(e.x).unwrap().to_bits(), back.x.to_bits());
        assert_eq!(wire::VY.snap(e.vy).unwrap().to_bits(), back.vy.to_bits());
    }
}
