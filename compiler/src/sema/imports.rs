//! Loading the root file and everything it imports, depth-first in import order.
//! Each file is loaded and parsed once; the resulting list is in post-order
//! (a file's imports before the file), which is the order of declarations in the IR.
//! The depth-first walk keeps its own stack of open files instead of recursing, so
//! a chain of thousands of imports cannot exhaust the thread's stack.

use std::collections::HashMap;

use super::loader::{dir_of, join, relative_to, SourceLoader};
use crate::diag::{Code, Diagnostic, SourceMap, Span};
use crate::syntax::{self, ast};

/// One loaded and parsed file.
#[derive(Debug)]
pub(crate) struct Unit {
    /// Normalized name (as shown in diagnostics).
    pub name: String,
    /// Name relative to the root file's directory (for `ir::Origin`).
    pub origin: String,
    pub ast: ast::File,
    /// Indices into the unit list of the files this one imports directly.
    pub imports: Vec<usize>,
}

/// A file being loaded: its name and syntax tree, the import in it that is being
/// followed, and how far its imports have been followed.
struct Frame {
    name: String,
    tree: ast::File,
    following: Option<Span>,
    /// Index of the next item to look at for imports.
    next_item: usize,
    /// Unit indices of the files it imports, so far.
    imports: Vec<usize>,
}

/// What [`Loader::open`] did with a file.
enum Opened {
    /// Loaded before: its unit index.
    Done(usize),
    /// Read and parsed; its frame is on the stack.
    Started,
    /// Not loaded (unreadable, or an import cycle); reported.
    Failed,
}

struct Loader<'a> {
    source: &'a dyn SourceLoader,
    sources: &'a mut SourceMap,
    diags: &'a mut Vec<Diagnostic>,
    root_dir: String,
    units: Vec<Unit>,
    done: HashMap<String, usize>,
    stack: Vec<Frame>,
    /// Imports that closed a cycle, as (importer, target): reported, but still
    /// added to the importer's scope afterwards, so the cycle is the only error.
    cyclic: Vec<(String, String)>,
}

