//! The dispatch union over a schema's messages: one type for "any message", its
//! dispatch id, and encode / decode by id. The id is not part of the packed bytes
//! (spec §2.3); framing carries it: the frame functions printed here only hand the
//! dispatch to the runtime's framer (`bw.encodeMessageFrame`, `bw.decodeMessageFrame`),
//! which makes every wire decision of docs/framing.md. A `delta message`'s variant
//! carries its frames' Data as it is, a snapshot envelope (`envelope: Uint8Array`,
//! docs/framing.md §10.8), for a `bw.SnapshotReceiver` to decode.

use super::printer::Printer;
use super::{naming, Gen};
use crate::ir::{TypeDef, TypeId};
use crate::plan::Kind;

/// Prints `Message`, `messageId`, `encodeMessage` and `decodeMessage`.
pub fn dispatch(g: &Gen, p: &mut Printer) {
    let msg = &g.names.message;
    let messages: Vec<_> = g.schema.messages().collect();
    let envelope = |id: TypeId| g.delta.messages.contains(&id);
    let mut doc = vec!["Any message of this schema, tagged with its type's schema name.".into()];
    if messages.iter().any(|(id, _)| envelope(*id)) {
        doc.extend([
            "A `delta message` is its frames' snapshot envelope (docs/framing.md §10): the".into(),
            "header and the snapshot in full or as a delta, for a `bw.SnapshotReceiver`.".into(),
        ]);
    }
    p.doc(&[doc]);
    p.open(format!("export type {msg} ="));
    for (i, (id, def)) in messages.iter().enumerate() {
        let end = if i + 1 == messages.len() { ";" } else { "" };
        let kind = naming::str_lit(&def.name);
        if envelope(*id) {
            p.line(format!("| {{ kind: {kind}; envelope: Uint8Array }}{end}"));
        } else {
            p.line(format!(
                "| {{ kind: {kind}; value: {} }}{end}",
                g.ident(*id)
            ));
        }
    }
    p.dedent();
    p.blank();
    p.doc(&[vec!["The dispatch id of a message (spec §2.3).".into()]]);
    p.open(format!("export function messageId(m: {msg}): number {{"));
    message_check(p, msg);
    p.open("switch (m.kind) {");
    for (id, def) in &messages {
        p.line(format!(
            "case {}: return {}_MESSAGE_ID;",
            naming::str_lit(&def.name),
            g.names.types[*id].constant
        ));
    }
    p.close("}");
    undeclared_kind(p);
    p.close("}");
    p.blank();
    p.doc(&[vec![
        "Encodes a message's value at the top level; see the type's own `encode` function.".into(),
    ]]);
    // Parameters that only the messages sent as values use (an envelope is sent as
    // it is): named `_w` and `_limits` when every message is a `delta message`.
    let unused = if messages.iter().all(|(id, _)| envelope(*id)) {
        "_"
    } else {
        ""
    };
    p.open(format!(
        "export function encodeMessage(m: {msg}, {unused}w?: bw.BitWriter): Uint8Array {{"
    ));
    message_check(p, msg);
    p.open("switch (m.kind) {");
    for (id, def) in &messages {
        let kind = naming::str_lit(&def.name);
        if envelope(*id) {
            p.line(format!("case {kind}: return bw.writeEnvelope(m.envelope);"));
        } else {
            p.line(format!(
                "case {kind}: return encode{}(m.value, w);",
                g.ident(*id)
            ));
        }
    }
    p.close("}");
    undeclared_kind(p);
    p.close("}");
    p.blank();
    p.doc(&[vec![
        "Decodes the message with dispatch id `id` from a whole input, within the decode".into(),
        "budget of `limits`; an id the schema does not declare is `InvalidEnum` at bit 0.".into(),
    ]]);
    p.open(format!(
        "export function decodeMessage(id: number, bytes: Uint8Array, {unused}limits?: bw.Limits): {msg} {{"
    ));
    p.open("switch (id) {");
    for (id, def) in &messages {
        let (msg_id, kind) = (
            def.message_id.expect("a message"),
            naming::str_lit(&def.name),
        );
        if envelope(*id) {
            p.line(format!(
                "case {msg_id}: return {{ kind: {kind}, envelope: bw.readEnvelope(bytes) }};"
            ));
        } else {
            p.line(format!(
                "case {msg_id}: return {{ kind: {kind}, value: decode{}(bytes, limits) }};",
                g.ident(*id)
            ));
        }
    }
    p.line("default: throw bw.error(\"InvalidEnum\", 0);");
    p.close("}");
    p.close("}");
    p.blank();
    frames(g, p, &messages);
}

