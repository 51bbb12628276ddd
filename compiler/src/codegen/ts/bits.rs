//! 64-bit runs in 32-bit JavaScript: the codec plan packs consecutive fixed-width
//! scalars into words of up to 64 bits, but JavaScript's bitwise operators work on 32
//! bits. This module splits a run at compile time into its low and high 32-bit halves:
//! which bits of which field land in which half, with which constant shift and mask.
//! The emitters print these expressions; no shift amount is computed at run time.

/// How the unsigned stored value of a field (its raw bits) is held in JavaScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raw {
    /// Up to 32 bits: a `number` that bitwise operators take as is.
    N32,
    /// 33 to 53 bits: a `number`, exact, handled as two halves with arithmetic.
    N53,
    /// 54 to 64 bits: a `bigint`.
    Big,
}

impl Raw {
    /// The representation of a `bits`-wide raw value.
    pub fn of(bits: u32) -> Raw {
        match bits {
            0..=32 => Raw::N32,
            33..=53 => Raw::N53,
            _ => Raw::Big,
        }
    }
}

/// `2^bits - 1` as a decimal literal (`bits` ≤ 32).
pub fn mask(bits: u32) -> String {
    ((1u64 << bits) - 1).to_string()
}

/// Wraps `e` in parentheses unless it is a single term.
pub fn paren(e: &str) -> String {
    if is_simple(e) {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// `e` without brackets around the whole of it (`(a << 2)` → `a << 2`).
pub fn unparen(e: &str) -> String {
    let b = e.as_bytes();
    if b.first() != Some(&b'(') || b.last() != Some(&b')') {
        return e.to_string();
    }
    // The first bracket must close at the very end.
    let mut depth = 0;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 && i + 1 < b.len() {
                    return e.to_string();
                }
            }
            _ => {}
        }
    }
    e[1..e.len() - 1].to_string()
}

/// Whether `e` has no operator outside brackets (a name, call or member access).
pub fn is_simple(e: &str) -> bool {
    let mut depth = 0i32;
    for ch in e.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ' ' if depth == 0 => return false,
            _ => {}
        }
    }
    !e.starts_with('-')
}

/// Bits `o..o+w` of one 32-bit half `h` (`o + w` ≤ 32, `w` ≥ 1), as a non-negative number.
fn in_half(h: &str, o: u32, w: u32) -> String {
    match (o, o + w) {
        (0, 32) => format!("{h} >>> 0"),
        (_, 32) => format!("{h} >>> {o}"),
        (0, _) => format!("{h} & {}", mask(w)),
        _ => format!("({h} >>> {o}) & {}", mask(w)),
    }
}

/// The unsigned bits `o..o+w` (`w` in 1..=32) of a run held in halves `lo`, `hi`.
pub fn extract32(lo: &str, hi: &str, o: u32, w: u32) -> String {
    debug_assert!((1..=32).contains(&w) && o + w <= 64);
    if o + w <= 32 {
        in_half(lo, o, w)
    } else if o >= 32 {
        in_half(hi, o - 32, w)
    } else {
        let joined = format!("({lo} >>> {o}) | ({hi} << {})", 32 - o);
        if w == 32 {
            format!("({joined}) >>> 0")
        } else {
            format!("({joined}) & {}", mask(w))
        }
    }
}

/// The unsigned bits `o..o+w` (any `w` ≤ 64) and their representation.
pub fn extract(lo: &str, hi: &str, o: u32, w: u32) -> (String, Raw) {
    match Raw::of(w) {
        Raw::N32 if w == 0 => ("0".into(), Raw::N32),
        Raw::N32 => (extract32(lo, hi, o, w), Raw::N32),
        Raw::N53 => {
            let low = extract32(lo, hi, o, 32);
            let high = extract32(lo, hi, o + 32, w - 32);
            (
                format!("{} + {} * 4294967296", paren(&low), paren(&high)),
                Raw::N53,
            )
        }
        Raw::Big => {
            let low = extract32(lo, hi, o, 32);
            let high = extract32(lo, hi, o + 32, w - 32);
            (format!("BigInt({low}) | (BigInt({high}) << 32n)"), Raw::Big)
        }
    }
}

