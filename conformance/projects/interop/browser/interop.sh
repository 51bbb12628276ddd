#!/usr/bin/env bash
# Interop of the guide's `browser` project (conformance/projects/run.py): the shared check
# (../ts-shared) type-checked by the project's build (`npm run build`: bitwire gen, tsc
# --strict, esbuild) and bundled by the project's esbuild, then run in headless Chromium
# (conformance/projects/browser-driver) on a page served from 127.0.0.1, which fetches the
# exchange files from that server and writes its own through it.
# Usage: interop.sh write|read EXCHANGE_DIR
set -euo pipefail
phase=$1 exchange=$2
if [ "$phase" = write ]; then
  cp "$BITWIRE_SRC/conformance/projects/interop/ts-shared/lobby_interop.ts" src/
  npm run --silent build
  npx esbuild src/interop_page.ts --bundle --format=iife --log-level=warning --outfile=dist/interop.js
fi
driver=$(bash "$BITWIRE_SRC/conformance/projects/browser-driver/install.sh")
node "$driver/drive.mjs" --root . --page interop.html --exchange "$exchange" --phase "$phase" --project browser
