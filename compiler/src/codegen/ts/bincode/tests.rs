//! Unit tests of the TypeScript bincode printer: names, API version, and that the
//! packed output does not change. The bytes are checked by the conformance runner
//! (conformance/ts, testdata/vectors/bincode/) on Node, Bun and Deno.

use crate::codegen::ts::{generate_ts, TsOptions};

fn gen(src: &str, bincode: bool) -> String {
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    let opts = TsOptions {
        json: true,
        bincode,
        source_name: "t.bw".into(),
        ..TsOptions::default()
    };
    generate_ts(&schema, &opts)
}

#[test]
fn bincode_adds_functions_and_needs_api_5() {
    let src = "struct P { x: i8, y: list<f64> } enum E { A, B = 7 }";
    let plain = gen(src, false);
    let both = gen(src, true);
    assert!(plain.contains("bw.requireApiVersion(3 "));
    assert!(both.contains("bw.requireApiVersion(5 "));
    for f in [
        "encodeBincodeP(",
        "decodeBincodeP(",
        "verifyBincodeP(",
        "writeBincodeE(",
    ] {
        assert!(both.contains(&format!("export function {f}")), "{f}");
        assert!(!plain.contains(f), "{f}");
    }
    assert!(both.contains("export const bincodeCodecs"));
    assert!(
        both.contains("case \"B\": return w.index(1);"),
        "the index, not the value 7"
    );
    assert!(both.contains("w.f64s(list);"));
    // Everything else is the packed output as it was.
    let kept: Vec<&str> = plain.lines().skip(8).collect();
    let mut rest = both.lines().skip(8);
    for line in kept {
        assert!(rest.any(|l| l == line), "missing packed line {line}");
    }
}

#[test]
fn names_avoid_the_packed_functions_of_other_types() {
    // `encodeBincodeFoo` is the packed encoder of `BincodeFoo`.
    let out = gen("struct Foo { a: u8 } struct BincodeFoo { b: u8 }", true);
    let decode = |f: &str, t: &str| {
        format!("export function {f}(bytes: Uint8Array, limits?: bw.Limits): {t} {{")
    };
    assert!(out.contains(&decode("decodeBincodeFoo", "BincodeFoo")));
    assert!(out.contains(&decode("decodeBincodeFoo_", "Foo")));
    assert!(out.contains(&decode("decodeBincodeBincodeFoo", "BincodeFoo")));
}

#[test]
fn bounds_and_wide_integers_take_their_typescript_form() {
    let out = gen(
        "struct S { a: u64, b: u54, c: u40, d: i12, e: string<max 9007199254740993>,
                    f: list<u8, max 3>, g: [u16; 2], h: f32 in 0.0..=1.0 bits 8 }",
        true,
    );
    for line in [
        "w.u64(v.a);",
        "w.big(v.b, 0n, 18014398509481983n);",
        "w.int64(v.c, 0, 1099511627775);",
        "w.int16(v.d, -2048, 2047);",
        "w.string(v.e, Number.POSITIVE_INFINITY);",
        "b = r.big(false, 0n, 18014398509481983n);",
        "const len = r.len(9007199254740993n, 1, 1);",
        "w.len(list.length, 3);",
        "w.u8s(list);",
        "g = r.u16s(2);",
        "r.skipElements(2, 2);",
        "h = r.f32In(0.0, 1.0);",
    ] {
        assert!(out.contains(line), "missing {line}");
    }
}

#[test]
fn typed_arrays_hold_plain_numbers_in_every_codec() {
    let src = "struct S { a: list<u8>, b: [f64; 2], c: list<u64, max 4>, d: list<u4>,
                           e: list<varu32>, f: [i16; 3] }
               delta message D = 1 { x: [u16; 2] }";
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    let opts = TsOptions {
        json: true,
        bincode: true,
        typed_arrays: true,
        source_name: "t.bw".into(),
        ..TsOptions::default()
    };
    let out = generate_ts(&schema, &opts);
    for line in [
        // Types: plain numbers only; `u4` and varints stay arrays.
        "a: Uint8Array;",
        "b: Float64Array;",
        "c: BigUint64Array;",
        "d: number[];",
        "e: number[];",
        "x: Uint16Array;",
        // Packed: either kind of sequence is taken, typed arrays are built.
        "if (!(list instanceof Uint8Array) && !Array.isArray(list)) {",
        "a = Uint8Array.from(r.readUints(len, 8));",
        "c = BigUint64Array.from(r.readBigs(len2, false));",
        // Bincode: one copy each way.
        "w.f64s(list2);",
        "b = r.f64Array(2);",
        "e_ = r.u32s(len4);",
        // JSON: arrays out, typed arrays in.
        "a: Array.from(value.a),",
        "c: Array.from(value.c, (e) => String(e)),",
        "bw.jsonTyped(bw.jsonArray(j, bw.jsonInt), (n) => new Uint8Array(n))",
        // Delta: an array of deltas builds the typed array.
        "x = Uint16Array.from(items);",
    ] {
        assert!(out.contains(line), "missing {line}");
    }
    let plain = gen(src, true);
    assert!(plain.contains("a: number[];") && !plain.contains("Uint16Array.from"));
}
