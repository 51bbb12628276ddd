#!/usr/bin/env bash
# The benchmark lab in one command (bench/README.md): records the machine, writes the corpus,
# runs the Rust, Go and TypeScript benchmark programs on it, and writes the report.
#
#   bash bench/run.sh                  # full run -> bench/results/<YYYY-MM-DD>/
#   bash bench/run.sh --quick          # tiny datasets (CI) -> target/lab/results-quick/
#   bash bench/run.sh --out DIR        # anywhere else (relative: to the repository root)
#
# One progress line per step ("[4/7 02:14] go: lab ..."); each step's output goes to
# target/lab/logs/<step>.log, whose tail is printed if the step fails. Nothing here asserts
# on timings.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

quick=0
out=""
while (($#)); do
  case "$1" in
    --quick) quick=1 ;;
    --out)
      [[ $# -ge 2 ]] || { echo "bench/run.sh: --out needs a directory" >&2; exit 2; }
      out=$2
      shift
      ;;
    -h | --help)
      sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) echo "bench/run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

start_date=$(date +%F)
if ((quick)); then
  q=(--quick)
  goq=(-quick)
  corpus=$root/target/lab/corpus-quick
  : "${out:=$root/target/lab/results-quick}"
else
  q=()
  goq=()
  corpus=$root/target/lab/corpus
  : "${out:=$root/bench/results/$start_date}"
fi

# ---- the steps ------------------------------------------------------------------------------

step_corpus() { cargo run --release -p bitwire-lab --bin corpus -- "${q[@]}" --out "$corpus"; }
step_rust() { cargo run --release -p bitwire-lab --bin lab -- "${q[@]}" --corpus "$corpus" --out "$out/raw/rust.json"; }
step_pod() { cargo run --release -p bitwire-lab --bin pod -- "${q[@]}" --corpus "$corpus" --out "$out/raw/rust-pod.json"; }
step_go() { (cd bench/go && go run ./cmd/lab "${goq[@]}" -corpus "$corpus" -out "$out/raw/go.json"); }
step_ts() { bash bench/ts/lab.sh "${q[@]}" --corpus "$corpus" --out-dir "$out/raw"; }
step_compiler() { cargo run --release -p bitwire-bench --bin compiler_speed -- "${q[@]}" --out "$out/raw/compiler.json"; }
step_report() { write_machine && cargo run --release -p bitwire-report -- --results "$out"; }

