#!/usr/bin/env bash
# Interop of the guide's `node` project (conformance/projects/run.py): the shared program
# (../ts-shared) compiled by the project's own build (`npm run build`: bitwire gen, then
# tsc --strict), run on Node. Usage: interop.sh write|read EXCHANGE_DIR
set -euo pipefail
phase=$1 exchange=$2
if [ "$phase" = write ]; then
  cp "$BITWIRE_SRC"/conformance/projects/interop/ts-shared/{lobby_interop,interop_fs}.ts src/
  npm run --silent build
fi
node dist/interop_fs.js node "$phase" "$exchange"
