//! Identifier helpers every backend's naming table uses: splitting schema names into
//! words, and making names unique. The per-language tables (`rust/naming.rs`,
//! `go/naming.rs`, `ts/naming.rs`) decide casing and keywords.

use std::collections::HashSet;

/// `name`, or `name` plus `sep` and the first free number from 2. With no `sep`, an
/// escaping `_` at the end of `name` goes before the number is added (`String_`,
/// then `String2`: `String_2` is not UpperCamelCase).
pub fn unique(name: String, taken: &mut HashSet<String>, sep: &str) -> String {
    let mut candidate = name.clone();
    let stem = if sep.is_empty() {
        name.trim_end_matches('_')
    } else {
        &name
    };
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{stem}{sep}{n}");
        n += 1;
    }
    candidate
}

/// Splits an identifier into words at `_` and at lower→upper and acronym boundaries
/// (`posX` → pos, X; `HTTPServer` → HTTP, Server). Digits stay with their word.
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        if ch == '_' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if ch.is_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(ch);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Fresh local names in one generated function: `base`, else `base2`, `base3`, …,
/// skipping names taken. Remembers where each base's numbering stopped, so that
/// asking for the same base again is not a scan from 2 (a struct of thousands of runs
/// asks for `lo` thousands of times).
#[derive(Debug, Default, Clone)]
pub struct Fresh {
    taken: HashSet<String>,
    next: std::collections::HashMap<String, u64>,
}

impl Fresh {
    /// A scope in which `names` are already taken.
    pub fn with(names: &[&str]) -> Fresh {
        let mut f = Fresh::default();
        for n in names {
            f.reserve(n);
        }
        f
    }

    /// A name not taken yet, from `base`; it is taken from now on.
    pub fn fresh(&mut self, base: &str) -> String {
        let n = self.next.entry(base.to_string()).or_insert(1);
        let mut candidate = if *n == 1 {
            base.to_string()
        } else {
            format!("{base}{n}")
        };
        while !self.taken.insert(candidate.clone()) {
            *n += 1;
            candidate = format!("{base}{}", *n);
        }
        *n += 1;
        candidate
    }

    /// Marks `name` as taken (a parameter, a field local).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_skip_taken_ones_and_keep_counting() {
        let mut f = Fresh::with(&["lo2"]);
        assert_eq!(f.fresh("lo"), "lo");
        assert_eq!(f.fresh("lo"), "lo3");
        assert_eq!(f.fresh("lo"), "lo4");
        f.reserve("hi");
        assert_eq!(f.fresh("hi"), "hi2");
        let many: Vec<String> = (0..10_000).map(|_| f.fresh("x")).collect();
        assert_eq!(many.last().map(String::as_str), Some("x10000"));
    }
}
