//! Unit tests of the bincode printer; `testdata/codegen/*.bincode.rs` are the goldens,
//! and `conformance/rust` compiles and runs the code of every suite.

use crate::codegen::{generate_rust, RustOptions};

fn generate(source: &str, bincode: bool) -> String {
    let schema = crate::compile_source("t.bw", source).expect("compiles");
    let opts = RustOptions {
        json: false,
        bincode,
        source_name: "t.bw".into(),
        module_file: false,
    };
    generate_rust(&schema, &opts)
}

/// The text of `fn name` of `Pod`'s `Bincode` impl in `code`.
fn function<'a>(code: &'a str, name: &str) -> &'a str {
    let imp = code
        .find("impl ::bitwire::Bincode for Pod {")
        .expect("the impl");
    let start = imp
        + code[imp..]
            .find(&format!("fn {name}("))
            .expect("the function");
    let rest = &code[start..];
    let end = rest.find("\n    }\n").expect("the end of the function");
    &rest[..end]
}

const PLAIN: &str = "struct Point { x: i8, y: i8 }
     struct Pod {
         words: list<u64>,
         bytes: bytes<max 64>,
         grid: [f32; 4],
         small: [u8; 3],
         pts: list<Point, max 10>,
         level: u16 in 0..=1000,
         name: string<max 8>,
     }";

#[test]
fn off_by_default() {
    assert!(!generate(PLAIN, false).contains("Bincode"));
}

#[test]
fn numbers_move_in_bulk() {
    let code = generate(PLAIN, true);
    let write = function(&code, "write_bincode");
    assert!(
        write.contains("w.write_lane_list(&self.words, u64::MAX)"),
        "{write}"
    );
    assert!(write.contains("w.write_lanes(&self.grid[..]);"), "{write}");
    assert!(write.contains("w.write_bytes(&self.bytes, 64)"), "{write}");
    assert!(
        write.contains("w.write_u16_in(self.level, 0, 1000)"),
        "{write}"
    );
    let read = function(&code, "read_bincode");
    assert!(
        read.contains("let words: Vec<u64> = r.read_lanes(len)"),
        "{read}"
    );
    assert!(read.contains("r.fill_lanes(&mut grid[..])"), "{read}");
    // The length checks of §13.3 with the plan's numbers: bound, bytes per element,
    // budget charge per element.
    assert!(read.contains("r.read_len(u64::MAX, 8, 8)"), "{read}");
    assert!(read.contains("r.read_len(10, 2, 2)"), "{read}");
}

#[test]
fn decode_into_reuses_vectors_and_nested_values() {
    let code = generate(PLAIN, true);
    let into = function(&code, "read_bincode_into");
    for want in [
        "r.read_lanes_into(&mut self.words, len)",
        "r.read_lanes_into(&mut self.bytes, len)",
        "r.fill_lanes(&mut self.grid[..])",
        "self.pts.truncate(len);",
        "slot1.read_bincode_into(r)",
        "self.pts.reserve_exact(len - self.pts.len());",
        "r.read_string_into(&mut self.name, len, start)",
    ] {
        assert!(into.contains(want), "{want} in {into}");
    }
}

#[test]
fn check_allocates_nothing() {
    let code = generate(PLAIN, true);
    let check = function(&code, "check_bincode");
    for banned in ["Vec", "String", "read_lanes", "read_string", "Box"] {
        assert!(!check.contains(banned), "{banned} in {check}");
    }
    assert!(check.contains("r.skip_lanes::<u64>(len)"), "{check}");
    assert!(check.contains("r.skip_lanes::<f32>(4)"), "{check}");
    assert!(check.contains("Point::check_bincode(r)"), "{check}");
}

#[test]
fn enums_and_unions_use_the_declaration_index() {
    let code = generate(
        "enum Team: u8 { Red, Blue, Spectator = 7 }
         union Event { Chat(string), Ping = 9, Team(Team) }",
        true,
    );
    assert!(code.contains("Self::Spectator => 2,"), "{code}");
    assert!(code.contains("match r.read_index(3)? {"), "{code}");
    assert!(code.contains("Self::Ping => w.write_index(1),"), "{code}");
    assert!(code.contains("1 => Ok(Self::Ping),"), "{code}");
    assert!(code.contains("const MIN_BYTES: u64 = 4;"), "{code}");
    assert!(
        code.contains("const MAX_BYTES: Option<u64> = None;"),
        "{code}"
    );
}
