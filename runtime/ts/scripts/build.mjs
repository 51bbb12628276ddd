// Builds dist/ (JavaScript and declarations) from src/ with tsc: the `prepare` script,
// which npm runs whenever it installs this package from a source checkout rather than
// from a tarball:
//
//   - `npm install` / `npm ci` in this directory (devDependencies are in place);
//   - `npm install /path/to/runtime/ts` in another project, and the `file:` dependencies
//     of this repository's examples/ts, conformance/ts and bench/ts: npm links the
//     directory and runs `prepare` here, but installs none of its devDependencies;
//   - `npm install --install-links PATH` and `npm pack`, which pack the directory;
//   - a git dependency (`#path:runtime/ts`), whose checkout npm prepares in a cache.
//
// So when TypeScript is missing, it is installed here first, from this package's lock
// (`npm ci`, dev dependencies included even if the caller omits them, no scripts: no
// second round of this build). Only plain Node is needed: no shell, no global tools.

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const win = process.platform === "win32";

/** Runs a command in this package's directory; exits with its status if it fails. */
function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: here, stdio: "inherit", shell: win });
  if (r.status !== 0) {
    console.error(`@bitwire/runtime build: \`${cmd} ${args.join(" ")}\` failed`);
    process.exit(r.status ?? 1);
  }
}

const tsc = join(here, "node_modules", ".bin", win ? "tsc.cmd" : "tsc");
// The networking entry points compile against @types/node and @types/ws (dev dependencies).
if (!existsSync(tsc) || !existsSync(join(here, "node_modules", "@types", "ws"))) {
  console.error("@bitwire/runtime build: installing TypeScript (npm ci) to build dist/");
  const npm = process.env.npm_execpath;
  // The npm that runs this script when there is one, so that its version decides.
  const [cmd, pre] = npm && npm.endsWith(".js") ? [process.execPath, [npm]] : ["npm", []];
  run(cmd, [...pre, "ci", "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]);
}
run(tsc, ["-p", "tsconfig.json"]);

// A tarball carries the license texts; in a checkout they live at the repository's root.
for (const name of ["LICENSE-MIT", "LICENSE-APACHE"]) {
  const from = join(here, "..", "..", name);
  if (existsSync(from)) {
    copyFileSync(from, join(here, name));
  }
}
