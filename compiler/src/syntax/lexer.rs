//! The lexer: source text to tokens. It never stops at an error: a bad character
//! is reported and skipped, a bad literal becomes an [`TokenKind::Error`] token,
//! so the parser still sees the rest of the file.

use super::token::{Keyword, Token, TokenKind};
use super::{too_many_errors, MAX_SYNTAX_ERRORS};
use crate::diag::{Code, Diagnostic, FileId, Span, BOM};

/// Splits `src` into tokens (ending with [`TokenKind::Eof`]) and reports lexing
/// errors. A UTF-8 byte-order mark at the start is skipped.
pub fn lex(file: FileId, src: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer {
        file,
        src,
        bytes: src.as_bytes(),
        pos: if src.starts_with(BOM) { BOM.len() } else { 0 },
        // About one token per five bytes of schema text: reserved once rather than
        // grown (and copied) a dozen times; at most 64 Ki tokens up front (3 MiB), so
        // a large file of comments reserves no more than that.
        tokens: Vec::with_capacity((src.len() / 5 + 1).min(1 << 16)),
        diags: Vec::new(),
        stopped: false,
    };
    lexer.run();
    (lexer.tokens, lexer.diags)
}

struct Lexer<'a> {
    file: FileId,
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    diags: Vec<Diagnostic>,
    /// Set after [`MAX_SYNTAX_ERRORS`] errors: the rest of the file is not read.
    stopped: bool,
}

