//! `AppendJSON` / `FromJSON` and `MarshalJSON` / `UnmarshalJSON` (with `--json`): the
//! JSON mapping of `docs/json-mapping.md`, through the runtime's JSON helpers. The
//! mapping follows the schema type, not the Go type: a `uint64` field of type `u40`
//! is a JSON number, one of type `u64` a decimal string; `bytes` is hex while
//! `list<u8>` is an array.

use super::printer::Printer;
use super::{int_type, types, Ctx, Gen, Locals};
use crate::ir::{FloatRepr, IntRepr, TypeId};
use crate::plan::{Body, Node, Op, ScalarKind};

/// Prints the four JSON methods of a named type (and a struct's field list).
pub fn json_fns(g: &Gen, p: &mut Printer, id: TypeId) {
    append_fn(g, p, id);
    from_fn(g, p, id);
    let (recv, r) = types::receiver(g, id);
    let (mrecv, mr) = types::mut_receiver(g, id);
    p.blank();
    p.line("// MarshalJSON implements json.Marshaler with AppendJSON.");
    p.open(format!("func ({recv}) MarshalJSON() ([]byte, error) {{"));
    p.line(format!("return {r}.AppendJSON(nil)"));
    p.close("}");
    p.blank();
    p.line("// UnmarshalJSON implements json.Unmarshaler: it parses b with");
    p.line("// bitwire.ParseJSON and calls FromJSON.");
    p.open(format!("func ({mrecv}) UnmarshalJSON(b []byte) error {{"));
    p.line("j, err := bitwire.ParseJSON(b)");
    p.if_err("err");
    p.line(format!("return {mr}.FromJSON(j)"));
    p.close("}");
}

/// Whether appending the JSON of a value calls a method that can fail (enums and
/// unions holding an undeclared value, and everything containing them).
fn append_can_fail(node: &Node) -> bool {
    match &node.op {
        Op::Named(_) => true,
        Op::Scalar(s) => matches!(s.kind, ScalarKind::Enum { .. }),
        Op::Optional(inner) => append_can_fail(inner),
        Op::Array(a) => append_can_fail(&a.elem),
        Op::List(l) => append_can_fail(&l.elem),
        _ => false,
    }
}

/// The JSON number form of an integer value: its representation and whether the
/// mapping writes it as a decimal string (docs/json-mapping.md §2).
fn int_form(node: &Node) -> Option<(IntRepr, bool)> {
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::UInt { repr }
            | ScalarKind::SInt { repr }
            | ScalarKind::Bounded { repr, .. } => Some((repr, s.json_wide)),
            _ => None,
        },
        Op::Varint(v) => Some((v.repr, v.json_wide)),
        _ => None,
    }
}

/// The float representation of a float value.
fn float_form(node: &Node) -> Option<FloatRepr> {
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => Some(repr),
            _ => None,
        },
        _ => None,
    }
}

/// A raw string literal holding JSON punctuation and a key (`{"is_alive":`): schema
/// names are identifiers, so they need no escaping in either language.
fn raw(s: &str) -> String {
    format!("`{s}`")
}

