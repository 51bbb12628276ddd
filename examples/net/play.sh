#!/usr/bin/env bash
# Plays the arena across languages over 127.0.0.1: starts the Rust server, then the Go
# server, and runs every client against each at once — Rust, Go, Node, Bun and Deno, each
# over TCP and over WebSocket, and (against the Go server, which serves the page with
# --static) the browser page in headless Chromium. Every client must finish its round
# (examples/net/README.md) and each server must report every player.
#
#   bash examples/net/play.sh [--brief] [--release]
#
# --brief    one round per server (Rust without compression, Go with threshold 64): ./run demo
# (default)  three rounds per server: no compression, threshold 0 (every frame compressed), 64
# --release  build the Rust programs with --release (the demo's profile)
#
# Env: BITWIRE (the compiler, default target/<profile>/bitwire, built if missing), BUN and
# DENO (default: the npm packages installed by examples/ts or conformance/ts; with --brief a
# missing one is skipped with a notice, otherwise it is an error).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
brief=0
profile=debug
for arg in "$@"; do
  case $arg in
    --brief) brief=1 ;;
    --release) profile=release ;;
    *) echo "usage: play.sh [--brief] [--release]" >&2; exit 2 ;;
  esac
done
target=${CARGO_TARGET_DIR:-$root/target}
cargo_flags=(-q)
[ "$profile" = release ] && cargo_flags+=(--release)

first_file() {
  local f
  for f in "$@"; do [ -n "$f" ] && [ -x "$f" ] && { echo "$f"; return; }; done
  echo ""
}
bun=$(first_file "${BUN:-}" examples/ts/node_modules/.bin/bun conformance/ts/node_modules/.bin/bun)
deno=$(first_file "${DENO:-}" examples/ts/node_modules/@deno/linux-x64-glibc/deno \
  conformance/ts/node_modules/@deno/linux-x64-glibc/deno)
for rt in bun deno; do
  if [ -z "${!rt}" ]; then
    if [ "$brief" = 1 ]; then
      echo "($rt is not installed for this machine: its clients are skipped)"
    else
      echo "$rt not found: install conformance/ts (npm ci) or set ${rt^^}" >&2
      exit 1
    fi
  fi
done

echo "building the arena's programs: Rust (cargo, $profile), Go (go build), TypeScript (tsc, esbuild)"
cargo build "${cargo_flags[@]}" -p bitwire-net-example -p bitwire-compiler
bitwire=${BITWIRE:-$target/$profile/bitwire}
gobin="$target/net-go"
(cd examples/net/go && go build -o "$gobin/" ./server ./client)
BITWIRE="$bitwire" bash examples/net/ts/build.sh
driver=$(bash conformance/projects/browser-driver/install.sh)

log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"; kill $(jobs -p) 2>/dev/null || true' EXIT
passed=0
failed=0

# round SERVER THRESHOLD: one server, every client at once.
round() {
  local server=$1 threshold=$2 flag=() query=""
  if [ "$threshold" != none ]; then flag=(--threshold "$threshold"); query="?threshold=$threshold"; fi
  local server_cmd=("$target/$profile/server")
  [ "$server" = go ] && server_cmd=("$gobin/server" --static examples/net/browser/dist)
  local clients=(rust go node deno bun)
  local names=()
  local ts=examples/net/ts/build/ts/src
  declare -A cmd=(
    [rust]="$target/$profile/client"
    [go]="$gobin/client"
    [node]="node $ts/node.js"
    [bun]="$bun $ts/bun.js"
    [deno]="$deno run --allow-net --allow-read --allow-env $ts/deno.js"
  )
  for c in "${clients[@]}"; do
    { [ "$c" = bun ] && [ -z "$bun" ]; } || { [ "$c" = deno ] && [ -z "$deno" ]; } || names+=("$c-tcp" "$c-ws")
  done
  [ "$server" = go ] && names+=(browser)
  local out="$log_dir/$server-$threshold.server"
  "${server_cmd[@]}" --tcp 127.0.0.1:0 --ws 127.0.0.1:0 --players "${#names[@]}" --seconds 60 \
    "${flag[@]}" >"$out" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do grep -q '^listening' "$out" && break; sleep 0.1; done
  local line tcp ws http
  line=$(grep '^listening' "$out") || { cat "$out"; echo "FAIL: the $server server did not start"; failed=$((failed + 1)); return; }
  tcp=${line#*tcp=}; tcp=${tcp%% *}
  ws=${line#*ws=}
  http=${ws#ws://}; http="http://${http%/ws}/"
  echo
  echo "== $server server (compression: ${threshold/none/off}), ${#names[@]} clients: ${names[*]}"
  local name pids=()
  for name in "${names[@]}"; do
    local how=${name##*-} rt=${name%-*}
    if [ "$name" = browser ]; then
      node "$driver/drive.mjs" --url "$http$query" >"$log_dir/$name" 2>&1 &
    elif [ "$how" = tcp ]; then
      # shellcheck disable=SC2086 # cmd holds a command line
      ${cmd[$rt]} --tcp "$tcp" --name "$name" "${flag[@]}" >"$log_dir/$name" 2>&1 &
    else
      # shellcheck disable=SC2086
      ${cmd[$rt]} --ws "$ws" --name "$name" "${flag[@]}" >"$log_dir/$name" 2>&1 &
    fi
    pids+=($!)
  done
  local i
  for i in "${!names[@]}"; do
    if wait "${pids[$i]}"; then
      passed=$((passed + 1))
      # The last line is the client's verdict (the browser driver adds Chromium's version).
      local verdict
      verdict="$(grep -v '^(' "$log_dir/${names[$i]}" | tail -n 1) $(grep '^(' "$log_dir/${names[$i]}" || true)"
      printf '  %-9s %s\n' "${names[$i]}" "${verdict% }"
    else
      failed=$((failed + 1))
      printf '  %-9s FAILED:\n' "${names[$i]}"
      sed 's/^/      /' "$log_dir/${names[$i]}"
    fi
  done
  if wait "$pid" && grep -q "^served ${#names[@]} players" "$out"; then
    passed=$((passed + 1))
    echo "  server    $(grep '^served' "$out")"
  else
    failed=$((failed + 1))
    echo "  server    FAILED (expected 'served ${#names[@]} players'):"
    sed 's/^/      /' "$out"
  fi
}

if [ "$brief" = 1 ]; then
  round rust none
  round go 64
else
  for threshold in none 0 64; do
    round rust "$threshold"
    round go "$threshold"
  done
fi
echo
echo "arena across languages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
