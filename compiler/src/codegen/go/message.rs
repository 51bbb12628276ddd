//! Dispatch over a schema's messages (spec §2.3): `NewMessage` and `DecodeMessage`
//! by id, and the reusable message set `Messages` that frame readers and
//! connections decode into (docs/framing.md §4). Each message type also has a
//! `MessageID` method, so every one satisfies `bitwire.Message`. How frames are read
//! and written is the runtime's (`bitwire.FrameReader`, `FrameEncoder`, …): the
//! generated code only maps ids to values. The frames of a `delta message` carry
//! snapshot envelopes (docs/framing.md §10.8): its id maps to a `WorldEnvelope`, a
//! `baseline.Envelope` with the message's id, not to the message's type.

use super::naming::message_set_fields;
use super::printer::Printer;
use super::Gen;

/// The type a message's frames decode into: its own, or for a `delta message` its
/// envelope type.
fn frame_type<'a>(g: &'a Gen<'_>, id: usize) -> &'a str {
    g.consts[id].envelope.as_deref().unwrap_or(g.ident(id))
}

/// Prints the envelope type of every `delta message`: `baseline.Envelope` with the
/// message's id.
fn envelopes(g: &Gen, p: &mut Printer) {
    for (id, def) in g.schema.messages() {
        let Some(envelope) = &g.consts[id].envelope else {
            continue;
        };
        let (ident, msg_id) = (g.ident(id), def.message_id.expect("a message"));
        let c = g.consts[id].message_id.as_ref().expect("a message");
        p.blank();
        p.doc(format!(
            "{envelope} is a frame of {ident} (id {msg_id}): a snapshot envelope \
             (docs/framing.md §10), the header and the snapshot in full or as a delta, \
             which a baseline.Receiver decodes. {} and {} hold one for {ident}; to send \
             a snapshot, encode it into Data with a baseline.Sender and write the \
             {envelope}.",
            g.names.new_message, g.names.messages
        ));
        p.open(format!("type {envelope} struct {{"));
        p.line("baseline.Envelope");
        p.close("}");
        p.blank();
        p.doc(format!("MessageID returns {c} (bitwire.Message)."));
        p.line(format!(
            "func (*{envelope}) MessageID() uint32 {{ return {c} }}"
        ));
    }
}

/// Prints `NewMessage` and `DecodeMessage` (after the envelope types of the
/// `delta message`s).
pub fn dispatch(g: &Gen, p: &mut Printer) {
    envelopes(g, p);
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
        p.line(format!("return new({})", frame_type(g, id)));
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
        if g.consts[*id].envelope.is_some() {
            p.doc(format!(
                "{field} receives the frames of {} (id {msg_id}): snapshot envelopes.",
                g.ident(*id)
            ));
        } else {
            p.doc(format!(
                "{field} receives the frames of {} (id {msg_id}).",
                g.ident(*id)
            ));
        }
        p.line(format!("{field} {}", frame_type(g, *id)));
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
