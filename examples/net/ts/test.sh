#!/usr/bin/env bash
# The arena example's TypeScript side, end to end over 127.0.0.1: builds it (build.sh),
# starts the Node test server (with --static ../browser/dist), and runs the client on
# Node, Bun and Deno over TCP and WebSocket and the browser page in headless Chromium,
# with and without compression; every client must finish its round and the server must
# report every player. Env: BITWIRE, BUN, DENO (default: conformance/ts's from npm).
#
# Against another server (the Rust or Go arena server), run the clients the same way:
# `node build/ts/src/node.js --tcp HOST:PORT --name NAME [--threshold T]`, and the page
# with `bash ../browser/drive.sh http://127.0.0.1:PORT/` when that server serves
# ../browser/dist with --static.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bun=${BUN:-$root/conformance/ts/node_modules/.bin/bun}
deno=${DENO:-$root/conformance/ts/node_modules/@deno/linux-x64-glibc/deno}
npm ci --no-audit --no-fund --loglevel=error
bash build.sh
driver=$(bash "$root/conformance/projects/browser-driver/install.sh")

failed=0
passed=0
for threshold in none 0 64; do
  flag=()
  query=""
  if [ "$threshold" != none ]; then flag=(--threshold "$threshold"); query="?threshold=$threshold"; fi
  out=$(mktemp)
  node build/ts/src/server.js --tcp 127.0.0.1:0 --ws 127.0.0.1:0 --static ../browser/dist \
    --players 7 --seconds 40 "${flag[@]}" >"$out" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q '^listening' "$out" && break; sleep 0.1; done
  line=$(grep '^listening' "$out")
  tcp=${line#*tcp=}; tcp=${tcp%% *}
  ws=${line#*ws=}
  http=${ws#ws://}; http="http://${http%/ws}/"
  run() {
    if "$@"; then passed=$((passed + 1)); else echo "FAIL (threshold $threshold): $*"; failed=$((failed + 1)); fi
  }
  run node build/ts/src/node.js --tcp "$tcp" --name node-tcp "${flag[@]}"
  run node build/ts/src/node.js --ws "$ws" --name node-ws "${flag[@]}"
  run "$bun" build/ts/src/bun.js --tcp "$tcp" --name bun-tcp "${flag[@]}"
  run "$bun" build/ts/src/bun.js --ws "$ws" --name bun-ws "${flag[@]}"
  run "$deno" run --allow-net --allow-read --allow-env build/ts/src/deno.js --tcp "$tcp" --name deno-tcp "${flag[@]}"
  run "$deno" run --allow-net --allow-read --allow-env build/ts/src/deno.js --ws "$ws" --name deno-ws "${flag[@]}"
  run node "$driver/drive.mjs" --url "$http$query"
  if wait "$server" && grep -q '^served 7 players' "$out"; then
    passed=$((passed + 1))
  else
    echo "FAIL (threshold $threshold): the server did not serve 7 players"; failed=$((failed + 1))
  fi
  cat "$out"
  rm -f "$out"
done
echo "arena: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
