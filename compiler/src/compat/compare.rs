//! The comparison itself: pairs types, walks fields and variants, and classifies
//! every difference by the rules of spec §9.

use std::collections::HashMap;

use super::rules::{bounds, diff, full_range, length, show, Diff};
use super::{class_of, Change};
use crate::diag::{FileId, Label, Span};
use crate::ir::{EnumVariant, Schema, Type, TypeDefKind, TypeId, UnionVariant};

/// A variant as the comparison sees it: name, value or tag, payload.
struct Variant<'a> {
    name: &'a str,
    value: u64,
    payload: Option<&'a Type>,
}

impl<'a> Variant<'a> {
    fn of_enum(v: &'a EnumVariant) -> Self {
        Variant {
            name: &v.name,
            value: v.value,
            payload: None,
        }
    }

    fn of_union(v: &'a UnionVariant) -> Self {
        Variant {
            name: &v.name,
            value: v.tag,
            payload: v.payload.as_ref(),
        }
    }
}

/// Where a change is shown and the label there, if it has a location.
type Labelled = Option<(Span, String)>;

struct Cx<'a> {
    old: &'a Schema,
    new: &'a Schema,
    /// Added to the file ids of spans in `new`: the report's source map holds the
    /// old schema's files first, then the new one's.
    new_files: u32,
    o2n: HashMap<TypeId, TypeId>,
    n2o: HashMap<TypeId, TypeId>,
    queue: Vec<(TypeId, TypeId)>,
    out: Vec<Change>,
}

pub(crate) fn compare(old: &Schema, new: &Schema, new_files: u32) -> Vec<Change> {
    let mut cx = Cx {
        old,
        new,
        new_files,
        o2n: HashMap::new(),
        n2o: HashMap::new(),
        queue: Vec::new(),
        out: Vec::new(),
    };
    for (a, t) in old.types.iter().enumerate() {
        if let Some(b) = new.type_by_name(&t.name) {
            cx.pair(a, b);
        }
    }
    for (a, t) in old.types.iter().enumerate() {
        if cx.o2n.contains_key(&a) || t.message_id.is_none() {
            continue;
        }
        let b = new
            .types
            .iter()
            .enumerate()
            .position(|(b, u)| u.message_id == t.message_id && !cx.n2o.contains_key(&b));
        if let Some(b) = b {
            cx.pair(a, b);
        }
    }
    let mut i = 0;
    while i < cx.queue.len() {
        let (a, b) = cx.queue[i];
        cx.compare_def(a, b);
        i += 1;
    }
    for (a, t) in old.types.iter().enumerate() {
        if !cx.o2n.contains_key(&a) {
            cx.push(
                "C0314",
                format!("type `{}` removed", t.name),
                None,
                Some((t.spans.name, "removed".to_string())),
                vec!["data of this type (or of types that referred to it) cannot be decoded by the new schema".into()],
            );
        }
    }
    for (b, t) in new.types.iter().enumerate() {
        if !cx.n2o.contains_key(&b) {
            cx.push(
                "C0105",
                format!("type `{}` added", t.name),
                Some((t.spans.name, "new type".to_string())),
                None,
                Vec::new(),
            );
        }
    }
    cx.compare_constants();
    cx.out
}

