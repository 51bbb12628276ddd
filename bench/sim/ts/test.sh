#!/usr/bin/env bash
# The simulator's TypeScript side, end to end over 127.0.0.1 (bench/sim/README.md):
# builds it (build.sh), runs the unit tests (node:test: rules against rules.rs and against
# `simserver --rules`, every validation rule, the RTT statistics, the codecs, the client
# against the Node test server with faults), then runs cells as the orchestrator does —
# a server, clients on Node, Bun and Deno with --results, `done`, the server's stdin
# closed, its --summary — and checks that the clients passed and their counts equal the
# server's totals; one cell also opens the live view in headless Chromium (check-live.sh).
#
# The server is SIMSERVER (the Rust `simserver` binary) when set, else the Node test
# server (build/test/server.js). Env: BITWIRE (the compiler), BUN, DENO (default:
# conformance/ts's from npm; run `npm ci` in conformance/ts first), SIM_SECONDS (the
# window of a cell, default 3). Screenshots: target/sim-ts/live-CODEC.png.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bun=${BUN:-$root/conformance/ts/node_modules/.bin/bun}
deno=${DENO:-$root/conformance/ts/node_modules/@deno/linux-x64-glibc/deno}
seconds=${SIM_SECONDS:-3}
npm ci --no-audit --no-fund --loglevel=error
bash build.sh
out="$root/target/sim-ts"
mkdir -p "$out"
tmp=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

rules=
if [ -n "${SIMSERVER:-}" ]; then
  "$SIMSERVER" --rules >"$tmp/rules.json"
  rules="$tmp/rules.json"
fi
SIM_RULES_JSON=$rules node --test --test-timeout=60000 build/test/*.test.js >"$tmp/unit.log" 2>&1 || {
  cat "$tmp/unit.log"
  echo "bench/sim/ts: unit tests failed"
  exit 1
}
grep -E '^# (tests|pass|fail|skipped)' "$tmp/unit.log" | tr '\n' ' '
echo
unit_passed=$(sed -n 's/^# pass //p' "$tmp/unit.log")

client() {
  case $1 in
    node) echo node build/src/node.js ;;
    bun) echo "$bun" build/src/bun.js ;;
    deno) echo "$deno" run --allow-net --allow-write build/src/deno.js ;;
  esac
}

passed=0
failed=0
# cell CODEC SECONDS BROWSER RUNTIME...: a server for 5 clients per runtime, every runtime's
# client process at once (and the live view's check when BROWSER is yes), then the checks.
cell() {
  local codec=$1 secs=$2 browser=$3
  shift 3
  local name="$codec ($*)" n=$((5 * $#)) problems=() srv="$tmp/server.out" fifo="$tmp/stdin" keep
  rm -f "$fifo" "$tmp"/*.json
  mkfifo "$fifo"
  if [ -n "${SIMSERVER:-}" ]; then
    "$SIMSERVER" --codec "$codec" --tcp 127.0.0.1:0 --http 127.0.0.1:0 --ws 127.0.0.1:0 --clients "$n" \
      --warmup 0 --seconds "$secs" --static dist --summary "$tmp/summary.json" <"$fifo" >"$srv" 2>"$tmp/server.err" &
  else
    node build/test/server.js --codec "$codec" --clients "$n" --seconds "$secs" --static dist \
      --summary "$tmp/summary.json" <"$fifo" >"$srv" 2>"$tmp/server.err" &
  fi
  server_pid=$!
  exec {keep}>"$fifo" # the server's stdin stays open until this closes
  for _ in $(seq 100); do grep -q '^listening ' "$srv" && break; sleep 0.1; done
  local tcp http
  tcp=$(sed -n 's/^listening tcp=\([^ ]*\).*/\1/p' "$srv")
  http=$(sed -n 's/^listening .*http=\([^ ]*\).*/\1/p' "$srv")
  if [ -z "$tcp" ]; then
    problems+=("no listening line")
  else
    local pids=() rt
    for rt in "$@"; do
      # shellcheck disable=SC2046
      $(client "$rt") --connect "$tcp" --codec "$codec" --clients 5 --results "$tmp/$rt.json" --timeout 60 \
        >"$tmp/$rt.out" 2>&1 &
      pids+=($!)
    done
    if [ "$browser" = yes ]; then
      sleep 0.5
      bash check-live.sh "$http/" "$out/live-$codec.png" 60 || problems+=("the live view's check")
    fi
    local i=0
    for rt in "$@"; do
      wait "${pids[$i]}" || problems+=("$rt client exit status")
      sed 's/^/    /' "$tmp/$rt.out"
      i=$((i + 1))
    done
    for _ in $(seq 100); do grep -q '^done' "$srv" && break; sleep 0.1; done
    grep -q '^done' "$srv" || problems+=("the server printed no done")
  fi
  exec {keep}>&-
  for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    problems+=("the server still ran 10 s after its stdin ended")
  fi
  wait "$server_pid" || problems+=("server exit status")
  server_pid=
  local files=()
  for rt in "$@"; do files+=("$tmp/$rt.json"); done
  if [ -f "$tmp/summary.json" ]; then
    node build/test/compare.js "$tmp/summary.json" "${files[@]}" | sed 's/^/    /' || problems+=("counts differ")
  else
    problems+=("no summary")
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name: ${problems[*]}"
    sed 's/^/  server: /' "$srv" "$tmp/server.err"
    failed=$((failed + 1))
  fi
}

for codec in bitwire bitwire-delta; do
  for rt in node bun deno; do
    cell "$codec" "$seconds" no "$rt"
  done
  # Every runtime on one server (the orchestrator's --mixed), with the live view's check.
  cell "$codec" "$((seconds + 7))" yes node bun deno
done
# The check itself fails when the world stops: a Node test server whose window (no
# clients, 1 s) has ended — its `done` line — before Chromium opens the page. (Racing
# Chromium against the 1 s window let a fast browser see enough frames.)
mkfifo "$tmp/frozen"
node build/test/server.js --codec bitwire --clients 0 --seconds 1 --static dist <"$tmp/frozen" >"$tmp/frozen.out" 2>&1 &
server_pid=$!
exec {keep}>"$tmp/frozen"
for _ in $(seq 100); do grep -q '^listening ' "$tmp/frozen.out" && break; sleep 0.1; done
for _ in $(seq 100); do grep -q '^done' "$tmp/frozen.out" && break; sleep 0.1; done
http=$(sed -n 's/^listening .*http=\([^ ]*\).*/\1/p' "$tmp/frozen.out")
if bash check-live.sh "$http/" "$tmp/frozen.png" 20 >"$tmp/check.out" 2>&1; then
  echo "FAIL the live view's check passed on a world that stopped"
  failed=$((failed + 1))
elif grep -qE 'no (3|10 more) Live frames' "$tmp/check.out" && [ -s "$tmp/frozen.png" ]; then
  echo "ok the live view's check fails on a world that stopped: $(tail -n 1 "$tmp/check.out")"
  passed=$((passed + 1))
else
  echo "FAIL the live view's check on a world that stopped: $(cat "$tmp/check.out")"
  failed=$((failed + 1))
fi
exec {keep}>&-
wait "$server_pid" || true
server_pid=

echo "bench/sim/ts: $((unit_passed + passed)) passed, $failed failed"
[ "$failed" -eq 0 ]
