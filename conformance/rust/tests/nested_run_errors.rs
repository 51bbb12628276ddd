//! Pins the exact results (values, error kind, bit and path, reader position) of the
//! generated decoders, checkers and encoders of the types whose fixed-width nested
//! structs can share a word with their neighbours (`Input.buttons`, `Entity.pos`,
//! `Player.pos`, `Around.nothing`), so that packing a nested struct into its parent's
//! run changes nothing observable.
//!
//! Every type is read at each of the eight bit alignments and truncated after every
//! byte, so that the input ends at every bit of the value; the inputs are valid
//! encodings and random bytes (enum tags, bounds and quantization ranges fail). The
//! listing of one type is hashed; the hashes below were taken from the code before
//! nested structs were packed into runs. `BITWIRE_DUMP=dir` writes the listings, and
//! `BLESS=1` prints fresh hashes.

use std::fmt::Write as _;

use bitwire::{BitReader, BitWriter, Packed};
use bitwire_conformance::suites::{composite, game, stress};

/// FNV-1a, 64 bits.
fn fnv(text: &str) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn err(e: &bitwire::Error) -> String {
    format!("Err({:?} @{} {:?})", e.kind(), e.bit(), e.path_string())
}

/// `payload` placed after `shift` bits of `lead`: the value starts at bit `shift`.
fn shifted(lead: u8, payload: &[u8], shift: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    w.write_bits(u64::from(lead) & ((1u64 << shift) - 1), shift);
    for &b in payload {
        w.write_bits(u64::from(b), 8);
    }
    w.finish();
    out
}

/// The encoding of `v` written after `shift` zero bits, or the error.
fn encode_at<T: Packed>(v: &T, shift: u32) -> String {
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    w.write_bits(0, shift);
    match v.write(&mut w) {
        Ok(()) => {
            let bits = w.bit_pos();
            w.finish();
            format!("Ok({bits} {out:02x?})")
        }
        Err(e) => err(&e),
    }
}

/// Reads and checks every truncation of every input at every alignment; returns the
/// listing and the values decoded from whole inputs.
fn listing<T: Packed + std::fmt::Debug>(inputs: &[Vec<u8>], out: &mut String) -> Vec<T> {
    let mut whole = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        for shift in 0..8u32 {
            let data = shifted(0x5a, input, shift);
            for n in 0..=data.len() {
                let bytes = &data[..n];
                if (n as u64) * 8 < u64::from(shift) {
                    continue;
                }
                let mut r = BitReader::new(bytes);
                r.read_bits(shift).expect("lead bits");
                let read = match T::read(&mut r) {
                    Ok(v) => {
                        let line = format!("Ok({} {v:?})", r.bit_pos());
                        if n == data.len() && shift == 0 {
                            whole.push(v);
                        }
                        line
                    }
                    Err(e) => err(&e),
                };
                let mut r = BitReader::new(bytes);
                r.read_bits(shift).expect("lead bits");
                let check = match T::check(&mut r) {
                    Ok(()) => format!("Ok({})", r.bit_pos()),
                    Err(e) => err(&e),
                };
                // `check` still reads nested structs field by field (the old plan), so it
                // is an independent reference for the nested decoder's errors.
                let read_outcome = match read.strip_prefix("Ok(") {
                    Some(rest) => format!("Ok({})", rest.split(' ').next().unwrap_or("")),
                    None => read.clone(),
                };
                assert_eq!(read_outcome, check, "{k} shift {shift} len {n}");
                writeln!(out, "{k} {shift} {n}: {read} | {check}").unwrap();
            }
        }
    }
    for (i, v) in whole.iter().enumerate() {
        for shift in 0..8 {
            writeln!(out, "enc {i} {shift}: {}", encode_at(v, shift)).unwrap();
        }
    }
    whole
}

/// Valid encodings of values read from random bytes, plus the random bytes themselves.
fn inputs<T: Packed>(seed: u64, len: usize, count: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed);
    let mut out = vec![vec![0u8; len], vec![0xff; len]];
    let mut valid = 0;
    for _ in 0..count * 20 {
        if valid >= count {
            break;
        }
        let bytes = rng.bytes(len);
        let mut r = BitReader::new(&bytes);
        if let Ok(v) = T::read(&mut r) {
            let mut enc = Vec::new();
            bitwire::encode_packed(&v, &mut enc).expect("re-encodes");
            out.push(enc);
            valid += 1;
        }
    }
    for _ in 0..count {
        out.push(rng.bytes(len));
    }
    out
}

