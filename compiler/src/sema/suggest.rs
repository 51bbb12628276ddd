//! "Did you mean" suggestions by edit distance.
//!
//! Edit distance costs the product of the two lengths, and a schema can hold many
//! unknown names and many candidates, or very long names. So candidates whose
//! length alone rules them out are skipped, and the work of one compilation has a
//! fixed [`Budget`]: once it is spent, unknown names get no suggestion (the error
//! is still reported). The outcome depends only on the input, so it is
//! deterministic.

use std::cell::Cell;

/// The edit-distance work (in compared character pairs) one compilation may
/// spend on suggestions: a few tenths of a second, far more than any real schema
/// with typos needs.
pub(crate) const BUDGET: u64 = 20_000_000;

/// What is left of the suggestion work of one compilation.
#[derive(Debug)]
pub(crate) struct Budget(Cell<u64>);

impl Budget {
    pub(crate) fn new(work: u64) -> Budget {
        Budget(Cell::new(work))
    }

    /// Takes `work` from the budget if there is that much left.
    fn take(&self, work: u64) -> bool {
        let left = self.0.get();
        if work > left {
            return false;
        }
        self.0.set(left - work);
        true
    }
}

/// Levenshtein distance between two strings, scaled by 3 so that a difference in
/// case alone can cost a third of an edit (`vec3` is closer to `Vec3` than to `Vec4`).
fn distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = if a[i - 1] == b[j - 1] {
                0
            } else if a[i - 1].eq_ignore_ascii_case(&b[j - 1]) {
                1
            } else {
                3
            };
            cur[j] = (prev[j] + 3).min(cur[j - 1] + 3).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo:
/// at most one edit for short names, about a third of the length for long ones.
/// Ties go to the alphabetically first candidate, so the result is deterministic.
/// Comparisons are paid from `budget`; one it cannot pay is skipped.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    budget: &Budget,
) -> Option<&'a str> {
    let name: Vec<char> = name.chars().collect();
    // Every comparison costs at least the name's length: once the budget cannot
    // pay that, looking at the candidates is wasted work.
    if budget.0.get() < name.len() as u64 {
        return None;
    }
    let limit = 3 * (name.len() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut chars = Vec::new();
    for c in candidates {
        // Each character of length difference is an edit (3).
        let length = c.len(); // bytes: at least the characters
        if 3 * name.len().saturating_sub(length) > limit {
            continue;
        }
        chars.clear();
        chars.extend(c.chars());
        if chars == name || 3 * chars.len().abs_diff(name.len()) > limit {
            continue;
        }
        if !budget.take((chars.len() as u64).saturating_mul(name.len() as u64)) {
            continue;
        }
        let d = distance(&name, &chars);
        if d <= limit && best.is_none_or(|b| (d, c) < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::{closest, Budget, BUDGET};

    #[test]
    fn suggestions() {
        let b = Budget::new(BUDGET);
        assert_eq!(closest("Vec2", ["Vec3", "Team"], &b), Some("Vec3"));
        assert_eq!(closest("vec3", ["Vec3", "Vec4"], &b), Some("Vec3"));
        assert_eq!(closest("strng", ["string", "bytes"], &b), Some("string"));
        assert_eq!(closest("Foo", ["Player", "Team"], &b), None);
    }

    #[test]
    fn work_is_bounded() {
        // 4 x 4 compared pairs are affordable once, not twice.
        let b = Budget::new(20);
        assert_eq!(closest("Vec2", ["Vec3"], &b), Some("Vec3"));
        assert_eq!(closest("Vec2", ["Vec3"], &b), None);
        // Long names of very different lengths are not compared at all.
        let long = "A".repeat(100_000);
        assert_eq!(closest(&long, ["B", "Vec3"], &Budget::new(0)), None);
    }
}
