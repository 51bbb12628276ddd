//! The Go naming table: how schema names become Go identifiers. Everything that
//! picks or escapes a Go name lives here, so the emitters never guess.
//!
//! Rules: every package-level name and every field is exported `UpperCamelCase`
//! with Go's initialisms in capitals (`weapon_id` → `WeaponID`, `url` → `URL`);
//! enum variants and union tags are prefixed with their type (`TeamRed`); per-type
//! constants are the type's name plus a suffix (`Packet64MaxEncodedSize`). Fields
//! that would collide with a generated method (`Encode`, `String`, …) get a
//! trailing `_`, and so do locals that would shadow a keyword, a predeclared name or
//! a name the generated code uses itself. Names that collide after conversion get a
//! numeric suffix, in declaration order. JSON always uses the schema's names.

use std::collections::HashSet;

use crate::codegen::words::{self, words};
use crate::ir::{Schema, TypeDefKind};

/// Go's common initialisms (the list golint and staticcheck use): written in
/// capitals inside a camel-case name (`UserID`, `HTTPServer`).
const INITIALISMS: &[&str] = &[
    "ACL", "API", "ASCII", "CPU", "CSS", "DNS", "EOF", "GUID", "HTML", "HTTP", "HTTPS", "ID", "IP",
    "JSON", "LHS", "QPS", "RAM", "RHS", "RPC", "SLA", "SMTP", "SQL", "SSH", "TCP", "TLS", "TTL",
    "UDP", "UI", "UID", "UUID", "URI", "URL", "UTF8", "VM", "XML", "XMPP", "XSRF", "XSS",
];

