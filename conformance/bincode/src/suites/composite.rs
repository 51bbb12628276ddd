//! `bincode_composite`: structs, optionals, fixed arrays (≤ 32, > 32, > 4 KiB), nesting,
//! a message.

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, extra, put, RANGE};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug, Default)]
struct Vec2 {
    x: i8,
    y: i8,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug, Default)]
struct Empty {}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
enum Tri {
    Unset,
    Set(bool),
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Optionals {
    a: Option<u8>,
    b: Option<Vec2>,
    c: Option<Tri>,
    d: Option<Empty>,
    e: Option<u32>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Small {
    a: [u8; 4],
    b: [u16; 32],
    c: [[u8; 2]; 3],
    d: [bool; 3],
    e: [Option<u8>; 2],
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Large {
    #[serde(with = "BigArray")]
    a: [u8; 40],
    #[serde(with = "BigArray")]
    b: [u16; 33],
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Huge {
    #[serde(with = "crate::boxed")]
    v: Box<[u64; 513]>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug, Default)]
struct Inner {
    c: u8,
    d: bool,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug, Default)]
struct Middle {
    b: [Inner; 4],
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug, Default)]
struct Outer {
    id: u16,
    a: Middle,
    tail: Option<Middle>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Ping {
    seq: u32,
}

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_composite",
        "Structs, optionals and fixed arrays in the bincode encoding (spec §13.3–§13.5): fields in order with nothing between them; a u8 tag (00 absent, 01 present) before an optional value, any other tag InvalidEnum; an optional union where nested optionals would be (E0318); arrays without a length at 4, 32, 33, 40 and 513 elements (serde-big-array above 32, Box<[u64; 513]> above 4 KiB: the same bytes); deep error paths; a message's id is not written; trailing bytes are TrailingData.",
    );
    empty(&mut s);
    optionals(&mut s);
    arrays(&mut s);
    nesting(&mut s);
    message(&mut s);
    s
}

fn empty(s: &mut Suite) {
    s.valid(
        "bincode_composite.empty.value",
        "Empty",
        &Empty {},
        "An empty struct is no bytes at all.",
    );
    s.bad_bytes(
        "bincode_composite.empty.trailing_byte",
        "Empty",
        &Empty {},
        extra(0),
        at("TrailingData", "", 0),
        "",
    );
}

fn optionals(s: &mut Suite) {
    let all = Optionals {
        a: Some(255),
        b: Some(Vec2 { x: -1, y: 1 }),
        c: Some(Tri::Set(true)),
        d: Some(Empty {}),
        e: Some(0x0102_0304),
    };
    let o = "bincode_composite.optionals";
    s.valid(
        &format!("{o}.all_absent"),
        "Optionals",
        &Optionals::default(),
        "Five 00 tags.",
    );
    s.valid(
        &format!("{o}.all_present"),
        "Optionals",
        &all,
        "a at 0, b at 2, c at 5 (its union at 6), d at 11 (01 alone: the empty struct), e at 12.",
    );
    let a_zero = Optionals {
        a: Some(0),
        ..Optionals::default()
    };
    s.valid(
        &format!("{o}.a_zero"),
        "Optionals",
        &a_zero,
        "Present 0 (01 00) differs from absent (00).",
    );
    let unset = Optionals {
        c: Some(Tri::Unset),
        ..Optionals::default()
    };
    s.valid(
        &format!("{o}.c_unset"),
        "Optionals",
        &unset,
        "Some(Tri::Unset) — what Some(None) of nested optionals would be — is 01 then index 0.",
    );
    let set_false = Optionals {
        c: Some(Tri::Set(false)),
        ..Optionals::default()
    };
    s.valid(&format!("{o}.c_set_false"), "Optionals", &set_false, "");
    optionals_invalid(s, &all);
}

fn optionals_invalid(s: &mut Suite, all: &Optionals) {
    let o = "bincode_composite.optionals";
    for (name, tag) in [("a_tag_2", 2u8), ("a_tag_ff", 0xff)] {
        s.bad_bytes(
            &format!("{o}.{name}"),
            "Optionals",
            all,
            put(0, &[tag]),
            at("InvalidEnum", "a", 0),
            "An option tag other than 00 or 01.",
        );
    }
    s.bad_bytes(
        &format!("{o}.d_tag_2"),
        "Optionals",
        all,
        put(11, &[2]),
        at("InvalidEnum", "d", 11),
        "The tag of an optional empty struct.",
    );
    s.bad_bytes(
        &format!("{o}.c_index_2"),
        "Optionals",
        all,
        put(6, &2u32.to_le_bytes()),
        at("InvalidEnum", "c", 6),
        "The union inside the optional: same path, one byte further.",
    );
    s.bad_bytes(
        &format!("{o}.c_set_bool_2"),
        "Optionals",
        all,
        put(10, &[2]),
        at("OutOfRange", "c.Set", 10),
        "",
    );
    s.bad_bytes(
        &format!("{o}.e_truncated"),
        "Optionals",
        all,
        cut(14),
        at("Truncated", "e", 13),
        "After e's tag: the u32 runs out.",
    );
    s.bad_bytes(
        &format!("{o}.e_tag_only"),
        "Optionals",
        all,
        cut(13),
        at("Truncated", "e", 13),
        "The tag says present; nothing follows.",
    );
    s.bad_bytes(
        &format!("{o}.empty"),
        "Optionals",
        all,
        cut(0),
        at("Truncated", "a", 0),
        "",
    );
}

