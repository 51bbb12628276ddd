//! Values outside runs: lone scalars, varints, optionals, arrays, lists, strings,
//! bytes and nested types, each read (`Mode::Read`, returning the value's expression)
//! or skipped (`Mode::Skip`, building nothing) with the same reads and errors. Errors
//! carry no path of their own here: the enclosing `try` adds it. Lengths are checked
//! against their bound, the input left and the decode budget before anything is
//! allocated (spec §5.6, §11).

use crate::codegen::ts::bits::Raw;
use crate::codegen::ts::exprs::{bounded_value, constant, dequantized, read_uint};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{big_bits, int_lit, wrapped, Gen, Locals};
use crate::ir::FloatRepr;
use crate::plan::{DecodeCheck, Form, Lane, Length, Node, Op, Prefix, Scalar, ScalarKind};

/// Which half of the decoder is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `readX`: validate and build the value.
    Read,
    /// `skipX`: validate only, build nothing.
    Skip,
}

/// Prints the reading or skipping of one value of any node and returns, in
/// [`Mode::Read`], the expression of its value (evaluated right after what was
/// printed).
pub(crate) fn decode_value(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    mode: Mode,
) -> Option<String> {
    if node.is_zero_width() && mode == Mode::Skip {
        return None;
    }
    match &node.op {
        Op::Scalar(s) => lone_scalar(g, p, locals, s, mode),
        Op::Varint(v) => {
            let read = match v.bits {
                64 => "r.readVaru64()".to_string(),
                bits => format!("r.readVaruint({bits})"),
            };
            match (mode, v.signed, v.bits) {
                (Mode::Skip, _, bits) => skip(p, format!("r.skipVarint({bits})")),
                (Mode::Read, false, _) => Some(read),
                (Mode::Read, true, 64) => Some(format!("bw.unzigzag64({read})")),
                (Mode::Read, true, _) => Some(format!("bw.unzigzag32({read})")),
            }
        }
        Op::Optional(inner) => optional(g, p, locals, inner, mode),
        Op::Array(a) => elements(
            g,
            p,
            locals,
            &a.elem,
            a.form,
            &a.len.to_string(),
            false,
            mode,
        ),
        Op::List(l) => {
            let (len, _) = decode_length(p, locals, &l.length);
            elements(g, p, locals, &l.elem, l.form, &len, true, mode)
        }
        Op::String(len) => {
            let (n, start) = decode_length(p, locals, len);
            match mode {
                Mode::Read => Some(format!("r.readString({n}, {start})")),
                Mode::Skip => skip(p, format!("r.skipString({n}, {start})")),
            }
        }
        Op::Bytes(len) => {
            let (n, _) = decode_length(p, locals, len);
            match mode {
                Mode::Read => Some(format!("r.readBytes({n})")),
                Mode::Skip => skip(p, format!("r.skip({n} * 8)")),
            }
        }
        Op::Named(id) => match mode {
            Mode::Read => Some(format!("read{}(r)", g.ident(*id))),
            Mode::Skip => skip(p, format!("skip{}(r)", g.ident(*id))),
        },
    }
}

/// Prints `call;` (a skip), for [`decode_value`]'s `Mode::Skip` arms.
fn skip(p: &mut Printer, call: String) -> Option<String> {
    p.line(format!("{call};"));
    None
}

