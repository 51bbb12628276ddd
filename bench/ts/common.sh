# Shared by bench/ts/run.sh and bench/ts/lab.sh (sourced, not run): builds the bitwire
# compiler unless $BITWIRE names one, installs the runtime and the tools from npm, finds
# Bun and Deno in node_modules, generates TypeScript from examples/game.bw and
# bench/schemas/pod.bw into gen/ and compiles everything with `tsc -b` (tsconfig.json:
# the benchmarks and the generated bitwire code under --strict and the extra checks;
# tsconfig.peers.json: the committed FlatBuffers / protobuf-es code, see there).
#
# Expects $here (bench/ts) and $root (the repository); sets BITWIRE, BUN and DENO.
# ts_setup does all of it; ts_cmd gives the command that runs a script on one runtime.

step() { printf '\n==> %s\n' "$*"; }
# `npm ci`, or `npm install` from the same lock when ci refuses it: the registry this
# project reaches serves only some platforms' builds of optional packages (msgpackr-extract
# for macOS, Windows), so the lock cannot list them and `npm ci` calls it out of sync.
# `npm install` installs what the lock pins and leaves the lock as it is.
npm_ci() {
  npm ci --no-audit --no-fund --loglevel=error 2>/dev/null ||
    npm install --no-audit --no-fund --loglevel=error
}

# Builds the compiler with cargo unless $BITWIRE is set.
ts_compiler() {
  if [ -z "${BITWIRE:-}" ]; then
    step "build the bitwire compiler (cargo)"
    (cd "$root" && cargo build -q -p bitwire-compiler)
    BITWIRE="${CARGO_TARGET_DIR:-$root/target}/debug/bitwire"
  fi
}

# npm ci for the runtime and the benchmark's tools, and the runtime's build.
ts_install() {
  step "npm ci: @bitwire/runtime and the benchmark's tools"
  (cd "$root/runtime/ts" && npm_ci && ./node_modules/.bin/tsc -p tsconfig.json)
  (cd "$here" && npm_ci)
}

# The first candidate that runs, as an absolute path.
find_bin() {
  for candidate in "$@"; do
    if [ -x "$here/$candidate" ] && "$here/$candidate" --version >/dev/null 2>&1; then
      echo "$here/$candidate"
      return
    fi
  done
  echo "none of $* works" >&2
  exit 1
}

# Bun's postinstall copies its binary out of the platform package; Deno comes as its
# platform package only (the registry serves no other platforms' builds of it).
ts_runtimes() {
  BUN=$(find_bin node_modules/.bin/bun node_modules/@oven/bun-linux-x64/bin/bun)
  DENO=$(find_bin node_modules/.bin/deno node_modules/@deno/linux-x64-glibc/deno)
}

# gen/ from the schemas, then build/ with tsc -b.
ts_build() {
  step "generate TypeScript from examples/game.bw and bench/schemas/pod.bw, compile (tsc --strict)"
  (
    cd "$here"
    rm -rf gen build
    "$BITWIRE" gen --lang ts --out gen "$root/examples/game.bw" >/dev/null
    "$BITWIRE" gen --lang ts --out gen "$root/bench/schemas/pod.bw" >/dev/null
    # The pod blocks' bincode encoding, lists as typed arrays (the bitwire-bincode peers).
    "$BITWIRE" gen --lang ts --encoding bincode --typed-arrays --out gen/typed "$root/bench/schemas/pod.bw" >/dev/null
    ./node_modules/.bin/tsc -b tsconfig.json
  )
}

ts_machine() {
  step "machine"
  uname -srm
  grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
}

# Everything before the runs: compiler, npm, runtimes, gen/ and build/, the machine.
ts_setup() {
  ts_compiler
  ts_install
  ts_runtimes
  ts_build
  ts_machine
}

# The command that runs a script on runtime $1 (node, bun or deno), in the array `cmd`.
# Deno: read the corpus and node_modules, write the result, read the environment and
# load msgpackr's native addon (msgpackr-extract), as Node and Bun do without asking.
ts_cmd() {
  case "$1" in
    node) cmd=(node) ;;
    bun) cmd=("$BUN") ;;
    deno) cmd=("$DENO" run --allow-read --allow-write --allow-env --allow-ffi) ;;
    *) echo "ts_cmd: unknown runtime $1" >&2; exit 2 ;;
  esac
}
