//! Dispatch over a schema's messages (spec §2.3): `NewMessage` and `DecodeMessage`
//! by id, for framing layers. Each message type also has a `MessageID` method, so
//! every one satisfies `bitwire.Message`.

use super::printer::Printer;
use super::Gen;

/// Prints `NewMessage` and `DecodeMessage`.
pub fn dispatch(g: &Gen, p: &mut Printer) {
    let (new, decode) = (&g.names.new_message, &g.names.decode_message);
    let src = &g.opts.source_name;
    p.blank();
    p.doc(format!(
        "{new} returns a new zero value of the message with dispatch id id, or nil when \
         {src} declares no such message."
    ));
    p.open(format!("func {new}(id uint32) bitwire.Message {{"));
    p.open("switch id {");
    for (id, _) in g.schema.messages() {
        let c = g.consts[id].message_id.as_ref().expect("a message");
        p.middle(format!("case {c}:"));
        p.line(format!("return new({})", g.ident(id)));
    }
    p.close("}");
    p.line("return nil");
    p.close("}");
    p.blank();
    p.doc(format!(
        "{decode} decodes the message with dispatch id id from the whole of b. An id the \
         schema does not declare is InvalidEnum at bit 0. To decode without allocating, \
         switch on the id and call Decode on a reused value instead."
    ));
    p.open(format!(
        "func {decode}(id uint32, b []byte) (bitwire.Message, error) {{"
    ));
    p.line(format!("m := {new}(id)"));
    p.open("if m == nil {");
    p.line("return nil, bitwire.EnumError(0, uint64(id))");
    p.close("}");
    p.open("if err := bitwire.DecodePacked(b, m); err != nil {");
    p.line("return nil, err");
    p.close("}");
    p.line("return m, nil");
    p.close("}");
}
