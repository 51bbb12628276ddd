//! `AppendJSON` / `FromJSON` and `MarshalJSON` / `UnmarshalJSON` (with `--json`): the
//! JSON mapping of `docs/json-mapping.md`, through the runtime's JSON helpers. The
//! mapping follows the schema type, not the Go type: a `uint64` field of type `u40`
//! is a JSON number, one of type `u64` a decimal string; `bytes` is hex while
//! `list<u8>` is an array.

use super::printer::Printer;
use super::{int_type, types, Ctx, Gen, Locals};
use crate::codegen::plan;
use crate::ir::{FloatRepr, Type, TypeDefKind, TypeId};

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

/// Whether appending the JSON of `ty` calls a method that can fail (enums and unions
/// holding an undeclared value, and everything containing them).
fn append_can_fail(ty: &Type) -> bool {
    match ty {
        Type::Named { .. } => true,
        Type::Optional { inner } => append_can_fail(inner),
        Type::Array { elem, .. } | Type::List { elem, .. } => append_can_fail(elem),
        _ => false,
    }
}

/// A raw string literal holding JSON punctuation and a key (`{"is_alive":`): schema
/// names are identifiers, so they need no escaping in either language.
fn raw(s: &str) -> String {
    format!("`{s}`")
}

/// Prints `AppendJSON`.
fn append_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let (recv, _) = types::receiver(g, id);
    p.blank();
    p.line("// AppendJSON appends the value's JSON form (docs/json-mapping.md) to dst. A");
    p.line("// value the schema does not declare (an enum value, a union tag) is InvalidEnum.");
    p.open(format!(
        "func ({recv}) AppendJSON(dst []byte) ([]byte, error) {{"
    ));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            if fields.iter().any(|f| append_can_fail(&f.ty)) {
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
                append_value(p, &mut loc, &ctx, &f.ty, &format!("m.{member}"));
            }
            p.line("return append(dst, '}'), nil");
        }
        TypeDefKind::Enum { .. } => {
            p.open("if !v.Valid() {");
            p.line("return dst, bitwire.NewError(bitwire.InvalidEnum, 0)");
            p.close("}");
            p.line("dst = append(dst, '\"')");
            p.line("dst = append(dst, v.String()...)");
            p.line("return append(dst, '\"'), nil");
        }
        TypeDefKind::Union { variants, .. } => {
            if variants
                .iter()
                .any(|v| v.payload.as_ref().is_some_and(append_can_fail))
            {
                p.line("var err error");
            }
            let mut loc = Locals::new(&["m", "dst"]);
            p.open("switch m.Tag {");
            for ((v, field), tag) in variants.iter().zip(&names.members).zip(&names.tags) {
                p.middle(format!("case {tag}:"));
                match &v.payload {
                    Some(ty) => {
                        p.line(format!(
                            "dst = append(dst, {}...)",
                            raw(&format!("{{\"{}\":", v.name))
                        ));
                        let ctx = Ctx::default().field(&v.name);
                        append_value(p, &mut loc, &ctx, ty, &format!("m.{field}"));
                        p.line("dst = append(dst, '}')");
                    }
                    None => p.line(format!(
                        "dst = append(dst, {}...)",
                        raw(&format!("\"{}\"", v.name))
                    )),
                }
            }
            p.middle("default:");
            p.line("return dst, bitwire.NewError(bitwire.InvalidEnum, 0)");
            p.close("}");
            p.line("return dst, nil");
        }
    }
    p.close("}");
}

/// Prints the statements that append the JSON of `v` (of type `ty`) to `dst`.
fn append_value(p: &mut Printer, loc: &mut Locals, ctx: &Ctx, ty: &Type, v: &str) {
    let put = |p: &mut Printer, call: String| p.line(format!("dst = {call}"));
    match ty {
        Type::Bool => put(p, format!("bitwire.AppendBool(dst, {v})")),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => {
            let wide = if plan::json_wide_int(ty) { "Wide" } else { "" };
            let (f, conv) = if repr.signed() {
                ("Int", "int64")
            } else {
                ("Uint", "uint64")
            };
            let x = if int_type(*repr) == conv {
                v.to_string()
            } else {
                format!("{conv}({v})")
            };
            put(p, format!("bitwire.Append{wide}{f}(dst, {x})"));
        }
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => put(p, format!("bitwire.AppendF32(dst, {v})")),
            FloatRepr::F64 => put(p, format!("bitwire.AppendF64(dst, {v})")),
        },
        Type::String { .. } => put(p, format!("bitwire.AppendString(dst, {v})")),
        Type::Bytes { .. } => put(p, format!("bitwire.AppendHex(dst, {v})")),
        Type::Named { .. } => {
            p.open(format!("if dst, err = {v}.AppendJSON(dst); err != nil {{"));
            p.line(format!("return dst, {}", ctx.wrap("err")));
            p.close("}");
        }
        Type::Optional { inner } => {
            p.open(format!("if {v}.Set {{"));
            append_value(p, loc, ctx, inner, &format!("{v}.Value"));
            p.middle("} else {");
            p.line("dst = append(dst, \"null\"...)");
            p.close("}");
        }
        Type::Array { elem, .. } | Type::List { elem, .. } => {
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
    }
}

