//! Diagnostics for the problems the layout pass finds: list elements of zero
//! width, sizes beyond 64 bits, and the resource limits of spec §11.

use super::model::Model;
use crate::diag::{Code, Diagnostic};
use crate::layout::{LayoutError, LayoutErrorKind, MAX_DEPTH, MAX_FOOTPRINT, MAX_INLINE_SIZE};

/// The diagnostic for a problem the layout pass found.
pub(crate) fn diagnostic(model: &Model, e: LayoutError) -> Diagnostic {
    let def = &model.types[e.type_id];
    let member = e.member.map(|m| def.member(m));
    let span = member
        .and_then(|(_, spans)| spans.ty)
        .unwrap_or(def.spans.name);
    let place = match member {
        Some((name, _)) => format!("`{}.{name}`", def.name),
        None => format!("`{}`", def.name),
    };
    let name = &def.name;
    // The resource limits are about the type as a whole: the member is secondary.
    let limit = |code, message: String, label: String, member_label: String| {
        let d = Diagnostic::error(code, message, def.spans.name, label);
        match member {
            Some((member, spans)) => d.with_secondary(
                spans.ty.unwrap_or(spans.name),
                format!("`{member}` {member_label}"),
            ),
            None => d,
        }
    };
    match e.kind {
        LayoutErrorKind::ZeroWidthListElement => Diagnostic::error(
            Code::ZeroWidthListElement,
            format!("list elements in {place} can encode to zero bits"),
            span,
            "a list of zero-width elements",
        )
        .with_note("a decoder bounds a list's memory by the input size, which needs elements of at least one bit (spec §5.6)")
        .with_help(
            "empty structs, one-variant enums and ranges with MIN == MAX encode to zero bits; \
             store a count (e.g. a `u32`) instead of a list of them",
        ),
        LayoutErrorKind::Overflow => Diagnostic::error(
            Code::SizeOverflow,
            format!("the encoded size of {place} does not fit in 64 bits"),
            span,
            "size overflows",
        )
        .with_help("use smaller array lengths or `max` bounds; a list, string or bytes without `max` has no size limit"),
        LayoutErrorKind::TooDeep { depth } => limit(
            Code::TypeTooDeep,
            format!("`{name}` is nested {depth} levels deep, more than the limit of {MAX_DEPTH}"),
            format!("{depth} levels"),
            "is the deepest member".to_string(),
        )
        .with_note("every decoder, and every pass of the compiler, descends one level at a time; the limit bounds their stack use (spec §11)")
        .with_help("flatten the type: send deep parts as separate messages, or refer to them by an id"),
        LayoutErrorKind::FootprintTooLarge { bytes } => limit(
            Code::FootprintTooLarge,
            format!("a value of `{name}` takes {} bytes in memory, more than the limit of {MAX_FOOTPRINT} (64 MiB)", amount(bytes)),
            format!("{} bytes", amount(bytes)),
            "is the largest member".to_string(),
        )
        .with_note("a decoder allocates this much for every value of the type, whatever its encoded size (spec §11)")
        .with_help("use a `list<T, max N>` instead of a large fixed array: its elements are charged only as they are decoded"),
        LayoutErrorKind::InlineSizeTooLarge { bytes } => limit(
            Code::InlineSizeTooLarge,
            format!("a value of `{name}` is {} bytes inline, more than the limit of {MAX_INLINE_SIZE} (256 KiB)", amount(bytes)),
            format!("{} bytes inline", amount(bytes)),
            "is the largest member".to_string(),
        )
        .with_note("a decoder that builds values on the stack, as generated Rust does, would need that much stack; arrays above 4 KiB are already held out of line (spec §11)")
        .with_help("split the type, or hold large parts in a `list` (24 bytes inline)"),
    }
}

/// A byte count; the model saturates at `u64::MAX`, which means "at least that".
fn amount(bytes: u64) -> String {
    if bytes == u64::MAX {
        "2^64 or more".to_string()
    } else {
        bytes.to_string()
    }
}