/// Prints `AppendJSON`.
fn append_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let names = &g.names.types[id];
    let (recv, _) = types::receiver(g, id);
    p.blank();
    p.line("// AppendJSON appends the value's JSON form (docs/json-mapping.md) to dst. A");
    p.line("// value the schema does not declare (an enum value, a union tag) is InvalidEnum.");
    p.open(format!(
        "func ({recv}) AppendJSON(dst []byte) ([]byte, error) {{"
    ));
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            let fields = &s.fields;
            if fields.iter().any(|f| append_can_fail(&f.node)) {
                p.line("var err error");
            }
            let mut loc = Locals::new(&["m", "dst"]);
            if fields.is_empty() {
                p.line("return append(dst, \"{}\"...), nil");
                p.close("}");
                return;
            }
            for (k, (f, member)) in fields.iter().zip(&names.members).enumerate() {
                let lead = if k == 0 { "{" } else { "," };
                p.line(format!(
                    "dst = append(dst, {}...)",
                    raw(&format!("{lead}\"{}\":", f.name))
                ));
                let ctx = Ctx::default().field(&f.name);
                append_value(p, &mut loc, &ctx, &f.node, &format!("m.{member}"));
            }
            p.line("return append(dst, '}'), nil");
        }
        Body::Enum(_) => {
            p.open("if !v.Valid() {");
            p.line("return dst, bitwire.EnumError(0, uint64(v))");
            p.close("}");
            p.line("dst = append(dst, '\"')");
            p.line("dst = append(dst, v.String()...)");
            p.line("return append(dst, '\"'), nil");
        }
        Body::Union(u) => {
            if u.arms
                .iter()
                .any(|v| v.payload.as_ref().is_some_and(append_can_fail))
            {
                p.line("var err error");
            }
            let mut loc = Locals::new(&["m", "dst"]);
            p.open("switch m.Tag {");
            for ((v, field), tag) in u.arms.iter().zip(&names.members).zip(&names.tags) {
                p.middle(format!("case {tag}:"));
                match &v.payload {
                    Some(node) => {
                        p.line(format!(
                            "dst = append(dst, {}...)",
                            raw(&format!("{{\"{}\":", v.name))
                        ));
                        let ctx = Ctx::default().field(&v.name);
                        append_value(p, &mut loc, &ctx, node, &format!("m.{field}"));
                        p.line("dst = append(dst, '}')");
                    }
                    None => p.line(format!(
                        "dst = append(dst, {}...)",
                        raw(&format!("\"{}\"", v.name))
                    )),
                }
            }
            p.middle("default:");
            p.line("return dst, bitwire.EnumError(0, uint64(m.Tag))");
            p.close("}");
            p.line("return dst, nil");
        }
    }
    p.close("}");
}

/// Prints the statements that append the JSON of `v` to `dst`.
fn append_value(p: &mut Printer, loc: &mut Locals, ctx: &Ctx, node: &Node, v: &str) {
    let put = |p: &mut Printer, call: String| p.line(format!("dst = {call}"));
    if let Some((repr, json_wide)) = int_form(node) {
        let wide = if json_wide { "Wide" } else { "" };
        let (f, conv) = if repr.signed() {
            ("Int", "int64")
        } else {
            ("Uint", "uint64")
        };
        let x = if int_type(repr) == conv {
            v.to_string()
        } else {
            format!("{conv}({v})")
        };
        return put(p, format!("bitwire.Append{wide}{f}(dst, {x})"));
    }
    if let Some(repr) = float_form(node) {
        return match repr {
            FloatRepr::F32 => put(p, format!("bitwire.AppendF32(dst, {v})")),
            FloatRepr::F64 => put(p, format!("bitwire.AppendF64(dst, {v})")),
        };
    }
    match &node.op {
        Op::Scalar(s) if matches!(s.kind, ScalarKind::Bool) => {
            put(p, format!("bitwire.AppendBool(dst, {v})"));
        }
        Op::String(_) => put(p, format!("bitwire.AppendString(dst, {v})")),
        Op::Bytes(_) => put(p, format!("bitwire.AppendHex(dst, {v})")),
        Op::Named(_) | Op::Scalar(_) => {
            // Structs, unions and enums have their own AppendJSON.
            p.open(format!("if dst, err = {v}.AppendJSON(dst); err != nil {{"));
            p.line(format!("return dst, {}", ctx.wrap("err")));
            p.close("}");
        }
        Op::Optional(inner) => {
            p.open(format!("if {v}.Set {{"));
            append_value(p, loc, ctx, inner, &format!("{v}.Value"));
            p.middle("} else {");
            p.line("dst = append(dst, \"null\"...)");
            p.close("}");
        }
        Op::Array(crate::plan::Array { elem, .. }) | Op::List(crate::plan::List { elem, .. }) => {
            let i = loc.fresh("i");
            p.line("dst = append(dst, '[')");
            p.open(format!("for {i} := range {v} {{"));
            p.open(format!("if {i} > 0 {{"));
            p.line("dst = append(dst, ',')");
            p.close("}");
            append_value(p, loc, &ctx.index(&i), elem, &format!("{v}[{i}]"));
            p.close("}");
            p.line("dst = append(dst, ']')");
        }
        Op::Varint(_) => unreachable!("an integer"),
    }
}

