//! Unit tests of the bincode plan: the widths, checks and forms each backend prints.

use super::*;

fn plan(src: &str) -> (Schema, BincodePlan) {
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    let plan = BincodePlan::build(&schema);
    (schema, plan)
}

fn fields(plan: &BincodePlan, id: TypeId) -> &[BinField] {
    match &plan.get(id).body {
        BinBody::Struct { fields } => fields,
        other => panic!("not a struct: {other:?}"),
    }
}

#[test]
fn integers_take_their_representation_and_check_narrower_ranges() {
    let (schema, plan) =
        plan("struct S { a: u4, b: u16, c: i12, d: u16 in 0..=1000, e: varu32, f: u8 in 7..=7 }");
    let id = schema.type_by_name("S").unwrap();
    let f = fields(&plan, id);
    let ops: Vec<_> = f.iter().map(|f| (&f.node.op, f.node.size)).collect();
    assert_eq!(
        ops[0].0,
        &BinOp::Int {
            repr: IntRepr::U8,
            range: Some(Range {
                min: 0,
                max: 15,
                kind: Kind::OutOfRange
            })
        }
    );
    assert_eq!(
        ops[1].0,
        &BinOp::Int {
            repr: IntRepr::U16,
            range: None
        }
    );
    assert_eq!(
        ops[2].0,
        &BinOp::Int {
            repr: IntRepr::I16,
            range: Some(Range {
                min: -2048,
                max: 2047,
                kind: Kind::OutOfRange
            })
        }
    );
    assert!(matches!(
        ops[3].0,
        BinOp::Int {
            repr: IntRepr::U16,
            range: Some(Range {
                min: 0,
                max: 1000,
                ..
            })
        }
    ));
    assert_eq!(
        ops[4].0,
        &BinOp::Int {
            repr: IntRepr::U32,
            range: None
        }
    );
    // Zero bits in packed, one byte here.
    assert_eq!(
        ops[5].1,
        Size {
            min: 1,
            max: Some(1)
        }
    );
    assert_eq!(
        plan.get(id).size,
        Size {
            min: 1 + 2 + 2 + 2 + 4 + 1,
            max: Some(12)
        }
    );
}

#[test]
fn sequences_have_u64_lengths_and_bulk_forms() {
    let (schema, plan) = plan(
        "struct S { a: list<u64>, b: list<u8, max 4>, c: [f32; 3], d: list<u4>, e: list<varu16>, f: string<max 5> }",
    );
    let f = fields(&plan, schema.type_by_name("S").unwrap());
    assert!(matches!(
        f[0].node.op,
        BinOp::List {
            form: Form::Lanes { lane: Lane::U64 },
            length: BinLength {
                elem_min_bytes: 8,
                charge_per_elem: 8,
                ..
            },
            ..
        }
    ));
    assert!(matches!(
        f[1].node.op,
        BinOp::List {
            form: Form::Bytes,
            ..
        }
    ));
    assert_eq!(
        f[1].node.size,
        Size {
            min: 8,
            max: Some(12)
        }
    );
    assert!(matches!(
        f[2].node.op,
        BinOp::Array {
            form: Form::Lanes { lane: Lane::F32 },
            len: 3,
            ..
        }
    ));
    assert_eq!(
        f[2].node.size,
        Size {
            min: 12,
            max: Some(12)
        }
    );
    assert!(matches!(
        f[3].node.op,
        BinOp::List {
            form: Form::Items,
            ..
        }
    ));
    assert!(matches!(
        f[4].node.op,
        BinOp::List {
            form: Form::Lanes { lane: Lane::U16 },
            ..
        }
    ));
    assert_eq!(
        f[5].node.size,
        Size {
            min: 8,
            max: Some(13)
        }
    );
}

#[test]
fn enums_and_unions_are_u32_indexes() {
    let (schema, plan) = plan(
        "enum Team { Red, Blue, Spectator = 7 }\nstruct K { a: u32 }\nunion E { Ping, Kill(K) = 4, Note(string) }\nstruct S { t: Team, o: optional<Team> }",
    );
    let team = schema.type_by_name("Team").unwrap();
    assert_eq!(
        plan.get(team).size,
        Size {
            min: 4,
            max: Some(4)
        }
    );
    assert!(matches!(&plan.get(team).body, BinBody::Enum { values, .. } if values == &[0, 1, 7]));
    let e = plan.get(schema.type_by_name("E").unwrap());
    assert_eq!(e.size, Size { min: 4, max: None });
    let s = fields(&plan, schema.type_by_name("S").unwrap());
    assert!(matches!(s[0].node.op, BinOp::Enum { id } if id == team));
    assert_eq!(
        s[1].node.size,
        Size {
            min: 1,
            max: Some(5)
        }
    );
}

#[test]
fn sizes_of_a_deep_diamond_are_computed_once_per_type() {
    // 31 levels, each holding the next twice (in lists, which keep the memory
    // footprint small enough for the compiler to accept it): 2^30 paths.
    let mut src = String::from("struct T0 { a: u8 }\n");
    for i in 1..31 {
        src.push_str(&format!(
            "struct T{i} {{ a: list<T{p}, max 1>, b: list<T{p}, max 1> }}\n",
            p = i - 1
        ));
    }
    let (schema, plan) = plan(&src);
    let top = plan.get(schema.type_by_name("T30").unwrap());
    assert_eq!(top.size.min, 16);
    // T1 at most 2 × (8 + 1); each level doubles and adds 16.
    let t3 = plan.get(schema.type_by_name("T3").unwrap());
    assert_eq!(t3.size.max, Some(2 * (8 + 2 * (8 + 2 * (8 + 1)))));
}

#[test]
fn values_of_the_wrong_type_fail_with_the_kind_of_their_check() {
    let (schema, plan) = plan(
        "enum E { A, B } union U { X(u8), Y } struct P { x: i8 }
         struct S { a: u4, b: f32, c: bool, d: E, e: U, f: P, g: optional<string>,
                    h: [u8; 2], i: list<u16>, j: bytes, k: f64 in 0.0..=1.0 bits 8 }",
    );
    let id = schema.type_by_name("S").unwrap();
    let kinds: Vec<Kind> = fields(&plan, id)
        .iter()
        .map(|f| f.node.wrong_type_kind(&plan))
        .collect();
    use Kind::*;
    assert_eq!(
        kinds,
        [
            OutOfRange,
            OutOfRange,
            OutOfRange,
            InvalidEnum,
            InvalidEnum,
            OutOfRange,
            InvalidUtf8,
            InvalidLength,
            InvalidLength,
            InvalidLength,
            OutOfRange
        ]
    );
}
