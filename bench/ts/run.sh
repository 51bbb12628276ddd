#!/usr/bin/env bash
# The TypeScript packet64 benchmark on Node, Bun and Deno, from a fresh clone:
# builds the bitwire compiler (unless $BITWIRE names a binary), installs the runtime
# and the tools from npm, generates TypeScript from examples/game.bw, compiles it under
# tsc --strict and runs build/src/main.js (packet64) and build/src/verify.js (verify
# against decode on Snapshot messages) on each runtime. The benchmark lab (all peers,
# all datasets) is lab.sh.
#
#   bash bench/ts/run.sh            # 10,000 packets, 301 interleaved rounds per runtime
#   bash bench/ts/run.sh --quick    # seconds, for CI: the numbers are not meaningful
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../.. && pwd)
# shellcheck source=common.sh
. "$here/common.sh"

ts_setup

for rt in node bun deno; do
  ts_cmd "$rt"
  step "$rt"
  "${cmd[@]}" build/src/main.js "$@"
  "${cmd[@]}" build/src/verify.js "$@"
  "${cmd[@]}" build/src/framing.js "$@"
done
