#!/usr/bin/env bash
# The install routes of @bitwire/runtime (docs/getting-started.md, docs/typescript.md),
# each from a fresh clone of this repository's committed HEAD, in new projects in a
# temporary directory outside the repository:
#
#   path      npm install CLONE/runtime/ts         (npm links it and runs its `prepare`)
#   links     npm install --install-links CLONE/runtime/ts   (a copy, packed by npm)
#   tarball   npm pack CLONE/runtime/ts, then npm install ./bitwire-runtime-*.tgz;
#             the tarball holds dist/, types, licenses and no tests or tooling
#   git       npm install git+file://CLONE.git#SHA::path:runtime/ts, then npm ci again
#             from the lock file (the https URL of the guide works the same way; it is
#             not reachable from here)
#   file:     npm ci in the clone's examples/ts and bench/ts (file:../../runtime/ts)
#
# In each project, code generated from the guide's lobby.bw type-checks under
# tsc --strict with "module": "node16", "nodenext" and "moduleResolution": "bundler", and
# runs on Node. Environment: BITWIRE (compiler binary; else built with cargo), KEEP=1
# keeps the temporary directory. Prints `N passed, N failed`; exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

if [ -z "${BITWIRE:-}" ]; then
  (cd "$root" && cargo build -q -p bitwire-compiler)
  BITWIRE="${CARGO_TARGET_DIR:-$root/target}/debug/bitwire"
fi
tsc="$root/runtime/ts/node_modules/.bin/tsc"
if [ ! -x "$tsc" ]; then
  (cd "$root/runtime/ts" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bitwire-install-XXXXXX")
if [ "${KEEP:-}" = 1 ]; then
  echo "work directory: $work"
else
  trap 'rm -rf "$work"' EXIT
fi
git clone -q "$root" "$work/bitwire"
git clone -q --bare "$root" "$work/bitwire.git"
sha=$(git -C "$root" rev-parse HEAD)
clone=$work/bitwire

# The lobby schema of the guide, and a program that uses the generated code.
python3 - "$root/docs/getting-started.md" "$work/lobby.bw" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"<!-- file: lobby.bw -->\n```rust\n(.*?)```", text, re.S)
open(sys.argv[2], "w", encoding="utf-8").write(m.group(1))
PY
cat >"$work/main.ts" <<'TS'
import { BitwireError, RUNTIME_API_VERSION } from "@bitwire/runtime";
import { decodeJoin, encodeJoin } from "./gen/lobby.js";

const bytes = encodeJoin({ name: "Ada", role: "Host", build: 1n, region: null });
const back = decodeJoin(bytes);
let kind = "";
try {
  encodeJoin(null as never);
} catch (e) {
  kind = e instanceof BitwireError ? e.kind : String(e);
}
if (back.name !== "Ada" || kind !== "OutOfRange" || RUNTIME_API_VERSION < 1) {
  throw new Error(`unexpected: ${JSON.stringify({ name: back.name, kind })}`);
}
console.log(`ok: ${bytes.length} bytes, null is ${kind}`);
TS

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
npm_q() { npm "$@" --no-audit --no-fund --loglevel=error >/dev/null 2>&1; }

# tsc --strict over main.ts and the generated code with each module resolution, then Node.
check_project() {
  local name=$1 dir=$2
  mkdir -p "$dir/src"
  cp "$work/main.ts" "$dir/src/"
  "$BITWIRE" gen --lang ts -o "$dir/src/gen" "$work/lobby.bw" >/dev/null
  (cd "$dir" && npm pkg set type=module)
  local module resolution
  for pair in node16:node16 nodenext:nodenext esnext:bundler; do
    module=${pair%%:*} resolution=${pair##*:}
    cat >"$dir/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "es2022", "module": "$module", "moduleResolution": "$resolution",
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true,
    "exactOptionalPropertyTypes": true, "verbatimModuleSyntax": true,
    "rootDir": "src", "outDir": "dist", "types": []
  },
  "include": ["src"]
}
JSON
    if (cd "$dir" && "$tsc" -p tsconfig.json); then
      ok "$name: tsc --strict, module $module, moduleResolution $resolution"
    else
      fail "$name: tsc --strict, module $module, moduleResolution $resolution"
    fi
  done
  if (cd "$dir" && node dist/main.js); then
    ok "$name: runs on Node"
  else
    fail "$name: runs on Node"
  fi
}

