//! The network report (`netreport`) on a synthetic `results.json` built here: **every number
//! in it is invented** (round factors chosen so that each goal is met or not met in a known
//! way); none is a measurement. Checks the seed-shaped tables and their winners, the framing
//! overhead ratios, the goal verdicts, error and missing cells, and the HTML page's shape.

use bitwire_report::goals::Status;
use bitwire_report::net::{self, load::NetError, load::NetResults};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

mod common;
use common::balanced;

const SIZES: [u64; 3] = [8, 64, 1024];
const CONNECTIONS: [u64; 3] = [1, 4, 32];
const MODES: [&str; 2] = ["pingpong", "pipeline"];
/// (id, runtime, kind, baseline)
const SERVERS: [(&str, &str, &str, Option<&str>); 7] = [
    ("rust-mt", "rust", "bitwire", Some("rust-raw")),
    ("rust-raw", "rust", "raw", None),
    ("go", "go", "bitwire", Some("go-raw")),
    ("go-raw", "go", "raw", None),
    ("node", "node", "bitwire", Some("node-raw")),
    ("node-raw", "node", "raw", None),
    ("mcproto", "node", "mcproto", Some("node-raw")),
];
/// The cell the mixed fixture fails.
const FAILED: (&str, &str, u64, u64) = ("node", "pipeline", 32, 1024);

/// Invented packets/s. `good`: every goal met; otherwise go's framing costs 10% at 8 B, go
/// scales less to 32 connections, node's raw echo is slow and one node cell fails.
fn pps(good: bool, id: &str, mode: &str, conns: u64, size: u64) -> f64 {
    let runtime = SERVERS.iter().find(|s| s.0 == id).unwrap().1;
    let raw = match (good, runtime) {
        (true, _) => 45_000.0,
        (false, "rust") => 40_000.0,
        (false, "go") => 35_000.0,
        (false, _) => 25_000.0,
    };
    let conn = match (conns, runtime, good) {
        (1, _, _) => 1.0,
        (4, _, _) => 2.5,
        (_, "go", false) => 2.5,
        _ => 4.0,
    };
    let mode_factor = if mode == "pipeline" { 3.0 } else { 1.0 };
    let size_factor = match size {
        8 => 1.0,
        64 => 0.95,
        _ => 0.8,
    };
    let framing = match id {
        "rust-mt" => 0.97,
        "go" if size == 8 && !good => 0.90,
        "go" => 0.98,
        "node" => 0.96,
        "mcproto" => 0.70,
        _ => 1.0,
    };
    raw * conn * mode_factor * size_factor * framing
}

fn cell(good: bool, id: &str, mode: &str, conns: u64, size: u64) -> Value {
    let pps = pps(good, id, mode, conns, size);
    let mean = 1e6 * conns as f64 / pps;
    let frame = size + 1 + if size + 1 > 127 { 2 } else { 1 };
    let packets = conns * 5_000;
    let cdf: Vec<Value> = (1..=100)
        .map(|i| json!([i as f64 / 100.0, mean * (0.5 + i as f64 / 50.0)]))
        .collect();
    let failed = !good && (id, mode, conns, size) == FAILED;
    json!({
        "server": id, "mode": mode, "connections": conns, "size": size,
        "frame_bytes": frame, "packets": packets, "seconds": packets as f64 / pps, "pps": pps,
        "latency_us": { "mean": mean, "p50": mean * 0.9, "p90": mean * 1.3, "p99": mean * 2.0,
                        "p999": mean * 4.0, "max": mean * 10.0, "cdf": cdf },
        "server_cpu_us_per_packet": 0.8e6 / pps, "driver_cpu_us_per_packet": 0.5e6 / pps,
        "bytes_sent": frame * packets, "bytes_received": frame * packets,
        "errors": if failed { 3 } else { 0 },
        "error": if failed { Value::from("connection reset by peer") } else { Value::Null },
    })
}

