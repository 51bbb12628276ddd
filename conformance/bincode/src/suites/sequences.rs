//! `bincode_sequences`: lists, strings and bytes — a u64 length, then the values — and
//! the decoder's length checks in order: max, bytes left, budget, UTF-8.

use serde::{Deserialize, Serialize};
use wincode::{SchemaRead, SchemaWrite};

use super::{cut, put, MAX};
use crate::suite::{at, Suite};

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Text {
    s: String,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Name {
    s: String,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Blob {
    b: Vec<u8>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct SmallBlob {
    b: Vec<u8>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Nums {
    v: Vec<u16>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Few {
    v: Vec<u32>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Nested {
    v: Vec<Vec<u8>>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Words {
    v: Vec<String>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Copy, Debug)]
struct Vec2 {
    x: i8,
    y: i8,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Points {
    v: Vec<Vec2>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Big {
    #[serde(with = "crate::boxed")]
    v: Box<[u64; 513]>,
}

#[derive(Serialize, Deserialize, SchemaWrite, SchemaRead, Clone, Debug)]
struct Sparse {
    v: Vec<Option<Big>>,
}

/// Hostile lengths: far more than the input holds.
const HUGE: [(&str, u64); 2] = [("2_48", (1 << 48) - 1), ("u64_max", u64::MAX)];

fn len(n: u64) -> [u8; 8] {
    n.to_le_bytes()
}

pub fn suite() -> Suite {
    let mut s = Suite::new(
        "bincode_sequences",
        "Lists, strings and bytes in the bincode encoding (spec §13.3): a u64 length (bytes of UTF-8 for a string), then the values; Vec<Vec<u8>> with a length per inner list. The decoder checks in order, all at the value: length above max (InvalidLength, which bincode and wincode do not check), length × min_bytes above the bytes left (Truncated, also for 2^48 − 1 and u64::MAX), the decode budget of §11.5 (LimitExceeded: a list of absent optional<Big> charged 4,152 bytes per one-byte element; bincode has no budget), invalid UTF-8.",
    );
    text(&mut s);
    name(&mut s);
    blobs(&mut s);
    lists(&mut s);
    nested(&mut s);
    sparse(&mut s);
    s
}

fn text(s: &mut Suite) {
    let g = "bincode_sequences.text";
    let valid = [
        ("empty", "", "Eight zero bytes: the length."),
        ("ascii", "hi", ""),
        ("two_byte", "héllo", "The length counts bytes: 6."),
        ("three_byte", "€", ""),
        ("four_byte", "😀", ""),
        ("cjk", "日本語", ""),
        ("nul", "a\u{0}b", "NUL is a character like any other."),
    ];
    for (n, v, note) in valid {
        s.valid(&format!("{g}.{n}"), "Text", &Text { s: v.into() }, note);
    }
    let bad_utf8: [(&str, &[u8], &str); 5] = [
        ("utf8_ff", &[0xff], ""),
        ("utf8_overlong", &[0xc0, 0x80], "An overlong NUL."),
        (
            "utf8_surrogate",
            &[0xed, 0xa0, 0x80],
            "An encoded surrogate (U+D800).",
        ),
        (
            "utf8_cut",
            &[0x61, 0xe2, 0x82],
            "A three-byte sequence cut short by the length.",
        ),
        (
            "utf8_above_max",
            &[0xf4, 0x90, 0x80, 0x80],
            "Above U+10FFFF.",
        ),
    ];
    for (n, bytes, note) in bad_utf8 {
        let model = Text {
            s: "x".repeat(bytes.len()),
        };
        s.bad_bytes(
            &format!("{g}.{n}"),
            "Text",
            &model,
            put(8, bytes),
            at("InvalidUtf8", "s", 0),
            note,
        );
    }
    let hello = Text { s: "hello".into() };
    s.bad_bytes(
        &format!("{g}.short"),
        "Text",
        &hello,
        cut(12),
        at("Truncated", "s", 0),
        "Length 5, four bytes left.",
    );
    s.bad_bytes(
        &format!("{g}.length_cut"),
        "Text",
        &hello,
        cut(5),
        at("Truncated", "s", 0),
        "Five of the length's eight bytes.",
    );
    for (n, l) in HUGE {
        s.bad_bytes(
            &format!("{g}.length_{n}"),
            "Text",
            &hello,
            put(0, &len(l)),
            at("Truncated", "s", 0),
            "A length far beyond the input: rejected before allocating.",
        );
    }
}

fn name(s: &mut Suite) {
    let g = "bincode_sequences.name";
    let full = Name {
        s: "éééé".into()
    };
    s.valid(
        &format!("{g}.at_max"),
        "Name",
        &full,
        "string<max 8>: the max counts bytes, four é are 8.",
    );
    let nine = Name {
        s: "123456789".into(),
    };
    s.bad_bytes(
        &format!("{g}.above_max"),
        "Name",
        &nine,
        |_| {},
        at("InvalidLength", "s", 0).accepted(MAX),
        "Nine bytes in a string<max 8>.",
    );
    s.bad_bytes(
        &format!("{g}.max_before_bytes_left"),
        "Name",
        &full,
        put(0, &len(9)),
        at("InvalidLength", "s", 0),
        "Length 9 with 8 bytes left: the max is checked first.",
    );
    s.bad_bytes(
        &format!("{g}.length_u64_max"),
        "Name",
        &full,
        put(0, &len(u64::MAX)),
        at("InvalidLength", "s", 0),
        "",
    );
    s.bad_value(
        &format!("{g}.encode_above_max"),
        "Name",
        &nine,
        at("InvalidLength", "s", 0),
        "",
    );
    s.bad_value(
        &format!("{g}.encode_bytes_above_max"),
        "Name",
        &Name {
            s: "ééééé".into()
        },
        at("InvalidLength", "s", 0),
        "Five characters, ten bytes.",
    );
}

fn blobs(s: &mut Suite) {
    let g = "bincode_sequences.bytes";
    s.valid(&format!("{g}.empty"), "Blob", &Blob { b: vec![] }, "");
    let blob = Blob {
        b: vec![0x00, 0xff, 0x10],
    };
    s.valid(&format!("{g}.three"), "Blob", &blob, "");
    s.bad_bytes(
        &format!("{g}.short"),
        "Blob",
        &blob,
        put(0, &len(4)),
        at("Truncated", "b", 0),
        "",
    );
    for (n, l) in HUGE {
        s.bad_bytes(
            &format!("{g}.length_{n}"),
            "Blob",
            &blob,
            put(0, &len(l)),
            at("Truncated", "b", 0),
            "",
        );
    }
    let four = SmallBlob {
        b: vec![1, 2, 3, 4],
    };
    let five = SmallBlob {
        b: vec![1, 2, 3, 4, 5],
    };
    s.valid(&format!("{g}.at_max"), "SmallBlob", &four, "");
    s.bad_bytes(
        &format!("{g}.above_max"),
        "SmallBlob",
        &five,
        |_| {},
        at("InvalidLength", "b", 0).accepted(MAX),
        "",
    );
    s.bad_value(
        &format!("{g}.encode_above_max"),
        "SmallBlob",
        &five,
        at("InvalidLength", "b", 0),
        "",
    );
}

fn lists(s: &mut Suite) {
    let g = "bincode_sequences.list";
    let nums = Nums {
        v: vec![1, 2, 65535],
    };
    s.valid(&format!("{g}.empty"), "Nums", &Nums { v: vec![] }, "");
    s.valid(&format!("{g}.three"), "Nums", &nums, "");
    s.bad_bytes(
        &format!("{g}.short"),
        "Nums",
        &nums,
        cut(13),
        at("Truncated", "v", 0),
        "Length 3 × 2 bytes, five left: Truncated at the list, before any element.",
    );
    s.bad_bytes(
        &format!("{g}.odd_byte"),
        "Nums",
        &Nums { v: vec![7] },
        cut(9),
        at("Truncated", "v", 0),
        "",
    );
    for (n, l) in HUGE {
        s.bad_bytes(
            &format!("{g}.length_{n}"),
            "Nums",
            &nums,
            put(0, &len(l)),
            at("Truncated", "v", 0),
            "length × 2 must not overflow.",
        );
    }
    let few = Few { v: vec![1, 2, 3] };
    let four = Few {
        v: vec![1, 2, 3, 4],
    };
    s.valid(&format!("{g}.at_max"), "Few", &few, "");
    s.bad_bytes(
        &format!("{g}.above_max"),
        "Few",
        &four,
        |_| {},
        at("InvalidLength", "v", 0).accepted(MAX),
        "",
    );
    s.bad_bytes(
        &format!("{g}.max_first"),
        "Few",
        &few,
        put(0, &len(u64::MAX)),
        at("InvalidLength", "v", 0),
        "The max is checked before the bytes left.",
    );
    s.bad_value(
        &format!("{g}.encode_above_max"),
        "Few",
        &four,
        at("InvalidLength", "v", 0),
        "",
    );
    let points = Points {
        v: vec![Vec2 { x: 1, y: -1 }, Vec2 { x: -128, y: 127 }],
    };
    s.valid(&format!("{g}.structs"), "Points", &points, "");
    s.bad_bytes(
        &format!("{g}.structs_short"),
        "Points",
        &points,
        put(0, &len(3)),
        at("Truncated", "v", 0),
        "3 × 2 bytes, four left.",
    );
}

fn nested(s: &mut Suite) {
    let g = "bincode_sequences.nested";
    let n = Nested {
        v: vec![vec![1], vec![], vec![2, 3]],
    };
    s.valid(&format!("{g}.empty"), "Nested", &Nested { v: vec![] }, "");
    s.valid(&format!("{g}.three"), "Nested", &n, "Vec<Vec<u8>>: the outer length, then each inner list with its own length (v[0] at 8, v[1] at 17, v[2] at 25).");
    s.bad_bytes(
        &format!("{g}.outer_short"),
        "Nested",
        &n,
        put(0, &len(4)),
        at("Truncated", "v", 0),
        "4 × 8 bytes (an inner list's length at least), 27 left.",
    );
    s.bad_bytes(
        &format!("{g}.inner_length_2_48"),
        "Nested",
        &n,
        put(17, &len((1 << 48) - 1)),
        at("Truncated", "v[1]", 17),
        "",
    );
    s.bad_bytes(
        &format!("{g}.inner_short"),
        "Nested",
        &n,
        cut(34),
        at("Truncated", "v[2]", 25),
        "",
    );
    let words = Words {
        v: vec!["".into(), "a".into(), "é".into()],
    };
    s.valid(&format!("{g}.words"), "Words", &words, "");
    s.bad_bytes(
        &format!("{g}.words_utf8"),
        "Words",
        &words,
        put(34, &[0x28]),
        at("InvalidUtf8", "v[2]", 25),
        "c3 28: a lead byte without its continuation.",
    );
}

fn sparse(s: &mut Suite) {
    let g = "bincode_sequences.sparse";
    let absent = |n: usize| Sparse {
        v: (0..n).map(|_| None).collect(),
    };
    let mut v = Box::new([0u64; 513]);
    v[0] = 1;
    v[512] = u64::MAX;
    let mixed = Sparse {
        v: vec![None, Some(Big { v }), None],
    };
    s.valid(&format!("{g}.mixed"), "Sparse", &mixed, "");
    // Budget 1,048,576 + 64 · (8 + L); charge 4,152 · L + 32 (spec §11.5).
    s.valid(
        &format!("{g}.within_budget"),
        "Sparse",
        &absent(256),
        "256 absent elements: charged 1,062,944 of a budget of 1,065,472.",
    );
    s.bad_bytes(
        &format!("{g}.over_budget"),
        "Sparse",
        &absent(257),
        |_| {},
        at("LimitExceeded", "v", 0).accepted("bincode 1.3 has no limit for slices and wincode charges the Vec's 8-byte elements against 4 MiB; bitwire's default budget is what spec §11.5 fixes"),
        "257 absent elements: charged 1,067,096, the budget is 1,065,536.",
    );
    for (n, l) in HUGE {
        s.bad_bytes(
            &format!("{g}.length_{n}"),
            "Sparse",
            &absent(1),
            put(0, &len(l)),
            at("Truncated", "v", 0),
            "",
        );
    }
}