new_project() {
  mkdir -p "$1"
  (cd "$1" && npm init -y >/dev/null)
}

# path: a link to the clone, built by its prepare script (TypeScript installed for it).
p=$work/path
new_project "$p"
if (cd "$p" && npm_q install "$clone/runtime/ts") && [ -L "$p/node_modules/@bitwire/runtime" ] \
  && [ -f "$clone/runtime/ts/dist/index.d.ts" ]; then
  ok "path: npm install links the clone and builds dist/"
  check_project path "$p"
else
  fail "path: npm install $clone/runtime/ts"
fi

# --install-links: a copy, packed (and so built) by npm, of a second fresh clone.
git clone -q "$root" "$work/bitwire2"
p=$work/links
new_project "$p"
if (cd "$p" && npm_q install --install-links "$work/bitwire2/runtime/ts") \
  && [ ! -L "$p/node_modules/@bitwire/runtime" ] && [ -f "$p/node_modules/@bitwire/runtime/dist/index.js" ]; then
  ok "links: npm install --install-links copies a built package"
  check_project links "$p"
else
  fail "links: npm install --install-links"
fi

# tarball: npm pack of a third fresh clone; its contents.
git clone -q "$root" "$work/bitwire3"
p=$work/tarball
new_project "$p"
if (cd "$p" && npm_q pack "$work/bitwire3/runtime/ts") && [ -f "$p/bitwire-runtime-0.1.0.tgz" ]; then
  listing=$(tar -tzf "$p/bitwire-runtime-0.1.0.tgz" | sed 's#^package/##' | sort)
  missing=""
  for f in package.json README.md LICENSE-MIT LICENSE-APACHE dist/index.js dist/index.d.ts src/index.ts; do
    grep -qx "$f" <<<"$listing" || missing="$missing $f"
  done
  extra=$(grep -E '^(test|scripts|node_modules|build-test)/|tsconfig' <<<"$listing" || true)
  if [ -z "$missing" ] && [ -z "$extra" ]; then
    ok "tarball: $(wc -l <<<"$listing") files, dist/ with types, licenses, no tests or tooling"
  else
    fail "tarball contents: missing:${missing:- none}; unexpected: ${extra:-none}"
  fi
  if (cd "$p" && npm_q install ./bitwire-runtime-0.1.0.tgz); then
    ok "tarball: npm install ./bitwire-runtime-0.1.0.tgz"
    check_project tarball "$p"
  else
    fail "tarball: npm install"
  fi
else
  fail "tarball: npm pack"
fi

# git: a subdirectory of the repository at a commit (npm 11.10+), then npm ci from the lock.
p=$work/git
new_project "$p"
spec="git+file://$work/bitwire.git#$sha::path:runtime/ts"
if (cd "$p" && npm_q install "$spec") && [ -f "$p/node_modules/@bitwire/runtime/dist/index.js" ]; then
  ok "git: npm install $spec"
  if (cd "$p" && rm -rf node_modules && npm_q ci) && [ -f "$p/node_modules/@bitwire/runtime/dist/index.js" ]; then
    ok "git: npm ci from the lock file"
  else
    fail "git: npm ci from the lock file"
  fi
  check_project git "$p"
else
  fail "git: npm install $spec (npm $(npm --version))"
fi

# file: dependencies of this repository's own projects, on a fresh clone.
for dir in examples/ts bench/ts; do
  if (cd "$clone/$dir" && npm_q ci && node --input-type=module -e 'await import("@bitwire/runtime")'); then
    ok "$dir: npm ci on a fresh clone builds the runtime it links"
  else
    fail "$dir: npm ci on a fresh clone"
  fi
done

echo "install routes: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
