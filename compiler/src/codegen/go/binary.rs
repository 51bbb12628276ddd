//! The standard library's binary encoding interfaces, on every named type:
//! `AppendBinary` (`encoding.BinaryAppender`, Go 1.24), `MarshalBinary`
//! (`encoding.BinaryMarshaler`) and `UnmarshalBinary` (`encoding.BinaryUnmarshaler`),
//! so that generic code (`encoding/gob`, caches, message queues) can encode a
//! generated type without knowing it. Each is the top-level packed encoding: the
//! same bytes and errors as `AppendTo`, `Encode` and `Decode`, which they call.
//!
//! The file names no interface: `encoding.BinaryAppender` does not exist before Go
//! 1.24 and the runtime supports Go 1.22, so a compile-time assertion would break
//! older toolchains; the methods satisfy the interfaces by their signatures, and
//! `conformance/go` asserts all three for every generated type.

use super::printer::Printer;
use super::{types, Gen};
use crate::ir::TypeId;

/// Prints `AppendBinary`, `MarshalBinary` and `UnmarshalBinary` of a named type.
pub fn binary_fns(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = types::receiver(g, id);
    let (mrecv, mr) = types::mut_receiver(g, id);
    p.blank();
    p.line("// AppendBinary implements encoding.BinaryAppender (Go 1.24): it is AppendTo.");
    p.open(format!(
        "func ({recv}) AppendBinary(b []byte) ([]byte, error) {{"
    ));
    p.line(format!("return {r}.AppendTo(b)"));
    p.close("}");
    p.blank();
    p.line("// MarshalBinary implements encoding.BinaryMarshaler: it is Encode.");
    p.open(format!("func ({recv}) MarshalBinary() ([]byte, error) {{"));
    p.line(format!("return {r}.Encode()"));
    p.close("}");
    p.blank();
    p.line("// UnmarshalBinary implements encoding.BinaryUnmarshaler: it is Decode, which");
    p.line("// copies what it keeps of b.");
    p.open(format!("func ({mrecv}) UnmarshalBinary(b []byte) error {{"));
    p.line(format!("return {mr}.Decode(b)"));
    p.close("}");
}