/// Go's keywords.
const KEYWORDS: &[&str] = &[
    "break",
    "case",
    "chan",
    "const",
    "continue",
    "default",
    "defer",
    "else",
    "fallthrough",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "return",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Predeclared names generated code uses, and the fixed parameter and local names of
/// generated functions; a local with one of these names would shadow it, so it gets a
/// trailing `_`. (Other locals are handed out per function by `Locals`, which avoids
/// clashes with the field locals itself.)
const RESERVED_LOCALS: &[&str] = &[
    "any", "append", "b", "bitwire", "bool", "byte", "cap", "copy", "dst", "err", "error", "false",
    "float32", "float64", "int", "int16", "int32", "int64", "int8", "j", "len", "m", "make", "new",
    "nil", "o", "r", "string", "true", "uint", "uint16", "uint32", "uint64", "uint8", "w",
];

/// Methods generated on struct and union types; a field may not share their names.
const METHODS: &[&str] = &[
    "AppendBinary",
    "AppendJSON",
    "AppendTo",
    "Decode",
    "DecodeWithLimits",
    "Encode",
    "FromJSON",
    "MarshalBinary",
    "MarshalJSON",
    "MessageID",
    "ReadPacked",
    "String",
    "Tag",
    "UnmarshalBinary",
    "UnmarshalJSON",
    "Valid",
    "WritePacked",
];

/// Methods generated on `delta message` types besides [`METHODS`] (spec §12); a
/// field of such a type may not share their names either.
const DELTA_METHODS: &[&str] = &[
    "AppendDelta",
    "DecodeDelta",
    "DecodeDeltaWithLimits",
    "EncodeDelta",
];

/// The Go names of one named type.
#[derive(Debug, Clone)]
pub struct TypeNames {
    /// The type's identifier.
    pub ident: String,
    /// Per member (struct field, enum variant, union variant): for structs the
    /// field name, for enums the variant constant, for unions the field that holds
    /// the payload (unit variants get one too; it is unused).
    pub members: Vec<String>,
    /// Union only: the tag constant of each variant (`EventChat`).
    pub tags: Vec<String>,
    /// Union only: the type of the tag (`EventTag`).
    pub tag_type: String,
    /// Decode locals of struct fields (`weaponID`), escaped.
    pub locals: Vec<String>,
    /// Prefix of per-type constants and of unexported helpers: `Packet64` and
    /// `packet64`.
    pub lower: String,
}

/// Every Go name of a schema.
#[derive(Debug, Clone)]
pub struct Names {
    /// Per named type, in schema order.
    pub types: Vec<TypeNames>,
    /// Per schema constant.
    pub constants: Vec<String>,
    /// `NewMessage` / `DecodeMessage`, unless a schema name took them.
    pub new_message: String,
    pub decode_message: String,
    /// `Messages`, the reusable message set for frames, unless a schema name took it.
    pub messages: String,
    /// Every package-level name taken so far, for per-type constants.
    taken: HashSet<String>,
}

impl Names {
    /// Builds the naming plan. Types first (they are what users see most), then
    /// enum variants and union tags, then constants, then the dispatch helpers.
    pub fn new(schema: &Schema) -> Names {
        Names::with_methods(schema, &[])
    }

    /// [`Names::new`] for code whose structs and unions also have the methods
    /// `more` (the bincode encoding's): a field may not share their names either.
    pub fn with_methods(schema: &Schema, more: &[&str]) -> Names {
        let mut taken = HashSet::new();
        let idents: Vec<String> = schema
            .types
            .iter()
            .map(|t| unique(exported(&t.name), &mut taken))
            .collect();
        let mut types = Vec::new();
        for (def, ident) in schema.types.iter().zip(&idents) {
            let mut members_taken: HashSet<String> =
                METHODS.iter().map(|s| s.to_string()).collect();
            let delta: &[&str] = if def.delta { DELTA_METHODS } else { &[] };
            let also: Vec<&str> = delta.iter().chain(more).copied().collect();
            members_taken.extend(also.iter().map(|s| s.to_string()));
            let mut locals_taken = HashSet::new();
            let (members, tags, tag_type, locals) = match &def.kind {
                TypeDefKind::Struct { fields } => {
                    let members = fields
                        .iter()
                        .map(|f| member(exported(&f.name), &mut members_taken, &also))
                        .collect();
                    let locals = fields
                        .iter()
                        .map(|f| unique(local(&f.name), &mut locals_taken))
                        .collect();
                    (members, vec![], String::new(), locals)
                }
                TypeDefKind::Enum { variants, .. } => {
                    let members = variants
                        .iter()
                        .map(|v| unique(format!("{ident}{}", exported(&v.name)), &mut taken))
                        .collect();
                    (members, vec![], String::new(), vec![])
                }
                TypeDefKind::Union { variants, .. } => {
                    let members = variants
                        .iter()
                        .map(|v| member(exported(&v.name), &mut members_taken, more))
                        .collect();
                    let tag_type = unique(format!("{ident}Tag"), &mut taken);
                    let tags = variants
                        .iter()
                        .map(|v| unique(format!("{ident}{}", exported(&v.name)), &mut taken))
                        .collect();
                    (members, tags, tag_type, vec![])
                }
            };
            types.push(TypeNames {
                ident: ident.clone(),
                members,
                tags,
                tag_type,
                locals,
                lower: lower_first(ident),
            });
        }
        let constants = schema
            .constants
            .iter()
            .map(|c| unique(exported(&c.name), &mut taken))
            .collect();
        let new_message = unique("NewMessage".into(), &mut taken);
        let decode_message = unique("DecodeMessage".into(), &mut taken);
        let messages = unique("Messages".into(), &mut taken);
        Names {
            types,
            constants,
            new_message,
            decode_message,
            messages,
            taken,
        }
    }

    /// A package-level constant name derived from a type's (`Packet64` +
    /// `MaxEncodedSize`), made unique.
    pub fn type_const(&mut self, ident: &str, suffix: &str) -> String {
        unique(format!("{ident}{suffix}"), &mut self.taken)
    }
}

/// The field names of the message set's struct (`Messages`): each message's type
/// name, with a trailing `_` for one named like the set's method `Message`.
pub fn message_set_fields<'a>(idents: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::from(["Message".to_string()]);
    idents
        .map(|ident| {
            let name = if ident == "Message" {
                format!("{ident}_")
            } else {
                ident.to_string()
            };
            unique(name, &mut taken)
        })
        .collect()
}

/// `name`, or `name` plus the first free number from 2 (Go joins without a separator).
fn unique(name: String, taken: &mut HashSet<String>) -> String {
    words::unique(name, taken, "")
}

/// A field name: a trailing `_` when it would collide with a generated method (of
/// every type, or `also` of this one),
/// then made unique.
fn member(name: String, taken: &mut HashSet<String>, also: &[&str]) -> String {
    let name = if METHODS.contains(&name.as_str()) || also.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    };
    unique(name, taken)
}

