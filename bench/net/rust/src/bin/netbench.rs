//! `netbench`: the network benchmark's load generator and orchestrator
//! (bench/net/README.md). Runs the matrix of servers × modes × connections × sizes and
//! writes `results.json`; exits 1 if any cell or server check failed, 2 on bad usage.

use std::process::ExitCode;

use bitwire_netbench::matrix::{self, Options, USAGE};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("netbench: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match matrix::run(&options) {
        Ok(ok) => {
            let path = options.out.join("results.json");
            println!("netbench: wrote {}", path.display());
            if ok {
                ExitCode::SUCCESS
            } else {
                eprintln!(
                    "netbench: some cells or servers failed (see the errors in {})",
                    path.display()
                );
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("netbench: {e}");
            ExitCode::FAILURE
        }
    }
}
