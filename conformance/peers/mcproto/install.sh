#!/usr/bin/env bash
# Installs the minecraft-protocol peer (npm minecraft-protocol 1.68.0; its minecraft-data
# dependency is about 500 MB, so it lives outside the repository's test packages) into
# target/mcproto, again only when the lock file changed, and prints that directory.
# BITWIRE_MCPROTO names another directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dest=${BITWIRE_MCPROTO:-$root/target/mcproto}
mkdir -p "$dest"
if [ ! -d "$dest/node_modules/minecraft-protocol" ] || ! cmp -s "$here/package-lock.json" "$dest/package-lock.json"; then
  cp "$here/package.json" "$here/package-lock.json" "$dest/"
  # minecraft-protocol declares Node 22; its transforms run on Node 20 (the warning is noise).
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
cp "$here/peer.mjs" "$dest/"
echo "$dest"
