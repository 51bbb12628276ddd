#!/usr/bin/env bash
# The network benchmark in one command (bench/net/README.md): builds every server (Rust,
# Go, TypeScript on Node, Bun and Deno, the minecraft-protocol server) and the driver, runs
# the matrix, writes the report and checks it in headless Chromium.
#
#   bash bench/net/run.sh               # full matrix -> bench/results/<YYYY-MM-DD>/net/
#   bash bench/net/run.sh --quick       # small matrix -> target/netbench/quick/
#   bash bench/net/run.sh --tiny        # CI's matrix (one size, 1 and 4 connections) -> target/netbench/tiny/
#   bash bench/net/run.sh --out DIR     # anywhere else; other arguments go to netbench
#                                       # (--servers a,b --sizes 8,64 --connections 1,4 ...)
#
# Progress: one line per step here, one line per cell from netbench (with the time left).
# Nothing here asserts on timings; a cell with an error makes the run fail after the report.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}

matrix=full
out=""
pass=()
while (($#)); do
  case "$1" in
    --quick) matrix=quick; pass+=(--quick) ;;
    --tiny) matrix=tiny; pass+=(--tiny) ;;
    --out)
      [[ $# -ge 2 ]] || { echo "bench/net/run.sh: --out needs a directory" >&2; exit 2; }
      out=$2
      shift
      ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pass+=("$1") ;;
  esac
  shift
done
case $matrix in
  full) : "${out:=$root/bench/results/$(date +%F)/net}" ;;
  *) : "${out:=$root/target/netbench/$matrix}" ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)

start=$(date +%s)
step() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

step "build: Rust (netbench, netserver, netreport, the compiler; release)"
cargo build --release -q -p bitwire-netbench -p bitwire-report -p bitwire-compiler
step "build: Go (target/netbench/go-netserver)"
mkdir -p "$target/netbench"
(cd bench/net/go && go build -o "$target/netbench/go-netserver" ./netserver)
step "build: TypeScript (runtime, bench/net/ts; Bun and Deno from conformance/ts)"
[ -d conformance/ts/node_modules ] || (cd conformance/ts && npm ci --no-audit --no-fund --loglevel=error)
(cd runtime/ts && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && ./node_modules/.bin/tsc -p tsconfig.json)
BITWIRE="$target/release/bitwire" bash bench/net/ts/build.sh
step "install: minecraft-protocol 1.68 (conformance/peers/mcproto; first run only)"
BITWIRE_MCPROTO=$(bash conformance/peers/mcproto/install.sh)
export BITWIRE_MCPROTO NETBENCH_GO="$target/netbench/go-netserver"

step "run: netbench ${pass[*]} -> ${out#"$root"/}"
status=0
# --interleave: every server runs at once (each pinned to the server core) and the cells
# take turns, so load that drifts during the run falls on every server alike.
"$target/release/netbench" --interleave "${pass[@]}" --out "$out" || status=$?
step "report: ${out#"$root"/}/summary.md and report.html"
# --check: exit 1 (after writing) when a cell failed or one of the matrix is missing.
"$target/release/netreport" --results "$out" --check || status=1
step "check the report in headless Chromium"
bash bench/net/check-report.sh "$out/report.html"
printf '\nnetbench: %s in %dm%02ds, results in %s\n' "$([ "$status" -eq 0 ] && echo ok || echo FAILED)" \
  $(( ($(date +%s) - start) / 60 )) $(( ($(date +%s) - start) % 60 )) "${out#"$root"/}"
exit "$status"
