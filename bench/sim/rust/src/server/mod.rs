//! Being written (issue 15): see bench/sim/README.md.