/// Prints `isMessageId`, the `protocol` table the runtime's framer and connections
/// take, and `encodeFrame` / `decodeFrame`.
fn frames(g: &Gen, p: &mut Printer, messages: &[(TypeId, &TypeDef)]) {
    let msg = &g.names.message;
    p.doc(&[vec![
        "Whether some message of this schema has dispatch id `id`.".into(),
    ]]);
    p.open("export function isMessageId(id: number): boolean {");
    p.open("switch (id) {");
    for (_, def) in messages {
        p.line(format!("case {}:", def.message_id.expect("a message")));
    }
    p.line("  return true;");
    p.line("default:");
    p.line("  return false;");
    p.close("}");
    p.close("}");
    p.blank();
    p.doc(&[vec![
        "This schema's messages for the framer and the connections of `@bitwire/runtime`".into(),
        "(docs/framing.md): `new bw.FrameReader()`, `connectTcp(protocol, …)`.".into(),
    ]]);
    p.open(format!("export const protocol: bw.Protocol<{msg}> = {{"));
    p.line("messageId,");
    p.line("isMessageId,");
    p.line("encode: encodeMessage,");
    p.line("decode: decodeMessage,");
    p.close("};");
    p.blank();
    p.doc(&[vec![
        "The frame of a message (docs/framing.md §2–§4): with `options.threshold`, compressed"
            .into(),
        "iff its body is at least the threshold. A frame above `maxFrame` is `bw.FrameError`"
            .into(),
        "`FrameTooLarge`. Pass a `BitWriter` to reuse its buffer for the packed bytes.".into(),
    ]]);
    p.open(format!(
        "export function encodeFrame(m: {msg}, options?: bw.FrameOptions, w?: bw.BitWriter): Uint8Array {{"
    ));
    p.line("return bw.encodeMessageFrame(protocol, m, options, w);");
    p.close("}");
    p.blank();
    p.doc(&[vec![
        "The message a frame carries (a frame of `bw.FrameReader` or `bw.WsFrameReader`):".into(),
        "an id no message has is `bw.FrameError` `UnknownMessage`, bytes that do not decode".into(),
        "`Message` (with the packed error as its `cause`).".into(),
    ]]);
    p.open(format!(
        "export function decodeFrame(frame: bw.Frame, limits?: bw.Limits): {msg} {{"
    ));
    p.line("return bw.decodeMessageFrame(protocol, frame, limits);");
    p.close("}");
}

/// Prints the check that a dispatch value is an object (see
/// [`object_check`](super::encode::object_check)): `InvalidEnum` at bit 0, as for a
/// union, since `kind` picks the message.
fn message_check(p: &mut Printer, msg: &str) {
    super::encode::object_check(p, "m", "0", Kind::InvalidEnum, msg, "union", &[]);
}

/// Prints the end of a switch over the message kinds: from untyped JavaScript, a kind
/// the schema does not declare.
fn undeclared_kind(p: &mut Printer) {
    p.line("// Only reachable from untyped JavaScript: a kind the schema does not declare.");
    p.line("throw bw.enumError(0, (m as { kind: unknown }).kind);");
}