/// A scalar on its own: plain ones with the reader's own calls (which check
/// truncation), checked ones from their stored bits, enums through their own functions.
fn lone_scalar(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    s: &Scalar,
    mode: Mode,
) -> Option<String> {
    let bits = s.bits;
    if bits == 0 {
        return (mode == Mode::Read).then(|| constant(g, s));
    }
    if let ScalarKind::Enum { id, .. } = s.kind {
        return match mode {
            Mode::Read => Some(format!("read{}(r)", g.ident(id))),
            Mode::Skip => skip(p, format!("skip{}(r)", g.ident(id))),
        };
    }
    match (s.decode, mode) {
        (DecodeCheck::None, Mode::Skip) => skip(p, format!("r.skip({bits})")),
        (DecodeCheck::None, Mode::Read) => Some(match s.kind {
            ScalarKind::Bool => "r.readBool()".into(),
            ScalarKind::SInt { .. } => match Raw::of(bits) {
                Raw::N32 => format!("r.readInt({bits})"),
                Raw::N53 => format!("r.readInt53({bits})"),
                Raw::Big => format!("r.readBigInt({bits})"),
            },
            ScalarKind::UInt { .. } => read_uint(bits),
            // The stored offset is used once: read in place.
            ScalarKind::Bounded { min, .. } => {
                bounded_value(&read_uint(bits), Raw::of(bits), min, s.json_wide)
            }
            _ => {
                let raw = locals.fresh("q");
                p.line(format!("const {raw} = {};", read_uint(bits)));
                dequantized(s, &raw, big_bits(bits))
            }
        }),
        (DecodeCheck::CanonicalNan { .. }, _) => {
            let f = match s.kind {
                ScalarKind::Float {
                    repr: FloatRepr::F32,
                } => "F32",
                _ => "F64",
            };
            match mode {
                Mode::Read => Some(format!("r.read{f}()")),
                Mode::Skip => skip(p, format!("r.skip{f}()")),
            }
        }
        (DecodeCheck::AtMost { max, .. }, _) => {
            let at = locals.fresh("at");
            let raw = locals.fresh("raw");
            p.line(format!("const {at} = r.bitPos;"));
            p.line(format!("const {raw} = {};", read_uint(bits)));
            let big = big_bits(bits);
            let err = match s.kind {
                ScalarKind::Bounded { min, max, .. } => format!(
                    "bw.boundedError({at}, {raw}, {}, {})",
                    int_lit(min, s.json_wide),
                    int_lit(max, s.json_wide)
                ),
                _ => format!("bw.stepsError({at}, {raw}, {})", int_lit(max.into(), big)),
            };
            p.open(format!("if ({raw} > {}) {{", int_lit(max.into(), big)));
            p.line(format!("throw {err};"));
            p.close("}");
            (mode == Mode::Read).then(|| match s.kind {
                ScalarKind::Bounded { min, .. } => {
                    bounded_value(&raw, Raw::of(bits), min, s.json_wide)
                }
                _ => dequantized(s, &raw, big),
            })
        }
        (DecodeCheck::Declared { .. }, _) => unreachable!("enums read through their function"),
    }
}

/// A presence bit, then the payload if present (§5.3).
fn optional(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    inner: &Node,
    mode: Mode,
) -> Option<String> {
    match mode {
        Mode::Read => {
            let o = locals.fresh("o");
            p.line(format!("let {o}: {} | null = null;", g.ts_type(inner)));
            p.open("if (r.readBool()) {");
            let e = decode_value(g, p, locals, inner, mode).expect("a value");
            p.line(format!("{o} = {e};"));
            p.close("}");
            Some(o)
        }
        Mode::Skip if inner.is_zero_width() => skip(p, "r.skip(1)".into()),
        Mode::Skip => {
            p.open("if (r.readBool()) {");
            decode_value(g, p, locals, inner, mode);
            p.close("}");
            None
        }
    }
}

/// The `count` elements of an array or list, in the plan's form: bytes and lanes of
/// plain numbers through one runtime call (which also checks floats' NaNs, with the
/// element's index in the path), other elements one by one with their index added to
/// errors' paths. `counted`: a list, whose length check (§5.6) already made room for
/// every element, so skipping plain numbers is one move.
#[allow(clippy::too_many_arguments)]
fn elements(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    elem: &Node,
    form: Form,
    count: &str,
    counted: bool,
    mode: Mode,
) -> Option<String> {
    match (form, mode) {
        (Form::Bytes, Mode::Read) => Some(typed(g, form, format!("r.readUints({count}, 8)"))),
        (Form::Bytes, Mode::Skip) if counted => skip(p, format!("r.skip({count} * 8)")),
        (Form::Bytes, Mode::Skip) => skip(p, format!("r.skipElements({count}, 8)")),
        (Form::Lanes { lane }, Mode::Read) => Some(typed(g, form, read_lanes(lane, count))),
        (Form::Lanes { lane }, Mode::Skip) => skip(
            p,
            match lane {
                Lane::F32 => format!("r.skipF32s({count})"),
                Lane::F64 => format!("r.skipF64s({count})"),
                _ if counted => format!("r.skip({count} * {})", lane.bits()),
                _ => format!("r.skipElements({count}, {})", lane.bits()),
            },
        ),
        (Form::Items, Mode::Skip) if elem.is_zero_width() => None,
        // Scalars any bits of which are valid: one move past them all, with the error
        // the element-by-element skip would give.
        (Form::Items, Mode::Skip) if unchecked_width(elem).is_some() => {
            let bits = unchecked_width(elem).expect("a plain scalar");
            skip(
                p,
                if counted {
                    format!("r.skip({count} * {bits})")
                } else {
                    format!("r.skipElements({count}, {bits})")
                },
            )
        }
        (Form::Items, _) => {
            let items = locals.fresh("items");
            let i = locals.fresh("i");
            if mode == Mode::Read {
                p.line(format!("const {items}: {}[] = [];", g.elem_type(elem)));
            }
            p.open(format!("for (let {i} = 0; {i} < {count}; {i}++) {{"));
            wrapped(p, "atIndex", &i.clone(), |p| {
                if let Some(e) = decode_value(g, p, locals, elem, mode) {
                    p.line(format!("{items}.push({e});"));
                }
            });
            p.close("}");
            (mode == Mode::Read).then_some(items)
        }
    }
}

