//! Every error kind with its bit offset and path (spec §2.2, §7).

use super::support::*;

/// `World { tick: u4, entities: list<Entity, max 7>, event: Event }` with
/// `Entity { pos: Pos, health: u16 in 0..=1000 }`, `Pos { x: i6, y: i6 }`,
/// `Event = Idle | Chat(Chat) | Hit(u8)`, `Chat { text: string<max 8> }`.
fn world() -> (Schema, TypeId) {
    let mut b = Builder::new();
    let pos = b.structure("Pos", vec![("x", i(6)), ("y", i(6))]);
    let entity = b.structure(
        "Entity",
        vec![("pos", pos), ("health", bounded(16, 0, 1000))],
    );
    let chat = b.structure("Chat", vec![("text", string(Some(8)))]);
    let event = b.union(
        "Event",
        2,
        vec![
            ("Idle", 0, None),
            ("Chat", 1, Some(chat)),
            ("Hit", 2, Some(u(8))),
        ],
    );
    let world = b.structure(
        "World",
        vec![
            ("tick", u(4)),
            ("entities", list(entity, Some(7))),
            ("event", event),
        ],
    );
    (b.schema, Builder::id(&world))
}

fn entity(x: i128, y: i128, health: i128) -> Value {
    Value::record([
        ("pos", Value::record([("x", int(x)), ("y", int(y))])),
        ("health", int(health)),
    ])
}

fn world_value(entities: Vec<Value>, event: Value) -> Value {
    Value::record([
        ("tick", int(1)),
        ("entities", Value::Array(entities)),
        ("event", event),
    ])
}

#[test]
fn encode_errors_carry_offset_and_path() {
    let (s, t) = world();
    // tick 4 bits, length 3 bits, each entity 22 bits.
    let es = vec![entity(0, 0, 1), entity(1, 2, 3), entity(-32, 31, 1001)];
    let v = world_value(es, Value::unit("Idle"));
    let e = encode(&s, t, &v).unwrap_err();
    assert_eq!(
        e.to_string(),
        "OutOfRange at bit 63 in `entities[2].health`"
    );
    let es = vec![entity(0, 0, 1), entity(32, 0, 3)];
    let e = wire(encode(&s, t, &world_value(es, Value::unit("Idle"))));
    assert_eq!(e, w(ErrorKind::OutOfRange, 29, "entities[1].pos.x"));
    let e = wire(encode(
        &s,
        t,
        &world_value(vec![entity(0, 0, 0); 8], Value::unit("Idle")),
    ));
    assert_eq!(e, w(ErrorKind::InvalidLength, 4, "entities"));
    let chat = Value::variant(
        "Chat",
        Value::record([("text", Value::String("ééééé".into()))]),
    );
    assert_eq!(
        wire(encode(&s, t, &world_value(vec![], chat))),
        w(ErrorKind::InvalidLength, 9, "event.Chat.text")
    );
    assert_eq!(
        wire(encode(&s, t, &world_value(vec![], Value::unit("Nope")))),
        w(ErrorKind::InvalidEnum, 7, "event")
    );
    assert_eq!(
        wire(encode(
            &s,
            t,
            &world_value(vec![], Value::variant("Hit", int(256)))
        )),
        w(ErrorKind::OutOfRange, 9, "event.Hit")
    );
    // Shapes that no JSON can produce are caller bugs, not wire errors.
    assert!(matches!(
        encode(&s, t, &world_value(vec![], Value::unit("Hit"))),
        Err(CodecError::Shape { .. })
    ));
    assert!(matches!(
        encode(&s, t, &Value::Bool(true)),
        Err(CodecError::Shape { .. })
    ));

    let (s, t) = single(vec![
        u(4),
        i(4),
        varu(16),
        vari(16),
        arr(u(1), 2),
        Type::Float {
            repr: FloatRepr::F32,
        },
    ]);
    let good = [
        int(15),
        int(-8),
        int(65535),
        int(-32768),
        Value::Array(vec![int(0), int(1)]),
        Value::Float(1.0),
    ];
    encode(&s, t, &rec(good.to_vec())).unwrap();
    let bad: [(usize, Value, u64, ErrorKind); 7] = [
        (0, int(16), 0, ErrorKind::OutOfRange),
        (0, int(-1), 0, ErrorKind::OutOfRange),
        (1, int(8), 4, ErrorKind::OutOfRange),
        (2, int(65536), 8, ErrorKind::OutOfRange),
        (3, int(32768), 27, ErrorKind::OutOfRange),
        (3, int(-32769), 27, ErrorKind::OutOfRange),
        (4, Value::Array(vec![int(0)]), 46, ErrorKind::InvalidLength),
    ];
    for (k, v, bit, kind) in bad {
        let mut vals = good.to_vec();
        vals[k] = v;
        assert_eq!(
            wire(encode(&s, t, &rec(vals))),
            w(kind, bit, &format!("f{k}"))
        );
    }
    let (s, t) = single(vec![Type::Bool, quant(FloatRepr::F32, -1.0, 1.0, 255)]);
    for x in [f64::NAN, 1.5, -1.0000001, f64::INFINITY] {
        let v = rec(vec![Value::Bool(true), Value::Float(x)]);
        assert_eq!(
            wire(encode(&s, t, &v)),
            w(ErrorKind::OutOfRange, 1, "f1"),
            "{x}"
        );
    }
}