/// The two's-complement value of bits `o..o+w` (`w` in 1..=32), sign-extended.
pub fn extract_signed32(lo: &str, hi: &str, o: u32, w: u32) -> String {
    let in_one = |h: &str, o: u32| {
        let left = 32 - o - w;
        match (left, 32 - w) {
            (0, 0) => format!("{h} | 0"),
            (0, right) => format!("{h} >> {right}"),
            (left, right) => format!("({h} << {left}) >> {right}"),
        }
    };
    if o + w <= 32 {
        in_one(lo, o)
    } else if o >= 32 {
        in_one(hi, o - 32)
    } else {
        let joined = format!("({lo} >>> {o}) | ({hi} << {})", 32 - o);
        if w == 32 {
            joined
        } else {
            format!("(({joined}) << {}) >> {}", 32 - w, 32 - w)
        }
    }
}

/// Part of a field's raw bits that fits a 32-bit operand, placed in a run.
#[derive(Debug, Clone)]
pub struct Piece {
    /// The bits, as an expression of a number whose low `bits` bits are the piece.
    pub expr: String,
    /// Width of the piece (1..=32).
    pub bits: u32,
    /// Bit offset of the piece in the run.
    pub offset: u32,
    /// Whether the expression has no bits set above `bits` (else it is masked where
    /// the extra bits would land on another field: signed values).
    pub clean: bool,
}

/// The operands of the run's low and high 32-bit words (empty when no piece lands there).
pub fn words(pieces: &[Piece]) -> (Vec<String>, Vec<String>) {
    let mut lo = Vec::new();
    let mut hi = Vec::new();
    let masked = |p: &Piece, top: u32| {
        if p.clean || top == 32 {
            p.expr.clone()
        } else {
            format!("{} & {}", paren(&p.expr), mask(p.bits))
        }
    };
    let shifted = |e: String, by: u32| {
        if by == 0 {
            e
        } else {
            format!("{} << {by}", paren(&e))
        }
    };
    for p in pieces {
        let (o, end) = (p.offset, p.offset + p.bits);
        if end <= 32 {
            lo.push(paren(&shifted(masked(p, end), o)));
        } else if o >= 32 {
            hi.push(paren(&shifted(masked(p, end - 32), o - 32)));
        } else {
            // Straddles the halves: `<<` drops the bits that go to the high word.
            lo.push(paren(&shifted(p.expr.clone(), o)));
            let rest = format!("{} >>> {}", paren(&p.expr), 32 - o);
            let rest = if p.clean {
                rest
            } else {
                format!("({rest}) & {}", mask(end - 32))
            };
            hi.push(paren(&rest));
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extraction_of_packet64_fields() {
        assert_eq!(extract32("lo", "hi", 0, 1), "lo & 1");
        assert_eq!(extract32("lo", "hi", 7, 9), "(lo >>> 7) & 511");
        assert_eq!(extract32("lo", "hi", 48, 16), "hi >>> 16");
        assert_eq!(extract32("lo", "hi", 0, 32), "lo >>> 0");
        assert_eq!(
            extract32("lo", "hi", 28, 12),
            "((lo >>> 28) | (hi << 4)) & 4095"
        );
        assert_eq!(extract_signed32("lo", "hi", 16, 12), "(lo << 4) >> 20");
        assert_eq!(extract_signed32("lo", "hi", 20, 12), "lo >> 20");
        assert_eq!(
            extract_signed32("lo", "hi", 28, 12),
            "(((lo >>> 28) | (hi << 4)) << 20) >> 20"
        );
        let (e, raw) = extract("lo", "hi", 3, 40);
        assert_eq!(raw, Raw::N53);
        assert_eq!(
            e,
            "(((lo >>> 3) | (hi << 29)) >>> 0) + ((hi >>> 3) & 255) * 4294967296"
        );
    }

    #[test]
    fn words_place_pieces_in_halves() {
        let piece = |expr: &str, bits, offset, clean| Piece {
            expr: expr.into(),
            bits,
            offset,
            clean,
        };
        let (lo, hi) = words(&[
            piece("a", 1, 0, true),
            piece("b", 12, 16, false),
            piece("c", 12, 28, false),
            piece("d", 16, 48, true),
        ]);
        assert_eq!(lo, ["a", "((b & 4095) << 16)", "(c << 28)"]);
        assert_eq!(hi, ["((c >>> 4) & 255)", "(d << 16)"]);
    }
}