/// Prints `FromJSON`.
fn from_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let (mrecv, _) = types::mut_receiver(g, id);
    let mut fields_var = None;
    p.blank();
    p.line("// FromJSON sets the value from parsed JSON (bitwire.ParseJSON) in the mapping of");
    p.line("// docs/json-mapping.md. Numbers that fit the Go field but not the schema type");
    p.line("// pass, so that encoding reports them as wire errors.");
    p.open(format!("func ({mrecv}) FromJSON(j any) error {{"));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
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
                    if matches!(f.ty, Type::Optional { .. }) {
                        p.line(format!("{src} := o.Optional({key})"));
                    } else {
                        p.line(format!("{src}, err := o.Field({key})"));
                        p.if_err("err");
                    }
                    let ctx = Ctx::default().field(&f.name);
                    from_value(g, p, &mut loc, &ctx, &f.ty, &src, &format!("m.{member}"));
                }
                p.line("return nil");
            }
            let keys: Vec<String> = fields
                .iter()
                .map(|f| super::naming::str_lit(&f.name))
                .collect();
            fields_var = Some((var, keys));
        }
        TypeDefKind::Enum { variants, .. } => {
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
        TypeDefKind::Union { variants, .. } => {
            let mut loc = Locals::new(&["m", "j", "name", "payload", "has"]);
            p.line("name, payload, has, err := bitwire.JSONVariant(j)");
            p.if_err("err");
            p.open("switch name {");
            for ((v, field), tag) in variants.iter().zip(&names.members).zip(&names.tags) {
                p.middle(format!("case {}:", super::naming::str_lit(&v.name)));
                let ctx = Ctx::default().field(&v.name);
                match &v.payload {
                    Some(ty) => {
                        p.open("if payload, err = bitwire.JSONPayload(payload, has); err != nil {");
                        p.line(format!("return {}", ctx.wrap("err")));
                        p.close("}");
                        p.line(format!(
                            "*m = {}{{Tag: {tag}, {field}: m.{field}}}",
                            names.ident
                        ));
                        from_value(g, p, &mut loc, &ctx, ty, "payload", &format!("m.{field}"));
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
        p.line(format!(
            "// {var} are the JSON keys of {}, in declaration order.",
            names.ident
        ));
        p.line(format!("var {var} = []string{{{}}}", keys.join(", ")));
    }
}

/// Prints the reading of the JSON value in local `src` into the place `dest`. Every
/// FromJSON body has `err` declared at its top, so results assign to it.
fn from_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    ty: &Type,
    src: &str,
    dest: &str,
) {
    let assign = |p: &mut Printer, call: String| {
        p.open(format!("if {dest}, err = {call}; err != nil {{"));
        p.line(format!("return {}", ctx.wrap("err")));
        p.close("}");
    };
    match ty {
        Type::Bool => assign(p, format!("bitwire.JSONBool({src})")),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => {
            let f = if plan::json_wide_int(ty) {
                "JSONWideInt"
            } else {
                "JSONInt"
            };
            assign(p, format!("bitwire.{f}[{}]({src})", int_type(*repr)));
        }
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => assign(p, format!("bitwire.JSONF32({src})")),
            FloatRepr::F64 => assign(p, format!("bitwire.JSONF64({src})")),
        },
        Type::String { .. } => assign(p, format!("bitwire.JSONString({src})")),
        Type::Bytes { .. } => assign(p, format!("bitwire.JSONBytes({src}, {dest}[:0])")),
        Type::Named { .. } => {
            p.open(format!("if err := {dest}.FromJSON({src}); err != nil {{"));
            p.line(format!("return {}", ctx.wrap("err")));
            p.close("}");
        }
        Type::Optional { inner } => {
            p.open(format!("if {src} == nil {{"));
            p.line(format!("{dest} = {}{{}}", g.go_type(ty)));
            p.middle("} else {");
            p.line(format!("{dest}.Set = true"));
            from_value(g, p, loc, ctx, inner, src, &format!("{dest}.Value"));
            p.close("}");
        }
        Type::List { elem, .. } => {
            let items = loc.fresh("items");
            p.line(format!("{items}, err := bitwire.JSONArray({src})"));
            p.if_err(&ctx.wrap("err"));
            p.line(format!("{dest} = bitwire.Resize({dest}, len({items}))"));
            let (i, item) = (loc.fresh("i"), loc.fresh("item"));
            p.open(format!("for {i}, {item} := range {items} {{"));
            from_value(
                g,
                p,
                loc,
                &ctx.index(&i),
                elem,
                &item,
                &format!("{dest}[{i}]"),
            );
            p.close("}");
        }
        Type::Array { elem, len } => {
            // Every element is converted before the length is checked, as the
            // reference codec does; elements past N go to a scratch value.
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
    }
}
