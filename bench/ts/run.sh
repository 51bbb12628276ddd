#!/usr/bin/env bash
# The TypeScript packet64 benchmark on Node, Bun and Deno, from a fresh clone:
# builds the bitwire compiler (unless $BITWIRE names a binary), installs the runtime
# and the tools from npm, generates TypeScript from examples/game.bw, compiles it under
# tsc --strict and runs build/src/main.js (packet64) and build/src/verify.js (verify
# against decode on Snapshot messages) on each runtime.
#
#   bash bench/ts/run.sh            # 10,000 packets, 301 interleaved rounds per runtime
#   bash bench/ts/run.sh --quick    # seconds, for CI: the numbers are not meaningful
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../.. && pwd)

step() { printf '\n==> %s\n' "$*"; }
npm_ci() { npm ci --no-audit --no-fund --loglevel=error; }

if [ -z "${BITWIRE:-}" ]; then
  step "build the bitwire compiler (cargo)"
  (cd "$root" && cargo build -q -p bitwire-compiler)
  BITWIRE="${CARGO_TARGET_DIR:-$root/target}/debug/bitwire"
fi

step "npm ci: @bitwire/runtime and the benchmark's tools"
(cd "$root/runtime/ts" && npm_ci && ./node_modules/.bin/tsc -p tsconfig.json)
npm_ci

# Bun's postinstall copies its binary out of the platform package; Deno comes as its
# platform package only (the registry serves no other platforms' builds of it).
find_bin() {
  for candidate in "$@"; do
    if [ -x "$candidate" ] && "$candidate" --version >/dev/null 2>&1; then
      echo "$here/$candidate"
      return
    fi
  done
  echo "none of $* works" >&2
  exit 1
}
BUN=$(find_bin node_modules/.bin/bun node_modules/@oven/bun-linux-x64/bin/bun)
DENO=$(find_bin node_modules/.bin/deno node_modules/@deno/linux-x64-glibc/deno)

step "generate TypeScript from examples/game.bw and compile (tsc --strict)"
rm -rf gen build
"$BITWIRE" gen --lang ts --out gen "$root/examples/game.bw" >/dev/null
./node_modules/.bin/tsc -p tsconfig.json

step "machine"
uname -srm
grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true

for rt in node "$BUN" "$DENO run"; do
  step "$rt"
  $rt build/src/main.js "$@"
  $rt build/src/verify.js "$@"
done
