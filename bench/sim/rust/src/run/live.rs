//! The live view's screenshot: a separate, unmeasured session after the cells — a server
//! serving the page (bench/sim/ts/dist) with 10 Rust clients — while
//! bench/sim/ts/check-live.sh opens the page in headless Chromium, checks that entities
//! move and the charts update, and saves `live.png`.

use std::process::{Command, Stdio};
use std::time::Duration;

use super::cell::{start_server, Ctx};
use super::proc::Proc;
use crate::codec::CodecKind;
use crate::report::model::Live;

/// Clients of the live session.
const LIVE_CLIENTS: usize = 10;
/// How long the page check may take (seconds, passed to check-live.sh).
const CHECK_TIMEOUT_S: u64 = 90;

/// Takes the screenshot into the output directory, or says why not.
pub fn screenshot(ctx: &Ctx) -> Live {
    let p = ctx.programs;
    if !p.check_live.is_file() {
        return Live::Missing(format!("{} does not exist", p.check_live.display()));
    }
    if !p.live_page.join("index.html").is_file() {
        return Live::Missing(format!(
            "the page is not built ({}; bench/sim/ts/build.sh)",
            p.live_page.display()
        ));
    }
    match session(ctx) {
        Ok(()) => Live::Saved("live.png".into()),
        Err(e) => {
            eprintln!("sim: live view: {e}");
            Live::Missing(format!("the live view's check failed: {e}"))
        }
    }
}

fn session(ctx: &Ctx) -> Result<(), String> {
    let o = ctx.opts;
    let dir = o.out.join("cells/live");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Without --clients and --seconds the server ticks until its stdin ends.
    let (mut server, at) =
        start_server(ctx, CodecKind::Bitwire, None, &dir.join("server.log"), true)?;
    let argv: Vec<String> = vec![
        ctx.programs.client.display().to_string(),
        "--connect".into(),
        at.tcp.to_string(),
        "--codec".into(),
        "bitwire".into(),
        "--clients".into(),
        LIVE_CLIENTS.to_string(),
        "--cpu".into(),
        super::CLIENT_CPU.to_string(),
        "--timeout".into(),
        (CHECK_TIMEOUT_S + 60).to_string(),
    ];
    let mut clients = Proc::start("rust clients", &argv, &o.root, &dir.join("rust.log"))?;
    let png = o.out.join("live.png");
    let _ = std::fs::remove_file(&png);
    let log = std::fs::File::create(dir.join("check-live.log")).map_err(|e| e.to_string())?;
    let status = Command::new("bash")
        .arg(&ctx.programs.check_live)
        .arg(format!("http://{}/", at.http))
        .arg(&png)
        .arg(CHECK_TIMEOUT_S.to_string())
        .current_dir(&o.root)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .status()
        .map_err(|e| format!("check-live.sh: {e}"))?;
    server.close_stdin();
    let _ = server.wait(Duration::from_secs(30));
    let _ = clients.wait(Duration::from_secs(30));
    let verdict = std::fs::read_to_string(dir.join("check-live.log")).unwrap_or_default();
    let last = verdict
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string();
    if !status.success() {
        return Err(format!("check-live.sh {status}: {last}"));
    }
    if !png.is_file() {
        return Err(format!("check-live.sh wrote no {}", png.display()));
    }
    eprintln!("sim: live view: {last}");
    Ok(())
}
