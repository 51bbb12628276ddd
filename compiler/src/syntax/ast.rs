//! The abstract syntax tree of one schema file. Every node keeps its span so later
//! passes can point at what they complain about. Names are not resolved here.

use crate::diag::Span;

/// A parsed file: its items in source order.
#[derive(Debug, Clone, Default)]
pub struct File {
    pub items: Vec<Item>,
}

/// A name and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// Doc comment lines (`///`), without the slashes and one leading space.
#[derive(Debug, Clone, Default)]
pub struct Docs {
    pub lines: Vec<String>,
}

/// A top-level item.
#[derive(Debug, Clone)]
pub enum Item {
    Import(Import),
    Const(ConstDecl),
    Struct(StructDecl),
    Enum(EnumDecl),
    Union(UnionDecl),
}

/// `import "path.bw";`
#[derive(Debug, Clone)]
pub struct Import {
    /// The path as written (escapes resolved).
    pub path: String,
    /// Span of the string literal.
    pub span: Span,
}

/// `const NAME: TYPE = VALUE;`
#[derive(Debug, Clone)]
pub struct ConstDecl {
    pub docs: Docs,
    pub name: Ident,
    pub ty: TypeExpr,
    pub value: ValueExpr,
}

/// `struct Name { ... }` or `message Name = ID { ... }`.
#[derive(Debug, Clone)]
pub struct StructDecl {
    pub docs: Docs,
    pub name: Ident,
    /// The id expression of a `message`; `None` for a plain struct.
    pub message_id: Option<ValueExpr>,
    /// `delta message ...`: the message also has a delta encoding (spec §12).
    pub delta: Option<Span>,
    pub fields: Vec<FieldDecl>,
}

/// `name: TYPE` inside a struct.
#[derive(Debug, Clone)]
pub struct FieldDecl {
    pub docs: Docs,
    pub name: Ident,
    pub ty: TypeExpr,
}

/// `enum Name (: uN)? { A, B = 3, ... }`
#[derive(Debug, Clone)]
pub struct EnumDecl {
    pub docs: Docs,
    pub name: Ident,
    pub tag_type: Option<TypeExpr>,
    pub variants: Vec<VariantDecl>,
    /// Span of the `{ ... }` body, for "no variants" errors.
    pub body: Span,
}

/// `union Name (: uN)? { A(T), B = 3, ... }`
#[derive(Debug, Clone)]
pub struct UnionDecl {
    pub docs: Docs,
    pub name: Ident,
    pub tag_type: Option<TypeExpr>,
    pub variants: Vec<VariantDecl>,
    /// Span of the `{ ... }` body, for "no variants" errors.
    pub body: Span,
}

/// An enum or union variant. Enum variants never have a payload (the parser rejects one).
#[derive(Debug, Clone)]
pub struct VariantDecl {
    pub docs: Docs,
    pub name: Ident,
    pub payload: Option<TypeExpr>,
    /// Explicit value or tag (`= N`).
    pub value: Option<ValueExpr>,
}

/// A type expression.
#[derive(Debug, Clone)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: Span,
}

/// The shapes a type expression can take.
#[derive(Debug, Clone)]
pub enum TypeExprKind {
    /// A built-in scalar (`u8`, `bool`, `varu32`, ...) or a declared type name;
    /// name resolution tells which.
    Name(Ident),
    /// `BASE in MIN..=MAX` with an optional `bits B` / `step S`.
    Refined(Box<Refined>),
    /// `optional<T>`
    Optional(Box<TypeExpr>),
    /// `[T; N]`
    Array(Box<TypeExpr>, ValueExpr),
    /// `list<T>` / `list<T, max N>`, optionally `, key F` (spec §12.1)
    List(Box<TypeExpr>, Option<ValueExpr>, Option<Ident>),
    /// `string` / `string<max N>`
    String(Option<ValueExpr>),
    /// `bytes` / `bytes<max N>`
    Bytes(Option<ValueExpr>),
}

/// The parts of `BASE in MIN..=MAX (bits B | step S)?`.
#[derive(Debug, Clone)]
pub struct Refined {
    pub base: TypeExpr,
    pub min: ValueExpr,
    pub max: ValueExpr,
    /// Span of `MIN..=MAX`.
    pub range_span: Span,
    pub quant: Option<Quant>,
}

/// How a float range is divided.
#[derive(Debug, Clone)]
pub enum Quant {
    /// `bits B`; the span is the keyword's.
    Bits(Span, ValueExpr),
    /// `step S`; the span is the keyword's.
    Step(Span, ValueExpr),
}

/// A constant value expression: a literal, a constant name, or a negation.
#[derive(Debug, Clone)]
pub struct ValueExpr {
    pub kind: ValueExprKind,
    pub span: Span,
}

/// The shapes a value expression can take.
#[derive(Debug, Clone)]
pub enum ValueExprKind {
    Int(u64),
    Float(f64),
    Bool(bool),
    Str(String),
    /// A reference to a constant.
    Name(Ident),
    /// `-VALUE`
    Neg(Box<ValueExpr>),
    /// A malformed literal the lexer already reported; evaluates to nothing, silently.
    Error,
}