fn fixture(good: bool) -> Value {
    let mut cells = Vec::new();
    for (id, ..) in SERVERS {
        for mode in MODES {
            for conns in CONNECTIONS {
                for size in SIZES {
                    cells.push(cell(good, id, mode, conns, size));
                }
            }
        }
    }
    let servers: Vec<Value> = SERVERS
        .iter()
        .map(|(id, runtime, kind, baseline)| {
            json!({ "id": id, "runtime": runtime, "kind": kind, "baseline": baseline,
                    "label": format!("synthetic {id}"), "command": format!("fake-server {id}") })
        })
        .collect();
    json!({
        "schema": "bitwire-netbench/1", "quick": false,
        "started": "2000-01-02T03:04:05Z", "seconds": 754.5,
        "machine": { "cpu": "Synthetic Test CPU", "cores": 2, "kernel": "test", "os": "test",
                     "pinning": "server: core 0, driver: core 1",
                     "runtimes": { "rustc": "rustc test", "go": "go test", "node": "node test" } },
        "settings": { "warmup": 500, "packets": 5000, "window": 32, "sizes": SIZES,
                      "connections": CONNECTIONS, "modes": MODES },
        "servers": servers,
        "cells": cells,
    })
}

/// A fresh directory holding `results` as results.json.
fn run_dir(name: &str, results: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitwire-netreport-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("results.json"),
        serde_json::to_string_pretty(results).unwrap(),
    )
    .unwrap();
    dir
}

fn render(results: &Value, notes: Option<&str>) -> net::NetWritten {
    let r = NetResults::parse("results.json", &results.to_string()).unwrap();
    net::render(r, notes)
}

/// The Markdown table under the heading line `heading` (up to the next blank line).
fn table_after<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
    let start = md
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading:?}"));
    md[start + heading.len() + 2..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .collect()
}

/// The Markdown from the heading line `heading` on.
fn section<'a>(md: &'a str, heading: &str) -> &'a str {
    &md[md
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no {heading:?}"))..]
}

/// The row of a Markdown table whose first cell is `label`, split into cells.
fn row<'a>(table: &[&'a str], label: &str) -> Vec<&'a str> {
    let line = table
        .iter()
        .find(|l| l.split('|').nth(1).map(str::trim) == Some(label))
        .unwrap_or_else(|| panic!("no row {label:?} in {table:#?}"));
    line.split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

fn goal<'a>(w: &'a net::NetWritten, id: &str) -> &'a bitwire_report::goals::Goal {
    w.goals.iter().find(|g| g.id == id).unwrap()
}

#[test]
fn seed_tables_mark_the_fastest_framed_server() {
    let w = render(&fixture(false), None);
    let t = table_after(&w.markdown, "#### ping-pong, 1 connection");
    assert_eq!(
        t[0],
        "| size (B) | rust-mt | go | node | mcproto | rust-raw | go-raw | node-raw |"
    );
    // rust-mt (38,800) beats go, node and mcproto; rust-raw (40,000) is faster but a floor.
    assert_eq!(
        row(&t, "8"),
        [
            "8",
            "**38,800**",
            "31,500",
            "24,000",
            "17,500",
            "40,000",
            "35,000",
            "25,000"
        ]
    );
    // 32 connections pipelined: the failed node cell is an error, never its number.
    let t = table_after(&w.markdown, "#### pipelined, 32 connections");
    let r = row(&t, "1024");
    assert_eq!(r[3], "**error**[^1]");
    assert!(!w.markdown.contains("230,400") && !w.html.contains("230,400"));
    // The seed's figures are quoted next to this run's.
    assert!(w
        .markdown
        .contains("The seed measured about 5.6–6k packets/s on one connection."));
    assert!(w.markdown.contains(
        "Here, ping-pong: the framed servers served 14,000–38,800 packets/s (fastest: rust-mt at 8 B)."
    ));
    // Scaling at 64 B: one column per connection count, the winner per column.
    let t = table_after(&w.markdown, "### ping-pong");
    assert_eq!(
        row(&t, "rust-mt"),
        ["rust-mt", "**36,860**", "**92,150**", "**147,440**"]
    );
}

