//! Rust spellings of plan nodes (`Vec<Option<u16>>`, `Box<[u64; 600]>`), and type
//! aliases for nested ones: clippy's `type_complexity` rejects a field or local whose
//! type nests about six generic levels, so a spelling that nests [`ALIAS_DEPTH`] levels
//! or more is named (`pub type NestedListListListListU8 = ...;`), bottom-up, so that
//! every alias itself stays simple. Aliases are printed at the end of the file, in the
//! order they were first needed (Rust items may come in any order).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::{float_type, int_type, Gen};
use crate::plan::{Node, Op, ScalarKind};

/// Bracket nesting from which a spelling gets an alias.
const ALIAS_DEPTH: usize = 5;

/// The aliases handed out while printing a file.
#[derive(Debug, Default)]
pub(crate) struct Aliases {
    taken: HashSet<String>,
    by_target: HashMap<String, String>,
    /// (alias, target), in the order they were made.
    pub made: Vec<(String, String)>,
}

impl Aliases {
    /// Aliases for a file whose type names are `idents`.
    pub(crate) fn new(idents: impl IntoIterator<Item = String>) -> Aliases {
        Aliases {
            taken: idents.into_iter().collect(),
            ..Aliases::default()
        }
    }

    /// The alias of `target`, made on first use from the words that describe it.
    fn alias(&mut self, target: String, words: &[String]) -> String {
        if let Some(a) = self.by_target.get(&target) {
            return a.clone();
        }
        let name = crate::codegen::words::unique(alias_name(words), &mut self.taken, "");
        self.by_target.insert(target.clone(), name.clone());
        self.made.push((name.clone(), target));
        name
    }
}

impl Gen<'_> {
    /// The Rust type of a value. Arrays the plan holds out of line are boxed, so that
    /// no value of a generated type is large on the stack; deeply nested types go
    /// through an alias.
    pub fn rust_type(&self, node: &Node) -> String {
        self.spell(node).0
    }

    /// The spelling of `node` and the words that describe it, outermost first (for
    /// alias names).
    fn spell(&self, node: &Node) -> (String, Vec<String>) {
        let one = |w: &str| vec![w.to_string()];
        let wrap = |w: String, mut inner: Vec<String>| {
            inner.insert(0, w);
            inner
        };
        let (text, words) = match &node.op {
            Op::Scalar(s) => {
                let t = match s.kind {
                    ScalarKind::Bool => "bool".to_string(),
                    ScalarKind::UInt { repr }
                    | ScalarKind::SInt { repr }
                    | ScalarKind::Bounded { repr, .. } => int_type(repr).to_string(),
                    ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => {
                        float_type(repr).to_string()
                    }
                    ScalarKind::Enum { id, .. } => self.ident(id).to_string(),
                };
                let w = upper_first(&t);
                (t, one(&w))
            }
            Op::Varint(v) => (
                int_type(v.repr).to_string(),
                one(&upper_first(int_type(v.repr))),
            ),
            Op::Optional(inner) => {
                let (t, w) = self.spell(inner);
                (format!("Option<{t}>"), wrap("Opt".into(), w))
            }
            Op::Array(a) => {
                let (t, w) = self.spell(&a.elem);
                let inline = format!("[{t}; {}]", a.len);
                let w = wrap(format!("Arr{}x", a.len), w);
                match a.out_of_line {
                    true => (format!("Box<{inline}>"), w),
                    false => (inline, w),
                }
            }
            Op::List(l) => {
                let (t, w) = self.spell(&l.elem);
                (format!("Vec<{t}>"), wrap("List".into(), w))
            }
            Op::String(_) => ("String".to_string(), one("Text")),
            Op::Bytes(_) => ("Vec<u8>".to_string(), one("Bytes")),
            Op::Named(id) => (self.ident(*id).to_string(), one(self.ident(*id))),
        };
        if nesting(&text) < ALIAS_DEPTH {
            return (text, words);
        }
        // The words stay those of the whole type, so that outer aliases describe it too.
        let alias = self.aliases.borrow_mut().alias(text, &words);
        (alias, words)
    }
}

/// Prints the aliases made while printing the file.
pub(crate) fn print_aliases(aliases: &RefCell<Aliases>, p: &mut super::printer::Printer) {
    for (alias, target) in &aliases.borrow().made {
        p.blank();
        p.line("/// A nested type of the schema, named so that signatures stay readable.");
        p.line(format!("pub type {alias} = {target};"));
    }
}

/// The deepest bracket nesting of a spelling (`Vec<Option<u8>>` is 2).
fn nesting(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for c in text.chars() {
        match c {
            '<' | '[' => {
                depth += 1;
                max = max.max(depth);
            }
            '>' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// `Nested` and the words run-length compressed (`List List List U8` → `NestedList3U8`),
/// at most 64 characters.
fn alias_name(words: &[String]) -> String {
    let mut name = String::from("Nested");
    let mut i = 0;
    while i < words.len() {
        let run = words[i..].iter().take_while(|w| **w == words[i]).count();
        name.push_str(&words[i]);
        if run > 1 {
            name.push_str(&run.to_string());
        }
        i += run;
    }
    name.truncate(64);
    name
}

/// `u8` → `U8`.
fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
