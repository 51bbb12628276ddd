//! The demo: encode and decode the example's sample messages with the generated Rust
//! code and print their sizes, then write them for the Go and TypeScript demos.
//!
//!     bitwire-example [DIR]           # DIR defaults to target/demo
//!     bitwire-example --verify DIR    # check what Go and TypeScript wrote back to DIR

use bitwire::Packed;
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

    // Bad input is a typed error with kind, bit offset and field path, never a panic.
    let mut bad = buf.clone();
    bad.truncate(bad.len() - 3);
    let err = Events::decode(&bad).unwrap_err();
    println!("\ntruncated Events: {err}");
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