/// Prints `FromJSON`.
fn from_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let names = &g.names.types[id];
    let (mrecv, _) = types::mut_receiver(g, id);
    let mut fields_var = None;
    p.blank();
    p.line("// FromJSON sets the value from parsed JSON (bitwire.ParseJSON) in the mapping of");
    p.line("// docs/json-mapping.md. Numbers that fit the Go field but not the schema type");
    p.line("// pass, so that encoding reports them as wire errors.");
    p.open(format!("func ({mrecv}) FromJSON(j any) error {{"));
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            let fields = &s.fields;
            let var = format!("{}Fields", names.lower);
            let mut loc = Locals::new(&["m", "j", "o"]);
            if fields.is_empty() {
                p.line(format!("_, err := bitwire.JSONFields(j, {var})"));
                p.line("return err");
            } else {
                p.line(format!("o, err := bitwire.JSONFields(j, {var})"));
                p.if_err("err");
                for ((f, member), local) in fields.iter().zip(&names.members).zip(&names.locals) {
                    let key = super::naming::str_lit(&f.name);
                    let src = loc.fresh(local);
                    if matches!(f.node.op, Op::Optional(_)) {
                        p.line(format!("{src} := o.Optional({key})"));
                    } else {
                        p.line(format!("{src}, err := o.Field({key})"));
                        p.if_err("err");
                    }
                    let ctx = Ctx::default().field(&f.name);
                    from_value(g, p, &mut loc, &ctx, &f.node, &src, &format!("m.{member}"));
                }
                p.line("return nil");
            }
            let keys: Vec<String> = fields
                .iter()
                .map(|f| super::naming::str_lit(&f.name))
                .collect();
            fields_var = Some((var, keys));
        }
        Body::Enum(_) => {
            let crate::ir::TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
                unreachable!("an enum")
            };
            p.line("name, err := bitwire.JSONName(j)");
            p.if_err("err");
            p.open("switch name {");
            for (v, vname) in variants.iter().zip(&names.members) {
                p.middle(format!("case {}:", super::naming::str_lit(&v.name)));
                p.line(format!("*v = {vname}"));
            }
            p.middle("default:");
            p.line("return bitwire.UnknownVariant(name)");
            p.close("}");
            p.line("return nil");
        }
        Body::Union(u) => {
            let mut loc = Locals::new(&["m", "j", "name", "payload", "has"]);
            p.line("name, payload, has, err := bitwire.JSONVariant(j)");
            p.if_err("err");
            p.open("switch name {");
            for ((v, field), tag) in u.arms.iter().zip(&names.members).zip(&names.tags) {
                p.middle(format!("case {}:", super::naming::str_lit(&v.name)));
                let ctx = Ctx::default().field(&v.name);
                match &v.payload {
                    Some(node) => {
                        p.open("if payload, err = bitwire.JSONPayload(payload, has); err != nil {");
                        p.line(format!("return {}", ctx.wrap("err")));
                        p.close("}");
                        p.line(format!(
                            "*m = {}{{Tag: {tag}, {field}: m.{field}}}",
                            names.ident
                        ));
                        from_value(g, p, &mut loc, &ctx, node, "payload", &format!("m.{field}"));
                    }
                    None => {
                        p.open("if err := bitwire.JSONUnit(payload, has); err != nil {");
                        p.line(format!("return {}", ctx.wrap("err")));
                        p.close("}");
                        p.line(format!("*m = {}{{Tag: {tag}}}", names.ident));
                    }
                }
            }
            p.middle("default:");
            p.line("return bitwire.UnknownVariant(name)");
            p.close("}");
            p.line("return nil");
        }
    }
    p.close("}");
    if let Some((var, keys)) = fields_var {
        p.blank();
        p.doc(format!(
            "{var} are the JSON keys of {}, in declaration order.",
            names.ident
        ));
        p.list(&format!("var {var} = []string{{"), &keys, "}");
    }
}

