//! Loading the root file and everything it imports, depth-first in import order.
//! Each file is loaded and parsed once; the resulting list is in post-order
//! (a file's imports before the file), which is the order of declarations in the IR.

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

/// A file being loaded: its name and the import in it that is being followed.
struct Frame {
    name: String,
    following: Option<Span>,
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
    loader.visit(root.to_string(), None);
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
    /// Loads `name` (reached through the import at `via`) unless already loaded;
    /// returns its unit index.
    fn visit(&mut self, name: String, via: Option<Span>) -> Option<usize> {
        if let Some(&index) = self.done.get(&name) {
            return Some(index);
        }
        if let Some(pos) = self.stack.iter().position(|f| f.name == name) {
            self.cycle(
                pos,
                &name,
                via.expect("the root is never imported while loading"),
            );
            let importer = self.stack.last().expect("non-empty").name.clone();
            self.cyclic.push((importer, name));
            return None;
        }
        let text = match self.source.load(&name) {
            Ok(text) => text,
            Err(e) => {
                self.not_found(&name, via, &e);
                return None;
            }
        };
        let file = self.sources.add(name.clone(), text);
        let (tree, mut parse_diags) = syntax::parse(file, &self.sources.get(file).text);
        self.diags.append(&mut parse_diags);

        self.stack.push(Frame {
            name: name.clone(),
            following: None,
        });
        let mut imports = Vec::new();
        for item in &tree.items {
            let ast::Item::Import(import) = item else {
                continue;
            };
            if !self.valid_path(import) {
                continue;
            }
            let target = join(&name, &import.path);
            self.stack.last_mut().expect("pushed above").following = Some(import.span);
            if let Some(index) = self.visit(target, Some(import.span)) {
                if !imports.contains(&index) {
                    imports.push(index);
                }
            }
        }
        self.stack.pop();

        let origin = relative_to(&self.root_dir, &name);
        self.units.push(Unit {
            name: name.clone(),
            origin,
            ast: tree,
            imports,
        });
        let index = self.units.len() - 1;
        self.done.insert(name, index);
        Some(index)
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
        let reason = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => e.to_string(),
        };
        let diag = match via {
            Some(span) => Diagnostic::error(
                Code::ImportNotFound,
                format!("cannot read imported file `{name}`"),
                span,
                reason,
            )
            .with_help("import paths are relative to the directory of the importing file"),
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
