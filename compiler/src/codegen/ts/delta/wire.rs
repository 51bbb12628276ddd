//! Wire values of scalars (spec §12.2) in TypeScript: the unsigned integer the full
//! encoding writes for a value, computed with the full encoder's checks, and the value
//! a decoder builds from one, after the full decoder's checks (§12.4). Up to 32 bits a
//! wire value is one `number`; wider ones are two 32-bit halves (`f64` bits, 33..53-bit
//! integers, `bigint` fields), which the runtime's difference code works on without
//! allocating.

use crate::codegen::ts::bits::Raw;
use crate::codegen::ts::encode::{checked_raw, Member};
use crate::codegen::ts::exprs::{
    bounded_value, dequantized, enum_tag, range_violation, sign_extend53, varint_range, violation,
    violation_error,
};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{int_lit, path_args, Gen, Locals};
use crate::ir::FloatRepr;
use crate::plan::{DecodeCheck, Node, Op, Scalar, ScalarKind};

/// A wire value as printed code holds it.
#[derive(Debug, Clone)]
pub enum Wire {
    /// Up to 32 bits: a `number` (an `iN` may be its sign-extended value: only
    /// differences modulo 2^width are taken).
    N32(String),
    /// 33 to 64 bits: the low and the high 32-bit halves, unsigned.
    Halves(String, String),
}

/// The key of a keyed list's element (§12.1) from the key field's value `x`, and its
/// TypeScript type: integers as they are (their order is their value's), enums by tag.
pub fn key_expr(g: &Gen, node: &Node, x: &str) -> (String, String) {
    match &node.op {
        Op::Scalar(Scalar {
            kind: ScalarKind::Enum { id, .. },
            ..
        }) => {
            let ty = if g.enum_big(*id) { "bigint" } else { "number" };
            (ty.into(), format!("{}Tag({x})", g.names.types[*id].lower))
        }
        _ => (g.ts_type(node), x.to_string()),
    }
}

/// `x` itself when it is a plain local, else a new local (named from `hint`) bound to it.
pub fn bind(p: &mut Printer, locals: &mut Locals, x: &str, hint: &str) -> String {
    if x.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    {
        return x.to_string();
    }
    let l = locals.fresh(hint);
    p.line(format!("const {l} = {x};"));
    l
}

/// Where a check's error is: the stream bit (the writer's position, or `0` for a
/// decoder's baseline) and the path (empty when an enclosing `try` adds it).
#[derive(Debug, Clone, Copy)]
pub struct ErrorAt<'a> {
    pub bit: &'static str,
    pub path: &'a [String],
}

/// Prints the full encoder's checks of `x`, a value of the scalar or varint `node`,
/// and returns its wire value; new locals are named from `hint`.
pub fn wire_value(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    (x, hint): (&str, &str),
    at: ErrorAt,
) -> Wire {
    let (origin, names) = (at.bit, at.path);
    let x = bind(p, locals, x, hint);
    match &node.op {
        Op::Scalar(s) => {
            if s.kind
                == (ScalarKind::Float {
                    repr: FloatRepr::F64,
                })
            {
                let cond = violation(s, &x).expect("a type check");
                let err = violation_error(s, &x, origin, names, s.wrong_type_kind());
                fail(p, &cond, &err);
                let (lo, hi) = (
                    locals.fresh(&format!("{hint}Lo")),
                    locals.fresh(&format!("{hint}Hi")),
                );
                p.line(format!("const {lo} = bw.f64LoBits({x});"));
                p.line(format!("const {hi} = bw.f64HiBits();"));
                return Wire::Halves(lo, hi);
            }
            let m = Member {
                value: x.clone(),
                local: None,
                scalar: s,
                offset: 0,
                names: names.to_vec(),
                origin,
            };
            let (expr, raw, _) = checked_raw(g, p, locals, &m, &x, false).expect("a wire value");
            halves(p, locals, &expr, raw, hint)
        }
        Op::Varint(v) => {
            let (min, max) = varint_range(v);
            p.open_if(&range_violation(&x, min, max, v.json_wide));
            p.line(format!(
                "throw bw.rangeError({origin}, {x}, {}, {}{});",
                int_lit(min, v.json_wide),
                int_lit(max, v.json_wide),
                path_args(names)
            ));
            p.close("}");
            match (v.bits, v.signed) {
                (64, false) => halves(p, locals, &x, Raw::Big, hint),
                (64, true) => halves(p, locals, &format!("bw.zigzag64({x})"), Raw::Big, hint),
                (_, false) => Wire::N32(x),
                (_, true) => halves(p, locals, &format!("bw.zigzag32({x})"), Raw::N32, hint),
            }
        }
        other => unreachable!("a difference code of a non-scalar: {other:?}"),
    }
}

