//! JSON text to [`Value`] by the rules of `docs/json-mapping.md` §6: exactly RFC 8259,
//! UTF-8 only, no lone surrogates, no duplicate member names, at most
//! [`MAX_DEPTH`] nested arrays and objects, no number beyond the binary64 range.
//! Every error has a kind and the path of the value being read.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Number, Value};

use super::number::{classify, Exact};
use super::{JsonError, JsonErrorKind};

/// The deepest nesting of arrays and objects the parser accepts. Every value of every
/// schema fits with room to spare (`docs/json-mapping.md` §6.5); deeper text is
/// [`JsonErrorKind::TooDeep`], found before the parser descends further.
pub const MAX_DEPTH: usize = 512;

/// Parses JSON text (UTF-8 bytes) into a [`Value`].
///
/// Integers of the 64-bit range, in any notation (`5`, `5.0`, `5e0`), become exact
/// integer numbers; every other number the nearest `f64` (`-0` stays negative zero).
pub fn parse(text: &[u8]) -> Result<Value, JsonError> {
    match core::str::from_utf8(text) {
        Ok(s) => parse_str(s),
        Err(e) => Err(JsonError::new(
            JsonErrorKind::InvalidUnicode,
            alloc::format!("the text is not UTF-8 (byte {})", e.valid_up_to()),
        )),
    }
}

/// Parses JSON text into a [`Value`]; see [`parse`].
pub fn parse_str(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser { text, pos: 0 };
    p.skip_ws();
    let v = p.value(0)?;
    p.skip_ws();
    if p.pos != text.len() {
        return Err(p.syntax("text after the JSON value"));
    }
    Ok(v)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.pos += usize::from(hit);
        hit
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    #[cold]
    fn syntax(&self, what: &str) -> JsonError {
        JsonError::new(
            JsonErrorKind::Syntax,
            alloc::format!("{what} at byte {}", self.pos),
        )
    }

    /// One value; `depth` is the number of arrays and objects around it.
    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        match self.peek() {
            Some(b'[' | b'{') if depth >= MAX_DEPTH => Err(JsonError::new(
                JsonErrorKind::TooDeep,
                alloc::format!("more than {MAX_DEPTH} nested arrays and objects"),
            )),
            Some(b'[') => self.array(depth + 1),
            Some(b'{') => self.object(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(_) => Err(self.syntax("expected a value")),
            None => Err(self.syntax("unexpected end of text")),
        }
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, JsonError> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.syntax("expected a value"))
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.pos += 1;
        self.skip_ws();
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Value::Array(items));
        }
        loop {
            let i = items.len();
            items.push(self.value(depth).map_err(|e| e.at_index(i))?);
            self.skip_ws();
            if self.eat(b']') {
                return Ok(Value::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.syntax("expected `,` or `]`"));
            }
            self.skip_ws();
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.pos += 1;
        self.skip_ws();
        let mut map = Map::new();
        if self.eat(b'}') {
            return Ok(Value::Object(map));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.syntax("expected a member name"));
            }
            let key = self.string()?;
            if map.contains_key(&key) {
                let e = JsonError::new(
                    JsonErrorKind::DuplicateKey,
                    alloc::format!("member `{key}` appears twice"),
                );
                return Err(e.in_field(&key));
            }
            self.skip_ws();
            if !self.eat(b':') {
                return Err(self.syntax("expected `:`"));
            }
            self.skip_ws();
            let v = self.value(depth).map_err(|e| e.in_field(&key))?;
            map.insert(key, v);
            self.skip_ws();
            if self.eat(b'}') {
                return Ok(Value::Object(map));
            }
            if !self.eat(b',') {
                return Err(self.syntax("expected `,` or `}`"));
            }
            self.skip_ws();
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            // Stops only at ASCII bytes, so `start..pos` is on char boundaries.
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[start..self.pos]);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.syntax("unescaped control character in a string")),
                None => return Err(self.syntax("unterminated string")),
            }
        }
    }

    /// The escape after a backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let unit = self
                    .hex4(self.pos)
                    .ok_or_else(|| self.syntax("bad `\\u` escape"))?;
                self.pos += 4;
                out.push(self.code_point(unit)?);
                return Ok(());
            }
            _ => return Err(self.syntax("invalid escape")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    /// The character of `\u` escape `unit`, reading a low surrogate's escape after a
    /// high one; a surrogate without its partner is `InvalidUnicode`.
    fn code_point(&mut self, unit: u32) -> Result<char, JsonError> {
        let lone = |what: &str| {
            JsonError::new(
                JsonErrorKind::InvalidUnicode,
                alloc::format!("lone {what} surrogate \\u{unit:04x}"),
            )
        };
        match unit {
            0xD800..=0xDBFF => {
                let low = if self.text[self.pos..].starts_with("\\u") {
                    self.hex4(self.pos + 2)
                } else {
                    None
                };
                match low {
                    Some(low @ 0xDC00..=0xDFFF) => {
                        self.pos += 6;
                        let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                        Ok(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                    }
                    _ => Err(lone("high")),
                }
            }
            0xDC00..=0xDFFF => Err(lone("low")),
            _ => Ok(char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }

    /// Four hex digits at byte `at`.
    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.text.as_bytes().get(at..at + 4)?;
        digits
            .iter()
            .try_fold(0u32, |v, &d| Some(v * 16 + (d as char).to_digit(16)?))
    }

    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        self.eat(b'-');
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.syntax("expected a digit")),
        }
        if self.eat(b'.') {
            self.required_digits()?;
        }
        if self.eat(b'e') || self.eat(b'E') {
            if !self.eat(b'+') {
                self.eat(b'-');
            }
            self.required_digits()?;
        }
        number_value(&self.text[start..self.pos])
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), JsonError> {
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.syntax("expected a digit"));
        }
        self.digits();
        Ok(())
    }
}

