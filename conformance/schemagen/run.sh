#!/usr/bin/env bash
# Random schemas through every codec (see README.md), from the repository root or
# anywhere:
#
#   bash conformance/schemagen/run.sh            # the CI slice: seed 42, 40 schemas
#   BITWIRE_SCHEMA_SEED=7 BITWIRE_SCHEMAS=500 bash conformance/schemagen/run.sh   # a long run
#
# 1. builds the compiler (unless $BITWIRE names one) and the schemagen driver;
# 2. installs what the TypeScript runner needs if it is missing (npm ci for
#    runtime/ts and conformance/ts, and builds the runtime);
# 3. runs `schemagen run` with the environment's settings (BITWIRE_SCHEMA_SEED,
#    BITWIRE_SCHEMAS, BITWIRE_SCHEMA_CASES, BITWIRE_SCHEMA_ADVERSARIAL,
#    BITWIRE_SCHEMA_LANGS, BITWIRE_SCHEMA_RUNTIMES; extra arguments are passed on);
# 4. regenerates the vector suites' Go and TypeScript code that the run replaced,
#    so conformance/go and conformance/ts are as run.sh of each left them.
#
# Exits non-zero on a disagreement that is not in known-failures.txt, or on a
# listed one that no longer happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

if [[ -z "${BITWIRE:-}" ]]; then
  cargo build -q -p bitwire-compiler
  BITWIRE="${CARGO_TARGET_DIR:-$root/target}/debug/bitwire"
fi
export BITWIRE
cargo build -q -p bitwire-schemagen --bin schemagen

npm_ci() { npm ci --no-audit --no-fund --loglevel=error; }
if [[ ! -d runtime/ts/node_modules || ! -d runtime/ts/dist ]]; then
  (cd runtime/ts && npm_ci && ./node_modules/.bin/tsc -p tsconfig.json)
fi
if [[ ! -d conformance/ts/node_modules ]]; then
  (cd conformance/ts && npm_ci)
fi

restore() {
  (cd conformance/go && go run ./internal/gen >/dev/null)
  (cd conformance/ts && node scripts/generate.mjs >/dev/null && ./node_modules/.bin/tsc -p tsconfig.json)
}
trap restore EXIT

export BITWIRE_SCHEMAS="${BITWIRE_SCHEMAS:-40}"
"${CARGO_TARGET_DIR:-$root/target}/debug/schemagen" run "$@"