#[test]
fn decode_errors_carry_offset_and_path() {
    let (s, t) = world();
    let good = world_value(
        vec![entity(3, -4, 1000), entity(-1, 1, 7)],
        Value::variant("Hit", int(9)),
    );
    let bytes = encode(&s, t, &good).unwrap();
    assert_eq!(decode(&s, t, &bytes).unwrap(), good);
    // 61 bits: tick 0..4, length 4..7, entities 7..51, tag 51..53, Hit payload 53..61.
    assert_eq!(
        wire(decode(&s, t, &bytes[..7])),
        w(ErrorKind::Truncated, 53, "event.Hit")
    );
    // Two entities need 44 bits; fewer remain after the length: Truncated at the list,
    // before any element is read (§5.6).
    assert_eq!(
        wire(decode(&s, t, &bytes[..6])),
        w(ErrorKind::Truncated, 4, "entities")
    );
    // Truncation inside an element: list<optional<u8>, max 3> with length 2, elements
    // present: element 1's u8 starts at bit 12 but the input ends at 16.
    let (s2, t2) = single(vec![list(opt(u(8)), Some(3))]);
    assert_eq!(
        wire(decode(&s2, t2, &[6, 8])),
        w(ErrorKind::Truncated, 12, "f0[1]")
    );
}

#[test]
fn decode_errors_in_ranges_and_lengths() {
    let (s, t) = single(vec![
        u(3),
        bounded(16, 10, 12),
        list(u(32), None),
        string(None),
    ]);
    // f1 stores v - 10 in 2 bits; 3 is above 12 - 10.
    assert_eq!(
        wire(decode(&s, t, &[0b0001_1000])),
        w(ErrorKind::OutOfRange, 3, "f1")
    );
    // f2: a list of 100 u32 needs 3200 bits, far more than remain: Truncated at the list
    // (bit 5), before any element is read.
    let mut input = vec![0u8; 8];
    // Varint 100 at bit 5: "1 0" then 100 in 8 bits.
    let mut bits: Vec<u8> = vec![0; 5];
    bits.extend([1, 0]);
    bits.extend((0..8).map(|k| (100u8 >> k) & 1));
    for (p, b) in bits.iter().enumerate() {
        input[p / 8] |= b << (p % 8);
    }
    assert_eq!(
        wire(decode(&s, t, &input)),
        w(ErrorKind::Truncated, 5, "f2")
    );

    // Strings: a length past the input, then invalid UTF-8.
    let (s, t) = single(vec![string(Some(3))]);
    assert_eq!(
        wire(decode(&s, t, &[0b01])),
        w(ErrorKind::Truncated, 0, "f0")
    );
    // len 1 (2 bits: 10), byte ff.
    assert_eq!(
        wire(decode(&s, t, &[0b1111_1101, 0b11])),
        w(ErrorKind::InvalidUtf8, 0, "f0")
    );
    let (s, t) = single(vec![Type::Bool, list(u(1), Some(4))]);
    // bool, then len 5 (101) > 4 in 3 bits: InvalidLength at the list, bit 1.
    assert_eq!(
        wire(decode(&s, t, &[0b1010, 0])),
        w(ErrorKind::InvalidLength, 1, "f1")
    );
}

