//! `bincode_plain`: the report's plain-data cases — lists of fixed-width numbers (100 and
//! 1,000 elements; larger sizes are in `tests/large.rs`), a 108-byte struct, mixed widths.

use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, extra, put};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
pub struct U64s {
    pub v: Vec<u64>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
pub struct U8s {
    pub v: Vec<u8>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Raw {
    v: Vec<u8>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct I32s {
    v: Vec<i32>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct F32s {
    v: Vec<f32>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct F64s {
    v: Vec<f64>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
#[repr(C)]
struct Pod108 {
    a: [u64; 13],
    b: u32,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
struct Mixed {
    a: u32,
    b: i64,
    c: f64,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Rows {
    v: Vec<Mixed>,
}

/// splitmix64: the same numbers on every machine, so the files are reproducible.
pub struct Numbers(u64);

impl Numbers {
    pub fn new(seed: u64) -> Numbers {
        Numbers(seed)
    }

    #[allow(clippy::should_implement_trait)] // not an Iterator: it never ends
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// `n` u64s of the whole range.
pub fn u64s(n: usize) -> Vec<u64> {
    let mut r = Numbers::new(n as u64);
    (0..n).map(|_| r.next()).collect()
}

/// `n` bytes.
pub fn u8s(n: usize) -> Vec<u8> {
    let mut r = Numbers::new(!(n as u64));
    (0..n).map(|_| r.next() as u8).collect()
}

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_plain",
        "The plain-data cases of issue 16's report in the bincode encoding: Vec<u64>, Vec<u8> (as list<u8> and as bytes), Vec<i32>, Vec<f32>, Vec<f64> of 100 and 1,000 elements (what a bulk copy moves, spec §13.8; up to 1,000,000 in conformance/bincode/tests/large.rs), the 108-byte struct ([u64; 13] + u32, no padding) and mixed u32/i64/f64.",
    );
    lanes(&mut s);
    floats(&mut s);
    pod(&mut s);
    mixed(&mut s);
    s
}

const HUGE: [(&str, u64); 2] = [("2_48", (1 << 48) - 1), ("u64_max", u64::MAX)];

fn lanes(s: &mut Suite) {
    let g = "bincode_plain.u64s";
    s.valid(&format!("{g}.empty"), "U64s", &U64s { v: vec![] }, "");
    s.valid(
        &format!("{g}.one_max"),
        "U64s",
        &U64s { v: vec![u64::MAX] },
        "",
    );
    for n in [100, 1000] {
        s.valid(&format!("{g}.n{n}"), "U64s", &U64s { v: u64s(n) }, "");
    }
    let hundred = U64s { v: u64s(100) };
    s.bad_bytes(
        &format!("{g}.last_byte_cut"),
        "U64s",
        &hundred,
        cut(807),
        at("Truncated", "v", 0),
        "100 × 8 bytes, 799 left: Truncated at the list, before the copy.",
    );
    for (n, l) in HUGE {
        s.bad_bytes(
            &format!("{g}.length_{n}"),
            "U64s",
            &hundred,
            put(0, &l.to_le_bytes()),
            at("Truncated", "v", 0),
            "",
        );
    }
    s.bad_bytes(
        &format!("{g}.trailing_byte"),
        "U64s",
        &hundred,
        extra(0),
        at("TrailingData", "", 808),
        "",
    );
    for n in [100, 1000] {
        s.valid(
            &format!("bincode_plain.u8s.n{n}"),
            "U8s",
            &U8s { v: u8s(n) },
            "list<u8>: Vec<u8>.",
        );
        s.valid(
            &format!("bincode_plain.raw.n{n}"),
            "Raw",
            &Raw { v: u8s(n) },
            "bytes: the same Vec<u8>, the same bytes as list<u8>.",
        );
    }
    s.bad_bytes(
        "bincode_plain.u8s.last_byte_cut",
        "U8s",
        &U8s { v: u8s(100) },
        cut(107),
        at("Truncated", "v", 0),
        "",
    );
    let mut r = Numbers::new(32);
    let mut ints: Vec<i32> = (0..100).map(|_| r.next() as i32).collect();
    ints[0] = i32::MIN;
    ints[1] = i32::MAX;
    ints[2] = -1;
    s.valid("bincode_plain.i32s.n100", "I32s", &I32s { v: ints }, "");
}

fn floats(s: &mut Suite) {
    let mut r = Numbers::new(4);
    let mut f: Vec<f32> = (0..100)
        .map(|_| (r.next() as i32) as f32 / 4096.0)
        .collect();
    let special = [
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(1),
        f32::MAX,
        f32::NAN,
    ];
    f[..special.len()].copy_from_slice(&special);
    s.valid("bincode_plain.f32s.n100", "F32s", &F32s { v: f }, "With −0.0, ±infinity, the smallest subnormal, the largest finite value and the canonical NaN.");
    let mut d: Vec<f64> = (0..100)
        .map(|_| (r.next() as i64) as f64 / 65536.0)
        .collect();
    let special = [
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(1),
        f64::MAX,
        f64::NAN,
    ];
    d[..special.len()].copy_from_slice(&special);
    s.valid("bincode_plain.f64s.n100", "F64s", &F64s { v: d }, "");
}

fn pod(s: &mut Suite) {
    let mut a = [0u64; 13];
    let mut r = Numbers::new(108);
    for x in &mut a {
        *x = r.next();
    }
    let p = Pod108 { a, b: 0xdead_beef };
    let g = "bincode_plain.pod108";
    s.valid(
        &format!("{g}.value"),
        "Pod108",
        &p,
        "108 bytes: no padding on the wire (Rust's #[repr(C)] layout is 112).",
    );
    s.valid(
        &format!("{g}.zero"),
        "Pod108",
        &Pod108 { a: [0; 13], b: 0 },
        "",
    );
    s.bad_bytes(
        &format!("{g}.truncated_in_b"),
        "Pod108",
        &p,
        cut(105),
        at("Truncated", "b", 104),
        "",
    );
    s.bad_bytes(
        &format!("{g}.truncated_in_a"),
        "Pod108",
        &p,
        cut(100),
        at("Truncated", "a[12]", 96),
        "",
    );
    s.bad_bytes(
        &format!("{g}.trailing_byte"),
        "Pod108",
        &p,
        extra(0),
        at("TrailingData", "", 108),
        "",
    );
}

fn mixed(s: &mut Suite) {
    let g = "bincode_plain.mixed";
    let one = Mixed {
        a: 1,
        b: -1,
        c: 1.0,
    };
    s.valid(
        &format!("{g}.ones"),
        "Mixed",
        &one,
        "20 bytes: u32, i64, f64 with no alignment.",
    );
    s.valid(
        &format!("{g}.extremes"),
        "Mixed",
        &Mixed {
            a: u32::MAX,
            b: i64::MIN,
            c: -0.0,
        },
        "",
    );
    s.valid(
        &format!("{g}.nan"),
        "Mixed",
        &Mixed {
            a: 0,
            b: i64::MAX,
            c: f64::NAN,
        },
        "",
    );
    s.bad_bytes(
        &format!("{g}.truncated_in_c"),
        "Mixed",
        &one,
        cut(19),
        at("Truncated", "c", 12),
        "",
    );
    let mut r = Numbers::new(20);
    let rows = Rows {
        v: (0..10)
            .map(|i| Mixed {
                a: r.next() as u32,
                b: r.next() as i64,
                c: f64::from(i) * 0.5 - 2.0,
            })
            .collect(),
    };
    s.valid(
        "bincode_plain.rows.ten",
        "Rows",
        &rows,
        "list<Mixed>: 8 + 10 × 20 bytes.",
    );
    s.bad_bytes(
        "bincode_plain.rows.short",
        "Rows",
        &rows,
        put(0, &11u64.to_le_bytes()),
        at("Truncated", "v", 0),
        "11 × 20 bytes, 200 left.",
    );
}
