//! The TypeScript naming table: how schema names become TypeScript identifiers.
//! Everything that picks or escapes a TypeScript name lives here, so the emitters never
//! guess.
//!
//! Rules: types `UpperCamelCase`; struct fields `camelCase` properties; functions
//! `encodeX` / `decodeX` / `writeX` / `readX` / `xToJson` / `xFromJson`; constants
//! `SCREAMING_SNAKE_CASE`, per-type ones prefixed with the type (`PACKET64_MAX_ENCODED_SIZE`).
//! Enum values and union `kind`s are the schema's variant names as strings, so they
//! need no escaping; the keys of an enum's `const` object are `UpperCamelCase`. Names
//! that collide after conversion get a numeric suffix. JSON keeps the schema names.

use std::collections::HashSet;

use crate::codegen::words::{unique, words};
use crate::ir::{Schema, TypeDefKind};

/// Reserved words of JavaScript and TypeScript that cannot name a local or a type.
const RESERVED: &[&str] = &[
    "abstract",
    "any",
    "arguments",
    "as",
    "async",
    "await",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "constructor",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "eval",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "get",
    "if",
    "implements",
    "import",
    "in",
    "infer",
    "instanceof",
    "interface",
    "is",
    "keyof",
    "let",
    "module",
    "namespace",
    "never",
    "new",
    "null",
    "number",
    "object",
    "of",
    "package",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "return",
    "set",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unique",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Global names the generated code uses (or that a type would shadow confusingly).
const GLOBALS: &[&str] = &[
    "Array",
    "BigInt",
    "Boolean",
    "DataView",
    "Error",
    "JSON",
    "Map",
    "Math",
    "Number",
    "Object",
    "Promise",
    "Readonly",
    "Record",
    "Set",
    "String",
    "Symbol",
    "Uint8Array",
    "Message",
    // `encodeFrame` / `decodeFrame` are the dispatch union's frame functions.
    "Frame",
];

/// Locals the generated code declares itself (with or without a numeric suffix). A
/// field whose local would be one of these gets a `_` appended.
const INTERNAL: &[&str] = &[
    "bw", "w", "r", "v", "e", "i", "j", "o", "q", "at", "lo", "hi", "len", "start", "item",
    "items", "tag", "raw", "json", "bytes", "value", "name", "payload", "list", "utf8", "blob",
    "str", "qv",
];

/// The TypeScript names of one named type and its members.
#[derive(Debug, Clone)]
pub struct TypeNames {
    /// The type's identifier (`Packet64`).
    pub ident: String,
    /// The type's identifier in lower camel case, for function names (`packet64`).
    pub lower: String,
    /// Prefix of the type's constants (`PACKET64`).
    pub constant: String,
    /// Struct property names, or the keys of an enum's `const` object, by index.
    pub members: Vec<String>,
    /// Per struct field: the prefix of its bound constants (`PACKET64_HEALTH`).
    pub member_constants: Vec<String>,
}

/// The naming plan of a whole schema.
#[derive(Debug, Clone)]
pub struct Names {
    /// By [`crate::ir::TypeId`].
    pub types: Vec<TypeNames>,
    /// Schema constants' identifiers, by index.
    pub constants: Vec<String>,
    /// The dispatch union over all messages.
    pub message: String,
}

impl Names {
    /// Picks every TypeScript name for `schema`.
    pub fn new(schema: &Schema) -> Names {
        // Constants share one namespace with per-type constants and with the schema
        // fingerprint's constant, which keeps its name.
        let mut const_taken = HashSet::from(["SCHEMA_FINGERPRINT".to_string()]);
        let constants: Vec<String> = schema
            .constants
            .iter()
            .map(|c| unique(const_ident(&c.name), &mut const_taken, "_"))
            .collect();
        // An enum's name is also a value (its variants' object), so no type takes a
        // constant's name (`const HA` and `enum h_a`: `HA` and `HA2`).
        let mut taken: HashSet<String> = constants.iter().cloned().collect();
        let types = schema
            .types
            .iter()
            .map(|def| {
                let ident = unique(type_ident(&def.name), &mut taken, "");
                let lower = lower_first(&ident);
                let constant = unique(const_ident(&ident), &mut const_taken, "_");
                let mut member_taken = HashSet::new();
                let (members, member_constants) = match &def.kind {
                    TypeDefKind::Struct { fields } => {
                        let members = fields
                            .iter()
                            .map(|f| unique(field_ident(&f.name), &mut member_taken, "_"))
                            .collect();
                        let consts = fields
                            .iter()
                            .map(|f| {
                                let c = format!("{constant}_{}", const_ident(&f.name));
                                unique(c, &mut const_taken, "_")
                            })
                            .collect();
                        (members, consts)
                    }
                    TypeDefKind::Enum { variants, .. } => {
                        let keys = variants
                            .iter()
                            .map(|v| unique(upper_camel(&v.name), &mut member_taken, ""))
                            .collect();
                        (keys, Vec::new())
                    }
                    TypeDefKind::Union { .. } => (Vec::new(), Vec::new()),
                };
                TypeNames {
                    ident,
                    lower,
                    constant,
                    members,
                    member_constants,
                }
            })
            .collect();
        Names {
            types,
            constants,
            // Free: a schema type named `Message` is escaped to `Message_`.
            message: "Message".into(),
        }
    }
}

fn capitalized(w: &str) -> String {
    let mut cs = w.chars();
    match cs.next() {
        Some(first) => first
            .to_uppercase()
            .chain(cs.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// `UpperCamelCase`, the rest of each word lowercased (`HTTP` → `Http`).
fn upper_camel(name: &str) -> String {
    let s: String = words(name).iter().map(|w| capitalized(w)).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{s}")
    } else {
        s
    }
}

/// `camelCase`: the first word lowercased, the others capitalized.
fn lower_camel(name: &str) -> String {
    let ws = words(name);
    let mut s = String::new();
    for (i, w) in ws.iter().enumerate() {
        if i == 0 {
            s.push_str(&w.to_lowercase());
        } else {
            s.push_str(&capitalized(w));
        }
    }
    s
}

/// The first character lowercased (`Packet64` → `packet64`, `HttpServer` → `httpServer`).
fn lower_first(ident: &str) -> String {
    let mut cs = ident.chars();
    match cs.next() {
        Some(first) => first.to_lowercase().chain(cs).collect(),
        None => String::new(),
    }
}

/// A type identifier: `UpperCamelCase`, globals and reserved words escaped with `_`.
pub fn type_ident(name: &str) -> String {
    let ident = upper_camel(name);
    if GLOBALS.contains(&ident.as_str()) || RESERVED.contains(&ident.as_str()) {
        format!("{ident}_")
    } else {
        ident
    }
}

/// A struct property name: `camelCase`. Reserved words are valid property names; an
/// empty or digit-leading result gets a leading `_`.
pub fn field_ident(name: &str) -> String {
    let ident = lower_camel(name);
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{ident}")
    } else {
        ident
    }
}

/// A constant identifier (`MAX_PLAYERS`), and the prefix of per-type constants.
pub fn const_ident(name: &str) -> String {
    let ident = words(name)
        .iter()
        .map(|w| w.to_uppercase())
        .collect::<Vec<_>>()
        .join("_");
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("C{ident}")
    } else {
        ident
    }
}

/// The local that holds a field while encoding or decoding: the property name, moved
/// out of the way of reserved words and of the generated code's own locals.
pub fn local_ident(prop: &str) -> String {
    let stem = prop.trim_end_matches(|c: char| c.is_ascii_digit());
    if RESERVED.contains(&prop) || INTERNAL.contains(&stem) {
        format!("{prop}_")
    } else {
        prop.to_string()
    }
}

/// A string literal (JSON string syntax is valid TypeScript).
pub fn str_lit(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// A property key in an object literal or type: the name itself when it is a plain
/// identifier, else a string literal. `__proto__` is always computed, since a plain key
/// of that name would set an object literal's prototype.
pub fn prop_key(name: &str) -> String {
    if name == "__proto__" {
        return format!("[{}]", str_lit(name));
    }
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain {
        name.to_string()
    } else {
        str_lit(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_and_escapes() {
        assert_eq!(type_ident("packet64"), "Packet64");
        assert_eq!(type_ident("HTTPServer"), "HttpServer");
        assert_eq!(type_ident("chat_msg"), "ChatMsg");
        assert_eq!(type_ident("Object"), "Object_");
        assert_eq!(type_ident("Message"), "Message_");
        assert_eq!(field_ident("is_alive"), "isAlive");
        assert_eq!(field_ident("posX"), "posX");
        assert_eq!(field_ident("type"), "type");
        assert_eq!(field_ident("i64v"), "i64v");
        assert_eq!(field_ident("a_field_with_a_name"), "aFieldWithAName");
        assert_eq!(const_ident("maxPlayers"), "MAX_PLAYERS");
        assert_eq!(const_ident("Packet64"), "PACKET64");
        assert_eq!(local_ident("type"), "type_");
        assert_eq!(local_ident("r"), "r_");
        assert_eq!(local_ident("item2"), "item2_");
        assert_eq!(local_ident("health"), "health");
        assert_eq!(lower_first("HttpServer"), "httpServer");
        assert_eq!(prop_key("__proto__"), "[\"__proto__\"]");
        assert_eq!(prop_key("is_alive"), "is_alive");
    }

    #[test]
    fn collisions_get_suffixes() {
        let mut taken = HashSet::new();
        assert_eq!(unique("a_b".into(), &mut taken, "_"), "a_b");
        assert_eq!(unique("a_b".into(), &mut taken, "_"), "a_b_2");
    }
}
