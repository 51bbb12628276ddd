//! The dispatch enum over a schema's messages (spec §2.3): one variant per
//! `message Name = ID`, with the id, encode / decode-by-id, and its
//! `::bitwire::MessageSet` impl, through which the runtime frames it. The variant of a
//! `delta message` carries its frames' Data as it is, a snapshot envelope
//! (`::bitwire::baseline::Envelope`, docs/framing.md §10.8), not a decoded value.

use super::printer::Printer;
use super::Gen;

/// The runtime's envelope type, which a `delta message`'s variant carries.
const ENVELOPE: &str = "::bitwire::baseline::Envelope";

/// Prints `pub enum Message { ... }`, its methods and `From` impls.
pub fn dispatch(g: &Gen, p: &mut Printer) {
    let name = &g.names.message_enum;
    let messages: Vec<(usize, u32)> = g
        .schema
        .messages()
        .map(|(id, def)| (id, def.message_id.expect("a message")))
        .collect();
    let boxed = |id: usize| g.plan.get(id).dispatch_out_of_line;
    let envelope = |id: usize| g.delta.messages.contains(&id);
    let copy = messages
        .iter()
        .all(|(id, _)| g.is_copy(*id) && !boxed(*id) && !envelope(*id));
    // An envelope is `Eq` and `Hash`.
    let eq = messages.iter().all(|(id, _)| g.is_eq(*id) || envelope(*id));
    p.line(format!(
        "/// Every message of `{}`, for dispatch by id on a connection.",
        g.opts.source_name
    ));
    let mut derives = vec!["Debug", "Clone"];
    if copy {
        derives.push("Copy");
    }
    derives.push("PartialEq");
    if eq {
        derives.extend(["Eq", "Hash"]);
    }
    p.line(format!("#[derive({})]", derives.join(", ")));
    p.open(format!("pub enum {name} {{"));
    for (id, mid) in &messages {
        let ident = g.ident(*id);
        if envelope(*id) {
            p.line(format!(
                "/// `{}` (id {mid}): a snapshot envelope (docs/framing.md §10).",
                g.schema.types[*id].name
            ));
            p.line(format!("{ident}({ENVELOPE}),"));
        } else if boxed(*id) {
            p.line(format!("/// `{}` (id {mid}).", g.schema.types[*id].name));
            p.line(format!("{ident}(Box<{ident}>),"));
        } else {
            p.line(format!("/// `{}` (id {mid}).", g.schema.types[*id].name));
            p.line(format!("{ident}({ident}),"));
        }
    }
    p.close("}");
    p.blank();
    p.open(format!("impl {name} {{"));
    p.line("/// The message's dispatch id.");
    p.open("pub const fn id(&self) -> u32 {");
    p.open("match self {");
    for (id, _) in &messages {
        let ident = g.ident(*id);
        p.line(format!("Self::{ident}(_) => {ident}::MESSAGE_ID,"));
    }
    p.close("}");
    p.close("}");
    p.blank();
    p.line("/// Appends the message's top-level encoding to `out` (the id is not written:");
    p.line("/// framing carries it). Returns the bytes written.");
    if messages.iter().any(|(id, _)| !envelope(*id)) {
        p.use_packed();
    }
    p.open("pub fn encode(&self, out: &mut Vec<u8>) -> Result<usize, ::bitwire::Error> {");
    p.open("match self {");
    for (id, _) in &messages {
        if envelope(*id) {
            p.line(format!("Self::{}(e) => Ok(e.encode(out)),", g.ident(*id)));
        } else {
            p.line(format!("Self::{}(m) => m.encode(out),", g.ident(*id)));
        }
    }
    p.close("}");
    p.close("}");
    p.blank();
    p.line("/// Decodes the message with dispatch id `id` from the whole of `bytes`. An id");
    p.line("/// the schema does not declare is `InvalidEnum` at bit 0.");
    if messages.iter().any(|(id, _)| envelope(*id)) {
        p.line("///");
        p.line("/// The bytes of a `delta message` are a snapshot envelope, copied (at least");
        p.line("/// its 3-byte header, else `Truncated`): a `SnapshotReceiver` decodes it.");
    }
    p.open("pub fn decode(id: u32, bytes: &[u8]) -> Result<Self, ::bitwire::Error> {");
    p.open("match id {");
    for (id, _) in &messages {
        let ident = g.ident(*id);
        let body = if envelope(*id) {
            format!("{ENVELOPE}::from_data(bytes).map(Self::{ident})")
        } else if boxed(*id) {
            format!("{ident}::decode(bytes).map(|m| Self::{ident}(Box::new(m)))")
        } else {
            format!("{ident}::decode(bytes).map(Self::{ident})")
        };
        let arm = format!("{ident}::MESSAGE_ID => {body},");
        if p.fits(&arm) {
            p.line(arm);
        } else {
            // rustfmt's layout of an arm too long for one line.
            p.open(format!("{ident}::MESSAGE_ID => {{"));
            p.line(body);
            p.close("}");
        }
    }
    p.line("_ => Err(::bitwire::Error::undeclared(0, u64::from(id))),");
    p.close("}");
    p.close("}");
    p.close("}");
    message_set(g, p, &messages);
    // A `delta message` travels as an envelope, never as a value: no `From`.
    for (id, _) in messages.iter().filter(|(id, _)| !envelope(*id)) {
        let ident = g.ident(*id);
        p.blank();
        p.open(format!("impl From<{ident}> for {name} {{"));
        p.open(format!("fn from(m: {ident}) -> Self {{"));
        if boxed(*id) {
            p.line(format!("Self::{ident}(Box::new(m))"));
        } else {
            p.line(format!("Self::{ident}(m)"));
        }
        p.close("}");
        p.close("}");
    }
}

