//! Declarations and name lookup.
//!
//! Types and constants share one namespace, and names are unique across the whole
//! compiled schema (every file the root pulls in), because generated code puts all
//! of them side by side. *Visibility* is narrower: a file sees its own
//! declarations and those of the files it imports directly, not what they import.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::builtins::{builtin, COMMON_NAMES};
use super::imports::Unit;
use super::suggest::{closest, Budget, BUDGET};
use crate::diag::{Code, Diagnostic, Span};
use crate::ir::TypeId;
use crate::syntax::ast;

/// A declared type, borrowed from the AST.
#[derive(Debug, Clone, Copy)]
pub(crate) enum TypeDecl<'a> {
    Struct(&'a ast::StructDecl),
    Enum(&'a ast::EnumDecl),
    Union(&'a ast::UnionDecl),
}

impl<'a> TypeDecl<'a> {
    pub fn name(&self) -> &'a ast::Ident {
        match self {
            TypeDecl::Struct(d) => &d.name,
            TypeDecl::Enum(d) => &d.name,
            TypeDecl::Union(d) => &d.name,
        }
    }
}

/// What a name refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Symbol {
    Type(TypeId),
    /// Index into [`Scope::consts`].
    Const(usize),
}

/// The result of looking a name up from one file.
pub(crate) enum Resolved {
    Found(Symbol),
    /// Declared, but in a file the looking file does not import directly.
    NotImported(Symbol),
    Missing,
}

/// What kind of name a lookup wants (for messages and suggestions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Want {
    Type,
    Const,
}

/// A shared, sorted list of names.
type Names<'a> = Rc<[&'a str]>;