/// One word in camel case: an initialism in capitals, else capitalized.
fn camel_word(w: &str) -> String {
    let upper = w.to_uppercase();
    if INITIALISMS.contains(&upper.as_str()) {
        return upper;
    }
    let mut cs = w.chars();
    match cs.next() {
        Some(first) => first
            .to_uppercase()
            .chain(cs.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// An exported identifier: `weapon_id` → `WeaponID`, `MAX_NAME` → `MaxName`.
pub fn exported(name: &str) -> String {
    let ident: String = words(name).iter().map(|w| camel_word(w)).collect();
    if ident.is_empty() || !ident.starts_with(|c: char| c.is_uppercase()) {
        // A leading digit or underscore cannot start an exported name.
        format!("X{ident}")
    } else {
        ident
    }
}

/// An unexported local: `move_x` → `moveX`, `weapon_id` → `weaponID`, escaped.
pub fn local(name: &str) -> String {
    let ws = words(name);
    let mut ident = String::new();
    for (i, w) in ws.iter().enumerate() {
        if i == 0 {
            let upper = w.to_uppercase();
            if INITIALISMS.contains(&upper.as_str()) {
                ident.push_str(&w.to_lowercase());
            } else {
                ident.push_str(&lower_first(&camel_word(w)));
            }
        } else {
            ident.push_str(&camel_word(w));
        }
    }
    if ident.is_empty() || ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert(0, 'f');
    }
    if KEYWORDS.contains(&ident.as_str()) || RESERVED_LOCALS.contains(&ident.as_str()) {
        ident.push('_');
    }
    ident
}

/// `Packet64` → `packet64`, `HTTPServer` → `hTTPServer` (only used as a prefix).
fn lower_first(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(first) => first.to_lowercase().chain(cs).collect(),
        None => String::new(),
    }
}

/// The Go package name for a schema file stem, as Go names packages: lower case
/// letters and digits only (`game-state` and `game_state` → `gamestate`), never
/// starting with a digit (`x` first) and never a keyword or `bitwire` (`_` last).
pub fn package_name(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'x');
    }
    if KEYWORDS.contains(&s.as_str()) || s == "bitwire" {
        s.push('_');
    }
    s
}

/// Whether `s` is a valid Go package name (for a `--package` given by the user).
pub fn is_package_name(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
        && s != "bitwire"
}

/// A Go interpreted string literal holding `s` (quotes, backslashes and control
/// characters escaped; other characters as they are).
pub fn str_lit(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_initialisms_and_escapes() {
        assert_eq!(exported("packet64"), "Packet64");
        assert_eq!(exported("weapon_id"), "WeaponID");
        assert_eq!(exported("HTTPServer"), "HTTPServer");
        assert_eq!(exported("chat_msg"), "ChatMsg");
        assert_eq!(exported("MAX_ENTITIES"), "MaxEntities");
        assert_eq!(exported("posX"), "PosX");
        assert_eq!(exported("url"), "URL");
        assert_eq!(exported("_x"), "X");
        assert_eq!(local("move_x"), "moveX");
        assert_eq!(local("weapon_id"), "weaponID");
        assert_eq!(local("id"), "id");
        assert_eq!(local("type"), "type_");
        assert_eq!(local("err"), "err_");
        assert_eq!(local("len"), "len_");
        assert_eq!(package_name("game-state"), "gamestate");
        assert_eq!(package_name("kitchen_sink"), "kitchensink");
        assert_eq!(package_name("_"), "x");
        assert_eq!(package_name("Type"), "type_");
        assert_eq!(package_name("1x"), "x1x");
        assert!(is_package_name("game"));
        assert!(!is_package_name("func"));
        assert!(!is_package_name("9a"));
        assert_eq!(str_lit("hi \"there\"\n"), "\"hi \\\"there\\\"\\n\"");
    }

    #[test]
    fn collisions_get_suffixes() {
        let mut taken = HashSet::new();
        assert_eq!(unique("A".into(), &mut taken), "A");
        assert_eq!(unique("A".into(), &mut taken), "A2");
        let mut members = METHODS.iter().map(|s| s.to_string()).collect();
        assert_eq!(member("Encode".into(), &mut members, &[]), "Encode_");
        assert_eq!(member("Health".into(), &mut members, &[]), "Health");
    }
}
