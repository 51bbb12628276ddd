//! `netbench` end to end: the tiny matrix against the Rust servers, a server that does
//! not start, and the shape of results.json (bench/net/README.md, "Results").

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("netbench-run-{name}"))
}

/// Runs `netbench --tiny` with `servers` into a fresh directory; returns its exit code
/// and results.json.
fn netbench(name: &str, servers: &str, go: &str) -> (i32, Value) {
    netbench_with(name, &["--servers", servers], &[("NETBENCH_GO", go)])
}

fn netbench_with(name: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, Value) {
    let out = scratch(name);
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_netbench"))
        .arg("--tiny")
        .args(args)
        .arg("--out")
        .arg(&out)
        .envs(env.iter().copied())
        .status()
        .unwrap();
    let json = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(out.join("logs/progress.log").is_file());
    (status.code().unwrap(), serde_json::from_str(&json).unwrap())
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn check_good_cell(cell: &Value) {
    let name = format!("{}", cell);
    assert_eq!(cell["errors"], 0, "{name}");
    assert_eq!(cell["error"], Value::Null, "{name}");
    assert_eq!(cell["size"], 64);
    assert_eq!(cell["frame_bytes"], 66);
    let connections = cell["connections"].as_u64().unwrap();
    let packets = cell["packets"].as_u64().unwrap();
    assert_eq!(packets, connections * 200);
    assert_eq!(cell["bytes_sent"].as_u64(), Some(packets * 66));
    assert_eq!(cell["bytes_received"], cell["bytes_sent"]);
    assert!(number(&cell["seconds"]) > 0.0 && number(&cell["pps"]) > 0.0);
    assert!(number(&cell["server_cpu_us_per_packet"]) >= 0.0);
    assert!(number(&cell["driver_cpu_us_per_packet"]) >= 0.0);
    let l = &cell["latency_us"];
    let keys = ["mean", "p50", "p90", "p99", "p999", "max"];
    let values: Vec<f64> = keys.iter().map(|k| number(&l[k])).collect();
    assert!(values[1] <= values[2] && values[2] <= values[3] && values[3] <= values[4]);
    assert!(values[4] <= values[5] && values[0] <= values[5]);
    let cdf = l["cdf"].as_array().unwrap();
    assert_eq!(cdf.len(), 100);
    assert_eq!(cdf[0][0], 0.01);
    assert_eq!(cdf[99][0], 1.0);
    assert_eq!(number(&cdf[99][1]), values[5]);
}

#[test]
fn tiny_matrix_with_a_server_that_does_not_start() {
    let (code, r) = netbench("mixed", "rust-mt,rust-raw,go", "/nonexistent/go-netserver");
    assert_eq!(code, 1, "a failed server fails the run");
    assert_eq!(r["schema"], "bitwire-netbench/1");
    assert_eq!(r["quick"], true);
    assert!(r["started"].as_str().unwrap().ends_with('Z'));
    let m = &r["machine"];
    for key in ["cpu", "kernel", "os", "pinning"] {
        assert!(m[key].is_string(), "{key}");
    }
    assert!(m["cores"].as_u64().unwrap() >= 1);
    assert!(m["runtimes"]["rustc"].is_string() && m["runtimes"]["go"].is_string());
    let s = &r["settings"];
    assert_eq!(
        (s["warmup"].as_u64(), s["packets"].as_u64()),
        (Some(20), Some(200))
    );
    assert_eq!(s["sizes"], serde_json::json!([64]));
    assert_eq!(s["connections"], serde_json::json!([1, 4]));
    assert_eq!(s["modes"], serde_json::json!(["pingpong", "pipeline"]));

    let servers = r["servers"].as_array().unwrap();
    let ids: Vec<&str> = servers.iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["rust-mt", "rust-raw", "go"]);
    assert_eq!(servers[0]["kind"], "bitwire");
    assert_eq!(servers[0]["baseline"], "rust-raw");
    assert_eq!(servers[0]["command"], "netserver --shape mt");
    // 2 modes × (1 + 4 connections) × (20 + 200) packets, and the priming: 4 × 200.
    assert_eq!(servers[0]["served"], "served 3000 packets, 0 errors");
    assert_eq!(servers[0]["error"], Value::Null);
    assert_eq!(servers[1]["kind"], "raw");
    assert_eq!(servers[1]["served"], "served 3000 packets, 0 errors");
    assert_eq!(servers[1]["error"], Value::Null);
    let go_error = servers[2]["error"].as_str().unwrap();
    assert!(
        go_error.starts_with("the server did not start"),
        "{go_error}"
    );

    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 12);
    for cell in &cells[..8] {
        check_good_cell(cell);
    }
    for cell in &cells[8..] {
        assert_eq!(cell["server"], "go");
        assert_eq!(cell["errors"], 1);
        assert_eq!(cell["error"].as_str(), Some(go_error));
        assert_eq!(cell["latency_us"], Value::Null);
        assert_eq!(cell["pps"], 0.0);
    }
}

