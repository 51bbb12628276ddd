//! The Rust naming table: how schema names become Rust identifiers. Everything that
//! picks or escapes a Rust name lives here, so the emitters never guess.
//!
//! Rules: types and variants UpperCamelCase, fields and locals snake_case, constants
//! SCREAMING_SNAKE_CASE; keywords become raw identifiers (`r#type`), and the few
//! names that cannot be raw (`self`, `Self`, `crate`, `super`) or that would shadow
//! prelude names the generated code uses (`Option`, `String`, ...) get a trailing `_`.
//! Names that collide after conversion get a numeric suffix. JSON keeps the schema
//! names; only Rust identifiers change.

use std::collections::HashSet;

use crate::codegen::words::{unique, words};
use crate::ir::{Schema, TypeDefKind};

/// Rust keywords (strict and reserved, all editions) that need `r#`.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "crate", "super", "_"];

/// Type names the generated code refers to unqualified (prelude items); a schema type
/// of the same name would shadow them.
const PRELUDE_TYPES: &[&str] = &[
    "Self", "Option", "Some", "None", "Result", "Ok", "Err", "Vec", "String", "Box", "From",
];

/// Names of locals and parameters the generated code uses itself. A field whose
/// local would be one of these (with or without a numeric suffix) gets a `_` appended.
const INTERNAL: &[&str] = &[
    "w", "r", "c", "e", "i", "m", "o", "q", "v", "len", "start", "items", "item", "tag", "raw",
    "word", "out", "bytes", "value", "list", "t", "j", "elems", "slot", "over", "val",
];

/// The Rust names of one named type and its members.
#[derive(Debug, Clone)]
pub struct TypeNames {
    /// The type's identifier.
    pub ident: String,
    /// Field identifiers (structs) or variant identifiers (enums, unions), by index.
    pub members: Vec<String>,
}

/// The naming plan of a whole schema.
#[derive(Debug, Clone)]
pub struct Names {
    /// By [`crate::ir::TypeId`].
    pub types: Vec<TypeNames>,
    /// Schema constants' identifiers, by index.
    pub constants: Vec<String>,
    /// The dispatch enum over all messages (`Message`, unless a type is named so).
    pub message_enum: String,
}

impl Names {
    /// Picks every Rust name for `schema`.
    pub fn new(schema: &Schema) -> Names {
        let mut taken = HashSet::new();
        let types: Vec<TypeNames> = schema
            .types
            .iter()
            .map(|def| {
                let ident = unique(type_ident(&def.name), &mut taken, "");
                let mut member_taken = HashSet::new();
                let members = match &def.kind {
                    TypeDefKind::Struct { fields } => fields
                        .iter()
                        .map(|f| unique(field_ident(&f.name), &mut member_taken, "_"))
                        .collect(),
                    TypeDefKind::Enum { variants, .. } => variants
                        .iter()
                        .map(|v| unique(type_ident(&v.name), &mut member_taken, ""))
                        .collect(),
                    TypeDefKind::Union { variants, .. } => variants
                        .iter()
                        .map(|v| unique(type_ident(&v.name), &mut member_taken, ""))
                        .collect(),
                };
                TypeNames { ident, members }
            })
            .collect();
        // The schema fingerprint's constant keeps its name; a schema constant of that
        // name gets a suffix.
        let mut const_taken = HashSet::from(["SCHEMA_FINGERPRINT".to_string()]);
        let constants = schema
            .constants
            .iter()
            .map(|c| unique(const_ident(&c.name), &mut const_taken, "_"))
            .collect();
        let message_enum = unique("Message".into(), &mut taken, "");
        Names {
            types,
            constants,
            message_enum,
        }
    }
}

/// UpperCamelCase with the rest of each word lowercased (`HTTP` → `Http`, which
/// also keeps clippy's `upper_case_acronyms` quiet). Words of one letter would still
/// make an all-capitals name (`A_B_C` → `ABC`), which clippy reads as an acronym:
/// such a name of three or more letters keeps only its first capital (`Abc`); two
/// capitals (`XY`) are what clippy takes for an abbreviation and allows.
fn upper_camel(name: &str) -> String {
    let camel: String = words(name)
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            match cs.next() {
                Some(first) => first
                    .to_uppercase()
                    .chain(cs.flat_map(char::to_lowercase))
                    .collect(),
                None => String::new(),
            }
        })
        .collect();
    if camel.len() > 2 && camel.chars().all(|c| c.is_ascii_uppercase()) {
        let (first, rest) = camel.split_at(1);
        format!("{first}{}", rest.to_ascii_lowercase())
    } else {
        camel
    }
}

