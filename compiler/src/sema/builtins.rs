//! Built-in type names: `bool`, `uN`, `iN`, `f32`, `f64`, `varuW`, `variW`, and the
//! generic names `string`, `bytes`, `list`, `optional`. Whole name families are
//! reserved (`u0` and `f16` are not usable as declaration names either), so that a
//! mistyped width is reported as a bad width and not as an unknown type.

/// A built-in scalar or generic type name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    Bool,
    UInt(u32),
    SInt(u32),
    F32,
    F64,
    VarU(u32),
    VarI(u32),
    /// `string`, `bytes`, `list`, `optional`: handled by the parser's own syntax.
    Generic,
}

/// Names tried by "did you mean" for unknown types.
pub(crate) const COMMON_NAMES: &[&str] = &[
    "bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "varu16", "varu32",
    "varu64", "vari16", "vari32", "vari64", "string", "bytes", "list", "optional",
];

/// Why a name from a built-in family is not a valid type.
pub(crate) struct WidthError {
    pub message: String,
    pub help: String,
}

/// Classifies `name`: `None` if it is not a built-in name at all, `Some(Err)` if it
/// belongs to a built-in family but with an invalid width (`u0`, `i65`, `f16`, `varu8`).
pub(crate) fn builtin(name: &str) -> Option<Result<Builtin, WidthError>> {
    match name {
        "bool" => return Some(Ok(Builtin::Bool)),
        "f32" => return Some(Ok(Builtin::F32)),
        "f64" => return Some(Ok(Builtin::F64)),
        "string" | "bytes" | "list" | "optional" => return Some(Ok(Builtin::Generic)),
        _ => {}
    }
    let (family, digits) = ["varu", "vari", "u", "i", "f"]
        .iter()
        .find_map(|p| name.strip_prefix(p).map(|rest| (*p, rest)))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Leading zeros (`u08`) and huge numbers are invalid widths, not other names.
    let width: Option<u32> = if digits.starts_with('0') {
        None
    } else {
        digits.parse().ok()
    };
    let result = match (family, width) {
        ("u", Some(w @ 1..=64)) => Ok(Builtin::UInt(w)),
        ("i", Some(w @ 1..=64)) => Ok(Builtin::SInt(w)),
        ("u" | "i", _) => Err(WidthError {
            message: format!("invalid integer width in `{name}`"),
            help: format!("integer types are `{family}1` to `{family}64`"),
        }),
        ("varu", Some(w @ (16 | 32 | 64))) => Ok(Builtin::VarU(w)),
        ("vari", Some(w @ (16 | 32 | 64))) => Ok(Builtin::VarI(w)),
        ("varu" | "vari", _) => Err(WidthError {
            message: format!("invalid varint width in `{name}`"),
            help: format!(
                "variable-length integers are `{family}16`, `{family}32` and `{family}64`"
            ),
        }),
        _ => Err(WidthError {
            message: format!("unsupported float type `{name}`"),
            help: "floats are `f32` and `f64`".to_string(),
        }),
    };
    Some(result)
}

/// Inclusive value range of a `uN` / `iN`.
pub(crate) fn int_range(signed: bool, bits: u32) -> (i128, i128) {
    if signed {
        let half = 1i128 << (bits - 1);
        (-half, half - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// The schema spelling of an integer type.
pub(crate) fn int_name(signed: bool, bits: u32) -> String {
    format!("{}{bits}", if signed { "i" } else { "u" })
}
