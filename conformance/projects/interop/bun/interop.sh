#!/usr/bin/env bash
# Interop of the guide's `bun` project (conformance/projects/run.py): the shared program
# (../ts-shared) next to the project's generated code, run by Bun as TypeScript.
# Usage: interop.sh write|read EXCHANGE_DIR
set -euo pipefail
phase=$1 exchange=$2
if [ "$phase" = write ]; then
  cp "$BITWIRE_SRC"/conformance/projects/interop/ts-shared/{lobby_interop,interop_fs}.ts .
fi
bun run interop_fs.ts bun "$phase" "$exchange"