#[test]
fn overhead_is_each_server_over_its_raw_echo() {
    let w = render(&fixture(false), None);
    let t = table_after(&w.markdown, "### pipelined, 4 connections");
    assert_eq!(
        t[0],
        "| size (B) | rust-mt / rust-raw | go / go-raw | node / node-raw | mcproto / node-raw |"
    );
    assert_eq!(
        row(&t, "8"),
        [
            "8",
            "0.97x (3.00%)",
            "0.90x (10.00%) ✗",
            "0.96x (4.00%)",
            "0.70x (30.00%)"
        ]
    );
    assert_eq!(row(&t, "64")[2], "0.98x (2.00%)");
    // Either side failed: an error.
    let t = table_after(&w.markdown, "### pipelined, 32 connections");
    assert_eq!(row(&t, "1024")[3], "**error**[^1]");
}

#[test]
fn goals_are_judged_on_the_figures() {
    let w = render(&fixture(false), None);
    let framing = goal(&w, "net-framing-cost");
    assert_eq!(framing.status, Status::NotMet);
    let by = |g: &bitwire_report::goals::Goal, what: &str| {
        g.checks.iter().find(|c| c.what == what).unwrap().clone()
    };
    assert_eq!(by(framing, "rust-mt").status, Status::Met);
    let go = by(framing, "go");
    assert_eq!(go.status, Status::NotMet);
    assert!(
        go.detail
            .starts_with("against go-raw: held in 12 of 18 cells; worst cost 10.00%"),
        "{}",
        go.detail
    );
    assert!(
        go.detail.contains(
            "over 5% at pingpong, 1 connection: 8 B 10.00%; pingpong, 4 connections: 8 B 10.00%; "
        ),
        "{}",
        go.detail
    );
    // node held wherever both sides were measured; one cell failed.
    let node = by(framing, "node");
    assert_eq!(node.status, Status::MetWhereMeasured);
    assert!(
        node.detail
            .ends_with("; 1 cells failed (this server or node-raw)"),
        "{}",
        node.detail
    );
    assert!(framing.why.as_deref().unwrap().contains("Why (profiles)"));

    let one = goal(&w, "net-one-connection");
    assert_eq!(one.status, Status::NotMet);
    assert_eq!(by(one, "rust-mt").status, Status::Met);
    let go = by(one, "go");
    assert_eq!(go.status, Status::NotMet);
    assert!(
        go.detail.contains("not above at 1024 B (27,440)"),
        "{}",
        go.detail
    );
    assert!(by(one, "node").detail.contains("above 28,000 at no size"));
    assert_eq!(one.checks.len(), 3, "bitwire servers only");

    let best = goal(&w, "net-32-connections");
    assert_eq!(best.status, Status::NotMet);
    assert_eq!(
        by(best, "rust-mt, pingpong, 32 connections").status,
        Status::Met
    );
    assert_eq!(by(best, "go, pipeline, 32 connections").status, Status::Met);
    let go = by(best, "go, pingpong, 32 connections");
    assert_eq!(go.status, Status::NotMet);
    assert!(
        go.detail.contains("above 87,000 at no size"),
        "{}",
        go.detail
    );
    assert_eq!(best.checks.len(), 4, "Rust and Go, two modes");

    let p99 = goal(&w, "net-p99");
    assert_eq!(p99.status, Status::NotMet);
    assert_eq!(by(p99, "rust-mt").detail, "18 of 18 cells have a p99");
    assert!(by(p99, "node")
        .detail
        .ends_with("none at pipeline, 32 connections, 1024 B (failed)"));

    // Everything met: no "why".
    let w = render(&fixture(true), Some("profile text"));
    for g in &w.goals {
        assert_eq!(g.status, Status::Met, "{}: {:?}", g.id, g.checks);
        assert!(g.why.is_none());
    }
    assert!(w
        .markdown
        .contains("Every cell of the matrix (7 servers × 18 cells) was measured with 0 errors."));
}