/// Enums and unions: undeclared values.
#[test]
fn decode_errors_in_enums_and_unions() {
    let mut b = Builder::new();
    let e = b.enumeration("E", 2, &[("A", 0), ("B", 1), ("D", 3)]);
    let un = b.union("U", 2, vec![("X", 0, None), ("Y", 1, Some(u(8)))]);
    let tt = b.structure("T", vec![("e", e), ("u", un)]);
    let (s, t) = (b.schema, Builder::id(&tt));
    assert_eq!(
        wire(decode(&s, t, &[0b10])),
        w(ErrorKind::InvalidEnum, 0, "e")
    );
    assert_eq!(
        wire(decode(&s, t, &[0b1000])),
        w(ErrorKind::InvalidEnum, 2, "u")
    );
    assert_eq!(
        wire(decode(&s, t, &[0b0111])),
        w(ErrorKind::Truncated, 4, "u.Y")
    );
}

#[test]
fn decode_errors_in_floats() {
    // Non-canonical NaNs (f32 and f64), but the canonical ones decode.
    let (s, t) = single(vec![f32t(), f64t()]);
    let mut input = 0x7FC0_0001u32.to_le_bytes().to_vec();
    input.extend(0x7FF8_0000_0000_0000u64.to_le_bytes());
    assert_eq!(
        wire(decode(&s, t, &input)),
        w(ErrorKind::NonCanonical, 0, "f0")
    );
    input[..4].copy_from_slice(&0x7FC0_0000u32.to_le_bytes());
    assert_eq!(
        decode(&s, t, &input).unwrap(),
        rec(vec![Value::Float(f64::NAN), Value::Float(f64::NAN)])
    );
    input[4..].copy_from_slice(&0xFFF8_0000_0000_0000u64.to_le_bytes());
    assert_eq!(
        wire(decode(&s, t, &input)),
        w(ErrorKind::NonCanonical, 32, "f1")
    );

    // Quantized: q above STEPS.
    let (s, t) = single(vec![quant(FloatRepr::F64, 0.0, 1.0, 4)]);
    assert_eq!(
        wire(decode(&s, t, &[0b101])),
        w(ErrorKind::OutOfRange, 0, "f0")
    );
}

#[test]
fn padding_then_trailing_data() {
    let (s, t) = single(vec![Type::Bool, u(2)]);
    assert_eq!(
        decode(&s, t, &[0b111]).unwrap(),
        rec(vec![Value::Bool(true), int(3)])
    );
    assert_eq!(
        wire(decode(&s, t, &[0b1111])),
        w(ErrorKind::InvalidPadding, 3, "")
    );
    assert_eq!(
        wire(decode(&s, t, &[0b1000_0000])),
        w(ErrorKind::InvalidPadding, 3, "")
    );
    // Padding is checked before trailing bytes.
    assert_eq!(
        wire(decode(&s, t, &[0b1000, 0])),
        w(ErrorKind::InvalidPadding, 3, "")
    );
    assert_eq!(
        wire(decode(&s, t, &[0b111, 0])),
        w(ErrorKind::TrailingData, 8, "")
    );
    assert_eq!(wire(decode(&s, t, &[])), w(ErrorKind::Truncated, 0, "f0"));
    let (s, t) = single(vec![u(8)]);
    assert_eq!(
        wire(decode(&s, t, &[1, 2, 3])),
        w(ErrorKind::TrailingData, 8, "")
    );
}
