//! JSON text to a JSON value, by the text rules of `docs/json-mapping.md` §6.
//!
//! The reference codec's own parser, written for obviousness and sharing no code with
//! the runtimes (it is the oracle they are tested against): a recursive descent over
//! the characters of the text that keeps the path of the value it is reading, so every
//! error names it. Numbers are analysed as exact decimals ([`Decimal`]): integers of
//! the 64-bit range are stored exactly whatever their notation, every other number as
//! the nearest `f64` (a finite one: numbers beyond binary64 are rejected).

use serde_json::{Map, Number, Value as Json};

use super::error::{CodecError, JsonErrorKind, Path};

/// The deepest nesting of arrays and objects accepted (`docs/json-mapping.md` §6.5).
pub const MAX_DEPTH: usize = 512;

/// Parses JSON text given as bytes: they must be UTF-8 (`InvalidUnicode` otherwise,
/// with an empty path, before anything else is looked at).
pub fn json_from_bytes(text: &[u8]) -> Result<Json, CodecError> {
    match std::str::from_utf8(text) {
        Ok(s) => json_from_text(s),
        Err(e) => Err(Path::default().json(
            JsonErrorKind::InvalidUnicode,
            format!(
                "the text is not UTF-8: bad byte at offset {}",
                e.valid_up_to()
            ),
        )),
    }
}

/// Parses JSON text. Errors carry the path of the value being read when they were
/// found (`docs/json-mapping.md` §6.6) and the character offset in the message.
pub fn json_from_text(text: &str) -> Result<Json, CodecError> {
    let mut p = TextParser {
        chars: text.chars().collect(),
        at: 0,
        path: Path::default(),
    };
    p.skip_whitespace();
    let value = p.value(0)?;
    p.skip_whitespace();
    if p.at < p.chars.len() {
        return Err(p.error(JsonErrorKind::Syntax, "text after the JSON value"));
    }
    Ok(value)
}

struct TextParser {
    chars: Vec<char>,
    at: usize,
    path: Path,
}

