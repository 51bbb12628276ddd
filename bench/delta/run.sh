#!/usr/bin/env bash
# The delta lab in one command (bench/delta/README.md): generates the two scenarios, measures
# them in Rust (bitwire full and delta, bitcode, bitcode + zstd, FlatBuffers, the §12 code
# measurement) and with @colyseus/schema on Node, writes the report and checks it in
# headless Chromium.
#
#   bash bench/delta/run.sh             # 600 ticks -> bench/results/<YYYY-MM-DD>/delta/
#   bash bench/delta/run.sh --quick     # 120 ticks, 3 timing passes (CI) -> target/delta/quick/
#   bash bench/delta/run.sh --out DIR   # anywhere else
#   bash bench/delta/run.sh --no-browser  # skip the Chromium check (no browser driver here)
#
# Nothing here asserts on timings. Exits 1 if a step fails, a series the goals need is
# missing (deltabench report --check) or the page does not render.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}

quick=()
out=""
browser=1
while (($#)); do
  case "$1" in
    --quick) quick=(--quick) ;;
    --no-browser) browser=0 ;;
    --out)
      [[ $# -ge 2 ]] || { echo "bench/delta/run.sh: --out needs a directory" >&2; exit 2; }
      out=$2
      shift
      ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/delta/run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if ((${#quick[@]})); then
  : "${out:=$root/target/delta/quick}"
else
  : "${out:=$root/bench/results/$(date +%F)/delta}"
fi
mkdir -p "$out/raw"
out=$(cd "$out" && pwd)
scenarios=$target/delta/scenarios${quick:+-quick}
# Only this run's files: a stale raw file would be merged into the report.
rm -f "$out"/raw/*.json "$out/machine.json" "$out/results.json" "$out/summary.md" "$out/report.html"

start=$(date +%s)
step() { printf '\n==> [%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }

json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}

step "build: deltabench (release); @colyseus/schema (bench/delta/ts, npm ci)"
cargo build --release -q -p bitwire-delta-lab --bin deltabench
deltabench=$target/release/deltabench
# `npm install` from the same lock when `npm ci` refuses it (see bench/ts/common.sh).
[ -d bench/delta/ts/node_modules/@colyseus/schema ] || (cd bench/delta/ts && {
  npm ci --no-audit --no-fund --loglevel=error 2>/dev/null ||
    npm install --no-audit --no-fund --loglevel=error
})

step "machine: ${out#"$root"/}/machine.json"
dirty=false
[[ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] || dirty=true
cat >"$out/machine.json" <<JSON
{
  "date": $(json_str "$(date +%F)"),
  "quick": $( ((${#quick[@]})) && echo true || echo false),
  "cpu": $(json_str "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)"),
  "cores": $(nproc 2>/dev/null || echo 0),
  "kernel": $(json_str "$(uname -sr)"),
  "os": $(json_str "$( (. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}") || uname -o)"),
  "git commit": $(json_str "$(git rev-parse HEAD 2>/dev/null || echo unknown)$($dirty && echo ' (with uncommitted changes)')"),
  "rustc": $(json_str "$(rustc --version)"),
  "node": $(json_str "$(node --version)")
}
JSON

step "scenarios: ${scenarios#"$root"/}"
"$deltabench" scenarios "${quick[@]}" --out "$scenarios"

step "rust: sizes, bitwire delta (reference codec, generated code checked against it), times, §12 codes -> raw/rust.json"
"$deltabench" measure --scenarios "$scenarios" --out "$out/raw/rust.json"

step "node: @colyseus/schema patches and encodeAll -> raw/colyseus.json"
node bench/delta/ts/colyseus.mjs --scenarios "$scenarios" --out "$out/raw/colyseus.json"

step "report: ${out#"$root"/}/results.json, summary.md, report.html"
status=0
"$deltabench" report --results "$out" --check || status=1

if ((browser)); then
  step "check the report in headless Chromium"
  bash bench/net/check-report.sh "$out/report.html" || status=1
fi
printf '\ndelta lab: %s in %ds, results in %s\n' "$([ "$status" -eq 0 ] && echo ok || echo FAILED)" \
  $(($(date +%s) - start)) "${out#"$root"/}"
exit "$status"