impl Lexer<'_> {
    /// Records an error; after [`MAX_SYNTAX_ERRORS`] of them, reports that it
    /// stops and stops (a file can have an error at every character).
    fn report(&mut self, diag: Diagnostic) {
        if self.stopped {
            return;
        }
        self.diags.push(diag);
        if self.diags.len() >= MAX_SYNTAX_ERRORS {
            let at = self.span(self.pos, self.pos);
            self.diags.push(too_many_errors(at, "not read past here"));
            self.stopped = true;
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn peek_at(&self, offset: usize) -> u8 {
        self.bytes.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        let span = self.span(start, self.pos);
        self.tokens.push(Token { kind, span });
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() && !self.stopped {
            let start = self.pos;
            let c = self.bytes[self.pos];
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    // A run of white space (indentation) in one go.
                    self.pos += 1 + self.bytes[self.pos + 1..]
                        .iter()
                        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                        .count();
                }
                b'/' if self.peek_at(1) == b'/' => self.comment(),
                b'/' if self.peek_at(1) == b'*' => self.block_comment(),
                b'"' => self.string(),
                b'0'..=b'9' => self.number(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(),
                _ if self.src[start..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic) =>
                {
                    self.word()
                }
                b'.' if self.peek_at(1) == b'.' => {
                    self.pos += 2;
                    let kind = if self.peek_at(0) == b'=' {
                        self.pos += 1;
                        TokenKind::DotDotEq
                    } else {
                        TokenKind::DotDot
                    };
                    self.push(kind, start);
                }
                _ => {
                    let kind = match c {
                        b'{' => Some(TokenKind::LBrace),
                        b'}' => Some(TokenKind::RBrace),
                        b'(' => Some(TokenKind::LParen),
                        b')' => Some(TokenKind::RParen),
                        b'[' => Some(TokenKind::LBracket),
                        b']' => Some(TokenKind::RBracket),
                        b'<' => Some(TokenKind::Lt),
                        b'>' => Some(TokenKind::Gt),
                        b',' => Some(TokenKind::Comma),
                        b';' => Some(TokenKind::Semi),
                        b':' => Some(TokenKind::Colon),
                        b'=' => Some(TokenKind::Eq),
                        b'-' => Some(TokenKind::Minus),
                        _ => None,
                    };
                    match kind {
                        Some(kind) => {
                            self.pos += 1;
                            self.push(kind, start);
                        }
                        None => self.unexpected_char(),
                    }
                }
            }
        }
        let end = self.bytes.len();
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: self.span(end, end),
        });
    }

    fn take_while(&mut self, pred: impl Fn(u8) -> bool) -> &str {
        let start = self.pos;
        while self.pos < self.bytes.len() && pred(self.bytes[self.pos]) {
            self.pos += 1;
        }
        &self.src[start..self.pos]
    }

    /// An identifier or keyword. A word with non-ASCII letters is reported once
    /// and still becomes an identifier, so the parser does not trip over it.
    fn word(&mut self) {
        let start = self.pos;
        // ASCII letters, digits and `_` byte by byte; from the first other non-ASCII
        // byte on, by character (`char::is_alphanumeric` agrees with the ASCII test on
        // ASCII characters).
        let ascii = self.bytes[start..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        let rest = if self.bytes.get(start + ascii).is_some_and(|b| !b.is_ascii()) {
            self.src[start + ascii..]
                .chars()
                .take_while(|&c| c.is_alphanumeric() || c == '_')
                .map(char::len_utf8)
                .sum()
        } else {
            0
        };
        self.pos += ascii + rest;
        let word = &self.src[start..self.pos];
        if !word.is_ascii() {
            self.report(
                Diagnostic::error(
                    Code::UnexpectedChar,
                    format!("identifier `{word}` contains non-ASCII characters"),
                    self.span(start, self.pos),
                    "not an ASCII identifier",
                )
                .with_help("identifiers are ASCII letters, digits and `_`"),
            );
        }
        let kind = match Keyword::from_word(word) {
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Ident(word.to_string()),
        };
        self.push(kind, start);
    }

    fn unexpected_char(&mut self) {
        let start = self.pos;
        let ch = self.src[start..].chars().next().unwrap_or('\0');
        self.pos += ch.len_utf8();
        let help = match ch {
            '#' => Some("comments start with `//`".to_string()),
            '+' => Some("numbers are written without a `+` sign".to_string()),
            '.' => Some("ranges are written `MIN..=MAX`".to_string()),
            _ => None,
        };
        let shown = if ch.is_control() {
            format!("{:?}", ch)
        } else {
            format!("`{ch}`")
        };
        self.report(
            Diagnostic::error(
                Code::UnexpectedChar,
                format!("unexpected character {shown}"),
                self.span(start, self.pos),
                "not valid here",
            )
            .with_help_opt(help),
        );
    }

    /// `//` comments are skipped; `///` (but not `////`) become doc-comment tokens.
    fn comment(&mut self) {
        let start = self.pos;
        self.pos = self.src[start..]
            .find('\n')
            .map_or(self.bytes.len(), |i| start + i);
        let line = &self.src[start..self.pos];
        let is_doc = line.starts_with("///") && !line.starts_with("////");
        if is_doc {
            // Trailing whitespace is invisible, so it is not part of the text (and
            // `bitwire fmt`, which removes it, does not change the schema).
            let text = line[3..].trim_end();
            let text = text.strip_prefix(' ').unwrap_or(text).to_string();
            self.push(TokenKind::DocComment(text), start);
        }
    }

    /// Block comments are not part of the language, but skipping one whole gives
    /// one clear error instead of one per character.
    fn block_comment(&mut self) {
        let start = self.pos;
        self.pos = match self.src[start + 2..].find("*/") {
            Some(i) => start + 2 + i + 2,
            None => self.bytes.len(),
        };
        self.report(
            Diagnostic::error(
                Code::UnexpectedChar,
                "block comments are not supported",
                self.span(start, start + 2),
                "block comment",
            )
            .with_help("use `//` line comments"),
        );
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut bad = false;
        loop {
            let Some(ch) = self.src[self.pos..].chars().next() else {
                return self.unterminated(start);
            };
            match ch {
                '"' => {
                    self.pos += 1;
                    break;
                }
                '\n' => return self.unterminated(start),
                '\\' => {
                    let esc_start = self.pos;
                    self.pos += 1;
                    let Some(next) = self.src[self.pos..].chars().next() else {
                        return self.unterminated(start);
                    };
                    self.pos += next.len_utf8();
                    match next {
                        'n' => value.push('\n'),
                        't' => value.push('\t'),
                        'r' => value.push('\r'),
                        '0' => value.push('\0'),
                        '\\' => value.push('\\'),
                        '"' => value.push('"'),
                        _ => {
                            bad = true;
                            self.report(
                                Diagnostic::error(
                                    Code::InvalidEscape,
                                    format!("unknown escape `\\{next}` in string literal"),
                                    self.span(esc_start, self.pos),
                                    "unknown escape",
                                )
                                .with_help(
                                    r#"the escapes are `\n`, `\t`, `\r`, `\0`, `\\` and `\"`"#,
                                ),
                            );
                        }
                    }
                }
                c => {
                    value.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
        let kind = if bad {
            TokenKind::Error
        } else {
            TokenKind::Str(value)
        };
        self.push(kind, start);
    }

    fn unterminated(&mut self, start: usize) {
        let end = self.pos;
        self.report(
            Diagnostic::error(
                Code::UnterminatedString,
                "unterminated string literal",
                self.span(start, start + 1),
                "this string is never closed",
            )
            .with_help("close the string with `\"` on the same line"),
        );
        self.tokens.push(Token {
            kind: TokenKind::Error,
            span: self.span(start, end),
        });
    }

    fn number(&mut self) {
        let start = self.pos;
        let (radix, prefix) = match (self.peek_at(0), self.peek_at(1)) {
            (b'0', b'x' | b'X') => (16, 2),
            (b'0', b'b' | b'B') => (2, 2),
            _ => (10, 0),
        };
        self.pos += prefix;
        if radix == 16 {
            self.take_while(|b| b.is_ascii_hexdigit() || b == b'_');
        } else {
            self.take_while(|b| b.is_ascii_digit() || b == b'_');
        }
        let mut is_float = false;
        if radix == 10 {
            // A `.` only continues the number when a digit follows, so `0..=5` lexes as `0`, `..=`, `5`.
            if self.peek_at(0) == b'.' && self.peek_at(1).is_ascii_digit() {
                is_float = true;
                self.pos += 1;
                self.take_while(|b| b.is_ascii_digit() || b == b'_');
            }
            let sign = matches!(self.peek_at(1), b'+' | b'-') as usize;
            if matches!(self.peek_at(0), b'e' | b'E') && self.peek_at(1 + sign).is_ascii_digit() {
                is_float = true;
                self.pos += 1 + sign;
                self.take_while(|b| b.is_ascii_digit() || b == b'_');
            }
        }
        // Letters glued to a number (`12px`, `0x1G`) make the whole word malformed.
        self.take_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        let text = &self.src[start..self.pos];
        // Most literals have no `_` separators: parsed in place, without a copy.
        let body = &text[prefix..];
        let digits: std::borrow::Cow<str> = if body.contains('_') {
            body.chars()
                .filter(|&c| c != '_')
                .collect::<String>()
                .into()
        } else {
            body.into()
        };
        let span = self.span(start, self.pos);
        let kind = if is_float {
            match digits.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(TokenKind::Float(v)),
                Ok(_) => Err(("float literal out of range", "does not fit in an f64", None)),
                Err(_) => Err(("malformed float literal", "not a number", None)),
            }
        } else if digits.is_empty() {
            Err(("missing digits after the radix prefix", "no digits", None))
        } else {
            match u64::from_str_radix(&digits, radix) {
                Ok(v) => Ok(TokenKind::Int(v)),
                Err(e) if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) => Err((
                    "integer literal too large",
                    "does not fit in 64 bits",
                    Some("integer literals are at most 18446744073709551615 (2^64 - 1)"),
                )),
                Err(_) => {
                    let what = match radix {
                        16 => "hexadecimal",
                        2 => "binary",
                        _ => "decimal",
                    };
                    Err(("malformed integer literal", "invalid digit", Some(what)))
                }
            }
        };
        match kind {
            Ok(kind) => self.push(kind, start),
            Err((message, label, help)) => {
                let help = help.map(|h| match h {
                    "hexadecimal" | "binary" | "decimal" => {
                        format!("a {h} literal may only contain {h} digits and `_`")
                    }
                    other => other.to_string(),
                });
                self.report(
                    Diagnostic::error(Code::InvalidNumber, message, span, label)
                        .with_help_opt(help),
                );
                self.push(TokenKind::Error, start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(src: &str) -> Vec<String> {
        lex(FileId(0), src)
            .0
            .into_iter()
            .filter_map(|t| match t.kind {
                TokenKind::Ident(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn words_are_whole_with_and_without_non_ascii_letters() {
        assert_eq!(idents("pos_x1 Y2"), ["pos_x1", "Y2"]);
        // ASCII, then non-ASCII letters, then ASCII again: one word (reported once).
        let (tokens, diags) = lex(FileId(0), "naïve_x1: été");
        assert_eq!(diags.len(), 2, "{diags:?}");
        let words: Vec<&TokenKind> = tokens.iter().map(|t| &t.kind).collect();
        assert_eq!(
            words,
            [
                &TokenKind::Ident("naïve_x1".into()),
                &TokenKind::Colon,
                &TokenKind::Ident("été".into()),
                &TokenKind::Eof
            ]
        );
        // A symbol that is not a letter ends the word.
        assert_eq!(idents("a€b"), ["a", "b"]);
    }
}