#[test]
fn errors_and_missing_cells_are_listed() {
    let mut results = fixture(false);
    // Drop go's ping-pong 4 connections 64 B cell.
    results["cells"].as_array_mut().unwrap().retain(|c| {
        !(c["server"] == "go"
            && c["mode"] == "pingpong"
            && c["connections"] == 4
            && c["size"] == 64)
    });
    let w = render(&results, None);
    let md = &w.markdown;
    let errors = &md[md.find("\n## Errors\n").unwrap()..];
    assert!(
        errors.contains("1 cells failed; their figures are not reported anywhere in this report.")
    );
    assert!(errors
        .contains("| node | pipeline | 32 | 1024 | 3 | **connection reset by peer (3 errors)** |"));
    assert!(errors.contains("| go | pingpong, 4 connections, 64 B | 1 |"));
    assert!(md.contains("[^1]: connection reset by peer (3 errors)"));
    let t = table_after(md, "#### ping-pong, 4 connections");
    assert_eq!(row(&t, "64")[2], "–");
    let p99 = goal(&w, "net-p99");
    assert!(p99.checks[2]
        .detail
        .contains("pingpong, 4 connections, 64 B (missing)"));
    // The HTML marks error cells.
    assert!(w
        .html
        .contains("<td class=\"n err\">error<sup><a href=\"#note-1\">[1]</a></sup></td>"));
}

#[test]
fn machine_latency_cpu_and_wire() {
    let w = render(
        &fixture(false),
        Some("## Profiles\n\nperf says *read* is 60%.\n"),
    );
    let md = &w.markdown;
    assert!(md.contains("| cores | 2 |"));
    assert!(md.contains("| run time | 12 min 34.5 s |"));
    assert!(md.contains("2 cores: the server is pinned to one core and the driver to another"));
    assert!(md.contains("0.15–0.72 ms"));
    // Latency at 64 B, ping-pong, 1 connection: rust-mt mean = 1e6 / 36,860 µs.
    let t = table_after(section(md, "## Latency"), "### 1 connection");
    let rust = row(&t, "rust-mt");
    assert_eq!(rust[1], "**27.13**");
    assert_eq!(rust[4], "**54.26**");
    // Every cell's p99 is in the folded section.
    assert!(md.contains("**p99 latency of every cell (µs)**"));
    // CPU: 0.8e6 / pps µs per packet = 80% of the server's core.
    let t = table_after(
        section(md, "## CPU per packet"),
        "### ping-pong, 1 connection",
    );
    assert_eq!(
        row(&t, "rust-mt"),
        ["rust-mt", "36,860", "**21.70**", "80%", "13.56", "50%"]
    );
    // Bytes on the wire: 64 B of Data, 66 B framed.
    let t = table_after(md, "## Bytes on the wire");
    assert_eq!(
        row(&t, "64"),
        ["64", "66.00", "2.00", "66.00", "66.00", "42"]
    );
    assert_eq!(row(&t, "1024")[1], "1,027");
    // The lead's notes, as written.
    let why = &md[md.find("## Why (profiles)").unwrap()..];
    assert!(why.contains("## Profiles\n\nperf says *read* is 60%."));
    assert!(w
        .html
        .contains("<pre class=\"verbatim\">## Profiles\n\nperf says *read* is 60%.</pre>"));
}

