#!/usr/bin/env bash
# The TypeScript side of the shared test vectors, from a fresh clone:
#
#   1. build the bitwire compiler with cargo (unless $BITWIRE names a binary);
#   2. npm ci + build @bitwire/runtime (runtime/ts) and this runner's tools (TypeScript,
#      Bun and Deno, all from npm);
#   3. generate TypeScript for every testdata/vectors/*.bw, testdata/vectors/delta/*.bw,
#      testdata/vectors/bincode/*.bw and examples/game.bw (scripts/generate.mjs; all but
#      the delta suites with `--encoding bincode` too) and compile it with the runner
#      under tsc --strict;
#   4. run the runtime's unit tests and the runner on Node, Bun and Deno (on Node also
#      the decode budget's heap measurement, src/heap.ts, and the delta codecs against
#      the reference codec's CLI, src/deltadiff.ts), with the frame, delta and bincode
#      vectors and the bincode property test (src/bincode.ts);
#   5. run the network tests (src/net/) on each: echo over every adapter of the runtime,
#      and on Node minecraft-protocol interop (conformance/peers/mcproto, installed into
#      target/mcproto) and the faults against a TCP server;
#   6. run the arena example's clients on Node, Bun, Deno and in headless Chromium against
#      a Node arena server (examples/net/ts/test.sh).
#
# Environment: BITWIRE (compiler binary), BITWIRE_DIFF_CORPUS (a differential corpus
# from `cargo run -p bitwire-conformance --bin diffcorpus -- FILE`), BITWIRE_SEED and
# BITWIRE_PROP_CASES (the property test). conformance/schemagen runs the generator and
# build/src/main.js itself with BITWIRE_SUITES_DIR (random schemas instead of the vector
# suites) and BITWIRE_DIFF_OUTCOMES (where to write what disagreed). Prints `N passed, N failed` per runtime and
# a total; exits non-zero on any failure.
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
export BITWIRE

# npm ci builds dist/ (the package's `prepare` script); the unit tests compile apart.
# tsconfig.core.json compiles the core entry point without Node's types: it must stay
# free of `node:` imports and Node globals (browsers).
step "@bitwire/runtime: npm ci (builds dist/), tsc (strict) of the unit tests and of the core without Node's types"
(cd "$root/runtime/ts" && npm_ci && ./node_modules/.bin/tsc -p tsconfig.test.json && ./node_modules/.bin/tsc -p tsconfig.core.json)

step "conformance/ts: npm ci (TypeScript, Bun, Deno)"
npm_ci

# The `bun` and `deno` packages put their binaries in place with a postinstall script
# that copies them out of the platform package (no download); if scripts were skipped,
# the binary inside the platform package is used directly.
find_bin() {
  local name=$1; shift
  for candidate in "node_modules/.bin/$name" "$@"; do
    if [ -x "$candidate" ] && "$candidate" --version >/dev/null 2>&1; then
      echo "$here/$candidate"
      return
    fi
  done
  echo "no working $name binary in node_modules (tried .bin and the platform package)" >&2
  exit 1
}
BUN=$(find_bin bun node_modules/@oven/bun-linux-x64/bin/bun node_modules/@oven/bun-linux-x64-baseline/bin/bun)
DENO=$(find_bin deno node_modules/@deno/linux-x64-glibc/deno)

step "minecraft-protocol 1.68 peer (conformance/peers/mcproto)"
BITWIRE_MCPROTO_PEER="$(bash ../peers/mcproto/install.sh)/peer.mjs"
export BITWIRE_MCPROTO_PEER

step "generate TypeScript for every vector suite ($BITWIRE)"
node scripts/generate.mjs

step "tsc --strict: generated code + runner"
./node_modules/.bin/tsc -p tsconfig.json

summary=()
total_passed=0
total_failed=0
run_on() {
  local name=$1; shift
  step "$name: $("$@" --version 2>/dev/null | head -n 1)"
  local log status=0
  log=$(mktemp)
  "$@" "$root/runtime/ts/build-test/test/run.js" 2>&1 | tee "$log" || status=1
  "$@" build/src/main.js 2>&1 | tee -a "$log" || status=1
  "$@" build/src/net/main.js 2>&1 | tee -a "$log" || status=1
  # Each of the two programs ends with a "<label>: N passed, N failed" line.
  local p f totals='/^(runtime|node|bun|deno): [0-9]+ passed, [0-9]+ failed$/'
  p=$(awk "$totals"' { s += $2 } END { print s + 0 }' "$log")
  f=$(awk "$totals"' { s += $4 } END { print s + 0 }' "$log")
  rm -f "$log"
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  summary+=("$name: $p passed, $f failed")
}
# --expose-gc: the decode budget's heap measurement (src/heap.ts) runs on Node only.
run_on node node --expose-gc
run_on bun "$BUN"
run_on deno "$DENO" run --allow-read --allow-env --allow-net --allow-sys

# The arena example's clients (Node, Bun, Deno, the browser page in headless Chromium)
# against a Node arena server, over TCP and WebSocket (examples/net/ts/test.sh).
step "examples/net: the arena clients on every runtime and in the browser"
arena_log=$(mktemp)
arena_status=0
BUN="$BUN" DENO="$DENO" bash "$root/examples/net/ts/test.sh" 2>&1 | tee "$arena_log" || arena_status=1
p=$(awk '/^arena: [0-9]+ passed, [0-9]+ failed$/ { print $2 }' "$arena_log")
f=$(awk '/^arena: [0-9]+ passed, [0-9]+ failed$/ { print $4 }' "$arena_log")
rm -f "$arena_log"
p=${p:-0} f=${f:-0}
if [ "$arena_status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
total_passed=$((total_passed + p))
total_failed=$((total_failed + f))
summary+=("arena: $p passed, $f failed")

step "summary"
printf '%s\n' "${summary[@]}"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
