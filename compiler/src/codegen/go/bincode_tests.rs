//! Unit tests of the Go backend's bincode encoding on small schemas. The golden
//! files (`testdata/codegen/*.bincode.go`) and their gofmt check are in
//! `compiler/tests/codegen_golden_go.rs`; that the code compiles, passes go vet and
//! staticcheck and gives the crates' bytes is checked by `conformance/go`.

use super::super::{generate_go, GoOptions};
use super::*;

fn gen_with(src: &str, bincode: bool) -> String {
    let schema = crate::compile_source("t.bw", src).expect("schema compiles");
    let opts = GoOptions {
        json: false,
        bincode,
        source_name: "t.bw".into(),
        package: "t".into(),
    };
    generate_go(&schema, &opts)
}

fn gen(src: &str) -> String {
    gen_with(src, true)
}

#[test]
fn bincode_needs_api_version_6_and_adds_every_function() {
    let code = gen("struct A { x: u4 }");
    assert!(code.contains("\nconst _ = bitwire.RuntimeAPIVersion6\n"));
    for f in [
        "func (m *A) AppendBincode(dst []byte) ([]byte, error) {",
        "func (m *A) EncodeBincode() ([]byte, error) {",
        "func (m *A) DecodeBincode(b []byte) error {",
        "func (m *A) DecodeBincodeWithLimits(b []byte, limits bitwire.Limits) error {",
        "func (m *A) WriteBincode(w *bitwire.ByteWriter) error {",
        "func (m *A) ReadBincode(r *bitwire.ByteReader) error {",
        "func VerifyBincodeA(b []byte) error {",
        "func VerifyBincodeAWithLimits(b []byte, limits bitwire.Limits) error {",
        "func VerifyABincode(r *bitwire.ByteReader) error {",
        "\tAMinBincodeSize = 1\n",
        "\tAMaxBincodeSize = 1\n",
    ] {
        assert!(code.contains(f), "missing {f}");
    }
    // A u4 is a u8 on the wire, checked on both sides.
    assert!(code.contains("w.CheckUint(uint64(m.X), 0, 15)"));
    assert!(code.contains("x, err := r.ReadUintIn(1, 0, 15)"));
    assert!(code.contains("m.X = uint8(x)"));
    let plain = gen_with("struct A { x: u4 }", false);
    assert!(!plain.contains("Bincode") && plain.contains("RuntimeAPIVersion4"));
}

#[test]
fn fields_named_like_bincode_methods_are_escaped_only_with_bincode() {
    let src = "struct S { encode_bincode: u8, read_bincode: bool }\nunion U { WriteBincode(u8) }";
    let code = gen(src);
    assert!(code.contains("\tEncodeBincode_ uint8\n") && code.contains("\tReadBincode_ bool\n"));
    assert!(code.contains("\tWriteBincode_ uint8\n"));
    let plain = gen_with(src, false);
    assert!(plain.contains("\tEncodeBincode uint8\n") && plain.contains("\tWriteBincode uint8\n"));
}

#[test]
fn enums_write_their_index_not_their_value() {
    let code = gen("enum Team { Red, Blue, Spectator = 7 }\nenum Dense: u8 { A, B, C }");
    // Sparse values: a switch both ways.
    assert!(code.contains("\tcase TeamSpectator:\n\t\tw.WriteU32(2)\n"));
    assert!(code.contains("index, err := r.ReadIndex(3)"));
    assert!(code.contains("\tcase 2:\n\t\t*v = TeamSpectator\n"));
    // Values that are their indices convert.
    assert!(code.contains("\tw.WriteU32(uint32(v))\n"));
    assert!(code.contains("\t*v = Dense(index)\n"));
    assert!(code.contains("return bitwire.EnumError(w.BitPos(), uint64(v))"));
}

#[test]
fn unions_write_the_arm_index_then_the_payload() {
    let code = gen("union E { Chat(string), Kill(u32) = 4, Ping }");
    assert!(code.contains("\tcase EKill:\n\t\tw.WriteU32(1)\n\t\tw.WriteU32(m.Kill)\n"));
    assert!(code.contains("\tcase EPing:\n\t\tw.WriteU32(2)\n"));
    assert!(code.contains("\tcase 1:\n\t\t*m = E{Tag: EKill, Kill: m.Kill}\n"));
    assert!(code.contains("\tcase 2:\n\t\t*m = E{Tag: EPing}\n"));
}

#[test]
fn plain_numbers_move_in_bulk() {
    let code = gen(
        "struct P { a: list<u64>, b: [f32; 4], c: list<u8, max 9>, d: [u8; 3], \
                    e: list<varu32>, f: list<u12> }",
    );
    assert!(code.contains("\tw.WriteLen(len(m.A))\n\tbitwire.WriteLanes(w, m.A)\n"));
    assert!(code.contains("a, err := bitwire.ReadLanes(r, aLen, m.A)"));
    assert!(code.contains("aLen, err := r.ReadLen(8, 8)"));
    assert!(code.contains("if err := r.Skip(aLen * 8); err != nil {"));
    assert!(code.contains("bitwire.WriteLanes(w, m.B[:])"));
    assert!(code.contains("if err := bitwire.ReadLaneArray(r, m.B[:]); err != nil {"));
    assert!(code.contains("if err := r.SkipArray(4, 4); err != nil {"));
    assert!(code.contains("if err := w.CheckLen(len(m.C), 9); err != nil {"));
    assert!(code.contains("\tw.WriteBytes(m.C)\n"));
    assert!(code.contains("cLen, err := r.ReadLenMax(9, 1, 1)"));
    assert!(code.contains("\tw.WriteRaw(m.D[:])\n"));
    assert!(code.contains("if err := r.SkipArray(3, 1); err != nil {"));
    assert!(code.contains("bitwire.WriteLanes(w, m.E)"));
    // A u12 is a u16 with a range: element by element.
    assert!(code.contains("item, err := r.ReadUintIn(2, 0, 4095)"));
}

#[test]
fn verify_names_never_take_a_schema_name() {
    let code = gen("struct VerifyBincodeA { x: bool }\nstruct A { y: bool }");
    assert!(code.contains("type VerifyBincodeA struct {"));
    assert!(code.contains("func VerifyBincodeA2(b []byte) error {"));
}

#[test]
fn go_types_of_the_ir_are_the_packed_codes() {
    let schema = crate::compile_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/codegen/kitchen_sink.bw"
    )))
    .expect("compiles");
    let opts = GoOptions {
        json: false,
        bincode: true,
        source_name: "kitchen_sink.bw".into(),
        package: "k".into(),
    };
    let g = Gen::new(&schema, &opts);
    let mut compared = 0;
    for id in 0..schema.types.len() {
        if let (Some(s), crate::ir::TypeDefKind::Struct { fields }) =
            (g.plan.struct_plan(id), &g.schema.types[id].kind)
        {
            for (f, fp) in fields.iter().zip(&s.fields) {
                assert_eq!(g.go_type_of(&f.ty), g.go_type(&fp.node), "{}", f.name);
                compared += 1;
            }
        }
    }
    assert!(compared > 40, "{compared} fields");
}