#[test]
fn html_is_self_contained_and_balanced() {
    let w = render(&fixture(false), Some("<script>alert(1)</script> & notes"));
    let html = &w.html;
    let seen = balanced(html).unwrap();
    // 6 packets/s-by-size charts, 2 scaling, 3 latency CDFs.
    assert_eq!(seen.iter().filter(|s| *s == "svg").count(), 11);
    for el in ["polyline", "circle", "table", "details", "summary", "pre"] {
        assert!(seen.iter().any(|s| s == el), "no <{el}>");
    }
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "a URL in the page"
    );
    assert!(!html.contains("<script"), "a script in the page");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; notes"));
    assert!(html.contains("<title>rust-mt: 38,800 packets/s at 8 bytes per packet</title>"));
    // The same document: every Markdown heading is in the page.
    for line in w.markdown.lines().filter(|l| l.starts_with("## ")) {
        let text = line.trim_start_matches('#').trim();
        let escaped = bitwire_report::format::html(text);
        assert!(html.contains(&format!(">{escaped}</h2>")), "{text}");
    }
}

#[test]
fn bad_results_are_refused() {
    let parse = |v: &Value| NetResults::parse("r.json", &v.to_string()).unwrap_err();
    let mut v = fixture(true);
    v["schema"] = json!("bitwire-netbench/2");
    assert!(matches!(parse(&v), NetError::Invalid { .. }));
    assert!(parse(&v)
        .to_string()
        .contains("schema \"bitwire-netbench/2\""));
    let mut v = fixture(true);
    v["cells"][0]["colour"] = json!(1);
    let e = parse(&v);
    assert!(
        matches!(e, NetError::Json { .. }) && e.to_string().contains("unknown field `colour`"),
        "{e}"
    );
    let mut v = fixture(true);
    v["cells"][0]["server"] = json!("zig");
    assert!(parse(&v)
        .to_string()
        .contains("cell zig pingpong, 1 connection, 8 B: no such server"));
    let mut v = fixture(true);
    let first = v["cells"][0].clone();
    v["cells"].as_array_mut().unwrap().push(first);
    assert!(parse(&v).to_string().contains("reported twice"));
    let mut v = fixture(true);
    v["servers"][0]["baseline"] = json!("go");
    assert!(parse(&v)
        .to_string()
        .contains("baseline \"go\" is not a raw echo"));
    let mut v = fixture(true);
    v["cells"][0]["latency_us"]["cdf"][0] = json!([1.5, 3.0]);
    assert!(parse(&v).to_string().contains("CDF point"));
    let mut v = fixture(true);
    v["cells"][0]["pps"] = json!(-1.0);
    assert!(parse(&v).to_string().contains("pps is negative"));
    assert!(matches!(
        NetResults::parse("r.json", "{\"schema\": \"bitwire-netbench/1\""),
        Err(NetError::Json { .. })
    ));
    // No results.json: an I/O error, nothing written.
    let dir = run_dir("missing", &json!({}));
    std::fs::remove_file(dir.join("results.json")).unwrap();
    assert!(matches!(net::write_report(&dir), Err(NetError::Io { .. })));
    assert!(!dir.join("summary.md").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_binary_writes_both_files_and_checks_for_errors() {
    let bin = env!("CARGO_BIN_EXE_netreport");
    let dir = run_dir("bin-good", &fixture(true));
    std::fs::write(dir.join("notes.md"), "lead's notes\n").unwrap();
    let out = Command::new(bin)
        .args(["--results", dir.to_str().unwrap(), "--check"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("126 cells of 7 servers (0 failed, 0 missing); goals met 4/4"),
        "{stdout}"
    );
    assert!(std::fs::read_to_string(dir.join("summary.md"))
        .unwrap()
        .contains("lead's notes"));
    assert!(std::fs::metadata(dir.join("report.html")).unwrap().len() > 10_000);
    std::fs::remove_dir_all(dir).unwrap();

    let dir = run_dir("bin-bad", &fixture(false));
    let out = Command::new(bin)
        .args(["--results", dir.to_str().unwrap(), "--check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "failed: node pipeline, 32 connections, 1024 B: connection reset by peer (3 errors)"
        ),
        "{stderr}"
    );
    assert!(
        dir.join("report.html").exists(),
        "the report is written before the check fails"
    );
    let out = Command::new(bin)
        .args(["--results", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::remove_dir_all(dir).unwrap();
    assert_eq!(Command::new(bin).output().unwrap().status.code(), Some(2));
}