fn small() -> Small {
    let mut b = [0u16; 32];
    for (i, v) in b.iter_mut().enumerate() {
        *v = (i as u16) * 2049;
    }
    Small {
        a: [1, 2, 3, 255],
        b,
        c: [[1, 2], [3, 4], [5, 6]],
        d: [true, false, true],
        e: [Some(5), None],
    }
}

fn arrays(s: &mut Suite) {
    let sm = small();
    let g = "bincode_composite.arrays";
    s.valid(
        &format!("{g}.small"),
        "Small",
        &sm,
        "Arrays up to 32 elements (serde's own impls); 80 bytes, no lengths.",
    );
    s.bad_bytes(
        &format!("{g}.small_bool_2"),
        "Small",
        &sm,
        put(75, &[2]),
        at("OutOfRange", "d[1]", 75),
        "",
    );
    s.bad_bytes(
        &format!("{g}.small_tag_2"),
        "Small",
        &sm,
        put(79, &[2]),
        at("InvalidEnum", "e[1]", 79),
        "",
    );
    s.bad_bytes(
        &format!("{g}.small_truncated"),
        "Small",
        &sm,
        cut(67),
        at("Truncated", "b[31]", 66),
        "",
    );
    let mut a = [0u8; 40];
    let mut b = [0u16; 33];
    for (i, v) in a.iter_mut().enumerate() {
        *v = i as u8 * 6;
    }
    for (i, v) in b.iter_mut().enumerate() {
        *v = 1000 + i as u16 * 1000;
    }
    let large = Large { a, b };
    s.valid(
        &format!("{g}.large"),
        "Large",
        &large,
        "[u8; 40] and [u16; 33] through serde-big-array: 106 bytes, no lengths.",
    );
    s.bad_bytes(
        &format!("{g}.large_truncated"),
        "Large",
        &large,
        cut(105),
        at("Truncated", "b[32]", 104),
        "",
    );
    let mut v = Box::new([0u64; 513]);
    for (i, x) in v.iter_mut().enumerate() {
        *x = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    let huge = Huge { v };
    s.valid(
        &format!("{g}.huge"),
        "Huge",
        &huge,
        "Box<[u64; 513]>: 4,104 bytes, the array's alone.",
    );
    s.bad_bytes(
        &format!("{g}.huge_truncated"),
        "Huge",
        &huge,
        cut(4100),
        at("Truncated", "v[512]", 4096),
        "",
    );
}

fn nesting(s: &mut Suite) {
    let mut m = Middle::default();
    for (i, inner) in m.b.iter_mut().enumerate() {
        *inner = Inner {
            c: i as u8 * 3,
            d: i % 2 == 1,
        };
    }
    let outer = Outer {
        id: 0xbeef,
        a: m,
        tail: Some(m),
    };
    let g = "bincode_composite.outer";
    s.valid(
        &format!("{g}.tail_absent"),
        "Outer",
        &Outer {
            tail: None,
            ..outer.clone()
        },
        "",
    );
    s.valid(
        &format!("{g}.tail_present"),
        "Outer",
        &outer,
        "19 bytes: id, four (u8, bool) pairs, a tag, four more.",
    );
    s.bad_bytes(
        &format!("{g}.deep_out_of_range"),
        "Outer",
        &outer,
        put(6, &[10]),
        at("OutOfRange", "a.b[2].c", 6).accepted(RANGE),
        "A bounded u8 (0..=9) three levels down.",
    );
    s.bad_bytes(
        &format!("{g}.deep_bool_2"),
        "Outer",
        &outer,
        put(18, &[2]),
        at("OutOfRange", "tail.b[3].d", 18),
        "Inside the optional's value: the path has no marker for the optional.",
    );
    let mut deep = outer.clone();
    deep.a.b[2].c = 10;
    s.bad_value(
        &format!("{g}.encode_deep_out_of_range"),
        "Outer",
        &deep,
        at("OutOfRange", "a.b[2].c", 6),
        "",
    );
    s.bad_bytes(
        &format!("{g}.tail_tag_2"),
        "Outer",
        &outer,
        put(10, &[2]),
        at("InvalidEnum", "tail", 10),
        "",
    );
    s.bad_bytes(
        &format!("{g}.truncated_in_tail"),
        "Outer",
        &outer,
        cut(15),
        at("Truncated", "tail.b[2].c", 15),
        "",
    );
}

fn message(s: &mut Suite) {
    let p = Ping { seq: 5 };
    let g = "bincode_composite.message";
    s.valid(
        &format!("{g}.ping"),
        "Ping",
        &p,
        "A message (id 7): the id is not written, only the fields.",
    );
    s.bad_bytes(
        &format!("{g}.trailing_byte"),
        "Ping",
        &p,
        extra(7),
        at("TrailingData", "", 4),
        "",
    );
    s.bad_bytes(
        &format!("{g}.trailing_zeros"),
        "Ping",
        &p,
        |b| b.extend([0, 0, 0]),
        at("TrailingData", "", 4),
        "Zeros too: there is no padding.",
    );
    s.bad_bytes(
        &format!("{g}.empty"),
        "Ping",
        &p,
        cut(0),
        at("Truncated", "seq", 0),
        "",
    );
}
