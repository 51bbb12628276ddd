//! Identifier helpers every backend's naming table uses: splitting schema names into
//! words, and making names unique. The per-language tables (`rust/naming.rs`,
//! `go/naming.rs`, `ts/naming.rs`) decide casing and keywords.

use std::collections::HashSet;

/// `name`, or `name` plus `sep` and the first free number from 2.
pub fn unique(name: String, taken: &mut HashSet<String>, sep: &str) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{name}{sep}{n}");
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
