//! `bitwire fmt` never changes what a schema means: for every `.bw` file in the
//! repository and for seeded random mutations of them (whitespace, comments, doc
//! comments, deleted and repeated tokens), the formatted text compiles to the same
//! IR (up to line numbers and spans) — or, if the original does not compile, to
//! the same diagnostic codes — and formatting it again changes nothing.

use std::io;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::random::Rng;
use bitwire_compiler::diag::FileId;
use bitwire_compiler::fmt::format_source;
use bitwire_compiler::sema::{self, FsLoader, SourceLoader};
use bitwire_compiler::syntax::lex;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.bw` file under the repository's schema directories, sorted.
fn repository_schemas() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "bw") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for dir in ["testdata", "examples", "bench/schemas"] {
        walk(&root().join(dir), &mut out);
    }
    out.sort();
    out
}

/// The file system, except that one file has other text (so imports still work).
struct Overlay {
    fs: FsLoader,
    name: String,
    text: String,
}

impl SourceLoader for Overlay {
    fn load(&self, name: &str) -> io::Result<String> {
        if name == self.name {
            Ok(self.text.clone())
        } else {
            self.fs.load(name)
        }
    }
}

/// What a schema means: its IR as JSON without line numbers (spans are not in
/// the JSON), or the codes of its diagnostics.
fn meaning(path: &Path, text: &str) -> Result<serde_json::Value, Vec<String>> {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let loader = Overlay {
        fs: FsLoader::new(path.parent().unwrap()),
        name: name.clone(),
        text: text.to_string(),
    };
    let (schema, diags) = sema::compile(&name, &loader);
    match schema {
        Some(schema) if !diags.has_errors() => Ok(bitwire_compiler::fmt::meaning(&schema)),
        _ => Err(diags.codes().iter().map(|c| c.to_string()).collect()),
    }
}

/// Checks the properties for one text; returns whether it was formatted.
fn check(path: &Path, text: &str) -> bool {
    let Ok(once) = format_source("t.bw", text) else {
        return false;
    };
    let twice = format_source("t.bw", &once).expect("formatted text formats");
    assert_eq!(
        once,
        twice,
        "{}: not idempotent for\n{text}",
        path.display()
    );
    assert_eq!(
        meaning(path, text),
        meaning(path, &once),
        "{}: formatting changed the meaning of\n{text}\n--- formatted:\n{once}",
        path.display()
    );
    true
}

#[test]
fn formatting_keeps_the_meaning_of_every_repository_schema() {
    let schemas = repository_schemas();
    assert!(schemas.len() > 60, "only {} schemas found", schemas.len());
    let formatted = schemas
        .iter()
        .filter(|p| check(p, &std::fs::read_to_string(p).unwrap()))
        .count();
    assert!(
        formatted > 50,
        "only {formatted} schemas could be formatted"
    );
}

/// Text pieces a mutation may put between two tokens.
const GAPS: &[&str] = &[
    "",
    " ",
    "\n",
    "\n\n",
    "\t",
    "  // note\n",
    "// own line\n",
    "/// doc   \n",
    "\r\n",
    "//// four\n",
    " /// trailing doc\n",
];

/// A mutation of `text`: at random token boundaries, the gap is replaced by a
/// random piece, or a token is dropped or repeated.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let (tokens, _) = lex(FileId(0), text);
    let mut out = String::new();
    let mut at = 0;
    for token in &tokens {
        let (start, end) = (token.span.start as usize, token.span.end as usize);
        let gap = &text[at..start];
        match rng.below(16) {
            0 => out.push_str(GAPS[rng.below(GAPS.len() as u64) as usize]),
            _ => out.push_str(gap),
        }
        match rng.below(400) {
            0 => {}
            1 => {
                out.push_str(&text[start..end]);
                out.push(' ');
                out.push_str(&text[start..end]);
            }
            _ => out.push_str(&text[start..end]),
        }
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

#[test]
fn formatting_keeps_the_meaning_of_mutated_schemas() {
    let seed = std::env::var("BITWIRE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(42u64);
    let mut rng = Rng(seed.max(1));
    let mut formatted = 0;
    let mut total = 0;
    for path in repository_schemas() {
        let text = std::fs::read_to_string(&path).unwrap();
        for _ in 0..24 {
            let mutant = mutate(&text, &mut rng);
            total += 1;
            if check(&path, &mutant) {
                formatted += 1;
            }
        }
    }
    // Many mutants have a syntax error (a dropped token, a misplaced doc comment)
    // and are refused; enough of them are formatted.
    eprintln!("{formatted} of {total} mutants formatted");
    assert!(
        formatted * 3 > total,
        "{formatted} of {total} mutants formatted"
    );
}
