//! Number formatting and escaping shared by the Markdown, HTML and SVG writers.

/// A measurement for a table: whole numbers with thousands separators from 1,000 up,
/// otherwise three or more significant digits (`12,346`, `812.5`, `8.00`, `0.063`).
pub fn num(x: f64) -> String {
    let a = x.abs();
    if a >= 1_000.0 {
        thousands(x.round() as i64)
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 1.0 || a == 0.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// A ratio as `1.23x`.
pub fn ratio(r: f64) -> String {
    format!("{r:.2}x")
}

/// A short axis label: `950`, `1.5k`, `12M`, `3G`.
pub fn compact(x: f64) -> String {
    let a = x.abs();
    let (v, suffix) = if a >= 1e9 {
        (x / 1e9, "G")
    } else if a >= 1e6 {
        (x / 1e6, "M")
    } else if a >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let s = if v.abs() >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{suffix}")
}

/// Escapes text for HTML and SVG (element content and quoted attribute values).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Escapes text for a Markdown table cell or paragraph: HTML-significant characters, pipes,
/// emphasis markers and line breaks.
pub fn markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            '*' | '`' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// The smallest "nice" number (1, 2, 2.5 or 5 times a power of ten) at least `x`.
pub fn nice_ceil(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if m * p >= x * (1.0 - 1e-12) {
            return m * p;
        }
    }
    10.0 * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(num(12345.6), "12,346");
        assert_eq!(num(4761.9), "4,762");
        assert_eq!(num(812.54), "812.5");
        assert_eq!(num(8.0), "8.00");
        assert_eq!(num(0.0626), "0.063");
        assert_eq!(num(0.0), "0.00");
        assert_eq!(thousands(-1234567), "-1,234,567");
        assert_eq!(compact(1.5e6), "1.5M");
        assert_eq!(compact(950.0), "950");
        assert_eq!(compact(2.5e3), "2.5k");
        assert_eq!(nice_ceil(7.3), 10.0);
        assert_eq!(nice_ceil(230.0), 250.0);
        assert_eq!(nice_ceil(0.0), 1.0);
    }

    #[test]
    fn escaping() {
        assert_eq!(
            html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(markdown("a|b *c*"), "a\\|b \\*c\\*");
    }
}