impl Cx<'_> {
    fn pair(&mut self, a: TypeId, b: TypeId) {
        self.o2n.insert(a, b);
        self.n2o.insert(b, a);
        self.queue.push((a, b));
    }

    /// Records a change: the new location is primary when there is one.
    fn push(
        &mut self,
        code: &'static str,
        message: String,
        new: Labelled,
        old: Labelled,
        notes: Vec<String>,
    ) {
        let label = |(span, message): (Span, String)| Label { span, message };
        let shift = self.new_files;
        let new = new.map(|(span, message)| {
            let file = FileId(span.file.0 + shift);
            (Span { file, ..span }, message)
        });
        let (primary, secondary) = match (new, old) {
            (Some(n), o) => (Some(label(n)), o.map(label).into_iter().collect()),
            (None, o) => (o.map(label), Vec::new()),
        };
        self.out.push(Change {
            code,
            class: class_of(code),
            message,
            primary,
            secondary,
            notes,
        });
    }

    fn schema(&self, old: bool) -> &Schema {
        if old {
            self.old
        } else {
            self.new
        }
    }

    /// The name span of type `id` of the old or new schema.
    fn decl_span(&self, old: bool, id: TypeId) -> Option<Span> {
        Some(self.schema(old).types[id].spans.name)
    }

    /// Name span and type span (if any) of member `i` (field or variant) of type `id`.
    fn member(&self, old: bool, id: TypeId, i: usize) -> Option<(Span, Option<Span>)> {
        let spans = match &self.schema(old).types[id].kind {
            TypeDefKind::Struct { fields } => fields.get(i)?.spans,
            TypeDefKind::Enum { variants, .. } => variants.get(i)?.spans,
            TypeDefKind::Union { variants, .. } => variants.get(i)?.spans,
        };
        Some((spans.name, spans.ty))
    }

    /// Compares paired types `a` (old) and `b` (new): their names and message ids,
    /// then their fields or variants, or reports that the kind changed.
    fn compare_def(&mut self, a: TypeId, b: TypeId) {
        self.compare_name_and_id(a, b);
        let (ot, nt) = (&self.old.types[a], &self.new.types[b]);
        match (&ot.kind, &nt.kind) {
            (TypeDefKind::Struct { fields: of }, TypeDefKind::Struct { fields: nf }) => {
                self.compare_fields((a, b), of, nf)
            }
            (
                TypeDefKind::Enum {
                    packed_tag_bits: ob,
                    variants: ov,
                    ..
                },
                TypeDefKind::Enum {
                    packed_tag_bits: nb,
                    variants: nv,
                    ..
                },
            ) => {
                let ov: Vec<Variant> = ov.iter().map(Variant::of_enum).collect();
                let nv: Vec<Variant> = nv.iter().map(Variant::of_enum).collect();
                self.compare_variants((a, b), (*ob, *nb), &ov, &nv, false);
            }
            (
                TypeDefKind::Union {
                    packed_tag_bits: ob,
                    variants: ov,
                },
                TypeDefKind::Union {
                    packed_tag_bits: nb,
                    variants: nv,
                },
            ) => {
                let ov: Vec<Variant> = ov.iter().map(Variant::of_union).collect();
                let nv: Vec<Variant> = nv.iter().map(Variant::of_union).collect();
                self.compare_variants((a, b), (*ob, *nb), &ov, &nv, true);
            }
            (ok, nk) => {
                let kind = |k: &TypeDefKind| match k {
                    TypeDefKind::Struct { .. } => "struct",
                    TypeDefKind::Enum { .. } => "enum",
                    TypeDefKind::Union { .. } => "union",
                };
                let (n, o) = self.decl_labels(
                    (a, b),
                    format!("now {}", kind(nk)),
                    format!("was {}", kind(ok)),
                );
                self.push(
                    "C0304",
                    format!("`{}` changed from {} to {}", nt.name, kind(ok), kind(nk)),
                    n,
                    o,
                    Vec::new(),
                );
            }
        }
    }

    /// Labels at the names of types `b` (new, with `new`) and `a` (old, with `old`).
    fn decl_labels(
        &self,
        (a, b): (TypeId, TypeId),
        new: String,
        old: String,
    ) -> (Labelled, Labelled) {
        (
            self.decl_span(false, b).map(|s| (s, new)),
            self.decl_span(true, a).map(|s| (s, old)),
        )
    }

    /// Reports a renamed type and a changed message id between paired types `a`
    /// (old) and `b` (new).
    fn compare_name_and_id(&mut self, a: TypeId, b: TypeId) {
        let (ot, nt) = (&self.old.types[a], &self.new.types[b]);
        let (on, nn) = (ot.name.as_str(), nt.name.as_str());
        if on != nn {
            let (n, o) = self.decl_labels((a, b), format!("now `{nn}`"), format!("was `{on}`"));
            self.push(
                "C0101",
                format!("type `{on}` renamed to `{nn}`"),
                n,
                o,
                vec!["type names are not on the wire (nor in the JSON mapping); generated code names change".into()],
            );
        }
        if ot.message_id != nt.message_id {
            let show =
                |id: Option<u32>| id.map_or("none (a struct)".to_string(), |i| i.to_string());
            let (n, o) = self.decl_labels(
                (a, b),
                format!("message id {}", show(nt.message_id)),
                format!("message id {}", show(ot.message_id)),
            );
            self.push(
                "C0313",
                format!(
                    "message id of `{nn}` changed from {} to {}",
                    show(ot.message_id),
                    show(nt.message_id)
                ),
                n,
                o,
                vec!["framing dispatches on the id: peers route this message to a different type (or none)".into()],
            );
        }
    }

    fn compare_fields(
        &mut self,
        (a, b): (TypeId, TypeId),
        of: &[crate::ir::Field],
        nf: &[crate::ir::Field],
    ) {
        let (on, nn) = (
            self.old.types[a].name.as_str(),
            self.new.types[b].name.as_str(),
        );
        for i in 0..of.len().max(nf.len()) {
            let om = self.member(true, a, i);
            let nm = self.member(false, b, i);
            match (of.get(i), nf.get(i)) {
                (Some(f), Some(g)) => {
                    let moved = f.name != g.name
                        && (nf.iter().any(|h| h.name == f.name)
                            || of.iter().any(|h| h.name == g.name));
                    if moved {
                        self.push(
                            "C0303",
                            format!(
                                "fields of `{nn}` reordered: position {i} was `{}`, is now `{}`",
                                f.name, g.name
                            ),
                            nm.map(|m| (m.0, format!("now `{}`", g.name))),
                            om.map(|m| (m.0, format!("was `{}`", f.name))),
                            vec!["fields are matched by position (names are not on the wire): values are read into the wrong field or rejected".into()],
                        );
                        continue;
                    }
                    if let Some(d) = self.cmp(&f.ty, &g.ty) {
                        let what = if f.name == g.name {
                            format!("field `{nn}.{}`", g.name)
                        } else {
                            format!("field `{nn}.{}` (was `{}`)", g.name, f.name)
                        };
                        let span = |m: Option<(Span, Option<Span>)>| m.map(|m| m.1.unwrap_or(m.0));
                        let (n, o) = (span(nm), span(om));
                        self.push(
                            d.code,
                            format!("{what}: {}", d.message),
                            n.map(|s| (s, format!("now `{}`", show(&g.ty)))),
                            o.map(|s| (s, format!("was `{}`", show(&f.ty)))),
                            d.notes,
                        );
                    } else if f.name != g.name {
                        self.push(
                            "C0102",
                            format!("field `{on}.{}` renamed to `{}`", f.name, g.name),
                            nm.map(|m| (m.0, "new name".to_string())),
                            om.map(|m| (m.0, "old name".to_string())),
                            vec![format!(
                                "same position and wire shape; the JSON key changes from `{}` to `{}`",
                                f.name, g.name
                            )],
                        );
                    }
                }
                (Some(f), None) => {
                    self.push(
                        "C0302",
                        format!("field `{on}.{}` removed", f.name),
                        self.decl_span(false, b)
                            .map(|s| (s, format!("`{nn}` has no field at position {i}"))),
                        om.map(|m| (m.0, "removed".to_string())),
                        vec!["new decoders stop early and reject the rest of old data (`TrailingData` at the top level), or misread what follows".into()],
                    );
                }
                (None, Some(g)) => {
                    self.push(
                        "C0301",
                        format!("field `{nn}.{}` added", g.name),
                        nm.map(|m| (m.0, "added".to_string())),
                        self.decl_span(true, a)
                            .map(|s| (s, format!("`{on}` had {} field(s)", of.len()))),
                        vec![
                            "v1 has no optional trailing fields: old decoders reject the longer data (`TrailingData` at the top level) and new decoders run out of old data (`Truncated`), or misread it inside another value".into(),
                            "when the added bits fit in the old padding, all-zero values decode by accident; do not rely on it".into(),
                        ],
                    );
                }
                (None, None) => {}
            }
        }
    }

    /// Compares the variants of paired enums or unions `a` (old) and `b` (new), with
    /// tag widths `ob` and `nb`: the tag width, each old variant against the new
    /// variant it became (by name, else by value), then the variants added.
    fn compare_variants(
        &mut self,
        (a, b): (TypeId, TypeId),
        (ob, nb): (u32, u32),
        ov: &[Variant],
        nv: &[Variant],
        union: bool,
    ) {
        if ob != nb {
            let nn = self.new.types[b].name.as_str();
            let what = if union { "union" } else { "enum" };
            self.push(
                "C0310",
                format!("tag width of {what} `{nn}` changed from {ob} to {nb} bits"),
                self.decl_span(false, b).map(|s| (s, format!("{nb}-bit tag"))),
                self.decl_span(true, a).map(|s| (s, format!("{ob}-bit tag"))),
                vec!["every value of the type (and everything after it) is read with the wrong tag width".into()],
            );
        }
        let mut matched = vec![false; nv.len()];
        for i in 0..ov.len() {
            if let Some((j, same_value)) = self.pair_variant((a, b), ov, nv, i, union) {
                matched[j] = true;
                if same_value {
                    self.compare_payloads((a, b), (i, &ov[i]), (j, &nv[j]));
                }
            }
        }
        for (j, w) in nv.iter().enumerate() {
            if !matched[j] {
                self.variant_added((a, b), ob, j, w, union);
            }
        }
    }

    /// The new variant that old variant `i` became (by name, else by the value of a
    /// variant whose name is new), and whether it kept its value; reports a changed
    /// value, a rename, or a removal (`None`).
    fn pair_variant(
        &mut self,
        (a, b): (TypeId, TypeId),
        ov: &[Variant],
        nv: &[Variant],
        i: usize,
        union: bool,
    ) -> Option<(usize, bool)> {
        let (on, nn) = (
            self.old.types[a].name.as_str(),
            self.new.types[b].name.as_str(),
        );
        let v = &ov[i];
        let om = self.member(true, a, i);
        let by_name = nv.iter().position(|w| w.name == v.name);
        let by_value = nv
            .iter()
            .position(|w| w.value == v.value && !ov.iter().any(|x| x.name == w.name));
        match (by_name, by_value) {
            (Some(j), _) if nv[j].value != v.value => {
                self.push(
                    "C0312",
                    format!(
                        "variant `{nn}.{}` changed {} from {} to {}",
                        v.name,
                        if union { "tag" } else { "value" },
                        v.value,
                        nv[j].value
                    ),
                    self.member(false, b, j).map(|m| (m.0, format!("now {}", nv[j].value))),
                    om.map(|m| (m.0, format!("was {}", v.value))),
                    vec!["old and new peers read each other's values as a different variant, or reject them with `InvalidEnum`".into()],
                );
                Some((j, false))
            }
            (Some(j), _) => Some((j, true)),
            (None, Some(j)) => {
                self.push(
                    "C0103",
                    format!("variant `{on}.{}` renamed to `{}`", v.name, nv[j].name),
                    self.member(false, b, j)
                        .map(|m| (m.0, "new name".to_string())),
                    om.map(|m| (m.0, "old name".to_string())),
                    vec![format!(
                        "same {} {}; the JSON name changes from `{}` to `{}`",
                        if union { "tag" } else { "value" },
                        v.value,
                        v.name,
                        nv[j].name
                    )],
                );
                Some((j, true))
            }
            (None, None) => {
                self.push(
                    "C0311",
                    format!("variant `{on}.{}` removed", v.name),
                    self.decl_span(false, b)
                        .map(|s| (s, format!("no variant {}", v.value))),
                    om.map(|m| (m.0, "removed".to_string())),
                    vec![format!(
                        "new decoders reject old data holding it with `InvalidEnum` (tag {})",
                        v.value
                    )],
                );
                None
            }
        }
    }

    /// Reports a difference between the payloads of old variant `i` (`v`) of `a` and
    /// new variant `j` (`w`) of `b`.
    fn compare_payloads(
        &mut self,
        (a, b): (TypeId, TypeId),
        (i, v): (usize, &Variant),
        (j, w): (usize, &Variant),
    ) {
        let d = match (v.payload, w.payload) {
            (None, None) => None,
            (Some(a), Some(b)) => self.cmp(a, b),
            _ => diff("C0304", "payload added or removed".to_string(), Vec::new()),
        };
        if let Some(d) = d {
            let nn = self.new.types[b].name.as_str();
            let span = |m: Option<(Span, Option<Span>)>| m.map(|m| m.1.unwrap_or(m.0));
            let om = self.member(true, a, i);
            let nm = self.member(false, b, j);
            self.push(
                d.code,
                format!("payload of `{nn}.{}`: {}", w.name, d.message),
                span(nm).map(|s| (s, "new payload".to_string())),
                span(om).map(|s| (s, "old payload".to_string())),
                d.notes,
            );
        }
    }

    /// Reports new variant `j` (`w`) of `b`, which no old variant of `a` (with an
    /// `ob`-bit tag) became.
    fn variant_added(
        &mut self,
        (a, b): (TypeId, TypeId),
        ob: u32,
        j: usize,
        w: &Variant,
        union: bool,
    ) {
        let nn = self.new.types[b].name.as_str();
        let (code, risk) = if union {
            ("C0202", "tag")
        } else {
            ("C0201", "value")
        };
        self.push(
            code,
            format!("variant `{nn}.{}` added ({risk} {})", w.name, w.value),
            self.member(false, b, j).map(|m| (m.0, "added".to_string())),
            self.decl_span(true, a)
                .map(|s| (s, format!("{}-bit tag, same width", ob))),
            vec![format!(
                "old data decodes unchanged; old decoders reject `{}` ({risk} {}) with `InvalidEnum`, so send it only once every peer is upgraded",
                w.name, w.value
            )],
        );
    }

    /// Compares two type expressions; `None` when the wire shape is the same.
    fn cmp(&mut self, o: &Type, n: &Type) -> Option<Diff> {
        match (o, n) {
            (Type::Named { id: a, name: an }, Type::Named { id: b, name: bn }) => {
                match (self.o2n.get(a), self.n2o.get(b)) {
                    (Some(x), _) if x == b => None,
                    (None, None) => {
                        self.pair(*a, *b);
                        None
                    }
                    _ => diff(
                        "C0304",
                        format!("type changed from `{an}` to `{bn}`"),
                        Vec::new(),
                    ),
                }
            }
            (Type::Bounded { .. }, Type::Bounded { .. }) => bounds(o, n),
            (
                Type::Quantized {
                    repr: orepr,
                    min: omin,
                    max: omax,
                    steps: os,
                    ..
                },
                Type::Quantized {
                    repr: nrepr,
                    min: nmin,
                    max: nmax,
                    steps: ns,
                    ..
                },
            ) => {
                let same = orepr == nrepr
                    && omin.to_bits() == nmin.to_bits()
                    && omax.to_bits() == nmax.to_bits()
                    && os == ns;
                (!same).then(|| Diff {
                    code: "C0309",
                    message: "quantization changed".to_string(),
                    notes: vec![format!(
                        "grid {omin}..={omax} in {os} steps before, {nmin}..={nmax} in {ns} steps now: the same bits decode to a different value (or are rejected)"
                    )],
                })
            }
            (Type::UInt { bits, .. }, Type::Bounded { min, max, .. })
            | (Type::Bounded { min, max, .. }, Type::UInt { bits, .. })
                if full_range(*bits, *min, *max) =>
            {
                diff(
                    "C0107",
                    format!("`{}` became `{}`; the wire is unchanged", show(o), show(n)),
                    vec![format!(
                        "a bound of 0..={max} stores the value unchanged in {bits} bits, like `u{bits}`; generated code checks the range (or no longer does) and may hold the value in another integer type"
                    )],
                )
            }
            (Type::Optional { inner: a }, Type::Optional { inner: b }) => self.cmp(a, b),
            (Type::Array { elem: a, len: al }, Type::Array { elem: b, len: bl }) => {
                if al != bl {
                    diff(
                        "C0304",
                        format!("array length changed from {al} to {bl}"),
                        Vec::new(),
                    )
                } else {
                    self.cmp(a, b)
                }
            }
            (
                Type::List {
                    elem: a, max: am, ..
                },
                Type::List {
                    elem: b, max: bm, ..
                },
            ) => self.cmp(a, b).or_else(|| length(*am, *bm)),
            (Type::String { max: am, .. }, Type::String { max: bm, .. })
            | (Type::Bytes { max: am, .. }, Type::Bytes { max: bm, .. }) => length(*am, *bm),
            _ if o == n => None,
            _ => diff(
                "C0304",
                format!("type changed from `{}` to `{}`", show(o), show(n)),
                Vec::new(),
            ),
        }
    }

    fn compare_constants(&mut self) {
        let (old, new) = (self.old, self.new);
        let mut new_used = vec![false; new.constants.len()];
        let mut removed = Vec::new();
        for c in &old.constants {
            match new.constants.iter().position(|d| d.name == c.name) {
                Some(j) => {
                    new_used[j] = true;
                    if new.constants[j].value != c.value {
                        self.push(
                            "C0104",
                            format!("constant `{}` changed value", c.name),
                            Some((new.constants[j].spans.name, "new value".into())),
                            Some((c.spans.name, "old value".into())),
                            vec!["constants are not on the wire; the types that use it are compared on their own".into()],
                        );
                    }
                }
                None => removed.push(c),
            }
        }
        for c in removed {
            let rename = new
                .constants
                .iter()
                .enumerate()
                .position(|(j, d)| !new_used[j] && d.value == c.value);
            let (message, new_span) = match rename {
                Some(j) => {
                    new_used[j] = true;
                    let d = &new.constants[j];
                    (
                        format!("constant `{}` renamed to `{}`", c.name, d.name),
                        Some((d.spans.name, "new name".into())),
                    )
                }
                None => (format!("constant `{}` removed", c.name), None),
            };
            self.push(
                "C0104",
                message,
                new_span,
                Some((c.spans.name, "old".into())),
                vec!["constants are not on the wire".into()],
            );
        }
        for (j, d) in new.constants.iter().enumerate() {
            if !new_used[j] {
                self.push(
                    "C0104",
                    format!("constant `{}` added", d.name),
                    Some((d.spans.name, "added".into())),
                    None,
                    vec!["constants are not on the wire".into()],
                );
            }
        }
    }
}
