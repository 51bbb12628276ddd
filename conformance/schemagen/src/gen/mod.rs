//! The schema generator: a seeded, deterministic source of random *valid* schemas
//! covering every construct of docs/schema-language.md.
//!
//! Validity is by construction: types only refer to types generated before them (so
//! there is no recursion), names are unique in their scope, every number satisfies its
//! rule, and the generator tracks each type's encoded size ([`Size`], the compiler's
//! layout arithmetic) to avoid sizes beyond 64 bits (E0401) and zero-width list
//! elements (E0310). It also tracks how many leaf values a random value of each type
//! holds ([`Info::weight`]) so that random values stay small. `tests/compile.rs`
//! checks thousands of seeds against `bitwire_compiler::compile_source`.

mod decls;
pub mod names;
mod numbers;
mod types;

use bitwire_compiler::codec::random::Rng;

use crate::model::{Const, Item, Schema, TypeDecl};
use names::{Kind, Scope};

pub use numbers::{bits_for, int_lit};

/// Largest number of leaf values a random value of a generated type may hold
/// (see [`crate::values`] for how list lengths are capped there).
pub const WEIGHT_LIMIT: u128 = 1500;

/// Encoded size bounds in bits, as the compiler's layout pass computes them but in
/// `u128` so that overflow beyond 64 bits is visible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    pub min: u128,
    /// `None`: unbounded.
    pub max: Option<u128>,
}

impl Size {
    /// Every value takes `bits` bits.
    pub fn fixed(bits: u128) -> Size {
        Size {
            min: bits,
            max: Some(bits),
        }
    }

    /// Whether both bounds fit in a `u64` (else the compiler reports E0401).
    pub fn fits(self) -> bool {
        self.min <= u128::from(u64::MAX) && self.max.is_none_or(|m| m <= u128::from(u64::MAX))
    }

    /// `self` followed by `other`.
    pub fn then(self, other: Size) -> Size {
        Size {
            min: self.min.saturating_add(other.min),
            max: self.max.zip(other.max).map(|(a, b)| a.saturating_add(b)),
        }
    }
}

/// What the generator knows about a type expression or declaration.
#[derive(Debug, Clone, Copy)]
pub struct Info {
    pub size: Size,
    /// Leaf values in the largest random value (`crate::values` caps list lengths).
    pub weight: u128,
}

/// How a schema is shaped; drawn per schema so that most are moderate and some
/// push one dimension to its extreme.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Number of type declarations.
    pub types: u64,
    /// Most fields per struct (variants per enum or union scale from it).
    pub fields: u64,
    /// Type-expression nesting budget.
    pub depth: u32,
    /// Percent of names that are target-language hazards.
    pub hazards: u64,
    /// Percent of names longer than 100 characters.
    pub long_names: u64,
    /// Percent of values written as constants.
    pub consts: u64,
    /// Percent of items with a doc comment.
    pub docs: u64,
    /// Whether to add the deep structures (20-deep lists, a 20-long chain of types).
    pub deep: bool,
}

impl Profile {
    /// A profile for one schema.
    pub fn draw(rng: &mut Rng) -> Profile {
        let mut p = Profile {
            types: 2 + rng.below(10),
            fields: 1 + rng.below(8),
            depth: 1 + rng.below(4) as u32,
            hazards: 10 + rng.below(20),
            long_names: 0,
            consts: 10 + rng.below(30),
            docs: rng.below(40),
            deep: false,
        };
        match rng.below(10) {
            // Many fields.
            0 => p.fields = 40 + rng.below(120),
            // Deep nesting.
            1 => {
                p.deep = true;
                p.depth = 6;
            }
            // Long identifiers everywhere.
            2 => p.long_names = 40,
            // Many types.
            3 => p.types = 20 + rng.below(20),
            _ => {}
        }
        p
    }
}

/// A generated declaration with what the generator knows about it.
pub(crate) struct Declared {
    pub decl: TypeDecl,
    pub info: Info,
}

/// Generator state for one schema.
pub struct Gen {
    pub rng: Rng,
    pub profile: Profile,
    /// Types and constants share one namespace.
    pub scope: Scope,
    pub consts: Vec<Const>,
    pub(crate) decls: Vec<Declared>,
    message_ids: Vec<i128>,
}

/// The generator's seed for schema `index` of run `seed` (splitmix64 of both).
pub fn schema_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).max(1)
}

/// Schema `index` of the run with `seed`: the same numbers give the same schema.
pub fn generate(seed: u64, index: u64) -> Schema {
    let mut rng = Rng(schema_seed(seed, index));
    let profile = Profile::draw(&mut rng);
    let mut g = Gen {
        scope: Scope::new(Kind::Type, profile.hazards),
        rng,
        profile,
        consts: Vec::new(),
        decls: Vec::new(),
        message_ids: Vec::new(),
    };
    g.generate_decls();
    g.finish(vec![format!("schemagen seed {seed}, schema {index}")])
}

impl Gen {
    /// Shuffles constants and declarations into one item list: declaration order
    /// does not matter, so uses before declarations are common.
    fn finish(mut self, header: Vec<String>) -> Schema {
        let mut items: Vec<Item> = self.consts.drain(..).map(Item::Const).collect();
        items.extend(self.decls.drain(..).map(|d| Item::Type(d.decl)));
        for i in (1..items.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
        Schema { header, items }
    }

    /// Doc comment lines for an item, field or variant (often none). Some lines
    /// carry text that is awkward to repeat inside generated comments.
    pub fn doc(&mut self) -> Vec<String> {
        const LINES: &[&str] = &[
            "A documented item.",
            "Ends a block comment */ and opens one /*",
            "Quotes \" and backslashes \\ and a `code span`.",
            "Unicode: é, ü, 🚀, and <angle> brackets & ampersands.",
            "",
            "// looks like a comment",
            "Code generated by nothing. DO NOT EDIT.",
            "${template} %s {} #[attr] @decorator",
            "Trailing spaces   ",
        ];
        if !self.rng.chance(self.profile.docs) {
            return Vec::new();
        }
        let n = 1 + self.rng.below(3);
        (0..n)
            .map(|_| LINES[self.rng.below(LINES.len() as u64) as usize].to_string())
            .collect()
    }

    /// A fresh message id, unique in the schema, sometimes at the ends of its range.
    fn message_id(&mut self) -> i128 {
        loop {
            let id = match self.rng.below(4) {
                0 => [0, 1, 2_147_483_647][self.rng.below(3) as usize],
                1 => self.rng.below(2_147_483_648) as i128,
                _ => self.rng.below(64) as i128,
            };
            if !self.message_ids.contains(&id) {
                self.message_ids.push(id);
                return id;
            }
        }
    }
}
