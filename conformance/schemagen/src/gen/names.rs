//! Identifiers: unique within their scope, mostly ordinary, sometimes hazards for
//! the backends' naming tables — keywords and predeclared names of Rust, Go and
//! TypeScript, names of generated methods and locals, names that collide after case
//! conversion, and very long names.

use std::collections::HashSet;

use bitwire_compiler::codec::random::Rng;

/// The target-language keywords the generator must use as names (the brief's list),
/// hazards in every scope; the lists below add the hazards of each scope.
pub const KEYWORDS: &[&str] = &[
    "type",
    "match",
    "func",
    "interface",
    "default",
    "new",
    "self",
    "Self",
    "string",
    "len",
];

/// Words that are hazards as type or constant names (none is reserved by bitwire).
const TYPE_HAZARDS: &[&str] = &[
    "Type",
    "Error",
    "Result",
    "Option",
    "Vec",
    "String",
    "Box",
    "Some",
    "None",
    "Ok",
    "Err",
    "Object",
    "Array",
    "Number",
    "BigInt",
    "Map",
    "Promise",
    "Uint8Array",
    "fn",
    "impl",
    "mod",
    "crate",
    "super",
    "async",
    "await",
    "dyn",
    "let",
    "loop",
    "where",
    "class",
    "function",
    "var",
    "void",
    "delete",
    "typeof",
    "package",
    "range",
    "chan",
    "map",
    "go",
    "select",
    "error",
    "any",
    "int",
    "byte",
    "rune",
    "Packed",
    "Reader",
    "Writer",
    "JsonError",
    "BitwireError",
    "TypeCodec",
    "Codec",
    "Value",
    "JSON",
    "Decoder",
    "Encoder",
    "Verify",
    "constructor",
    "prototype",
];

/// Words that are hazards as field names.
const FIELD_HAZARDS: &[&str] = &[
    "max",
    "bits",
    "step",
    "bool",
    "u8",
    "list",
    "optional",
    "bytes",
    "encode",
    "decode",
    "verify",
    "to_json",
    "from_json",
    "tag",
    "value",
    "b",
    "r",
    "w",
    "m",
    "o",
    "j",
    "dst",
    "err",
    "out",
    "buf",
    "reader",
    "writer",
    "bit",
    "path",
    "kind",
    "e",
    "v",
    "x",
    "i",
    "n",
    "_",
    "_x2",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "toString",
    "valueOf",
    "prototype",
    "String",
    "Encode",
    "Decode",
    "Valid",
    "MessageID",
    "AppendTo",
    "ref",
    "mut",
    "impl",
    "fn",
    "loop",
    "return",
    "in_",
    "try",
    "yield",
    "box",
    "crate",
    "super",
    "nil",
    "true_",
    "null",
    "undefined",
    "NaN",
    "Infinity",
    "id",
    "url",
    "http_server",
    "utf8",
];

/// Words that are hazards as variant names.
const VARIANT_HAZARDS: &[&str] = &[
    "None",
    "Some",
    "Ok",
    "Err",
    "String",
    "Type",
    "Unknown",
    "Invalid",
    "Tag",
    "Value",
    "Kind",
    "lower",
    "null",
    "__proto__",
    "constructor",
    "Default",
    "Error",
    "Name",
    "Valid",
    "ID",
    "max",
];

const SYLLABLES: &[&str] = &[
    "al", "be", "co", "dra", "el", "fo", "gri", "ha", "ix", "jo", "ka", "lu", "mo", "nu", "or",
    "pa", "qui", "ro", "sa", "ti", "um", "ve", "wo", "xa", "yu", "ze",
];

/// Where a name is declared; each scope has its own hazards and spelling.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Type,
    Const,
    Field,
    Variant,
}

/// Hands out unique names within one scope (types and constants share one).
pub struct Scope {
    used: HashSet<String>,
    kind: Kind,
    /// Percent of names drawn from the hazard list.
    hazards: u64,
}

impl Scope {
    /// A scope whose names are spelled as `kind` names, `hazards` percent of them
    /// hazards.
    pub fn new(kind: Kind, hazards: u64) -> Scope {
        Scope {
            used: HashSet::new(),
            kind,
            hazards,
        }
    }

    /// The same scope, handing out names spelled as `kind` from now on.
    pub fn spelled(&mut self, kind: Kind) -> &mut Scope {
        self.kind = kind;
        self
    }

