//! Schema text is untrusted input: the front end never overflows its stack, loops
//! or blows up on it. Each case runs on a thread with a 256 KiB stack, so a pass
//! that recursed once per nesting level or per named type of these 10,000-deep
//! inputs would abort the test. Passes may recurse over one type expression, whose
//! depth the parser and the layout pass bound (64, spec §11).

use bitwire_compiler::codec::{self, random::Rng};
use bitwire_compiler::diag::Code;
use bitwire_compiler::ir::{Schema, Type};
use bitwire_compiler::{compat, compile_source, compile_with_loader, fingerprint, fmt, MemLoader};

const STACK: usize = 256 * 1024;
/// For the deepest types the compiler accepts, walked by every pass: 64 levels of
/// the reference codec's unoptimized frames take about 300 KiB in a debug build
/// (under 64 KiB optimized).
const DEEP_STACK: usize = if cfg!(debug_assertions) {
    1024 * 1024
} else {
    STACK
};
const N: usize = 10_000;

/// Runs `f` on a thread with a small stack and returns its result.
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    on_stack(STACK, f)
}

fn on_stack<T: Send + 'static>(size: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(size)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic, no stack overflow")
}

/// Compiles `src`, expecting errors with exactly `codes` (each once at least),
/// renders them and formats the text (when it parses).
fn rejected(src: String, code: Code) {
    small_stack(move || {
        let err = compile_source("t.bw", &src).expect_err("rejected");
        assert!(err.codes().contains(&code), "{:?}", err.codes());
        assert!(err.render().contains(code.as_str()));
        if let Ok(formatted) = fmt::format_source("t.bw", &src) {
            assert_eq!(fmt::format_source("t.bw", &formatted).unwrap(), formatted);
        }
    });
}

fn nested(open: &str, leaf: &str, close: &str, n: usize) -> String {
    format!(
        "struct S {{ a: {}{leaf}{} }}\n",
        open.repeat(n),
        close.repeat(n)
    )
}

#[test]
fn deep_type_expressions_stop_at_the_parser() {
    rejected(nested("list<", "u8", ">", N), Code::TypeNestingTooDeep);
    rejected(nested("optional<", "u8", ">", N), Code::TypeNestingTooDeep);
    rejected(nested("[", "u8", "; 1]", N), Code::TypeNestingTooDeep);
    rejected(
        nested("list<", "u8", ">", 100 * N),
        Code::TypeNestingTooDeep,
    );
    // A payload is one more place a type expression starts.
    let union = format!("union U {{ A({}u8{}) }}", "list<".repeat(N), ">".repeat(N));
    rejected(union, Code::TypeNestingTooDeep);
}

#[test]
fn long_chains_of_named_types() {
    let chain: String = (0..N)
        .map(|i| format!("struct A{i} {{ a: A{} }}\n", i + 1))
        .chain([format!("struct A{N} {{ x: u8 }}\n")])
        .collect();
    rejected(chain, Code::TypeTooDeep);
    let cycle: String = (0..N)
        .map(|i| format!("struct A{i} {{ a: optional<A{}> }}\n", (i + 1) % N))
        .collect();
    rejected(cycle, Code::RecursiveType);
    let unions: String = (0..N)
        .map(|i| format!("union U{i} {{ A(list<U{}>), B }}\n", i + 1))
        .chain([format!("union U{N} {{ A }}\n")])
        .collect();
    rejected(unions, Code::TypeTooDeep);
}

#[test]
fn long_chains_of_constants() {
    let chain: String = (0..N)
        .map(|i| format!("const C{i}: u32 = C{};\n", i + 1))
        .chain([format!(
            "const C{N}: u32 = 7;\nstruct S {{ a: [u8; C0] }}\n"
        )])
        .collect();
    let schema = small_stack(move || compile_source("t.bw", &chain).expect("compiles"));
    assert_eq!(schema.constants.len(), N + 1);
    let cycle: String = (0..N)
        .map(|i| format!("const C{i}: i32 = -C{};\n", (i + 1) % N))
        .collect();
    rejected(cycle, Code::ConstCycle);
}

#[test]
fn long_chains_of_imports() {
    let schema = small_stack(|| {
        let mut loader = MemLoader::new();
        for i in 0..N {
            let import = if i + 1 < N {
                format!("import \"f{}.bw\";\n", i + 1)
            } else {
                String::new()
            };
            loader.insert(
                &format!("f{i}.bw"),
                &format!("{import}struct S{i} {{ a: u8 }}"),
            );
        }
        compile_with_loader("f0.bw", &loader).expect("compiles")
    });
    assert_eq!(schema.types.len(), N);
    assert_eq!(schema.types[0].name, format!("S{}", N - 1));
}

