use super::*;

fn plan_of(src: &str) -> (Schema, CodecPlan) {
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    let plan = CodecPlan::build(&schema);
    (schema, plan)
}

fn struct_steps<'p>(schema: &Schema, plan: &'p CodecPlan, name: &str) -> &'p StructPlan {
    plan.struct_plan(schema.type_by_name(name).unwrap())
        .unwrap()
}

/// A compact picture of a struct's steps: `run64[a,b]`, `field2`.
fn shape(s: &StructPlan) -> Vec<String> {
    s.steps
        .iter()
        .map(|step| match step {
            Step::Run(r) => {
                let names: Vec<String> = r.leaves.iter().map(|l| l.names.join(".")).collect();
                format!("run{}[{}]", r.bits, names.join(","))
            }
            Step::Field(i) => format!("field{i}"),
        })
        .collect()
}

#[test]
fn packet64_is_one_run_of_plain_fields_and_one_check() {
    let (schema, plan) =
        plan_of("message P = 1 { a: bool, b: u4, c: u2, d: u9, e: i12, f: i12, g: u8, h: u16 }");
    let s = struct_steps(&schema, &plan, "P");
    let run = s.single_run().expect("one run");
    assert_eq!(run.bits, 64);
    let offsets: Vec<u32> = run.leaves.iter().map(|l| l.offset).collect();
    assert_eq!(offsets, [0, 1, 5, 7, 16, 28, 40, 48]);
    let avails: Vec<&RunRead> = run
        .reads
        .iter()
        .filter(|r| matches!(r, RunRead::Avail { .. }))
        .collect();
    assert_eq!(avails.len(), 1, "{:?}", run.reads);
    assert!(matches!(avails[0], RunRead::Avail { end: 64, leaves, .. } if leaves.len() == 8));
}

#[test]
fn runs_split_at_words_and_composites() {
    let (schema, plan) = plan_of("struct S { a: u40, b: u30, c: bool, s: string, d: f64, e: f64 }");
    let s = struct_steps(&schema, &plan, "S");
    assert_eq!(
        shape(s),
        ["field0", "run31[b,c]", "field3", "field4", "field5"]
    );
}

#[test]
fn nested_fixed_width_structs_join_the_run() {
    let (schema, plan) = plan_of(
        "struct B { x: bool, y: bool }
         message I = 2 { seq: u16, b: B, yaw: f32 in 0.0..=360.0 bits 12 }",
    );
    let s = struct_steps(&schema, &plan, "I");
    assert_eq!(shape(s), ["run30[seq,b.x,b.y,yaw]"]);
    let run = s.single_run().unwrap();
    assert_eq!(run.nested_structs(), vec![vec![1]]);
}

#[test]
fn paths_into_nested_structs_name_their_structs() {
    let (schema, plan) = plan_of(
        "struct C { z: bool } struct B { x: bool, c: C }
         message I = 2 { seq: u16, b: B, yaw: f32 in 0.0..=360.0 bits 12 }",
    );
    let id = |n: &str| schema.type_by_name(n).unwrap();
    let run = struct_steps(&schema, &plan, "I")
        .single_run()
        .unwrap()
        .clone();
    let z = run
        .leaves
        .iter()
        .find(|l| l.names == ["b", "c", "z"])
        .unwrap();
    assert_eq!(z.path, [1, 1, 0]);
    assert_eq!(
        plan.path_structs(id("I"), &z.path),
        [id("I"), id("B"), id("C")]
    );
    assert_eq!(run.nested_structs(), vec![vec![1], vec![1, 1]]);
    assert_eq!(plan.nested_struct(id("I"), &[1]), id("B"));
    assert_eq!(plan.nested_struct(id("I"), &[1, 1]), id("C"));
}

