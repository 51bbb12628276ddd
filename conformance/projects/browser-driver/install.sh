#!/usr/bin/env bash
# Installs the headless browser driver of the `browser` interop (puppeteer-core and
# @sparticuz/chromium, from npm; Chromium ships inside the package, nothing is downloaded
# at run time) into target/browser-driver, again only when the lock file changed, and
# prints that directory. BITWIRE_BROWSER_DRIVER names another directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dest=${BITWIRE_BROWSER_DRIVER:-$root/target/browser-driver}
mkdir -p "$dest"
if [ ! -d "$dest/node_modules" ] || ! cmp -s "$here/package-lock.json" "$dest/package-lock.json"; then
  cp "$here/package.json" "$here/package-lock.json" "$dest/"
  # puppeteer-core declares Node 22.12; it runs on Node 20 too (the engine warning is noise).
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
cp "$here/drive.mjs" "$here/chromium.mjs" "$dest/"
echo "$dest"
