//! Unit tests of the delta functions' printing on small schemas (the conformance
//! runner compiles the delta vector schema under `tsc --strict` and runs it against
//! the vectors and the reference codec).

use crate::codegen::ts::{generate_ts, TsOptions};

fn gen(src: &str) -> String {
    let schema = crate::compile_source("t.bw", src).expect("the schema compiles");
    let opts = TsOptions {
        json: true,
        bincode: false,
        source_name: "t.bw".into(),
        ..TsOptions::default()
    };
    generate_ts(&schema, &opts)
}

/// The text of the function whose header starts with `head`.
fn function<'a>(code: &'a str, head: &str) -> &'a str {
    let start = code
        .find(head)
        .unwrap_or_else(|| panic!("no {head} in {code}"));
    let rest = &code[start..];
    &rest[..rest.find("\n}\n").expect("the function ends")]
}

#[test]
fn schemas_without_a_delta_message_get_no_delta_code() {
    let code = gen("struct E { id: u8 } message M = 1 { l: list<E, max 4, key id> }");
    assert!(!code.contains("Delta"), "{code}");
    assert!(!code.contains("deltaCodecs"), "{code}");
}

#[test]
fn a_delta_message_has_the_three_functions_and_a_table_entry() {
    let code = gen("delta message S = 1 { tick: u32 }");
    for head in [
        "export function encodeDeltaS(",
        "export function decodeDeltaS(baseline: S, bytes: Uint8Array, limits?: bw.Limits): S {",
        "export function verifyDeltaS(baseline: S, bytes: Uint8Array, limits?: bw.Limits): void {",
        "export const deltaCodecs: Readonly<Record<string, bw.DeltaTypeCodec<unknown>>> = {",
        "export const sDeltaCodec: bw.DeltaCodec<S> = {",
    ] {
        assert!(code.contains(head), "{head} missing: {code}");
    }
    let write = function(&code, "function writeDeltaS(");
    assert!(
        write.contains("if (bw.writeChange(w, tickB, tickV, 32, 5)) {"),
        "{write}"
    );
    let read = function(&code, "function readDeltaS(");
    assert!(read.contains("const z = bw.readDiff(r, 32, 5);"), "{read}");
    assert!(read.contains("return changed ? { tick } : null;"), "{read}");
}

#[test]
fn keyed_lists_get_a_row_without_the_key_and_a_key_function() {
    let code = gen("enum T { A, B } struct E { team: T, hp: u8 }\n\
         delta message W = 1 { l: list<E, max 4, key team> }");
    let row = function(&code, "function writeDeltaEByTeam(");
    assert!(!row.contains("b.team"), "{row}");
    assert!(row.contains("b.hp"), "{row}");
    assert!(
        code.contains("function eByTeamKey(e: E): number {\n  return tTag(e.team);\n}"),
        "{code}"
    );
    let eq = function(&code, "function eqDeltaEByTeam(");
    assert!(eq.contains("b.hp") && !eq.contains("b.team"), "{eq}");
    let write = function(&code, "function writeDeltaW(");
    assert!(write.contains("same = eqDeltaEByTeam(eB, eV);"), "{write}");
    let read = function(&code, "function readDeltaW(");
    assert!(
        read.contains("bw.readAdded(r, kept.length, 4, 9, 2)"),
        "{read}"
    );
    assert!(read.contains("bw.error(\"InvalidKey\", 0)"), "{read}");
}

#[test]
fn wide_scalars_travel_as_halves() {
    let code = gen("delta message S = 1 { a: u64, b: f64, c: u40 }");
    let write = function(&code, "function writeDeltaS(");
    assert!(write.contains("Number(aB & 0xffffffffn)"), "{write}");
    assert!(write.contains("bw.f64LoBits(bB)"), "{write}");
    assert!(write.contains("Object.is(bV, bB)"), "{write}");
    assert!(
        write.contains("Math.floor(cBWire / 4294967296)")
            || write.contains("Math.floor(cB / 4294967296)"),
        "{write}"
    );
    let read = function(&code, "function readDeltaS(");
    assert!(read.contains("bw.readDiff64(r, 64, 6)"), "{read}");
    assert!(read.contains("bw.isNonCanonicalF64("), "{read}");
}

#[test]
fn zero_width_fields_are_checked_only_when_nested() {
    let code = gen("struct C { c: u8 in 7..=7, x: u8 }\n\
         delta message S = 1 { k: u8 in 3..=3, c: C }\n\
         delta message T = 2 { s: S }");
    let s = function(&code, "function writeDeltaS(");
    assert!(s.contains("top: boolean"), "{s}");
    assert!(s.contains("if (!top) {"), "{s}");
    assert!(
        code.contains("writeDeltaS(w, baseline, value, true);"),
        "{code}"
    );
    assert!(code.contains("writeDeltaS(w, b.s, v.s, false)"), "{code}");
    // A plain struct's zero-width field is always checked (it is always nested).
    let c = function(&code, "function writeDeltaC(");
    assert!(c.contains("bw.deltaScratch(0)"), "{c}");
    assert!(!c.contains("top"), "{c}");
}

#[test]
fn delta_names_step_aside_for_types_that_have_them() {
    let code = gen("struct DeltaW { a: u8 }\ndelta message W = 1 { d: DeltaW }");
    assert!(
        code.contains("export function encodeDeltaW(value: DeltaW"),
        "{code}"
    );
    assert!(code.contains("export function encodeDeltaW_("), "{code}");
    assert!(code.contains("  baseline: W,\n  value: W,"), "{code}");
    assert!(code.contains("function writeDeltaDeltaW("), "{code}");
}

#[test]
fn a_message_of_zero_width_fields_has_an_error_search_with_nothing_to_search() {
    let code = gen("delta message E = 1 {}\ndelta message Z = 2 { z: u8 in 1..=1 }");
    let e = function(&code, "function deltaEError(");
    assert!(!e.contains("const top"), "{e}");
    assert!(e.contains("return first;"), "{e}");
    let z = function(&code, "function writeDeltaZ(");
    assert!(z.contains("if (!top) {"), "{z}");
}

#[test]
fn delta_generation_is_deterministic() {
    let src = "struct E { id: i8, n: string<max 4> }\n\
               delta message W = 1 { l: list<E, key id>, a: [E; 2], o: optional<u8> }";
    assert_eq!(gen(src), gen(src));
}