/// A raw wire value held as `raw`, as a [`Wire`]: bound to a local, and split into
/// halves when it is wider than 32 bits.
fn halves(p: &mut Printer, locals: &mut Locals, expr: &str, raw: Raw, hint: &str) -> Wire {
    let u = bind(p, locals, expr, &format!("{hint}Wire"));
    match raw {
        Raw::N32 => Wire::N32(u),
        Raw::N53 => Wire::Halves(
            format!("{u} >>> 0"),
            format!("Math.floor({u} / 4294967296)"),
        ),
        Raw::Big => Wire::Halves(
            format!("Number({u} & 0xffffffffn)"),
            format!("Number({u} >> 32n)"),
        ),
    }
}

/// Prints `if (cond) { throw err; }`.
pub fn fail(p: &mut Printer, cond: &str, err: &str) {
    p.open_if(cond);
    p.line(format!("throw {err};"));
    p.close("}");
}

/// Whether [`from_wire`] checks the wire value of `node` (and so needs the code's bit):
/// any value with a decode check, and enums, whose tag is looked up either way.
pub fn checks_wire(node: &Node) -> bool {
    match &node.op {
        Op::Scalar(s) => !s.decode.is_none() || matches!(s.kind, ScalarKind::Enum { .. }),
        _ => false,
    }
}

/// Prints the full decoder's checks of a wire value `u` of `node` that a difference
/// code gave (§12.4: at `at`, the code's first bit) and returns the value's expression.
pub fn from_wire(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    u: &Wire,
    at: &str,
) -> String {
    match (&node.op, u) {
        (Op::Varint(v), Wire::N32(u)) if v.signed => format!("bw.unzigzag32({u})"),
        (Op::Varint(_), Wire::N32(u)) => u.clone(),
        (Op::Varint(v), Wire::Halves(lo, hi)) => {
            let big = format!("BigInt({lo}) | (BigInt({hi}) << 32n)");
            if v.signed {
                format!("bw.unzigzag64({big})")
            } else {
                big
            }
        }
        (Op::Scalar(s), u) => scalar_from_wire(g, p, locals, s, u, at),
        (other, _) => unreachable!("a difference code of a non-scalar: {other:?}"),
    }
}

fn scalar_from_wire(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    s: &Scalar,
    u: &Wire,
    at: &str,
) -> String {
    let w = s.bits;
    if let (
        ScalarKind::Float {
            repr: FloatRepr::F64,
        },
        Wire::Halves(lo, hi),
    ) = (&s.kind, u)
    {
        fail(
            p,
            &format!("bw.isNonCanonicalF64({lo}, {hi})"),
            &format!("bw.error(\"NonCanonical\", {at})"),
        );
        return format!("bw.f64FromBits({lo}, {hi})");
    }
    // The wire value as one unsigned number (or bigint above 53 bits).
    let raw = Raw::of(w);
    let u = match u {
        Wire::N32(u) => u.clone(),
        Wire::Halves(lo, hi) => {
            let l = locals.fresh("wire");
            match raw {
                Raw::Big => p.line(format!("const {l} = BigInt({lo}) | (BigInt({hi}) << 32n);")),
                _ => p.line(format!("const {l} = {lo} + {hi} * 4294967296;")),
            }
            l
        }
    };
    let big = raw == Raw::Big;
    match (s.decode, &s.kind) {
        (DecodeCheck::AtMost { max, .. }, ScalarKind::Bounded { min, max: vmax, .. }) => fail(
            p,
            &format!("{u} > {}", int_lit(max.into(), big)),
            &format!(
                "bw.boundedError({at}, {u}, {}, {})",
                int_lit(*min, s.json_wide),
                int_lit(*vmax, s.json_wide)
            ),
        ),
        (DecodeCheck::AtMost { max, .. }, _) => fail(
            p,
            &format!("{u} > {}", int_lit(max.into(), big)),
            &format!("bw.stepsError({at}, {u}, {})", int_lit(max.into(), big)),
        ),
        (DecodeCheck::CanonicalNan { .. }, _) => fail(
            p,
            &format!("bw.isNonCanonicalF32({u})"),
            &format!("bw.error(\"NonCanonical\", {at})"),
        ),
        _ => {}
    }
    match s.kind {
        ScalarKind::Bool => format!("{u} !== 0"),
        ScalarKind::UInt { .. } => u,
        ScalarKind::SInt { .. } => match raw {
            Raw::N32 if w == 32 => format!("{u} | 0"),
            Raw::N32 => format!("({u} << {}) >> {}", 32 - w, 32 - w),
            Raw::N53 => sign_extend53(&u, w),
            Raw::Big => format!("BigInt.asIntN({w}, {u})"),
        },
        ScalarKind::Bounded { min, .. } => bounded_value(&u, raw, min, s.json_wide),
        ScalarKind::Quantized { .. } => dequantized(s, &u, big),
        ScalarKind::Float { .. } => format!("bw.f32FromBits({u})"),
        ScalarKind::Enum { id, .. } => {
            let value = locals.fresh("named");
            let tag = enum_tag(g, id, &u, raw);
            p.line(format!(
                "const {value} = {}FromTag({tag});",
                g.names.types[id].lower
            ));
            fail(
                p,
                &format!("{value} === undefined"),
                &format!("bw.enumError({at}, {u})"),
            );
            value
        }
    }
}
