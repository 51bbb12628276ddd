//! `bincode-vectors`: rewrites `testdata/vectors/bincode/*.json` from the real crates;
//! `--check` only compares (exit status 1 when a file is stale).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => match bitwire_bincode_peers::write_all() {
            Ok(counts) => {
                for (suite, n) in counts {
                    println!("{suite}: {n} cases");
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("bincode-vectors: {e}");
                ExitCode::FAILURE
            }
        },
        [flag] if flag == "--check" => {
            let stale = bitwire_bincode_peers::check_all();
            for s in &stale {
                eprintln!("stale: testdata/vectors/bincode/{}: {}", s.file, s.why);
            }
            if stale.is_empty() {
                println!("bincode vectors are fresh");
                ExitCode::SUCCESS
            } else {
                eprintln!("run `cargo run -p bitwire-bincode-peers` and commit the files");
                ExitCode::FAILURE
            }
        }
        _ => {
            eprintln!("usage: bincode-vectors [--check]");
            ExitCode::from(2)
        }
    }
}