impl TextParser {
    fn current(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn error(&self, kind: JsonErrorKind, what: &str) -> CodecError {
        self.path
            .json(kind, format!("{what} (at character {})", self.at))
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), CodecError> {
        if self.current() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(JsonErrorKind::Syntax, what))
        }
    }

    /// RFC 8259 whitespace: space, tab, line feed, carriage return. Nothing else (no
    /// byte order mark, no other Unicode space).
    fn skip_whitespace(&mut self) {
        while matches!(self.current(), Some(' ' | '\t' | '\n' | '\r')) {
            self.at += 1;
        }
    }

    /// A value, with `depth` arrays and objects around it.
    fn value(&mut self, depth: usize) -> Result<Json, CodecError> {
        match self.current() {
            Some('[' | '{') if depth == MAX_DEPTH => Err(self.error(
                JsonErrorKind::TooDeep,
                &format!("more than {MAX_DEPTH} nested arrays and objects"),
            )),
            Some('[') => self.array(depth + 1),
            Some('{') => self.object(depth + 1),
            Some('"') => self.string().map(Json::String),
            Some('t') => self.word("true", Json::Bool(true)),
            Some('f') => self.word("false", Json::Bool(false)),
            Some('n') => self.word("null", Json::Null),
            Some('-' | '0'..='9') => self.number(),
            Some(_) => Err(self.error(JsonErrorKind::Syntax, "expected a value")),
            None => Err(self.error(JsonErrorKind::Syntax, "the text ends early")),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, CodecError> {
        for c in word.chars() {
            self.expect(c, "expected a value")?;
        }
        Ok(value)
    }

    fn array(&mut self, depth: usize) -> Result<Json, CodecError> {
        self.at += 1;
        self.skip_whitespace();
        let mut items = Vec::new();
        if self.current() == Some(']') {
            self.at += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.path.push_index(items.len());
            items.push(self.value(depth)?);
            self.path.pop();
            self.skip_whitespace();
            match self.current() {
                Some(',') => {
                    self.at += 1;
                    self.skip_whitespace();
                }
                Some(']') => {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error(JsonErrorKind::Syntax, "expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, CodecError> {
        self.at += 1;
        self.skip_whitespace();
        let mut members = Map::new();
        if self.current() == Some('}') {
            self.at += 1;
            return Ok(Json::Object(members));
        }
        loop {
            if self.current() != Some('"') {
                return Err(self.error(JsonErrorKind::Syntax, "expected a member name"));
            }
            let name = self.string()?;
            self.path.push_name(&name);
            if members.contains_key(&name) {
                return Err(self.error(JsonErrorKind::DuplicateKey, "the name appears twice"));
            }
            self.path.pop();
            self.skip_whitespace();
            self.expect(':', "expected `:`")?;
            self.skip_whitespace();
            self.path.push_name(&name);
            let value = self.value(depth)?;
            self.path.pop();
            members.insert(name, value);
            self.skip_whitespace();
            match self.current() {
                Some(',') => {
                    self.at += 1;
                    self.skip_whitespace();
                }
                Some('}') => {
                    self.at += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error(JsonErrorKind::Syntax, "expected `,` or `}`")),
            }
        }
    }

    /// A string; the current character is its opening quote.
    fn string(&mut self) -> Result<String, CodecError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.current() else {
                return Err(self.error(JsonErrorKind::Syntax, "unterminated string"));
            };
            self.at += 1;
            match c {
                '"' => return Ok(out),
                '\\' => out.push(self.escape()?),
                '\u{0}'..='\u{1f}' => {
                    self.at -= 1;
                    return Err(
                        self.error(JsonErrorKind::Syntax, "a control character must be escaped")
                    );
                }
                c => out.push(c),
            }
        }
    }

    /// The character an escape stands for; the backslash is read.
    fn escape(&mut self) -> Result<char, CodecError> {
        let c = self.current();
        self.at += 1;
        Ok(match c {
            Some('"') => '"',
            Some('\\') => '\\',
            Some('/') => '/',
            Some('b') => '\u{8}',
            Some('f') => '\u{c}',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('u') => return self.unicode_escape(),
            _ => {
                self.at -= 1;
                return Err(self.error(JsonErrorKind::Syntax, "not a JSON escape"));
            }
        })
    }

    /// `\uXXXX` (the `\u` is read), with the low half of a surrogate pair.
    fn unicode_escape(&mut self) -> Result<char, CodecError> {
        let unit = self
            .four_hex_digits(self.at)
            .ok_or_else(|| self.error(JsonErrorKind::Syntax, "`\\u` needs four hex digits"))?;
        self.at += 4;
        if (0xDC00..=0xDFFF).contains(&unit) {
            return Err(self.error(JsonErrorKind::InvalidUnicode, "a lone low surrogate"));
        }
        if !(0xD800..=0xDBFF).contains(&unit) {
            return Ok(char::from_u32(unit).expect("not a surrogate"));
        }
        let follows_escape =
            self.chars.get(self.at) == Some(&'\\') && self.chars.get(self.at + 1) == Some(&'u');
        let low = if follows_escape {
            self.four_hex_digits(self.at + 2)
        } else {
            None
        };
        match low {
            Some(low) if (0xDC00..=0xDFFF).contains(&low) => {
                self.at += 6;
                let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                Ok(char::from_u32(c).expect("a surrogate pair is a character"))
            }
            _ => Err(self.error(
                JsonErrorKind::InvalidUnicode,
                "a high surrogate without its low surrogate",
            )),
        }
    }

    fn four_hex_digits(&self, from: usize) -> Option<u32> {
        let digits = self.chars.get(from..from + 4)?;
        digits
            .iter()
            .try_fold(0, |v, c| Some(v * 16 + c.to_digit(16)?))
    }

    /// A number: the grammar of RFC 8259, then its value (§6.3).
    fn number(&mut self) -> Result<Json, CodecError> {
        let start = self.at;
        if self.current() == Some('-') {
            self.at += 1;
        }
        match self.current() {
            Some('0') => self.at += 1,
            Some('1'..='9') => self.skip_digits(),
            _ => return Err(self.error(JsonErrorKind::Syntax, "expected a digit")),
        }
        if self.current() == Some('.') {
            self.at += 1;
            self.required_digits()?;
        }
        if matches!(self.current(), Some('e' | 'E')) {
            self.at += 1;
            if matches!(self.current(), Some('+' | '-')) {
                self.at += 1;
            }
            self.required_digits()?;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        number_value(&text).map_err(|why| self.path.json(JsonErrorKind::InvalidNumber, why))
    }

    fn skip_digits(&mut self) {
        while matches!(self.current(), Some('0'..='9')) {
            self.at += 1;
        }
    }

    fn required_digits(&mut self) -> Result<(), CodecError> {
        if !matches!(self.current(), Some('0'..='9')) {
            return Err(self.error(JsonErrorKind::Syntax, "expected a digit"));
        }
        self.skip_digits();
        Ok(())
    }
}

/// A JSON number as an exact decimal: `digits × 10^exponent`, `digits` without
/// leading or trailing zeros (empty for zero).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    negative: bool,
    digits: String,
    exponent: i64,
}

impl Decimal {
    /// The decimal of number text that matches the grammar.
    pub(crate) fn of(text: &str) -> Decimal {
        let negative = text.starts_with('-');
        let unsigned = text.trim_start_matches('-');
        let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
            // Far beyond any number that text can hold digits for: saturate.
            Some((m, e)) => (
                m,
                e.parse::<i64>().unwrap_or(if e.starts_with('-') {
                    -(1 << 40)
                } else {
                    1 << 40
                }),
            ),
            None => (unsigned, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all = format!("{int}{frac}");
        let significant = all.trim_start_matches('0');
        let digits = significant.trim_end_matches('0');
        let dropped = (significant.len() - digits.len()) as i64;
        Decimal {
            negative,
            digits: digits.to_string(),
            exponent: exponent - frac.len() as i64 + dropped,
        }
    }

    /// The value when it is an integer in `-2^63 ..= 2^64 - 1`.
    pub(crate) fn int64(&self) -> Option<i128> {
        if self.digits.is_empty() {
            return Some(0);
        }
        if self.exponent < 0 || self.digits.len() as i64 + self.exponent > 20 {
            return None;
        }
        let zeros = "0".repeat(self.exponent as usize);
        let magnitude: i128 = format!("{}{zeros}", self.digits).parse().ok()?;
        let value = if self.negative { -magnitude } else { magnitude };
        (i128::from(i64::MIN)..=i128::from(u64::MAX))
            .contains(&value)
            .then_some(value)
    }
}

/// The stored value of a number (§6.3), or why it has none.
fn number_value(text: &str) -> Result<Json, String> {
    let nearest: f64 = text.parse().expect("the grammar was checked");
    if nearest.is_infinite() {
        return Err(format!("{text:.40} is beyond the range of binary64"));
    }
    let decimal = Decimal::of(text);
    let number = match decimal.int64() {
        Some(0) if decimal.negative => Number::from_f64(-0.0),
        Some(v) if v < 0 => Some(Number::from(v as i64)),
        Some(v) => Some(Number::from(v as u64)),
        None => Number::from_f64(nearest),
    };
    Ok(Json::Number(number.expect("finite")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_and_path(text: &str) -> (JsonErrorKind, String) {
        let e = json_from_text(text).unwrap_err();
        (e.json_kind().expect("a JSON error"), e.path().to_string())
    }

    #[test]
    fn decimals() {
        let int = |t: &str| Decimal::of(t).int64();
        assert_eq!(int("0.5e1"), Some(5));
        assert_eq!(int("-0.0"), Some(0));
        assert_eq!(int("1.8446744073709551615e19"), Some(u64::MAX.into()));
        assert_eq!(int("-9223372036854775809"), None);
        assert_eq!(int("18446744073709551616"), None);
        assert_eq!(int("5.0000000000000000001"), None);
        assert_eq!(int("1e99999999999999999999999"), None);
    }

    #[test]
    fn errors_name_kind_and_path() {
        use JsonErrorKind::*;
        assert_eq!(kind_and_path("[1, 1e400]"), (InvalidNumber, "[1]".into()));
        assert_eq!(
            kind_and_path(r#"{"a": "\ud800"}"#),
            (InvalidUnicode, "a".into())
        );
        assert_eq!(
            kind_and_path(r#"{"a": 1, "a": 2}"#),
            (DuplicateKey, "a".into())
        );
        assert_eq!(kind_and_path("[1, 2,]"), (Syntax, "[2]".into()));
        assert_eq!(kind_and_path(r#"{"a": {"b": }}"#), (Syntax, "a.b".into()));
        assert_eq!(kind_and_path("\u{feff}[]"), (Syntax, "".into()));
        let deep = "[".repeat(100_000);
        assert_eq!(kind_and_path(&deep).0, TooDeep);
        let e = json_from_bytes(b"[\"\xc3\x28\"]").unwrap_err();
        assert_eq!(e.json_kind(), Some(InvalidUnicode));
    }
}
