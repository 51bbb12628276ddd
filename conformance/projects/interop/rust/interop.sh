#!/usr/bin/env bash
# The Rust project's side of the interop exchange (conformance/projects/run.py):
#   bash interop.sh write EXCH   writes EXCH/rust.<Message>.bin
#   bash interop.sh read EXCH    checks every EXCH/<other>.<Message>.bin
# The program is src/bin/interop.rs, a second binary of the guide's crate, using the
# code its build script generated from lobby.bw, as the user's own code does.
set -euo pipefail
cargo run -q --bin interop -- "$1" "$2"