/// The width of a scalar element whose plan has no decode check (`DecodeCheck::None`:
/// any bits are a value, only truncation can fail), which a skip moves past without
/// looking at; for a list, its length check (§5.6) made room for all of them.
fn unchecked_width(elem: &Node) -> Option<u32> {
    match &elem.op {
        Op::Scalar(s) if s.decode.is_none() && s.bits > 0 => Some(s.bits),
        _ => None,
    }
}

/// `read`'s array of plain numbers as the typed array the value is held in, with
/// `TsOptions::typed_arrays` (one copy; the packed reads check each element first).
fn typed(g: &Gen, form: Form, read: String) -> String {
    match g.typed_form(form) {
        Some(t) => format!("{t}.from({read})"),
        None => read,
    }
}

/// The runtime call that reads `count` elements of a lane.
fn read_lanes(lane: Lane, count: &str) -> String {
    match lane {
        Lane::U16 | Lane::U32 => format!("r.readUints({count}, {})", lane.bits()),
        Lane::I8 | Lane::I16 | Lane::I32 => format!("r.readInts({count}, {})", lane.bits()),
        Lane::U64 => format!("r.readBigs({count}, false)"),
        Lane::I64 => format!("r.readBigs({count}, true)"),
        Lane::F32 => format!("r.readF32s({count})"),
        Lane::F64 => format!("r.readF64s({count})"),
    }
}

/// Reads a length prefix and validates it (spec §5.6, §11): the bound first (exactly,
/// as a `bigint` for prefixes over 53 bits), then — in `r.checkLen` — that the
/// elements can fit in what is left of the input, then the decode budget. Returns the
/// locals holding the checked length and the value's start bit.
pub(crate) fn decode_length(
    p: &mut Printer,
    locals: &mut Locals,
    len: &Length,
) -> (String, String) {
    let start = locals.fresh("start");
    let n = locals.fresh("len");
    p.line(format!("const {start} = r.bitPos;"));
    let bound = len.max.filter(|_| len.check_max);
    match len.prefix {
        Prefix::Fixed { bits } if big_bits(bits) => {
            let big = locals.fresh("lenBig");
            p.line(format!("const {big} = r.readBig({bits});"));
            if let Some(m) = bound {
                p.open(format!("if ({big} > {m}n) {{"));
                p.line(format!("throw bw.lengthError({start}, {big}, {m}n);"));
                p.close("}");
            }
            p.line(format!("const {n} = Number({big});"));
        }
        Prefix::Fixed { bits } => {
            p.line(format!("const {n} = {};", read_uint(bits)));
            if let Some(m) = bound {
                p.open(format!("if ({n} > {m}) {{"));
                p.line(format!("throw bw.lengthError({start}, {n}, {m});"));
                p.close("}");
            }
        }
        Prefix::Varint => p.line(format!("const {n} = r.readLength();")),
    }
    p.line(format!(
        "r.checkLen({n}, {}, {}, {start});",
        len.elem_min_bits,
        int_lit(i128::from(len.charge_per_elem), false)
    ));
    (n, start)
}