    /// Marks `name` as taken (a name the minimizer keeps, say).
    pub fn reserve(&mut self, name: &str) {
        self.used.insert(name.to_string());
    }

    /// A fresh name. `long` asks for an identifier of more than 100 characters.
    pub fn fresh(&mut self, rng: &mut Rng, long: bool) -> String {
        if !long && rng.chance(self.hazards) {
            let scope = match self.kind {
                Kind::Type | Kind::Const => TYPE_HAZARDS,
                Kind::Field => FIELD_HAZARDS,
                Kind::Variant => VARIANT_HAZARDS,
            };
            let n = rng.below((KEYWORDS.len() + scope.len()) as u64) as usize;
            let pick = KEYWORDS
                .get(n)
                .copied()
                .unwrap_or_else(|| scope[n - KEYWORDS.len()]);
            let name = match self.kind {
                // Constants are conventionally upper case; the hazard is the word.
                Kind::Const => pick.to_uppercase(),
                _ => pick.to_string(),
            };
            let allowed = match self.kind {
                Kind::Type | Kind::Const => !is_reserved(&name),
                Kind::Field | Kind::Variant => !is_keyword(&name),
            };
            if allowed && self.used.insert(name.clone()) {
                return name;
            }
        }
        if rng.chance(4) {
            // A case-conversion twin of a name already in scope: `foo_bar` next to
            // `fooBar` or `FooBar`, which a naming table must keep apart.
            if let Some(twin) = self.twin(rng) {
                return twin;
            }
        }
        loop {
            let name = self.spell(rng, long);
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }

    fn twin(&mut self, rng: &mut Rng) -> Option<String> {
        let mut names: Vec<&String> = self.used.iter().collect();
        names.sort();
        let base = names.get(rng.below(names.len().max(1) as u64) as usize)?;
        let twin = if base.contains('_') {
            camel(base, rng.chance(50))
        } else if base.chars().any(|c| c.is_ascii_uppercase()) {
            snake(base)
        } else {
            format!("{base}_")
        };
        if twin.is_empty() || !valid_ident(&twin) || is_reserved(&twin) {
            return None;
        }
        self.used.insert(twin.clone()).then_some(twin)
    }

    fn spell(&self, rng: &mut Rng, long: bool) -> String {
        let words = if long {
            14 + rng.below(8)
        } else {
            1 + rng.below(3)
        };
        let parts: Vec<String> = (0..words)
            .map(|_| {
                let n = 1 + rng.below(3);
                (0..n)
                    .map(|_| SYLLABLES[rng.below(SYLLABLES.len() as u64) as usize])
                    .collect::<String>()
            })
            .collect();
        let mut name = match self.kind {
            Kind::Type | Kind::Variant => parts.iter().map(|p| capitalize(p)).collect(),
            Kind::Const => parts.join("_").to_uppercase(),
            Kind::Field => parts.join("_"),
        };
        if rng.chance(10) {
            name.push_str(&rng.below(100).to_string());
        }
        if long {
            while name.len() <= 100 {
                name.push_str(if self.kind == Kind::Field {
                    "_tail"
                } else {
                    "Tail"
                });
            }
        }
        if is_reserved(&name) {
            name.push('x');
        }
        name
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn camel(s: &str, upper_first: bool) -> String {
    let mut out = String::new();
    for (i, part) in s.split('_').filter(|p| !p.is_empty()).enumerate() {
        if i == 0 && !upper_first {
            out.push_str(part);
        } else {
            out.push_str(&capitalize(part));
        }
    }
    out
}

fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

fn valid_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether bitwire reserves `name` for declarations: keywords, built-in type names
/// and their families (`u0`, `f16`), and `max`, `bits`, `step`.
pub fn is_reserved(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "import", "const", "struct", "message", "enum", "union", "in", "true", "false", "bool",
        "string", "bytes", "list", "optional", "max", "bits", "step",
    ];
    if WORDS.contains(&name) {
        return true;
    }
    ["varu", "vari", "u", "i", "f"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Whether a field or variant may be called `name` (keywords are reserved
/// everywhere; built-in type names are contextual and allowed).
pub fn is_keyword(name: &str) -> bool {
    [
        "import", "const", "struct", "message", "enum", "union", "in", "true", "false",
    ]
    .contains(&name)
}
