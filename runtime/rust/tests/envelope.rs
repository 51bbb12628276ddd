//! The shared snapshot envelope vectors (testdata/vectors/envelope, docs/framing.md §10)
//! through `bitwire::baseline`, with the test codec of the vectors' README.

#[path = "support/u32_list.rs"]
mod u32_list;

use std::path::Path;

use bitwire::baseline::{SnapshotHeader, SnapshotReceiver, SnapshotSender};
use serde_json::Value;
use u32_list::U32List;

fn vectors() -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/envelope/envelope.json");
    let text = std::fs::read_to_string(&path).expect("envelope.json");
    serde_json::from_str(&text).expect("valid JSON")
}

fn hex(v: &Value) -> Vec<u8> {
    let s = v.as_str().expect("a hex string");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn uint(v: &Value) -> u64 {
    v.as_u64().expect("a number")
}

fn list(v: &Value) -> U32List {
    let items = v.as_array().expect("a list of numbers");
    U32List(items.iter().map(|x| uint(x) as u32).collect())
}

fn cases<'a>(doc: &'a Value, key: &str) -> impl Iterator<Item = (&'a str, &'a Value)> {
    doc[key]
        .as_array()
        .expect("a case list")
        .iter()
        .map(|c| (c["id"].as_str().expect("an id"), c))
}

#[test]
fn headers() {
    let doc = vectors();
    let mut n = 0;
    for (id, case) in cases(&doc, "headers") {
        let bytes = hex(&case["bytes"]);
        match SnapshotHeader::read(&bytes) {
            Ok((h, body)) => {
                assert_eq!(u64::from(h.seq), uint(&case["seq"]), "{id}");
                assert_eq!(u64::from(h.back), uint(&case["back"]), "{id}");
                assert_eq!(h.base().map(u64::from), case["base"].as_u64(), "{id}");
                assert_eq!(body, hex(&case["body"]), "{id}");
                assert_eq!(h.to_bytes(), bytes[..3], "{id}: written back");
            }
            Err(e) => assert_eq!(Some(e.kind().name()), case["error"].as_str(), "{id}"),
        }
        n += 1;
    }
    assert!(n >= 7, "{n} header cases");
}

#[test]
fn sender() {
    let doc = vectors();
    for (id, case) in cases(&doc, "sender") {
        let mut s = SnapshotSender::<U32List>::new(uint(&case["ring"]) as u8);
        for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
            let at = format!("{id} step {i}");
            if let Some(value) = step.get("send") {
                let mut out = vec![0xee]; // encode appends
                match s.encode(list(value), &mut out) {
                    Ok(h) => {
                        assert_eq!(&out[1..], hex(&step["packet"]), "{at}");
                        let want = &step["header"];
                        let got = [u64::from(h.seq), u64::from(h.back)];
                        assert_eq!(got, [uint(&want[0]), uint(&want[1])], "{at}");
                    }
                    Err(e) => {
                        assert_eq!(Some(e.kind().name()), step["error"].as_str(), "{at}");
                        let inner = e.message_error().map(|m| m.kind().name());
                        assert_eq!(inner, step["message"].as_str(), "{at}");
                        assert_eq!(out, [0xee], "{at}: out unchanged");
                    }
                }
            } else if let Some(seq) = step.get("ack") {
                let got = s.ack(uint(seq) as u16).err().map(|e| e.kind().name());
                assert_eq!(got, step["error"].as_str(), "{at}");
            } else {
                assert_eq!(step["request_full"], Value::Bool(true), "{at}");
                s.request_full();
            }
        }
    }
}

#[test]
fn receiver() {
    let doc = vectors();
    for (id, case) in cases(&doc, "receiver") {
        let mut r = SnapshotReceiver::<U32List>::new(uint(&case["ring"]) as u8);
        for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
            let at = format!("{id} step {i}");
            match r.decode(&hex(&step["packet"])) {
                Ok(Some(got)) => {
                    assert_eq!(u64::from(got.seq), uint(&step["seq"]), "{at}");
                    assert_eq!(got.value, &list(&step["value"]), "{at}");
                }
                Ok(None) => assert_eq!(step["dropped"], Value::Bool(true), "{at}"),
                Err(e) => {
                    assert_eq!(Some(e.kind().name()), step["error"].as_str(), "{at}");
                    let inner = e.message_error().map(|m| m.kind().name());
                    assert_eq!(inner, step["message"].as_str(), "{at}");
                }
            }
            assert_eq!(r.ack().map(u64::from), step["ack"].as_u64(), "{at}: ack");
            assert_eq!(
                Value::Bool(r.need_full()),
                step["need_full"],
                "{at}: need_full"
            );
        }
    }
}