/// The deepest schema the compiler accepts goes through every pass that walks
/// types: fingerprints, compat, the JSON dump, the reference codec.
#[test]
fn the_deepest_accepted_types_pass_every_pass() {
    // A chain of 31 structs, each two levels deeper than the next: 64 levels.
    let src: String = (0..30)
        .map(|i| format!("struct D{i} {{ a: list<D{}, max 2> }}\n", i + 1))
        .chain(["struct D30 { a: list<list<u8, max 2>, max 2> }\n".to_string()])
        .chain([format!(
            "message M = 1 {{ a: {}u8{} }}\n",
            "optional<list<".repeat(31),
            ", max 2>>".repeat(31)
        )])
        .collect();
    on_stack(DEEP_STACK, move || {
        let schema: Schema = compile_source("t.bw", &src).unwrap_or_else(|d| panic!("{d}"));
        assert_eq!(schema.types[0].memory.depth, 64);
        let m = schema.type_by_name("M").unwrap();
        assert_eq!(schema.types[m].memory.depth, 64);
        fingerprint::fingerprints(&schema);
        serde_json::to_string(&schema).unwrap();
        let loader = MemLoader::new().with("t.bw", &src);
        let report = compat::compare_with_loaders("t.bw", &loader, "t.bw", &loader).unwrap();
        assert!(report.changes.is_empty());
        let mut rng = Rng(7);
        for id in [0, m] {
            for _ in 0..20 {
                let value = codec::random::random_value(&mut rng, &schema, &named(id));
                let bytes = codec::encode(&schema, id, &value).unwrap();
                assert_eq!(codec::decode(&schema, id, &bytes).unwrap(), value);
            }
        }
        let formatted = fmt::format_source("t.bw", &src).unwrap();
        assert_eq!(fmt::format_source("t.bw", &formatted).unwrap(), formatted);
    });
}

fn named(id: usize) -> Type {
    Type::Named {
        id,
        name: String::new(),
    }
}

#[test]
fn long_identifiers() {
    let long = |c: &str| c.repeat(100_000);
    let (a, b, c) = (long("A"), long("b"), long("C"));
    let ok = format!("struct {a} {{ {b}: u8 }}\nstruct {c} {{ x: {a} }}\n");
    let schema = small_stack(move || compile_source("t.bw", &ok).expect("compiles"));
    assert_eq!(schema.types[1].name.len(), 100_000);
    // Unknown names are compared with the declared ones for suggestions.
    let unknown = format!("struct {a} {{ {b}: {c} }}\nstruct {c}x {{ y: {a}y }}\n");
    rejected(unknown, Code::UnknownType);
}

/// Imports read only regular files of at most 16 MiB: a pipe (which would block),
/// a device (which would never end), a directory or a huge file is an `E0206`.
#[cfg(unix)]
#[test]
fn imports_read_only_bounded_regular_files() {
    use bitwire_compiler::{compile_file, sema::MAX_SOURCE_BYTES};
    let dir = std::env::temp_dir().join(format!("bitwire-robust-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("dir.bw")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("fifo.bw"))
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.bw")).unwrap();
    let big = std::fs::File::create(dir.join("big.bw")).unwrap();
    big.set_len(MAX_SOURCE_BYTES + 1).unwrap();
    std::fs::write(dir.join("latin1.bw"), b"struct \xe9 {}").unwrap();
    let mut main = String::from("import \"dir.bw\";\nimport \"zero.bw\";\nimport \"big.bw\";\n");
    main.push_str("import \"latin1.bw\";\n");
    if fifo {
        main.push_str("import \"fifo.bw\";\n");
    }
    main.push_str("struct S { a: u8 }\n");
    std::fs::write(dir.join("main.bw"), main).unwrap();
    let root = dir.join("main.bw");
    let err = small_stack(move || compile_file(&root).unwrap_err());
    let expected = if fifo { 5 } else { 4 };
    assert_eq!(err.codes(), vec![Code::ImportNotFound; expected], "{err}");
    let text = err.render();
    for reason in [
        "is a directory",
        "not a regular file",
        "larger than 16 MiB",
        "not UTF-8",
    ] {
        assert!(text.contains(reason), "{reason}: {text}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A UTF-8 byte-order mark at the start of a file is skipped; positions after it
/// are counted without it.
#[test]
fn byte_order_marks_are_skipped() {
    let schema = compile_source("t.bw", "\u{FEFF}struct S { a: u8 }").expect("compiles");
    assert_eq!(schema.types[0].name, "S");
    let err = compile_source("t.bw", "\u{FEFF}struct S { a: u0 }").unwrap_err();
    assert!(err.render().contains("t.bw:1:15"), "{err}");
    assert_eq!(
        fmt::format_source("t.bw", "\u{FEFF}struct S{a:u8}").unwrap(),
        "struct S {\n    a: u8,\n}\n"
    );
}
