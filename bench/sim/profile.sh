#!/usr/bin/env bash
# Profiles the simulator's server on one cell and prints where its core's time goes (the
# profile behind the report's notes on the sync goal):
#
#   bash bench/sim/profile.sh [CODEC] [CLIENTS] [SECONDS]
#   bash bench/sim/profile.sh bitwire 100 10
#
# Runs `simserver --cpu 0` under `perf record` (call graphs) with `simclient --cpu 1`, as a
# cell of `./run sim` does, then prints the top symbols by self time and the server's own
# summary of the window. Needs perf with access to the CPU's counters and the release build
# (`./run sim --smoke` once, or cargo build --release -p bitwire-sim). Writes
# target/sim/profile/CODEC-CLIENTS/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
codec=${1:-bitwire}
clients=${2:-100}
seconds=${3:-10}
target=${CARGO_TARGET_DIR:-$root/target}
dir=$target/sim/profile/$codec-$clients
rm -rf "$dir"
mkdir -p "$dir"
cargo build --release -q -p bitwire-sim

fifo=$dir/stdin
mkfifo "$fifo"
perf record -q -g -o "$dir/perf.data" -- "$target/release/simserver" --codec "$codec" \
  --clients "$clients" --warmup 1 --seconds "$seconds" --cpu 0 --summary "$dir/server.json" \
  <"$fifo" >"$dir/server.log" 2>&1 &
perf_pid=$!
exec 3>"$fifo"
addr=
for _ in $(seq 100); do
  addr=$(sed -n 's/^listening tcp=\([^ ]*\).*/\1/p' "$dir/server.log")
  [ -n "$addr" ] && break
  sleep 0.1
done
[ -n "$addr" ] || { echo "profile.sh: simserver did not start: $(cat "$dir/server.log")" >&2; exit 1; }
"$target/release/simclient" --connect "$addr" --codec "$codec" --clients "$clients" --cpu 1 \
  --results "$dir/clients.json" >"$dir/client.log" 2>&1
for _ in $(seq 200); do
  grep -q '^done' "$dir/server.log" && break
  sleep 0.1
done
exec 3>&-
wait "$perf_pid"
perf report -i "$dir/perf.data" --no-children --sort dso,symbol --percent-limit 1.5 --stdio 2>/dev/null |
  grep -v '^#' | grep -v '^$' | grep -E '^ +[0-9.]+%' | head -40
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).window;
  console.log(`window: ${s.ticks} ticks, sync mean ${s.sync_us.mean.toFixed(1)} µs, tick mean ${s.tick_us.mean.toFixed(1)} µs, ` +
    `${s.views_entities_mean.toFixed(1)} entities per view, CPU ${s.cpu_percent.toFixed(1)} %, ${s.overruns} overruns`);
' "$dir/server.json"
echo "profile: $dir/perf.data (perf report -i $dir/perf.data)"