#[test]
fn tiny_matrix_passes() {
    let (code, r) = netbench("ct", "rust-ct", "");
    assert_eq!(code, 0);
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4);
    cells.iter().for_each(check_good_cell);
}

#[test]
fn interleaved_tiny_matrix_passes() {
    let args = ["--servers", "rust-ct,rust-raw", "--interleave"];
    let (code, r) = netbench_with("interleave", &args, &[]);
    assert_eq!(code, 0);
    let cells = r["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 8);
    cells.iter().for_each(check_good_cell);
    let servers: Vec<&str> = cells
        .iter()
        .map(|c| c["server"].as_str().unwrap())
        .collect();
    assert_eq!(servers, [["rust-ct"; 4], ["rust-raw"; 4]].concat());
    for s in r["servers"].as_array().unwrap() {
        assert_eq!(s["served"], "served 3000 packets, 0 errors");
    }
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["--servers", "nope"][..],
        &["--sizes", "5"],
        &["--quick", "--tiny"],
        &["x"],
    ] {
        let status = Command::new(env!("CARGO_BIN_EXE_netbench"))
            .args(args)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
}

/// A "Go server" that is a shell script: it says it listens on the port of a
/// listener in this test that reads and never answers, then runs `rest`.
fn silent_server(name: &str, rest: &str) -> (String, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || std::io::copy(&mut stream, &mut std::io::sink()));
        }
    });
    let dir = scratch(name);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.with_extension("sh");
    let text = format!("#!/bin/sh\necho \"listening 127.0.0.1:$FAKE_PORT\"\n{rest}\n");
    std::fs::write(&script, text).unwrap();
    let chmod = Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status()
        .unwrap();
    assert!(chmod.success());
    (script.display().to_string(), port)
}

fn errors(r: &Value) -> Vec<String> {
    let cells = r["cells"].as_array().unwrap();
    cells
        .iter()
        .map(|c| c["error"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_server_that_never_answers_is_given_up() {
    let rest = "cat > /dev/null\necho 'served 0 packets, 0 errors'";
    let (script, port) = silent_server("hang", rest);
    let args = ["--servers", "go", "--timeout", "0.2"];
    let (code, r) = netbench_with(
        "hang",
        &args,
        &[("NETBENCH_GO", &script), ("FAKE_PORT", &port)],
    );
    assert_eq!(code, 1);
    // The priming (4 connections × 200 packets) times out: no cell is run.
    let e = errors(&r);
    assert_eq!(e.len(), 4);
    assert!(
        e[0].starts_with(
            "not run: priming (64 B) failed: timed out after 200ms with 0 of 800 replies"
        ),
        "{e:?}"
    );
    assert!(e.iter().all(|x| x == &e[0]), "{e:?}");
    assert_eq!(r["servers"][0]["served"], "served 0 packets, 0 errors");
}

#[test]
fn a_server_that_exits_is_given_up() {
    let (script, port) = silent_server("exits", "exit 3");
    let args = ["--servers", "go", "--timeout", "0.2"];
    let (code, r) = netbench_with(
        "exits",
        &args,
        &[("NETBENCH_GO", &script), ("FAKE_PORT", &port)],
    );
    assert_eq!(code, 1);
    let e = errors(&r);
    assert!(
        e[0].starts_with("not run: priming (64 B) failed: "),
        "{e:?}"
    );
    assert!(e.iter().all(|x| x == &e[0]), "{e:?}");
    let stop = r["servers"][0]["error"].as_str().unwrap();
    assert!(
        stop.starts_with("the server did not stop cleanly"),
        "{stop}"
    );
}
