//! Field paths on results (spec §7.3): generated code names the field or element a
//! failing call was working on as the error unwinds, `r.read_bits(9).in_field("health")?`.

use crate::Error;

/// Adds a path segment to the error of a failed result; a successful result passes
/// through untouched. Implemented for codec results and, with the `json` feature,
/// for JSON conversion results.
pub trait ResultExt: Sized {
    /// Prepends a struct field or union variant name to the error's path.
    fn in_field(self, name: &'static str) -> Self;
    /// Prepends a list or array index to the error's path.
    fn at_index(self, index: usize) -> Self;
}

impl<T> ResultExt for Result<T, Error> {
    #[inline(always)]
    fn in_field(self, name: &'static str) -> Self {
        self.map_err(|e| e.in_field(name))
    }

    #[inline(always)]
    fn at_index(self, index: usize) -> Self {
        self.map_err(|e| e.at_index(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn segments_are_prepended_while_unwinding() {
        let r: Result<(), Error> = Err(Error::new(ErrorKind::OutOfRange, 3));
        let e = r.in_field("x").at_index(2).in_field("list").unwrap_err();
        assert_eq!(e.path_string(), "list[2].x");
        let ok: Result<u8, Error> = Ok(1);
        assert_eq!(ok.in_field("x").unwrap(), 1);
    }
}
