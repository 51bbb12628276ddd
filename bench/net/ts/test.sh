#!/usr/bin/env bash
# The network benchmark's TypeScript servers, end to end over 127.0.0.1: builds them
# (build.sh), runs the shared logic's self-test, then starts each server — Node, Bun
# and Deno with --shape bitwire and raw, and the minecraft-protocol server on Node —
# as the orchestrator does (`--addr 127.0.0.1:0`, stdin a pipe) and checks, with the
# Node test client (build/src/client.js):
#
#   - the `listening HOST:PORT` line, then 100 ping-pongs (every size 8…1024) and 1,000
#     packets with 32 in flight, every reply checked (the Pong of the same seq and data;
#     for raw servers the Ping itself);
#   - bitwire servers: a Pong and a malformed frame each close their connection without
#     a reply; mcproto: a Pong does;
#   - the stop: stdin's end or SIGTERM (each runtime is stopped both ways), then exactly
#     `served 1100 packets, E errors` (E: the bad connections) and exit status 0.
#
# Env: BITWIRE (the compiler), BUN, DENO (default: conformance/ts's from npm; run
# `npm ci` in conformance/ts first), BITWIRE_MCPROTO (minecraft-protocol's directory;
# default: conformance/peers/mcproto/install.sh's).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
bun=${BUN:-$root/conformance/ts/node_modules/.bin/bun}
deno=${DENO:-$root/conformance/ts/node_modules/@deno/linux-x64-glibc/deno}
npm ci --no-audit --no-fund --loglevel=error
bash build.sh
BITWIRE_MCPROTO=$(bash "$root/conformance/peers/mcproto/install.sh")
export BITWIRE_MCPROTO
node build/src/selftest.js

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
passed=0

# check NAME STOP REPLY "BADS" COMMAND...: starts COMMAND --addr 127.0.0.1:0 with a
# pipe as stdin, exchanges packets (REPLY: pong or echo), sends each bad input of BADS,
# stops it by STOP (eof or term) and checks its output and exit status.
check() {
  local name=$1 stop=$2 reply=$3 bads=$4
  shift 4
  local out="$tmp/$name.out" err="$tmp/$name.err" fifo="$tmp/$name.stdin" keep
  local problems=()
  mkfifo "$fifo"
  "$@" --addr 127.0.0.1:0 <"$fifo" >"$out" 2>"$err" &
  local pid=$!
  exec {keep}>"$fifo" # the server's stdin stays open until this closes
  for _ in $(seq 100); do grep -q '^listening ' "$out" && break; sleep 0.1; done
  local addr
  addr=$(sed -n 's/^listening //p' "$out")
  local errors=0
  if [ -z "$addr" ]; then
    problems+=("no listening line")
  else
    node build/src/client.js --addr "$addr" --reply "$reply" --packets 100 || problems+=("ping-pong")
    node build/src/client.js --addr "$addr" --reply "$reply" --packets 1000 --window 32 || problems+=("pipelined")
    for bad in $bads; do
      node build/src/client.js --addr "$addr" --bad "$bad" || problems+=("bad $bad")
      errors=$((errors + 1))
    done
  fi
  if [ "$stop" = term ]; then kill -TERM "$pid"; fi
  exec {keep}>&-
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    problems+=("still running 10 s after $stop")
  fi
  local status=0
  wait "$pid" || status=$?
  [ "$status" -eq 0 ] || problems+=("exit status $status")
  local want="listening $addr"$'\n'"served 1100 packets, $errors errors"
  [ "$(cat "$out")" = "$want" ] || problems+=("stdout $(printf '%q' "$(cat "$out")"), want $(printf '%q' "$want")")
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok $name (stopped by $stop): $(tail -n 1 "$out")"
    passed=$((passed + 1))
  else
    echo "FAIL $name (stopped by $stop): ${problems[*]}"
    sed 's/^/  stderr: /' "$err"
    failed=$((failed + 1))
  fi
}

check node eof pong "message frame" node build/src/node.js --shape bitwire
check node-raw term echo "" node build/src/node.js --shape raw
check bun term pong "message frame" "$bun" build/src/bun.js --shape bitwire
check bun-raw eof echo "" "$bun" build/src/bun.js --shape raw
check deno eof pong "message frame" "$deno" run --allow-net build/src/deno.js --shape bitwire
check deno-raw term echo "" "$deno" run --allow-net build/src/deno.js --shape raw
check mcproto eof pong "message" node build/src/mcproto.js
check mcproto-term term pong "" node build/src/mcproto.js
echo "bench/net/ts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