#[test]
fn checked_scalars_get_a_truncation_check_that_covers_the_plain_ones_before() {
    let (schema, plan) = plan_of("struct S { a: u3, h: u8 in 0..=200, b: bool, w: u7 }");
    let run = struct_steps(&schema, &plan, "S")
        .single_run()
        .unwrap()
        .clone();
    assert_eq!(
        run.reads,
        vec![
            RunRead::Take { leaf: 0 },
            RunRead::Avail {
                end: 11,
                leaves: vec![0, 1],
                kind: Kind::Truncated
            },
            RunRead::Check { leaf: 1 },
            RunRead::Take { leaf: 2 },
            RunRead::Take { leaf: 3 },
            RunRead::Avail {
                end: 19,
                leaves: vec![2, 3],
                kind: Kind::Truncated
            },
        ]
    );
}

#[test]
fn lengths_check_their_bound_only_when_the_prefix_can_exceed_it() {
    let (schema, plan) = plan_of(
        "struct S { a: list<u16, max 7>, b: list<u16, max 6>, c: string, d: bytes<max 3> }",
    );
    let s = struct_steps(&schema, &plan, "S");
    let len = |i: usize| match &s.fields[i].node.op {
        Op::List(l) => (l.length, l.form),
        Op::String(l) | Op::Bytes(l) => (*l, Form::Bytes),
        other => panic!("{other:?}"),
    };
    assert!(!len(0).0.check_max);
    assert!(len(1).0.check_max);
    assert_eq!(len(0).1, Form::Lanes { lane: Lane::U16 });
    assert_eq!(len(0).0.charge_per_elem, 2);
    assert_eq!(len(2).0.prefix, Prefix::Varint);
    assert_eq!(len(2).0.elem_min_bits, 8);
    assert_eq!(len(3).0.prefix, Prefix::Fixed { bits: 2 });
}

#[test]
fn single_scalars_and_zero_width_runs_are_fields() {
    let (schema, plan) = plan_of("struct S { a: u8, s: string, z: u8 in 3..=3, y: u8 in 4..=4 }");
    assert_eq!(
        shape(struct_steps(&schema, &plan, "S")),
        ["field0", "field1", "field2", "field3"]
    );
}

#[test]
fn encode_failure_depends_on_what_the_language_can_hold() {
    let (schema, plan) = plan_of("enum E { A, B, C } struct S { e: E, n: u16, s: string }");
    let s = struct_steps(&schema, &plan, "S");
    let e = &s.fields[0].node;
    assert!(!e.encode_can_fail(Lang::RUST));
    assert!(e.encode_can_fail(Lang::GO));
    let n = &s.fields[1].node;
    assert!(!n.encode_can_fail(Lang::GO));
    assert!(n.encode_can_fail(Lang::TS));
    let st = &s.fields[2].node;
    assert!(!st.encode_can_fail(Lang::RUST));
    assert!(st.encode_can_fail(Lang::GO));
}

#[test]
fn plans_of_every_vector_schema_serialize_deterministically() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/vectors");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("testdata/vectors") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "bw") {
            let schema = crate::compile_file(&path).expect("a vector schema compiles");
            let a = serde_json::to_string(&CodecPlan::build(&schema)).expect("serializes");
            let b = serde_json::to_string(&CodecPlan::build(&schema)).expect("serializes");
            assert_eq!(a, b, "{}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 10, "found {seen} schemas");
}

#[test]
fn untyped_encoders_know_the_kind_of_a_value_of_the_wrong_type() {
    let (schema, plan) = plan_of(
        "enum E { A, B } union U { X, Y(u8) } struct P { x: u8 }
         struct S { a: u8, e: E, u: U, p: P, s: string, b: bytes, l: list<u8>,
                    r: [u8; 2], o: optional<string>, v: varu32, f: f32 }",
    );
    let s = struct_steps(&schema, &plan, "S");
    let kinds: Vec<&str> = s
        .fields
        .iter()
        .map(|f| f.node.wrong_type_kind(&plan).name())
        .collect();
    assert_eq!(
        kinds,
        [
            "OutOfRange",
            "InvalidEnum",
            "InvalidEnum",
            "OutOfRange",
            "InvalidUtf8",
            "InvalidLength",
            "InvalidLength",
            "InvalidLength",
            "InvalidUtf8",
            "OutOfRange",
            "OutOfRange"
        ]
    );
    match &s.fields[7].node.op {
        Op::Array(a) => assert_eq!(a.wrong_length, Kind::InvalidLength),
        other => panic!("{other:?}"),
    }
}
