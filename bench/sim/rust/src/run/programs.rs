//! Where the programs of a run are: `simserver` and `simclient` beside `sim`, `simprom`
//! in target/sim-tools (bench/sim/run.sh builds it), the Prometheus script, and the
//! TypeScript clients with the runtimes the network benchmark uses.

use std::path::{Path, PathBuf};

use bitwire_netbench::servers::Programs as NetPrograms;

/// The TypeScript clients' entries (built by bench/sim/ts/build.sh).
const TS_BUILD: &str = "bench/sim/ts/build/src";

/// The programs of a run.
#[derive(Debug, Clone)]
pub struct Programs {
    /// `simserver` (env `SIM_SERVER`, default beside this binary).
    pub server: PathBuf,
    /// `simclient` (env `SIM_CLIENT`, default beside this binary).
    pub client: PathBuf,
    /// `simprom` (env `SIMPROM`, default target/sim-tools/bin/simprom).
    pub simprom: PathBuf,
    /// bench/sim/prometheus/prometheus.sh.
    pub prometheus: PathBuf,
    /// bench/sim/ts/check-live.sh (the live view's check and screenshot).
    pub check_live: PathBuf,
    /// bench/sim/ts/dist (the live view's page, served by `simserver --static`).
    pub live_page: PathBuf,
    /// Node, Bun and Deno (env `NODE`, `BUN`, `DENO`; the network benchmark's defaults).
    pub runtimes: NetPrograms,
    /// The repository.
    pub root: PathBuf,
}

impl Programs {
    /// The programs from the environment, relative paths from `root`.
    pub fn from_env(root: &Path) -> Programs {
        let beside = |name: &str| {
            std::env::current_exe()
                .ok()
                .and_then(|p| p.parent().map(|d| d.join(name)))
                .unwrap_or_else(|| PathBuf::from(name))
        };
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Programs {
            server: var("SIM_SERVER").unwrap_or_else(|| beside("simserver")),
            client: var("SIM_CLIENT").unwrap_or_else(|| beside("simclient")),
            simprom: var("SIMPROM").unwrap_or_else(|| root.join("target/sim-tools/bin/simprom")),
            prometheus: root.join("bench/sim/prometheus/prometheus.sh"),
            check_live: root.join("bench/sim/ts/check-live.sh"),
            live_page: root.join("bench/sim/ts/dist"),
            runtimes: NetPrograms::from_env(),
            root: root.to_path_buf(),
        }
    }

    /// The command line of a TypeScript client on `runtime`, before its flags, or why it
    /// cannot run (its binary or the built client is missing).
    pub fn ts_client(&self, runtime: &str) -> Result<Vec<String>, String> {
        let entry = self.root.join(TS_BUILD).join(format!("{runtime}.js"));
        if !entry.is_file() {
            return Err(format!(
                "{} is not built (bench/sim/ts/build.sh)",
                entry.display()
            ));
        }
        let entry = entry.display().to_string();
        let r = &self.runtimes;
        let (bin, argv) = match runtime {
            "node" => (&r.node, vec![r.node.clone(), entry]),
            "bun" => (&r.bun, vec![r.bun.clone(), entry]),
            "deno" => (
                &r.deno,
                vec![
                    r.deno.clone(),
                    "run".into(),
                    "--allow-net".into(),
                    "--allow-write".into(),
                    entry,
                ],
            ),
            other => return Err(format!("no TypeScript runtime {other:?}")),
        };
        if !runs(&self.root, bin) {
            return Err(format!("{runtime}: {bin} does not run"));
        }
        Ok(argv)
    }
}

/// Whether `bin --version` runs (a missing runtime is skipped, not an error of the run).
fn runs(root: &Path, bin: &str) -> bool {
    std::process::Command::new(bin)
        .arg("--version")
        .current_dir(root)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
