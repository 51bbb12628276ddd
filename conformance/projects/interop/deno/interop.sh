#!/usr/bin/env bash
# Interop of the guide's `deno` project (conformance/projects/run.py): the shared check
# (../ts-shared/lobby_interop.ts) next to the project's generated code, driven by
# interop_deno.ts, type-checked and run by Deno. Deno imports TypeScript by its own name,
# so the copy imports `gen/lobby.ts` where tsc wants `gen/lobby.js`.
# Usage: interop.sh write|read EXCHANGE_DIR
set -euo pipefail
phase=$1 exchange=$2
if [ "$phase" = write ]; then
  sed 's#from "./gen/lobby.js"#from "./gen/lobby.ts"#' \
    "$BITWIRE_SRC/conformance/projects/interop/ts-shared/lobby_interop.ts" >lobby_interop.ts
  grep -q 'from "./gen/lobby.ts"' lobby_interop.ts
  deno check interop_deno.ts
fi
deno run --allow-read --allow-write interop_deno.ts "$phase" "$exchange"
