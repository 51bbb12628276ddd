//! The schema model the generator builds and the minimizer edits: plain data that
//! renders to `.bw` text ([`crate::render`]). It mirrors the surface syntax of
//! docs/schema-language.md, not the compiler's IR, so that every spelling (constants
//! in bounds, hex literals, declared tag widths, doc comments) can be produced.

/// A whole schema file: items in output order.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    /// Plain `//` comment lines at the top of the file (the seed that made it).
    pub header: Vec<String>,
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Const(Const),
    Type(TypeDecl),
}

impl Item {
    /// The declared name.
    pub fn name(&self) -> &str {
        match self {
            Item::Const(c) => &c.name,
            Item::Type(t) => &t.name,
        }
    }
}

/// `const NAME: TY = VALUE;`
#[derive(Debug, Clone, PartialEq)]
pub struct Const {
    pub name: String,
    pub doc: Vec<String>,
    /// The declared type as written: `u32`, `i7`, `f32`, `bool`, `string`.
    pub ty: String,
    pub value: Value,
    /// What the constant evaluates to (after rounding an `f32` constant).
    pub eval: ConstVal,
}

/// The value of a constant, as the compiler evaluates it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ConstVal {
    Int(i128),
    Float(f64),
    Other,
}

/// A value in the schema's value syntax: a literal (its exact spelling) or a
/// constant, optionally negated.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// The literal as written, sign included (`-0x10`, `2.5E6`, `"text"`).
    Lit(String),
    /// `NAME` or `-NAME`.
    Const { neg: bool, name: String },
}

/// A struct, message, enum or union.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDecl {
    pub name: String,
    pub doc: Vec<String>,
    pub kind: DeclKind,
}

/// The body of a type declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// A struct, or a message when `message_id` is set.
    Struct {
        message_id: Option<Value>,
        fields: Vec<Field>,
    },
    /// `enum E[: uN] { ... }`.
    Enum {
        tag_bits: Option<u32>,
        variants: Vec<Variant>,
    },
    /// `union U[: uN] { ... }`.
    Union {
        tag_bits: Option<u32>,
        variants: Vec<Variant>,
    },
}

/// A struct field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub doc: Vec<String>,
    pub ty: TypeExpr,
}

/// An enum or union variant (enum variants never have a payload).
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub doc: Vec<String>,
    pub value: Option<Value>,
    pub payload: Option<TypeExpr>,
}

/// `bits B` or `step S` of a quantized float.
#[derive(Debug, Clone, PartialEq)]
pub enum Quant {
    Bits(Value),
    Step(Value),
}

/// A type expression.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    Bool,
    /// `uN` / `iN`.
    Int {
        signed: bool,
        bits: u32,
    },
    /// `f32` / `f64`.
    Float {
        wide: bool,
    },
    /// `varuW` / `variW`.
    Var {
        signed: bool,
        bits: u32,
    },
    /// `uN in MIN..=MAX` / `iN in MIN..=MAX`.
    Bounded {
        signed: bool,
        bits: u32,
        min: Value,
        max: Value,
    },
    /// `fW in MIN..=MAX bits B` / `... step S`.
    Quantized {
        wide: bool,
        min: Value,
        max: Value,
        quant: Quant,
    },
    Optional(Box<TypeExpr>),
    /// `[T; N]`.
    Array(Box<TypeExpr>, Value),
    /// `list<T>` / `list<T, max M>`.
    List(Box<TypeExpr>, Option<Value>),
    String(Option<Value>),
    Bytes(Option<Value>),
    Named(String),
}

impl Schema {
    /// The type declaration called `name`.
    pub fn decl(&self, name: &str) -> Option<&TypeDecl> {
        self.items.iter().find_map(|i| match i {
            Item::Type(t) if t.name == name => Some(t),
            _ => None,
        })
    }

    /// The names of every type declaration, in item order.
    pub fn type_names(&self) -> Vec<String> {
        self.items
            .iter()
            .filter_map(|i| match i {
                Item::Type(t) => Some(t.name.clone()),
                Item::Const(_) => None,
            })
            .collect()
    }
}
