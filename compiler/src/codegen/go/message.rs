//! Dispatch over a schema's messages (spec §2.3): `NewMessage` and `DecodeMessage`
//! by id, and the reusable message set `Messages` that frame readers and
//! connections decode into (docs/framing.md §4). Each message type also has a
//! `MessageID` method, so every one satisfies `bitwire.Message`. How frames are read
//! and written is the runtime's (`bitwire.FrameReader`, `FrameEncoder`, …): the
//! generated code only maps ids to values.

use super::naming::message_set_fields;
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
         decode into a reused value instead: {}.Message(id) returns one.",
        g.names.messages
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

/// Prints the message set: a struct with one value per message and its `Message`
/// method (`bitwire.MessageSet`).
pub fn message_set(g: &Gen, p: &mut Printer) {
    let set = &g.names.messages;
    let src = &g.opts.source_name;
    let messages: Vec<_> = g.schema.messages().collect();
    let fields = message_set_fields(messages.iter().map(|(id, _)| g.ident(*id)));
    p.blank();
    p.doc(format!(
        "{set} holds a value of every message of {src}, for reading frames without \
         allocating: a frame reader or connection given a *{set} decodes each frame into \
         the value of its message and returns a pointer to it, valid until the next frame \
         is read. Its zero value is ready to use."
    ));
    p.open(format!("type {set} struct {{"));
    for ((id, def), field) in messages.iter().zip(&fields) {
        let msg_id = def.message_id.expect("a message");
        p.doc(format!(
            "{field} receives the frames of {} (id {msg_id}).",
            g.ident(*id)
        ));
        p.line(format!("{field} {}", g.ident(*id)));
    }
    p.close("}");
    p.blank();
    p.doc(format!(
        "Message returns a pointer to s's value of the message with dispatch id id, or \
         nil when {src} declares no such message (bitwire.MessageSet)."
    ));
    p.open(format!(
        "func (s *{set}) Message(id uint32) bitwire.Message {{"
    ));
    p.open("switch id {");
    for ((id, _), field) in messages.iter().zip(&fields) {
        let c = g.consts[*id].message_id.as_ref().expect("a message");
        p.middle(format!("case {c}:"));
        p.line(format!("return &s.{field}"));
    }
    p.close("}");
    p.line("return nil");
    p.close("}");
    p.blank();
    p.line(format!("var _ bitwire.MessageSet = (*{set})(nil)"));
}