/// Every declaration of the schema, in IR order.
pub(crate) struct Scope<'a> {
    units: &'a [Unit],
    /// Types by [`TypeId`]: declaring unit and declaration.
    pub types: Vec<(usize, TypeDecl<'a>)>,
    /// Constants by index: declaring unit and declaration.
    pub consts: Vec<(usize, &'a ast::ConstDecl)>,
    /// The first declaration of each name.
    names: HashMap<&'a str, Symbol>,
    /// Suggestion candidates per looking unit and wanted kind, sorted.
    candidates: RefCell<HashMap<(usize, Want), Names<'a>>>,
    /// What is left of the edit-distance work for suggestions.
    budget: Budget,
}

impl<'a> Scope<'a> {
    /// Collects the declarations of all units (in unit order, then source order),
    /// reporting duplicates and reserved names.
    pub fn build(units: &'a [Unit], diags: &mut Vec<Diagnostic>) -> Scope<'a> {
        let mut scope = Scope {
            units,
            types: Vec::new(),
            consts: Vec::new(),
            names: HashMap::new(),
            candidates: RefCell::new(HashMap::new()),
            budget: Budget::new(BUDGET),
        };
        for (unit_index, unit) in units.iter().enumerate() {
            for item in &unit.ast.items {
                let (symbol, name) = match item {
                    ast::Item::Import(_) => continue,
                    ast::Item::Const(c) => {
                        scope.consts.push((unit_index, c));
                        (Symbol::Const(scope.consts.len() - 1), &c.name)
                    }
                    ast::Item::Struct(d) => scope.add_type(unit_index, TypeDecl::Struct(d)),
                    ast::Item::Enum(d) => scope.add_type(unit_index, TypeDecl::Enum(d)),
                    ast::Item::Union(d) => scope.add_type(unit_index, TypeDecl::Union(d)),
                };
                if builtin(&name.name).is_some() {
                    diags.push(
                        Diagnostic::error(
                            Code::ReservedName,
                            format!("`{}` is reserved for built-in types", name.name),
                            name.span,
                            "reserved name",
                        )
                        .with_help("choose another name; built-in type names cannot be redeclared"),
                    );
                    continue;
                }
                match scope.names.get(name.name.as_str()) {
                    Some(&first) => {
                        let first_span = scope.span(first);
                        diags.push(
                            Diagnostic::error(
                                Code::DuplicateDecl,
                                format!("the name `{}` is declared more than once", name.name),
                                name.span,
                                "declared again here",
                            )
                            .with_secondary(first_span, "first declared here")
                            .with_help("types and constants share one namespace across all imported files; rename one of them"),
                        );
                    }
                    None => {
                        scope.names.insert(&name.name, symbol);
                    }
                }
            }
        }
        scope
    }

    fn add_type(&mut self, unit: usize, decl: TypeDecl<'a>) -> (Symbol, &'a ast::Ident) {
        self.types.push((unit, decl));
        (Symbol::Type(self.types.len() - 1), decl.name())
    }

    /// The unit that declares a symbol.
    pub fn unit_of(&self, symbol: Symbol) -> usize {
        match symbol {
            Symbol::Type(id) => self.types[id].0,
            Symbol::Const(id) => self.consts[id].0,
        }
    }

    /// The span of a symbol's name in its declaration.
    pub fn span(&self, symbol: Symbol) -> Span {
        match symbol {
            Symbol::Type(id) => self.types[id].1.name().span,
            Symbol::Const(id) => self.consts[id].1.name.span,
        }
    }

    /// Whether unit `from` can see the declarations of unit `declared_in`.
    fn visible(&self, from: usize, declared_in: usize) -> bool {
        from == declared_in || self.units[from].imports.contains(&declared_in)
    }

    /// Looks `name` up as seen from unit `from`.
    pub fn resolve(&self, from: usize, name: &str) -> Resolved {
        match self.names.get(name) {
            Some(&symbol) if self.visible(from, self.unit_of(symbol)) => Resolved::Found(symbol),
            Some(&symbol) => Resolved::NotImported(symbol),
            None => Resolved::Missing,
        }
    }

    /// The diagnostic for a name that did not resolve to what was wanted.
    pub fn unresolved(&self, from: usize, ident: &ast::Ident, want: Want) -> Diagnostic {
        let (code, noun) = match want {
            Want::Type => (Code::UnknownType, "type"),
            Want::Const => (Code::UnknownConst, "constant"),
        };
        match self.resolve(from, &ident.name) {
            Resolved::Found(symbol) => {
                let (found, expected, help) = match symbol {
                    Symbol::Type(_) => ("type", "a constant value", "a value is needed here: a literal or the name of a constant"),
                    Symbol::Const(_) => (
                        "constant",
                        "a type",
                        "a type is needed here: a built-in type or a struct, message, enum or union",
                    ),
                };
                Diagnostic::error(
                    Code::WrongNameKind,
                    format!("expected {expected}, found {found} `{}`", ident.name),
                    ident.span,
                    format!("this is a {found}"),
                )
                .with_secondary(
                    self.span(symbol),
                    format!("`{}` is declared here", ident.name),
                )
                .with_help(help)
            }
            Resolved::NotImported(symbol) => {
                let declaring = &self.units[self.unit_of(symbol)].name;
                let path = super::loader::relative_to(
                    super::loader::dir_of(&self.units[from].name),
                    declaring,
                );
                Diagnostic::error(
                    code,
                    format!("{noun} `{}` is not in scope", ident.name),
                    ident.span,
                    "not imported",
                )
                .with_secondary(
                    self.span(symbol),
                    format!("`{}` is declared here", ident.name),
                )
                .with_help(format!(
                    "imports are not transitive; add `import \"{path}\";` to use `{}` in this file",
                    ident.name
                ))
            }
            Resolved::Missing => {
                let help = self
                    .suggest(from, &ident.name, want)
                    .map(|s| format!("a {noun} with a similar name exists: `{s}`"));
                Diagnostic::error(
                    code,
                    format!("unknown {noun} `{}`", ident.name),
                    ident.span,
                    "not found",
                )
                .with_help_opt(help)
            }
        }
    }

    /// The visible name of the wanted kind closest to `name` (plus built-in type names for types).
    fn suggest(&self, from: usize, name: &str, want: Want) -> Option<String> {
        let candidates = self.candidates(from, want);
        closest(name, candidates.iter().copied(), &self.budget).map(str::to_string)
    }

    /// The names unit `from` sees of the wanted kind (plus built-in type names for
    /// types), sorted; computed once per unit and kind.
    fn candidates(&self, from: usize, want: Want) -> Names<'a> {
        if let Some(list) = self.candidates.borrow().get(&(from, want)) {
            return list.clone();
        }
        let mut candidates: Vec<&'a str> = self
            .names
            .iter()
            .filter(|(_, &symbol)| self.visible(from, self.unit_of(symbol)))
            .filter(|(_, symbol)| {
                matches!(
                    (want, symbol),
                    (Want::Type, Symbol::Type(_)) | (Want::Const, Symbol::Const(_))
                )
            })
            .map(|(name, _)| *name)
            .collect();
        if want == Want::Type {
            candidates.extend(COMMON_NAMES);
        }
        candidates.sort_unstable();
        let list: Names<'a> = candidates.into();
        self.candidates
            .borrow_mut()
            .insert((from, want), list.clone());
        list
    }
}