/// The [`Value`] of a number that matches the grammar.
fn number_value(text: &str) -> Result<Value, JsonError> {
    let f: f64 = text.parse().unwrap_or(f64::NAN);
    if !f.is_finite() {
        return Err(JsonError::new(
            JsonErrorKind::InvalidNumber,
            alloc::format!("{} is beyond the binary64 range", short(text)),
        ));
    }
    let n = match classify(text) {
        Exact::Int(v) => match u64::try_from(v) {
            Ok(u) => Number::from(u),
            // `classify` keeps `Int` inside -2^63..=2^64-1.
            Err(_) => Number::from(i64::try_from(v).unwrap_or(i64::MIN)),
        },
        Exact::NegZero | Exact::Big | Exact::Fraction => {
            Number::from_f64(f).unwrap_or_else(|| Number::from(0u8))
        }
    };
    Ok(Value::Number(n))
}

/// `text`, shortened for a message.
fn short(text: &str) -> String {
    if text.len() <= 40 {
        return text.into();
    }
    let mut end = 40;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    alloc::format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(text: &str) -> (JsonErrorKind, String) {
        let e = parse(text.as_bytes()).unwrap_err();
        (e.kind(), e.path_string())
    }

    #[test]
    fn numbers() {
        let v = parse(b"[5.0, 0.5e1, -0, 1e19, 18446744073709551616, 0.1]").unwrap();
        assert_eq!(v[0], json!(5));
        assert_eq!(v[1], json!(5));
        assert!(v[2].as_f64().unwrap().is_sign_negative());
        assert_eq!(v[3].as_u64(), Some(10_000_000_000_000_000_000));
        assert_eq!(v[4].as_f64(), Some(18446744073709551616.0));
        assert_eq!(v[5].as_f64(), Some(0.1));
        assert_eq!(
            err("[1, 1e400]"),
            (JsonErrorKind::InvalidNumber, "[1]".into())
        );
        assert_eq!(err("-1e400"), (JsonErrorKind::InvalidNumber, "".into()));
        for bad in ["01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "1.0e+"] {
            assert_eq!(err(bad).0, JsonErrorKind::Syntax, "{bad}");
        }
    }

    #[test]
    fn strings_and_unicode() {
        let v = parse(br#"["a\"\\\/\b\f\n\r\t", "\u00e9\ud83d\ude00"]"#).unwrap();
        assert_eq!(v, json!(["a\"\\/\u{8}\u{c}\n\r\t", "é😀"]));
        let lone = (JsonErrorKind::InvalidUnicode, "a".to_string());
        assert_eq!(err(r#"{"a": "\ud800"}"#), lone);
        assert_eq!(err(r#"{"a": "\udc00x"}"#), lone);
        assert_eq!(err(r#"{"a": "\ud800\u0041"}"#), lone);
        assert_eq!(err("[\"\u{1}\"]").0, JsonErrorKind::Syntax);
        assert_eq!(err(r#"["\x"]"#), (JsonErrorKind::Syntax, "[0]".into()));
        let e = parse(b"[\"\xff\"]").unwrap_err();
        assert_eq!(e.kind(), JsonErrorKind::InvalidUnicode);
        assert_eq!(err("\u{feff}{}").0, JsonErrorKind::Syntax);
    }

    #[test]
    fn structure_and_paths() {
        assert_eq!(err("[1, 2,]"), (JsonErrorKind::Syntax, "[2]".into()));
        assert_eq!(err("[1 2]"), (JsonErrorKind::Syntax, "".into()));
        assert_eq!(
            err(r#"{"a": {"b": }}"#),
            (JsonErrorKind::Syntax, "a.b".into())
        );
        assert_eq!(err(r#"{"a": 1,}"#), (JsonErrorKind::Syntax, "".into()));
        assert_eq!(
            err(r#"{"x": [{"a": 1, "a": 2}]}"#),
            (JsonErrorKind::DuplicateKey, "x[0].a".into())
        );
        assert_eq!(err("{} x").0, JsonErrorKind::Syntax);
        assert_eq!(err("").0, JsonErrorKind::Syntax);
    }

    #[test]
    fn depth_is_limited_before_descending() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(ok.as_bytes()).is_ok());
        let deep = "[".repeat(2_000_000);
        let e = parse(deep.as_bytes()).unwrap_err();
        assert_eq!(e.kind(), JsonErrorKind::TooDeep);
        assert_eq!(e.path_string(), "[0]".repeat(MAX_DEPTH));
        let objects = r#"{"a":"#.repeat(MAX_DEPTH + 1);
        assert_eq!(
            parse(objects.as_bytes()).unwrap_err().kind(),
            JsonErrorKind::TooDeep
        );
    }
}