/// Prints `impl ::bitwire::MessageSet for Message`: the id table and the building
/// blocks under the runtime's frame methods (`encode_frame`, `decode_frame`,
/// `from_frame`; docs/framing.md §4), which decide everything about the wire.
fn message_set(g: &Gen, p: &mut Printer, messages: &[(usize, u32)]) {
    let name = &g.names.message_enum;
    let boxed = |id: usize| g.plan.get(id).dispatch_out_of_line;
    let envelope = |id: usize| g.delta.messages.contains(&id);
    let mut ids: Vec<u32> = messages.iter().map(|(_, mid)| *mid).collect();
    ids.sort_unstable();
    p.blank();
    p.open(format!("impl ::bitwire::MessageSet for {name} {{"));
    let items: Vec<String> = ids.iter().map(u32::to_string).collect();
    let one_line = format!("const IDS: &'static [u32] = &[{}];", items.join(", "));
    if p.fits(&one_line) {
        p.line(one_line);
    } else {
        // rustfmt's layout of a long array of short literals: as many per line as fit.
        p.open("const IDS: &'static [u32] = &[");
        let mut line = String::new();
        for item in &items {
            let next = if line.is_empty() {
                format!("{item},")
            } else {
                format!("{line} {item},")
            };
            if p.fits(&next) {
                line = next;
            } else {
                p.line(&line);
                line = format!("{item},");
            }
        }
        p.line(line);
        p.close("];");
    }
    p.blank();
    p.open("fn message_id(&self) -> u32 {");
    p.line("self.id()");
    p.close("}");
    p.blank();
    p.open("fn encode_body(&self, out: &mut Vec<u8>) -> Result<usize, ::bitwire::Error> {");
    p.line("self.encode(out)");
    p.close("}");
    p.blank();
    p.open("fn decode_body(");
    p.line("id: u32,");
    p.line("data: &[u8],");
    if messages.iter().all(|(id, _)| envelope(*id)) {
        p.line("_limits: &::bitwire::Limits,");
    } else {
        p.line("limits: &::bitwire::Limits,");
    }
    p.middle(") -> Option<Result<Self, ::bitwire::Error>> {");
    p.open("Some(match id {");
    for (id, _) in messages {
        let ident = g.ident(*id);
        let (call, map) = if envelope(*id) {
            // The body is the snapshot receiver's to decode, within its own limits.
            let call = format!("{ENVELOPE}::from_data(data)");
            (call, format!(".map(Self::{ident})"))
        } else {
            let call = format!("{ident}::decode_with(data, limits)");
            let map = if boxed(*id) {
                format!(".map(|m| Self::{ident}(Box::new(m)))")
            } else {
                format!(".map(Self::{ident})")
            };
            (call, map)
        };
        let arm = format!("{ident}::MESSAGE_ID => {call}{map},");
        if p.fits(&arm) {
            p.line(arm);
            continue;
        }
        // rustfmt's layout of an arm too long for one line: a block, and the chain
        // broken before `.map` when it does not fit either.
        p.open(format!("{ident}::MESSAGE_ID => {{"));
        let body = format!("{call}{map}");
        if p.fits(&body) {
            p.line(body);
        } else {
            p.line(call);
            p.continuation(map);
        }
        p.close("}");
    }
    p.line("_ => return None,");
    p.close("})");
    p.close("}");
    p.close("}");
}