fn snake(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// Escapes a snake_case or other lowercase identifier.
fn escape_value_ident(ident: String) -> String {
    if NOT_RAW.contains(&ident.as_str()) {
        format!("{ident}_")
    } else if KEYWORDS.contains(&ident.as_str()) {
        format!("r#{ident}")
    } else if ident.is_empty() {
        // A name of underscores only (`_`, `__`).
        "f_".to_string()
    } else if ident.chars().all(|c| c.is_ascii_digit() || c == '_') {
        // `_9` would be a name of underscores and digits only, which clippy rejects
        // for locals (`just_underscores_and_digits`).
        format!("f_{ident}")
    } else if ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{ident}")
    } else {
        ident
    }
}

/// A type or variant identifier.
pub fn type_ident(name: &str) -> String {
    let ident = upper_camel(name);
    if PRELUDE_TYPES.contains(&ident.as_str()) || NOT_RAW.contains(&ident.as_str()) {
        format!("{ident}_")
    } else if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{ident}")
    } else {
        ident
    }
}

/// A struct field identifier.
pub fn field_ident(name: &str) -> String {
    escape_value_ident(snake(name))
}

/// A constant identifier (schema constants, and the prefix of per-field constants).
pub fn const_ident(name: &str) -> String {
    let ident = snake(name).to_uppercase();
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        format!("C{ident}")
    } else {
        ident
    }
}

/// The local variable that holds a field while decoding (the field's identifier,
/// moved out of the way of the generated code's own locals).
pub fn local_ident(field_ident: &str) -> String {
    let bare = field_ident.trim_start_matches("r#");
    let stem = bare.trim_end_matches(|c: char| c.is_ascii_digit());
    if INTERNAL.contains(&stem) {
        format!("{bare}_")
    } else {
        field_ident.to_string()
    }
}

/// The path segment string of a schema name (`"health"`), as a Rust string literal.
pub fn str_lit(s: &str) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_and_escapes() {
        assert_eq!(type_ident("packet64"), "Packet64");
        assert_eq!(type_ident("HTTPServer"), "HttpServer");
        assert_eq!(type_ident("chat_msg"), "ChatMsg");
        assert_eq!(type_ident("Option"), "Option_");
        assert_eq!(type_ident("Self"), "Self_");
        assert_eq!(field_ident("posX"), "pos_x");
        assert_eq!(field_ident("is_alive"), "is_alive");
        assert_eq!(field_ident("type"), "r#type");
        assert_eq!(field_ident("self"), "self_");
        assert_eq!(field_ident("vec3d"), "vec3d");
        assert_eq!(field_ident("_9"), "f_9");
        assert_eq!(field_ident("3d"), "_3d");
        assert_eq!(type_ident("A_B_C"), "Abc");
        assert_eq!(type_ident("X"), "X");
        assert_eq!(type_ident("x_y"), "XY");
        assert_eq!(type_ident("x_y_z"), "Xyz");
        assert_eq!(const_ident("maxPlayers"), "MAX_PLAYERS");
        assert_eq!(const_ident("MAX_PLAYERS"), "MAX_PLAYERS");
        assert_eq!(local_ident("r"), "r_");
        assert_eq!(local_ident("item2"), "item2_");
        assert_eq!(local_ident("r#type"), "r#type");
        assert_eq!(local_ident("health"), "health");
    }

    #[test]
    fn collisions_get_suffixes() {
        let mut taken = HashSet::new();
        assert_eq!(unique("a_b".into(), &mut taken, "_"), "a_b");
        assert_eq!(unique("a_b".into(), &mut taken, "_"), "a_b_2");
        assert_eq!(unique("a_b".into(), &mut taken, "_"), "a_b_3");
    }
}
