#!/usr/bin/env bash
# The benchmark lab's TypeScript part (bench/README.md) on Node, Bun and Deno: builds as
# run.sh does (common.sh), generates bitwire TypeScript from examples/game.bw and
# bench/schemas/pod.bw, compiles everything with tsc --strict, and runs
# build/src/lab/main.js on each runtime against a corpus written by
# `cargo run --release -p bitwire-lab --bin corpus`.
#
#   bash bench/ts/lab.sh [--quick] --corpus DIR --out-dir DIR
#       writes DIR/ts-node.json, DIR/ts-bun.json, DIR/ts-deno.json (raw result format 1)
#   bash bench/ts/lab.sh --check --corpus DIR
#       round-trips every peer on every runtime (no timing); exits non-zero on a failure
#
# $BITWIRE names a compiler binary to skip the cargo build.
set -euo pipefail

usage() {
  echo "usage: bash bench/ts/lab.sh [--quick] --corpus DIR --out-dir DIR | --check --corpus DIR" >&2
  exit 2
}

quick=()
check=false
corpus=""
outdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --check) check=true ;;
    --corpus) corpus=${2:-}; shift ;;
    --out-dir) outdir=${2:-}; shift ;;
    *) usage ;;
  esac
  shift
done
[ -n "$corpus" ] || usage
$check || [ -n "$outdir" ] || usage
[ -f "$corpus/manifest.json" ] || { echo "no corpus at $corpus (manifest.json missing)" >&2; exit 1; }
corpus=$(cd "$corpus" && pwd)
if ! $check; then
  mkdir -p "$outdir"
  outdir=$(cd "$outdir" && pwd)
fi

cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../.. && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

ts_setup

for rt in node bun deno; do
  ts_cmd "$rt"
  if $check; then
    step "$rt: check every peer on $corpus"
    "${cmd[@]}" build/src/lab/main.js --corpus "$corpus" --check
  else
    step "$rt: lab${quick:+ (quick)} on $corpus"
    "${cmd[@]}" build/src/lab/main.js --corpus "$corpus" "${quick[@]}" --out "$outdir/ts-$rt.json"
  fi
done
