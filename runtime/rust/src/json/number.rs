//! What a JSON number denotes (`docs/json-mapping.md` §6.3): its exact value when
//! that is an integer, however it is written (`5`, `5.0`, `0.5e1`), else only that it
//! is not one. The parser stores exact integers of the 64-bit range exactly and
//! everything else as the nearest `f64`; integer types read the stored form.

/// The exact value of a syntactically valid JSON number, as far as integer types
/// care about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exact {
    /// An integer in `-2^63 ..= 2^64 - 1` (negative zero excluded).
    Int(i128),
    /// Zero written with a minus sign (`-0`, `-0.0`, `-0e5`): 0 for an integer type,
    /// negative zero for a float type.
    NegZero,
    /// An integer outside the 64-bit range.
    Big,
    /// Not an integer.
    Fraction,
}

/// Exponents beyond this magnitude decide the class on their own (the text of a
/// number cannot hold this many digits), so parsing them saturates here.
const EXP_CAP: i64 = 1 << 40;

/// Classifies `text`, a number that matches the RFC 8259 grammar. Linear in the
/// text's length; allocates nothing.
pub(crate) fn classify(text: &str) -> Exact {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], exponent_value(&unsigned[i + 1..])),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The digits of int and frac as one sequence, the value being
    // digits × 10^(exponent − frac.len()).
    let digit = |i: usize| -> u8 {
        if i < int.len() {
            int.as_bytes()[i] - b'0'
        } else {
            frac.as_bytes()[i - int.len()] - b'0'
        }
    };
    let len = int.len() + frac.len();
    let Some(first) = (0..len).find(|&i| digit(i) != 0) else {
        return if negative {
            Exact::NegZero
        } else {
            Exact::Int(0)
        };
    };
    let last = (first..len).rev().find(|&i| digit(i) != 0).unwrap_or(first);
    let trailing_zeros = (len - 1 - last) as i64;
    let scale = exponent - frac.len() as i64 + trailing_zeros;
    if scale < 0 {
        return Exact::Fraction;
    }
    let significant = (last - first + 1) as i64;
    // More than 20 decimal digits is at least 10^20 > 2^64.
    if significant + scale > 20 {
        return Exact::Big;
    }
    let mut magnitude: u128 = 0;
    for i in first..=last {
        magnitude = magnitude * 10 + u128::from(digit(i));
    }
    magnitude *= 10u128.pow(scale as u32);
    let limit = if negative {
        1u128 << 63
    } else {
        u128::from(u64::MAX)
    };
    if magnitude > limit {
        return Exact::Big;
    }
    let value = magnitude as i128;
    Exact::Int(if negative { -value } else { value })
}

/// The exponent after `e`: `[+-]?[0-9]+`, saturating at ±[`EXP_CAP`].
fn exponent_value(text: &str) -> i64 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut v: i64 = 0;
    for b in digits.bytes() {
        v = (v * 10 + i64::from(b - b'0')).min(EXP_CAP);
    }
    if negative {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_any_notation() {
        for (text, v) in [
            ("0", 0),
            ("5", 5),
            ("5.0", 5),
            ("5e0", 5),
            ("0.5e1", 5),
            ("500e-2", 5),
            ("1E+3", 1000),
            ("18446744073709551615", i128::from(u64::MAX)),
            ("1.8446744073709551615e19", i128::from(u64::MAX)),
            ("-9223372036854775808", i128::from(i64::MIN)),
            ("-9223372036854775808.000", i128::from(i64::MIN)),
            ("0e99999999999999999999", 0),
        ] {
            assert_eq!(classify(text), Exact::Int(v), "{text}");
        }
    }

    #[test]
    fn other_classes() {
        for text in ["-0", "-0.0", "-0e5", "-0.000e-7"] {
            assert_eq!(classify(text), Exact::NegZero, "{text}");
        }
        for text in [
            "18446744073709551616",
            "-9223372036854775809",
            "1e20",
            "123123e100000",
            "1e99999999999999999999",
        ] {
            assert_eq!(classify(text), Exact::Big, "{text}");
        }
        for text in [
            "0.5",
            "5.0000000000000000001",
            "1e-1",
            "123e-10000000",
            "18446744073709551615.5",
        ] {
            assert_eq!(classify(text), Exact::Fraction, "{text}");
        }
    }
}
