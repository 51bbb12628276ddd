//! Tokens produced by the lexer.

use crate::diag::Span;

/// Reserved words. Built-in type names (`u8`, `list`, `string`, ...) and the
/// contextual words `max`, `bits`, `step` are plain identifiers to the lexer:
/// the parser and name resolution give them meaning where a type is expected,
/// so they remain usable as field and variant names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    Import,
    Const,
    Struct,
    Message,
    Enum,
    Union,
    In,
    True,
    False,
}

impl Keyword {
    /// The keyword for an identifier-like word, if it is one.
    pub fn from_word(word: &str) -> Option<Keyword> {
        Some(match word {
            "import" => Keyword::Import,
            "const" => Keyword::Const,
            "struct" => Keyword::Struct,
            "message" => Keyword::Message,
            "enum" => Keyword::Enum,
            "union" => Keyword::Union,
            "in" => Keyword::In,
            "true" => Keyword::True,
            "false" => Keyword::False,
            _ => return None,
        })
    }

    /// The keyword's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Import => "import",
            Keyword::Const => "const",
            Keyword::Struct => "struct",
            Keyword::Message => "message",
            Keyword::Enum => "enum",
            Keyword::Union => "union",
            Keyword::In => "in",
            Keyword::True => "true",
            Keyword::False => "false",
        }
    }

    /// Whether the keyword starts a top-level item (used as a recovery point).
    pub fn starts_item(self) -> bool {
        matches!(
            self,
            Keyword::Import
                | Keyword::Const
                | Keyword::Struct
                | Keyword::Message
                | Keyword::Enum
                | Keyword::Union
        )
    }
}

/// The kind of a token, with its value for literals.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    Ident(String),
    Keyword(Keyword),
    /// An integer literal (at most `u64::MAX`; larger ones are lexing errors).
    Int(u64),
    Float(f64),
    /// A string literal with escapes resolved.
    Str(String),
    /// A `///` comment, text without the slashes and one leading space.
    DocComment(String),
    LBrace,
    RBrace,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Lt,
    Gt,
    Comma,
    Semi,
    Colon,
    Eq,
    Minus,
    DotDot,
    DotDotEq,
    /// Stands in for a malformed literal that was already reported, so the
    /// parser can go on without a second error at the same place.
    Error,
    Eof,
}

impl TokenKind {
    /// How the token is named in "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident(name) => format!("identifier `{name}`"),
            TokenKind::Keyword(k) => format!("keyword `{}`", k.as_str()),
            TokenKind::Int(_) => "integer literal".into(),
            TokenKind::Float(_) => "float literal".into(),
            TokenKind::Str(_) => "string literal".into(),
            TokenKind::DocComment(_) => "doc comment".into(),
            TokenKind::Error => "invalid token".into(),
            TokenKind::Eof => "end of file".into(),
            other => format!("`{}`", other.punct()),
        }
    }

    /// The spelling of a punctuation token.
    pub fn punct(&self) -> &'static str {
        match self {
            TokenKind::LBrace => "{",
            TokenKind::RBrace => "}",
            TokenKind::LParen => "(",
            TokenKind::RParen => ")",
            TokenKind::LBracket => "[",
            TokenKind::RBracket => "]",
            TokenKind::Lt => "<",
            TokenKind::Gt => ">",
            TokenKind::Comma => ",",
            TokenKind::Semi => ";",
            TokenKind::Colon => ":",
            TokenKind::Eq => "=",
            TokenKind::Minus => "-",
            TokenKind::DotDot => "..",
            TokenKind::DotDotEq => "..=",
            _ => "?",
        }
    }
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}
