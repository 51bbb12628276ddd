#!/usr/bin/env bash
# The delta lab in one command (bench/delta/README.md): generates the two scenarios and
# bitwire's bytes of them (the reference codec's), measures them in Rust (bitwire full and
# delta, bitcode, bitcode + zstd, FlatBuffers, the §12 code measurement) and with
# @colyseus/schema on Node, checks and times the generated delta codec in Go and in
# TypeScript (Node, Bun, Deno), writes the report and checks it in headless Chromium.
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
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

step "build: deltabench and bitwire (release); @bitwire/runtime, @colyseus/schema, TypeScript, Bun, Deno (npm ci)"
cargo build --release -q -p bitwire-delta-lab --bin deltabench -p bitwire-compiler --bin bitwire
deltabench=$target/release/deltabench
bitwire=$target/release/bitwire
# `npm install` from the same lock when `npm ci` refuses it (see bench/ts/common.sh).
npm_ci() {
  npm ci --no-audit --no-fund --loglevel=error 2>/dev/null ||
    npm install --no-audit --no-fund --loglevel=error
}
[ -x runtime/ts/node_modules/.bin/tsc ] || (cd runtime/ts && npm_ci)
(cd runtime/ts && ./node_modules/.bin/tsc -p tsconfig.json)
ts=bench/delta/ts
[ -d $ts/node_modules/@colyseus/schema ] && [ -x $ts/node_modules/.bin/tsc ] && [ -e $ts/node_modules/@bitwire/runtime ] ||
  (cd $ts && npm_ci)
# Bun's postinstall copies its binary out of the platform package; Deno comes as its
# platform package only. A runtime whose package the registry does not serve for this
# machine is skipped (said below).
find_bin() {
  local candidate
  for candidate in "$@"; do
    if [ -x "$candidate" ] && "$candidate" --version >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
}
bun=$(find_bin $ts/node_modules/.bin/bun $ts/node_modules/@oven/bun-linux-x64/bin/bun)
deno=$(find_bin $ts/node_modules/.bin/deno $ts/node_modules/@deno/linux-x64-glibc/deno)

step "generate Go and TypeScript from bench/delta/delta.bw; go build; tsc (strict)"
rm -rf bench/delta/go/deltabw $ts/gen $ts/build
"$bitwire" gen --lang go --package deltabw --out bench/delta/go/deltabw bench/delta/delta.bw >/dev/null
mkdir -p "$target/delta"
(cd bench/delta/go && go build -o "$target/delta/deltago" .)
"$bitwire" gen --lang ts --out $ts/gen bench/delta/delta.bw >/dev/null
(cd $ts && ./node_modules/.bin/tsc -p tsconfig.json)

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
  "go": $(json_str "$(go version)"),
  "node": $(json_str "$(node --version)"),
  "bun": $(json_str "${bun:+$("$bun" --version)}"),
  "deno": $(json_str "${deno:+$("$deno" --version | head -n 1)}")
}
JSON

step "scenarios and bitwire's bytes of them (reference codec): ${scenarios#"$root"/}"
"$deltabench" scenarios "${quick[@]}" --out "$scenarios"
"$deltabench" encodings --scenarios "$scenarios"

step "rust: sizes, bitwire delta (reference codec, generated code checked against it), times, §12 codes -> raw/rust.json"
"$deltabench" measure --scenarios "$scenarios" --out "$out/raw/rust.json"

step "node: @colyseus/schema patches and encodeAll -> raw/colyseus.json"
node bench/delta/ts/colyseus.mjs --scenarios "$scenarios" --out "$out/raw/colyseus.json"

step "go: the generated delta codec, checked byte for byte, timed -> raw/go.json"
"$target/delta/deltago" -scenarios "$scenarios" -out "$out/raw/go.json"

for rt in node bun deno; do
  case $rt in
    node) cmd=(node) ;;
    bun) cmd=(${bun:+"$bun"}) ;;
    deno) cmd=(${deno:+"$deno" run --allow-read --allow-write}) ;;
  esac
  if ((${#cmd[@]} == 0)); then
    step "$rt: not installed for this machine (npm serves no $rt package for it): skipped"
    continue
  fi
  step "$rt: the generated TypeScript delta codec, checked byte for byte, timed -> raw/ts-$rt.json"
  "${cmd[@]}" $ts/build/src/delta.js --scenarios "$scenarios" --out "$out/raw/ts-$rt.json"
done

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
