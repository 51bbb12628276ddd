#!/usr/bin/env bash
# The game-server simulator in one command (bench/sim/README.md; what `./run sim` calls):
# builds the server, the clients, `sim` and `simprom` (the TypeScript clients and the live
# view's page when the run needs them, Prometheus with --prometheus), runs every cell,
# writes the report and checks it in headless Chromium.
#
#   bash bench/sim/run.sh               # every codec at 10, 50, 100, 250, 1000, 2000 clients -> bench/results/<date>/sim/
#   bash bench/sim/run.sh --quick       # 10 and 100 clients, 3 s windows -> target/sim/quick/
#   bash bench/sim/run.sh --smoke       # CI: 10 clients, 3 s, the pipeline and the metrics check -> target/sim/smoke/
#   bash bench/sim/run.sh --clients 10,50 --codec bitwire,bitcode --seconds 5   # -> target/sim/custom/
#   bash bench/sim/run.sh --prometheus  # a real Prometheus server scrapes every cell (first time:
#                                       # builds it, about six minutes); figures from its API
#   bash bench/sim/run.sh --mixed       # adds cells of Rust, Node, Bun and Deno clients
#   bash bench/sim/run.sh --out DIR     # anywhere else
#
# Progress: one line per step here, two per cell from `sim`. Nothing here asserts on
# timings; a failed cell makes the run fail after the report is written.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
tools=${SIM_TOOLS:-$root/target/sim-tools}

mode=full
out=""
prometheus=0
mixed=0
pass=()
while (($#)); do
  case "$1" in
    --quick) mode=quick; pass+=("$1") ;;
    --smoke) mode=smoke; pass+=("$1") ;;
    --prometheus) prometheus=1; pass+=("$1") ;;
    --mixed) mixed=1; pass+=("$1") ;;
    --clients | --codec | --seconds)
      [[ $# -ge 2 ]] || { echo "bench/sim/run.sh: $1 needs a value" >&2; exit 2; }
      [ "$mode" != full ] || mode=custom
      pass+=("$1" "$2")
      shift
      ;;
    --out)
      [[ $# -ge 2 ]] || { echo "bench/sim/run.sh: --out needs a directory" >&2; exit 2; }
      out=$2
      shift
      ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pass+=("$1") ;;
  esac
  shift
done
case $mode in
  full) : "${out:=$root/bench/results/$(date -u +%F)/sim}" ;;
  *) : "${out:=$root/target/sim/$mode}" ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)

start=$(date +%s)
step() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
npm_ci() { npm ci --no-audit --no-fund --loglevel=error; }

step "build: Rust (simserver, simclient, sim; release)"
cargo build --release -q -p bitwire-sim
step "build: simprom (Go, bench/sim/go -> ${tools#"$root"/}/bin/simprom)"
mkdir -p "$tools/bin"
(cd bench/sim/go && go build -o "$tools/bin/simprom" ./simprom)
if ((prometheus)); then
  step "install: Prometheus v0.316.0 (first time: go install, several minutes; cached after)"
  bash bench/sim/prometheus/prometheus.sh install > /dev/null
fi
# The TypeScript side: the mixed cells' clients and the live view's page (not in a smoke run).
if [ "$mode" != smoke ] || ((mixed)); then
  if [ -f bench/sim/ts/build.sh ]; then
    step "build: TypeScript (the compiler, runtime/ts, bench/sim/ts: clients and the live view's page)"
    cargo build --release -q -p bitwire-compiler
    (cd runtime/ts && { [ -d node_modules ] || npm_ci; } && ./node_modules/.bin/tsc -p tsconfig.json)
    BITWIRE="$target/release/bitwire" bash bench/sim/ts/build.sh
    if ((mixed)); then
      # Bun and Deno come from npm with conformance/ts (the network benchmark's runtimes).
      [ -d conformance/ts/node_modules ] || (cd conformance/ts && npm_ci)
    fi
  else
    step "no bench/sim/ts: no TypeScript clients, no live view"
  fi
fi

step "run: sim ${pass[*]} -> ${out#"$root"/}"
status=0
SIMPROM="$tools/bin/simprom" "$target/release/sim" "${pass[@]}" --out "$out" || status=$?
if [ "$mode" != smoke ] && [ -f "$out/report.html" ]; then
  step "check the report in headless Chromium"
  bash bench/net/check-report.sh "$out/report.html" || status=1
fi
printf '\nsim: %s in %dm%02ds, results in %s\n' "$([ "$status" -eq 0 ] && echo ok || echo FAILED)" \
  $(( ($(date +%s) - start) / 60 )) $(( ($(date +%s) - start) % 60 )) "${out#"$root"/}"
exit "$status"