/// The listing of `T` over [`inputs`]`(seed, len, count)`, then the encodings at every
/// alignment of the values `mutants` derives from each value decoded from a whole input.
fn listing_with_mutants<T: Packed + std::fmt::Debug>(
    (seed, len, count): (u64, usize, usize),
    mutants: impl Fn(&T) -> Vec<(&'static str, T)>,
) -> String {
    let mut s = String::new();
    let values = listing::<T>(&inputs::<T>(seed, len, count), &mut s);
    for (i, v) in values.iter().enumerate() {
        for (name, m) in &mutants(v) {
            for shift in 0..8 {
                writeln!(s, "mut {i} {name} {shift}: {}", encode_at(m, shift)).unwrap();
            }
        }
    }
    s
}

/// The listing of `T` over [`inputs`]`(seed, len, count)`, without mutants.
fn plain_listing<T: Packed + std::fmt::Debug>(inputs: (u64, usize, usize)) -> String {
    listing_with_mutants::<T>(inputs, |_| Vec::new())
}

/// `v` with fields out of range (alone and in pairs), and with other buttons.
fn input_mutants(v: &game::Input) -> Vec<(&'static str, game::Input)> {
    vec![
        ("move_x", game::Input { move_x: 1.5, ..*v }),
        (
            "move_y",
            game::Input {
                move_y: f32::NAN,
                ..*v
            },
        ),
        ("yaw", game::Input { yaw: 400.0, ..*v }),
        ("pitch", game::Input { pitch: -91.0, ..*v }),
        (
            "yaw+pitch",
            game::Input {
                yaw: -1.0,
                pitch: 99.0,
                ..*v
            },
        ),
        (
            "move_y+yaw",
            game::Input {
                move_y: 7.0,
                yaw: 999.0,
                ..*v
            },
        ),
        (
            "buttons",
            game::Input {
                buttons: game::Buttons {
                    fire: true,
                    aim: false,
                    jump: true,
                    crouch: false,
                    reload: true,
                    use_item: true,
                },
                ..*v
            },
        ),
    ]
}

/// `v` with fields out of range, inside and next to the nested `pos`.
fn entity_mutants(v: &game::Entity) -> Vec<(&'static str, game::Entity)> {
    vec![
        (
            "id",
            game::Entity {
                id: 5000,
                ..v.clone()
            },
        ),
        (
            "pos.x",
            game::Entity {
                pos: game::Vec2 { x: 2000.0, y: 0.0 },
                ..v.clone()
            },
        ),
        (
            "pos.y",
            game::Entity {
                pos: game::Vec2 {
                    x: 1.0,
                    y: f32::NAN,
                },
                ..v.clone()
            },
        ),
        (
            "pos.x+vel_x",
            game::Entity {
                pos: game::Vec2 { x: -2000.0, y: 0.0 },
                vel_x: 100.0,
                ..v.clone()
            },
        ),
        (
            "vel_x",
            game::Entity {
                vel_x: 100.0,
                ..v.clone()
            },
        ),
        (
            "health",
            game::Entity {
                health: 201,
                ..v.clone()
            },
        ),
    ]
}

/// The listing of every type, by name.
fn suite() -> Vec<(&'static str, String)> {
    vec![
        ("game.Buttons", plain_listing::<game::Buttons>((1, 2, 4))),
        (
            "game.Input",
            listing_with_mutants::<game::Input>((2, 8, 8), input_mutants),
        ),
        ("game.Vec2", plain_listing::<game::Vec2>((3, 5, 6))),
        (
            "game.Entity",
            listing_with_mutants::<game::Entity>((4, 20, 8), entity_mutants),
        ),
        ("game.Snapshot", plain_listing::<game::Snapshot>((5, 40, 6))),
        (
            "composite.Around",
            plain_listing::<composite::Around>((6, 2, 4)),
        ),
        ("stress.Pos", plain_listing::<stress::Pos>((7, 5, 6))),
        ("stress.Player", plain_listing::<stress::Player>((8, 40, 6))),
    ]
}

/// FNV-1a of each type's listing, taken before nested structs joined runs.
const EXPECTED: &[(&str, u64)] = &[
    ("game.Buttons", 0xfee47fc1e5532de7),
    ("game.Input", 0x82abfa04f3bb6d37),
    ("game.Vec2", 0xc9035fa2d328b6b1),
    ("game.Entity", 0x442606a2aad1a9e5),
    ("game.Snapshot", 0x28f9a7c8a3f5504b),
    ("composite.Around", 0x602157980e103cef),
    ("stress.Pos", 0xf0da54dbe0402e37),
    ("stress.Player", 0x8bf64ffa022741ed),
];

#[test]
fn nested_struct_errors_are_unchanged() {
    let all = suite();
    if let Some(dir) = std::env::var_os("BITWIRE_DUMP") {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in &all {
            std::fs::write(std::path::Path::new(&dir).join(format!("{name}.txt")), text).unwrap();
        }
    }
    let got: Vec<(&str, u64)> = all.iter().map(|(n, t)| (*n, fnv(t))).collect();
    if std::env::var_os("BLESS").is_some() {
        for (n, h) in &got {
            println!("    ({n:?}, {h:#018x}),");
        }
        panic!("BLESS: new hashes printed above; paste them into EXPECTED");
    }
    for (name, text) in &all {
        assert!(text.lines().count() > 50, "{name}: too few cases");
    }
    assert_eq!(got, EXPECTED);
}
