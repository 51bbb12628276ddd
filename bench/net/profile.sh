#!/usr/bin/env bash
# Profiles one benchmark server on one cell of the network benchmark and prints where its
# core's time goes (the profiles behind the report's "Why"):
#
#   bash bench/net/profile.sh SERVER [MODE] [CONNECTIONS] [SIZE] [PACKETS]
#   bash bench/net/profile.sh rust-mt pipeline 32 64 50000
#
# Native servers (rust-*, go*) and Bun/Deno: `perf record` of the server's core (core 0, where
# netbench pins the servers), top symbols by self time with `perf report`. Node servers
# (node*, mcproto): V8's sampling profiler (`node --cpu-prof`), top functions by self time.
# Needs the builds of bench/net/run.sh (run `./run netbench --tiny` once) and, for native
# profiles, perf with access to the CPU's counters. Writes target/netbench/profile/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
server=${1:?usage: profile.sh SERVER [MODE] [CONNECTIONS] [SIZE] [PACKETS]}
mode=${2:-pipeline}
conns=${3:-32}
size=${4:-64}
packets=${5:-50000}
target=${CARGO_TARGET_DIR:-$root/target}
dir=$target/netbench/profile/$server-$mode-$conns-$size
rm -rf "$dir"
mkdir -p "$dir"
export NETBENCH_GO=${NETBENCH_GO:-$target/netbench/go-netserver}
export BITWIRE_MCPROTO=${BITWIRE_MCPROTO:-$target/mcproto}
cell=(--servers "$server" --modes "$mode" --connections "$conns" --sizes "$size"
  --packets "$packets" --out "$dir/run")

case $server in
  node | node-raw | mcproto)
    # netbench starts Node servers with $NODE: a wrapper adds the profiler.
    cat >"$dir/node" <<SH
#!/usr/bin/env bash
exec node --cpu-prof --cpu-prof-dir="$dir" "\$@"
SH
    chmod +x "$dir/node"
    NODE="$dir/node" "$target/release/netbench" "${cell[@]}" >"$dir/netbench.log" 2>&1
    node - "$dir" <<'JS'
const fs = require("fs");
const path = require("path");
const dir = process.argv[2];
const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (!file) { console.error("no .cpuprofile written"); process.exit(1); }
const p = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
const self = new Map();
const dt = p.timeDeltas;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
let total = 0;
p.samples.forEach((id, i) => {
  const n = byId.get(id);
  const f = n.callFrame;
  const key = `${f.functionName || "(anonymous)"} ${f.url ? path.basename(f.url) : ""}:${f.lineNumber + 1}`;
  const t = dt[i] || 0;
  self.set(key, (self.get(key) || 0) + t);
  total += t;
});
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
console.log(`V8 CPU profile, ${(total / 1e6).toFixed(2)} s sampled; self time:`);
for (const [k, t] of top) console.log(`${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);
JS
    ;;
  *)
    perf record -q -C 0 -g -o "$dir/perf.data" -- "$target/release/netbench" "${cell[@]}" \
      >"$dir/netbench.log" 2>&1
    perf report -i "$dir/perf.data" --no-children --sort comm,dso,symbol --percent-limit 1.5 \
      --stdio 2>/dev/null | grep -v '^#' | grep -v '^$' | grep '%' | head -40
    ;;
esac
grep -E "pps" "$dir/netbench.log" | tail -n 1
