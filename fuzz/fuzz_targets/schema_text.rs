//! Feeds arbitrary bytes to the compiler as schema text: schemas are untrusted
//! input. Properties: nothing panics, overflows its stack or hangs — lexing,
//! parsing, checking, rendering diagnostics, `bitwire fmt`, the IR and its JSON
//! dump, fingerprints, and the Rust, Go and TypeScript generators (with the bincode
//! encoding, whose plan they print, and TypeScript's typed arrays); and `bitwire fmt`
//! keeps its promises: formatting a formatted text changes nothing, and it
//! compiles to the same IR (up to line numbers and spans, which the JSON leaves
//! out) or to the same diagnostic codes.
#![no_main]

use bitwire_compiler::codegen::{generate_go, generate_rust, generate_ts};
use bitwire_compiler::codegen::{GoOptions, RustOptions, TsOptions};
use bitwire_compiler::{compile_source, fingerprint, fmt, Diagnostics};
use libfuzzer_sys::fuzz_target;

const NAME: &str = "fuzz.bw";

/// The IR as JSON without line numbers, or the diagnostic codes.
fn meaning(result: &Result<bitwire_compiler::ir::Schema, Diagnostics>) -> Result<String, String> {
    match result {
        Ok(schema) => Ok(fmt::meaning(schema).to_string()),
        Err(diags) => Err(format!("{:?}", diags.codes())),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let compiled = compile_source(NAME, &text);
    match &compiled {
        Err(diags) => assert!(!diags.render().is_empty()),
        Ok(schema) => {
            fingerprint::fingerprints(schema);
            // The bincode encoding (and TypeScript's typed arrays) on: every backend's
            // bincode printer sees every schema the fuzzer finds.
            let rust = RustOptions {
                json: true,
                bincode: true,
                source_name: NAME.into(),
                module_file: true,
            };
            generate_rust(schema, &rust);
            let go = GoOptions {
                json: true,
                bincode: true,
                source_name: NAME.into(),
                package: "fuzz".into(),
            };
            generate_go(schema, &go);
            let ts = TsOptions {
                json: true,
                bincode: true,
                typed_arrays: true,
                source_name: NAME.into(),
                ..TsOptions::default()
            };
            generate_ts(schema, &ts);
        }
    }
    if let Ok(formatted) = fmt::format_source(NAME, &text) {
        let again = fmt::format_source(NAME, &formatted).expect("formatted text formats");
        assert_eq!(again, formatted, "formatting is not idempotent");
        let after = compile_source(NAME, &formatted);
        assert_eq!(meaning(&compiled), meaning(&after), "formatting changed the meaning");
    }
});