/// Loads `root` and its imports. Files that cannot be read are reported and left out.
pub(crate) fn load(
    root: &str,
    source: &dyn SourceLoader,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Unit> {
    let mut loader = Loader {
        source,
        sources,
        diags,
        root_dir: dir_of(root).to_string(),
        units: Vec::new(),
        done: HashMap::new(),
        stack: Vec::new(),
        cyclic: Vec::new(),
    };
    loader.walk(root.to_string());
    for (importer, target) in std::mem::take(&mut loader.cyclic) {
        if let (Some(&from), Some(&to)) = (loader.done.get(&importer), loader.done.get(&target)) {
            if from != to && !loader.units[from].imports.contains(&to) {
                loader.units[from].imports.push(to);
            }
        }
    }
    loader.units
}

impl Loader<'_> {
    /// Loads `root` and, depth-first, every file it imports.
    fn walk(&mut self, root: String) {
        self.open(root, None);
        while let Some(frame) = self.stack.last_mut() {
            let Some(import) = next_import(frame) else {
                self.finish();
                continue;
            };
            let target = join(&frame.name, &import.path);
            if !self.valid_path(&import) {
                continue;
            }
            self.stack.last_mut().expect("open").following = Some(import.span);
            if let Opened::Done(index) = self.open(target, Some(import.span)) {
                self.add_import(index);
            }
        }
    }

    /// Starts loading `name` (reached through the import at `via`) unless it is
    /// loaded already or on the stack (a cycle).
    fn open(&mut self, name: String, via: Option<Span>) -> Opened {
        if let Some(&index) = self.done.get(&name) {
            return Opened::Done(index);
        }
        if let Some(pos) = self.stack.iter().position(|f| f.name == name) {
            self.cycle(
                pos,
                &name,
                via.expect("the root is never imported while loading"),
            );
            let importer = self.stack.last().expect("non-empty").name.clone();
            self.cyclic.push((importer, name));
            return Opened::Failed;
        }
        let text = match self.source.load(&name) {
            Ok(text) => text,
            Err(e) => {
                self.not_found(&name, via, &e);
                return Opened::Failed;
            }
        };
        let file = self.sources.add(name.clone(), text);
        let (tree, mut parse_diags) = syntax::parse(file, &self.sources.get(file).text);
        self.diags.append(&mut parse_diags);
        self.stack.push(Frame {
            name,
            tree,
            following: None,
            next_item: 0,
            imports: Vec::new(),
        });
        Opened::Started
    }

    /// The file on top of the stack has no imports left: it becomes a unit, and an
    /// import of the file below it.
    fn finish(&mut self) {
        let frame = self.stack.pop().expect("a file is open");
        let origin = relative_to(&self.root_dir, &frame.name);
        self.units.push(Unit {
            name: frame.name.clone(),
            origin,
            ast: frame.tree,
            imports: frame.imports,
        });
        let index = self.units.len() - 1;
        self.done.insert(frame.name, index);
        self.add_import(index);
    }

    /// Records that the file on top of the stack imports unit `index`.
    fn add_import(&mut self, index: usize) {
        if let Some(importer) = self.stack.last_mut() {
            if !importer.imports.contains(&index) {
                importer.imports.push(index);
            }
        }
    }

    fn valid_path(&mut self, import: &ast::Import) -> bool {
        let path = &import.path;
        let problem = if path.is_empty() {
            Some((
                "empty import path",
                "write the path of a `.bw` file".to_string(),
            ))
        } else if path.starts_with('/')
            || path.starts_with('\\')
            || path.chars().nth(1) == Some(':')
        {
            Some((
                "absolute import path",
                "import paths are relative to the importing file".to_string(),
            ))
        } else if !path.ends_with(".bw") {
            Some((
                "import path is not a `.bw` file",
                format!("schema files end in `.bw`: `{path}.bw`?"),
            ))
        } else {
            None
        };
        match problem {
            Some((message, help)) => {
                self.diags.push(
                    Diagnostic::error(
                        Code::InvalidImportPath,
                        message,
                        import.span,
                        "invalid import path",
                    )
                    .with_help(help),
                );
                false
            }
            None => true,
        }
    }

    fn not_found(&mut self, name: &str, via: Option<Span>, e: &std::io::Error) {
        let (reason, help) = match e.kind() {
            std::io::ErrorKind::NotFound => (
                "no such file".to_string(),
                "import paths are relative to the directory of the importing file",
            ),
            std::io::ErrorKind::InvalidData => (e.to_string(), "schema files are UTF-8 text"),
            _ => (
                e.to_string(),
                "schema files are regular files of at most 16 MiB",
            ),
        };
        let diag = match via {
            Some(span) => Diagnostic::error(
                Code::ImportNotFound,
                format!("cannot read imported file `{name}`"),
                span,
                reason,
            )
            .with_help(help),
            None => Diagnostic::error_without_span(
                Code::ImportNotFound,
                format!("cannot read schema file `{name}`: {reason}"),
            ),
        };
        self.diags.push(diag);
    }

    /// Reports the import at `via`, which leads back to the file at stack position `pos`.
    fn cycle(&mut self, pos: usize, name: &str, via: Span) {
        let mut chain: Vec<&str> = self.stack[pos..].iter().map(|f| f.name.as_str()).collect();
        chain.push(name);
        let mut diag = Diagnostic::error(
            Code::ImportCycle,
            format!("import cycle: {}", chain.join(" -> ")),
            via,
            format!("this import leads back to `{name}`"),
        );
        let start = self.stack[pos]
            .following
            .expect("a file on the stack is following an import");
        if start != via {
            let next = &self.stack[pos + 1].name;
            diag = diag.with_secondary(start, format!("`{name}` imports `{next}` here"));
        }
        self.diags.push(diag.with_help(
            "files cannot import each other; move the declarations both need into a third file that both import",
        ));
    }
}

/// The next `import` item of the frame's file, moving past it.
fn next_import(frame: &mut Frame) -> Option<ast::Import> {
    while let Some(item) = frame.tree.items.get(frame.next_item) {
        frame.next_item += 1;
        if let ast::Item::Import(import) = item {
            return Some(import.clone());
        }
    }
    None
}