# name (step_<name>) | label
steps=(
  "corpus|corpus: write ${corpus#"$root"/}"
  "rust|rust: lab (sizes, speed, allocations, packets/s)"
  "pod|rust: pod blocks"
  "go|go: lab"
  "ts|ts: lab on Node, Bun and Deno"
  "compiler|compiler: parse, check and generate (one-table, game.bw, 50-800 types)"
  "report|report: machine.json, results.json, summary.md, report.html"
)
total=$((${#steps[@]} + 1))

mkdir -p "$out/raw" "$root/target/lab/logs"
out=$(cd "$out" && pwd)
logs=$root/target/lab/logs
# Only this run's files: a stale raw file would be merged into the report.
rm -f "$out"/raw/*.json "$out/machine.json" "$out/results.json" "$out/summary.md" "$out/report.html"

# ---- the machine ---------------------------------------------------------------------------

json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$(printf '%s' "$s" | tr -d '\000-\037')"
}

# The first candidate binary that runs (the lookup of bench/ts/run.sh).
find_bin() {
  local c
  for c in "$@"; do
    if [[ -x "$c" ]] && "$c" --version >/dev/null 2>&1; then
      echo "$c"
      return
    fi
  done
}

version_of() {
  local bin=$1
  shift
  if [[ -n "$bin" ]] && command -v "$bin" >/dev/null 2>&1; then
    "$bin" "$@" 2>/dev/null | head -n 1 || echo "found, version unknown"
  else
    echo "not found"
  fi
}

started=$(date -u +%FT%TZ)
git_commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git_dirty=false
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then git_dirty=true; fi
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
cores=$(nproc 2>/dev/null || echo 0)
memory_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)
kernel=$(uname -sr)
os=$( (. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}") || uname -o)

# Written at the start and again before the report (Bun and Deno may only be installed by
# the TypeScript step).
write_machine() {
  local bun deno t=bench/ts/node_modules
  bun=$(find_bin "$t/.bin/bun" "$t/@oven/bun-linux-x64/bin/bun")
  deno=$(find_bin "$t/.bin/deno" "$t/@deno/linux-x64-glibc/deno")
  {
    echo "{"
    echo "  \"date\": $(json_str "$start_date"),"
    echo "  \"started\": $(json_str "$started"),"
    echo "  \"git_commit\": $(json_str "$git_commit"),"
    echo "  \"git_dirty\": $git_dirty,"
    echo "  \"cpu\": $(json_str "${cpu:-unknown}"),"
    echo "  \"cores\": ${cores:-0},"
    echo "  \"memory_kib\": ${memory_kib:-0},"
    echo "  \"kernel\": $(json_str "$kernel"),"
    echo "  \"os\": $(json_str "$os"),"
    echo "  \"quick\": $( ((quick)) && echo true || echo false),"
    echo "  \"toolchains\": {"
    echo "    \"rustc\": $(json_str "$(version_of rustc --version)"),"
    echo "    \"cargo\": $(json_str "$(version_of cargo --version)"),"
    echo "    \"go\": $(json_str "$(version_of go version)"),"
    echo "    \"node\": $(json_str "$(version_of node --version)"),"
    echo "    \"bun\": $(json_str "$(version_of "$bun" --version)"),"
    echo "    \"deno\": $(json_str "$(version_of "$deno" --version)")"
    echo "  }"
    echo "}"
  } >"$out/machine.json"
}

# ---- running -------------------------------------------------------------------------------

t0=$SECONDS
clock() {
  local s=$((SECONDS - t0))
  printf '%02d:%02d' $((s / 60)) $((s % 60))
}

ticker=""
stop_ticker() {
  if [[ -n "$ticker" ]]; then
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    ticker=""
    printf '\r\033[K'
  fi
}
trap stop_ticker EXIT

n=0
progress() {
  n=$((n + 1))
  line() { printf '[%d/%d %s] %s' "$n" "$total" "$(clock)" "$1"; }
  if [[ -t 1 ]]; then
    # On a terminal, the line's clock keeps running while the step does.
    (while sleep 1; do printf '\r'; line "$1 ..."; done) &
    ticker=$!
  fi
  line "$1 ..."
  [[ -t 1 ]] || echo
}

progress "machine: CPU, memory, OS, toolchains -> ${out#"$root"/}/machine.json"
write_machine
stop_ticker
[[ -t 1 ]] && { printf '[%d/%d %s] machine recorded\n' "$n" "$total" "$(clock)"; }

for s in "${steps[@]}"; do
  IFS='|' read -r name label <<<"$s"
  log=$logs/$(printf '%02d' $((n + 1)))-$name.log
  progress "$label"
  step_start=$SECONDS
  status=0
  "step_$name" >"$log" 2>&1 || status=$?
  stop_ticker
  if ((status)); then
    printf '[%d/%d %s] %s: FAILED (exit %d) after %ds; last lines of %s:\n' \
      "$n" "$total" "$(clock)" "$label" "$status" $((SECONDS - step_start)) "${log#"$root"/}" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  [[ -t 1 ]] && printf '[%d/%d %s] %s\n' "$n" "$total" "$(clock)" "$label"
  printf '      done in %ds (log: %s)\n' $((SECONDS - step_start)) "${log#"$root"/}"
done

echo
tail -n 1 "$logs/$(printf '%02d' "$total")-report.log"
echo "report: ${out#"$root"/}/summary.md and ${out#"$root"/}/report.html"
