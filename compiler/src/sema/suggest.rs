//! "Did you mean" suggestions by edit distance.

/// Levenshtein distance between two strings, scaled by 3 so that a difference in
/// case alone can cost a third of an edit (`vec3` is closer to `Vec3` than to `Vec4`).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
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
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = 3 * (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn suggestions() {
        assert_eq!(closest("Vec2", ["Vec3", "Team"]), Some("Vec3"));
        assert_eq!(closest("vec3", ["Vec3", "Vec4"]), Some("Vec3"));
        assert_eq!(closest("strng", ["string", "bytes"]), Some("string"));
        assert_eq!(closest("Foo", ["Player", "Team"]), None);
    }
}
