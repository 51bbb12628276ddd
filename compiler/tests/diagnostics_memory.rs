//! Memory for diagnostics is linear in the input: a one-megabyte schema on a
//! single line, full of errors, compiles and renders within a fixed multiple of
//! its size (it used to take gigabytes: every diagnostic printed the whole line).
//! A counting global allocator measures the peak of live heap bytes.

use bitwire_compiler::compile_source;
use bitwire_count_alloc::{peak_during, Counting};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak heap bytes (above what was live before) to compile and render `src`,
/// and the number of errors.
fn peak_to_render(src: &str) -> (usize, usize) {
    let (errors, peak) = peak_during(|| {
        let diags = compile_source("big.bw", src).expect_err("full of errors");
        let rendered = diags.render();
        assert!(rendered.len() < 200 * src.len());
        diags.error_count()
    });
    (peak, errors)
}

const MB: usize = 1 << 20;

/// One line of about 1 MB: `unit` repeated, inside a struct body.
fn line(unit: impl Fn(usize) -> String) -> String {
    let mut s = String::from("struct S { ");
    let mut i = 0;
    while s.len() < MB {
        s.push_str(&unit(i));
        i += 1;
    }
    s.push_str("}\n");
    s
}

// One test, so the peaks are not mixed up by tests running in parallel.
#[test]
fn diagnostics_of_a_megabyte_line_take_linear_memory() {
    let cases = [
        // A semantic error every 10 bytes: each is reported.
        ("fields", line(|i| format!("a{i}: u0, "))),
        // An unknown type in every field: reported, suggestions within budget.
        ("unknown", line(|i| format!("b{i}: Nope{i}, "))),
        // A lexing error every other byte, and a syntax error at every byte: the
        // lexer and the parser stop after 1,000 (E0109).
        ("chars", format!("{}\n", "# ".repeat(MB / 2))),
        ("commas", line(|_| ",".to_string())),
    ];
    for (name, src) in cases {
        let (peak, errors) = peak_to_render(&src);
        eprintln!(
            "{name}: {} bytes, {errors} errors, peak {peak} bytes",
            src.len()
        );
        assert!(errors >= 1000, "{name}: {errors} errors");
        assert!(
            peak < 128 * src.len(),
            "{name}: peak {peak} bytes for {} bytes of input",
            src.len()
        );
    }
}
