//! `simserver`: the simulator's 60 Hz game server (bench/sim/README.md, "simserver";
//! the code is `bitwire_sim::server`).
//!
//! ```text
//! simserver --codec NAME [--tcp 127.0.0.1:0] [--http 127.0.0.1:0] [--ws 127.0.0.1:0]
//!           [--clients N] [--warmup S] [--seconds S] [--cpu CORE] [--static DIR]
//!           [--summary FILE]
//! simserver --rules
//! ```
//!
//! Prints `listening tcp=HOST:P1 http=http://HOST:P2 ws=ws://HOST:P3/`, then `done`
//! after the window once every client closed; exits 0 when its stdin ends (or
//! SIGTERM), after writing the summary; 1 on an error (a codec that does not
//! round-trip, an address in use, a bad flag), 2 on a bad command line.

use std::process::ExitCode;

use bitwire_sim::server::config::{self, Command, USAGE};

fn main() -> ExitCode {
    let command = match config::parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("simserver: {e}\nusage: {USAGE}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Rules => {
            println!("{}", bitwire_sim::rules::rules_json());
            ExitCode::SUCCESS
        }
        Command::Serve(config) => match bitwire_sim::server::run(config) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("simserver: {e}");
                ExitCode::from(1)
            }
        },
    }
}