/// Prints the reading of the JSON value in local `src` into the place `dest`. Every
/// FromJSON body has `err` declared at its top, so results assign to it.
fn from_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &Node,
    src: &str,
    dest: &str,
) {
    let assign = |p: &mut Printer, call: String| {
        p.open(format!("if {dest}, err = {call}; err != nil {{"));
        p.line(format!("return {}", ctx.wrap("err")));
        p.close("}");
    };
    if let Some((repr, json_wide)) = int_form(node) {
        let f = if json_wide { "JSONWideInt" } else { "JSONInt" };
        return assign(p, format!("bitwire.{f}[{}]({src})", int_type(repr)));
    }
    if let Some(repr) = float_form(node) {
        return match repr {
            FloatRepr::F32 => assign(p, format!("bitwire.JSONF32({src})")),
            FloatRepr::F64 => assign(p, format!("bitwire.JSONF64({src})")),
        };
    }
    match &node.op {
        Op::Scalar(s) if matches!(s.kind, ScalarKind::Bool) => {
            assign(p, format!("bitwire.JSONBool({src})"));
        }
        Op::String(_) => assign(p, format!("bitwire.JSONString({src})")),
        Op::Bytes(_) => assign(p, format!("bitwire.JSONBytes({src}, {dest}[:0])")),
        Op::Named(_) | Op::Scalar(_) => {
            // Structs, unions and enums have their own FromJSON.
            p.open(format!("if err := {dest}.FromJSON({src}); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
        Op::Optional(inner) => {
            p.open(format!("if {src} == nil {{"));
            p.line(format!("{dest} = {}{{}}", g.go_type(node)));
            p.middle("} else {");
            p.line(format!("{dest}.Set = true"));
            from_value(g, p, loc, ctx, inner, src, &format!("{dest}.Value"));
            p.close("}");
        }
        Op::List(l) => {
            let items = loc.fresh("items");
            p.line(format!("{items}, err := bitwire.JSONArray({src})"));
            p.if_err(&ctx.wrap("err"));
            p.line(format!("{dest} = bitwire.Resize({dest}, len({items}))"));
            let (i, item) = (loc.fresh("i"), loc.fresh("item"));
            p.open(format!("for {i}, {item} := range {items} {{"));
            let d = format!("{dest}[{i}]");
            from_value(g, p, loc, &ctx.index(&i), &l.elem, &item, &d);
            p.close("}");
        }
        Op::Array(a) => {
            // Every element is converted before the length is checked, as the
            // reference codec does; elements past N go to a scratch value.
            let (len, elem) = (a.len, &a.elem);
            let items = loc.fresh("items");
            p.line(format!("{items}, err := bitwire.JSONArray({src})"));
            p.if_err(&ctx.wrap("err"));
            let (i, item, x) = (loc.fresh("i"), loc.fresh("item"), loc.fresh("x"));
            p.open(format!("for {i}, {item} := range {items} {{"));
            p.line(format!("var {x} {}", g.go_type(elem)));
            from_value(g, p, loc, &ctx.index(&i), elem, &item, &x);
            p.open(format!("if {i} < {len} {{"));
            p.line(format!("{dest}[{i}] = {x}"));
            p.close("}");
            p.close("}");
            p.open(format!(
                "if err := bitwire.JSONFixedLen({items}, {len}); err != nil {{"
            ));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
        Op::Varint(_) => unreachable!("an integer"),
    }
}
