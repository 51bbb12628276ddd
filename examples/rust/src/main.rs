//! The demo: encode and decode the example's sample messages with the generated Rust
//! code, in the packed encoding and in the bincode one, and print their sizes; then write
//! them for the Go and TypeScript demos.
//!
//!     bitwire-example [DIR]           # DIR defaults to target/demo
//!     bitwire-example --verify DIR    # check what Go and TypeScript wrote back to DIR

use bitwire::{Bincode, Packed};
use std::fmt::Debug;
use std::path::Path;

use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use bitwire_example::samples;

mod cross;

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show(name: &str, bytes: &[u8], max: Option<usize>) {
    let max = max.map_or("unbounded".to_string(), |m| format!("max {m} B"));
    let shown = if bytes.len() > 24 {
        format!("{} ...", hex(&bytes[..24]))
    } else {
        hex(bytes)
    };
    println!("{name:<22} {:>5} B  ({max})  {shown}", bytes.len());
}

/// Encodes `value` in the bincode encoding into `buf`, checks it decodes to `value` and
/// shows the bytes.
fn show_bincode<T: Bincode + PartialEq + Debug>(
    name: &str,
    value: &T,
    buf: &mut Vec<u8>,
) -> bitwire::Result<()> {
    buf.clear();
    value.encode_bincode(buf)?;
    assert_eq!(&T::decode_bincode(buf)?, value);
    let max = T::MAX_BYTES.and_then(|m| usize::try_from(m).ok());
    show(name, buf, max);
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = match args.as_slice() {
        [flag, dir] if flag == "--verify" => return cross::verify(Path::new(dir)),
        [] => "target/demo",
        [dir] if !dir.starts_with('-') => dir,
        _ => return Err("usage: bitwire-example [DIR] | --verify DIR".into()),
    };

    // One buffer, reused for every message: encoding appends to it.
    let mut buf = Vec::new();

    let packet = samples::packet64();
    packet.encode(&mut buf)?;
    assert_eq!(Packet64::decode(&buf)?, packet);
    show("Packet64", &buf, Some(Packet64::MAX_ENCODED_SIZE));

    let input = samples::input();
    buf.clear();
    input.encode(&mut buf)?;
    let back = Input::decode(&buf)?;
    assert_eq!(back.seq, input.seq);
    show("Input", &buf, Some(Input::MAX_ENCODED_SIZE));
    println!(
        "{:<22} move_x {} -> {}, yaw {} -> {} (quantized)",
        "", input.move_x, back.move_x, input.yaw, back.yaw
    );

    for n in [1, 16, 64] {
        let snap = samples::snapshot(n);
        buf.clear();
        snap.encode(&mut buf)?;
        let back = Snapshot::decode(&buf)?;
        assert_eq!(back.entities.len(), n);
        assert_eq!(
            back.entities.iter().map(|e| &e.name).collect::<Vec<_>>(),
            snap.entities.iter().map(|e| &e.name).collect::<Vec<_>>()
        );
        show(
            &format!("Snapshot ({n} entities)"),
            &buf,
            Some(Snapshot::MAX_ENCODED_SIZE),
        );
    }

    let events = samples::events();
    buf.clear();
    events.encode(&mut buf)?;
    assert_eq!(Events::decode(&buf)?, events);
    show("Events (5 events)", &buf, None);

    // The same values in the bincode encoding (docs/spec.md §13): byte-aligned, every
    // integer in its Rust type's width, u64 lengths; what bincode 1.3 and wincode 0.6
    // write for the generated types. Floats are written as they are, not quantized.
    println!("\nthe same values in the bincode encoding (bincode 1.3 / wincode 0.6 bytes):");
    show_bincode("Packet64", &packet, &mut buf)?;
    show_bincode("Input", &input, &mut buf)?;
    for n in [1, 16, 64] {
        show_bincode(
            &format!("Snapshot ({n} entities)"),
            &samples::snapshot(n),
            &mut buf,
        )?;
    }
    show_bincode("Events (5 events)", &events, &mut buf)?;

    // Bad input is a typed error with kind, bit offset and field path, never a panic.
    let packed = events.encode_to_vec()?;
    let err = Events::decode(&packed[..packed.len() - 3]).unwrap_err();
    println!("\ntruncated Events: {err}");
    let bincode = events.encode_bincode_to_vec()?;
    let err = Events::decode_bincode(&bincode[..bincode.len() - 3]).unwrap_err();
    println!("truncated Events, bincode: {err}");
    let too_healthy = Packet64 {
        health: 600,
        ..packet
    };
    println!(
        "health 600 in a u9: {}",
        too_healthy.encode(&mut buf).unwrap_err()
    );

    cross::write(Path::new(dir))
}
