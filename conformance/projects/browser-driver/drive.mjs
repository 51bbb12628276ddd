// Runs a page of a browser project in headless Chromium and reports what it found
// (conformance/projects/interop/browser/interop.sh):
//
//   node drive.mjs --root DIR --page interop.html --exchange DIR --phase write|read --project NAME
//   node drive.mjs --url URL
//
// With --url, it loads a page some other server serves (the arena's browser client,
// examples/net/browser/drive.sh) and waits for the same verdict; otherwise:
//
// Serves DIR on 127.0.0.1 (a free port; nothing else is reachable: Chromium's background
// networking is off), plus the exchange directory at /exchange/: GET /exchange/ lists its
// files as JSON, GET /exchange/F reads one, PUT /exchange/F writes one. Loads
// PAGE?phase=…&project=…, waits for the page to set `window.bitwireInterop` ({ done, ok,
// lines }), prints its lines and exits non-zero unless ok. Console errors and uncaught
// exceptions of the page are printed and fail the run.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { launch, watch } from "./chromium.mjs";

const TIMEOUT_MS = 120_000;
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".map": "application/json", ".bin": "application/octet-stream" };
const EXCHANGE_FILE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9]+\.bin$/;

function options() {
  const args = process.argv.slice(2);
  const out = {};
  for (let i = 0; i < args.length; i += 2) {
    out[args[i].replace(/^--/, "")] = args[i + 1];
  }
  if (out.url !== undefined) {
    return out;
  }
  for (const k of ["root", "page", "exchange", "phase", "project"]) {
    if (out[k] === undefined) {
      console.error(`drive.mjs: missing --${k}`);
      process.exit(2);
    }
  }
  return { ...out, root: resolve(out.root), exchange: resolve(out.exchange) };
}

/** The server: static files under `root`, and the exchange directory. */
function serve(root, exchange) {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = decodeURIComponent(url.pathname);
    const reply = (status, body, type = "text/plain") => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    if (path === "/exchange/" && req.method === "GET") {
      return reply(200, JSON.stringify(readdirSync(exchange)), "application/json");
    }
    if (path.startsWith("/exchange/")) {
      const name = path.slice("/exchange/".length);
      if (!EXCHANGE_FILE.test(name)) {
        return reply(400, "bad exchange file name");
      }
      if (req.method === "PUT") {
        const chunks = [];
        req.on("data", (c) => chunks.push(c));
        req.on("end", () => {
          writeFileSync(join(exchange, name), Buffer.concat(chunks));
          reply(204, "");
        });
        return;
      }
      try {
        return reply(200, readFileSync(join(exchange, name)), TYPES[".bin"]);
      } catch {
        return reply(404, "no such file");
      }
    }
    const file = normalize(join(root, path));
    if (!file.startsWith(root + sep) || req.method !== "GET") {
      return reply(403, "forbidden");
    }
    try {
      if (statSync(file).isFile()) {
        return reply(200, readFileSync(file), TYPES[extname(file)] ?? "application/octet-stream");
      }
    } catch {
      // Not there: 404 below.
    }
    reply(404, "not found");
  });
}

async function main() {
  const opt = options();
  const timer = setTimeout(() => {
    console.error(`drive.mjs: no result after ${TIMEOUT_MS / 1000} s`);
    process.exit(1);
  }, TIMEOUT_MS);
  const server = opt.url === undefined ? serve(opt.root, opt.exchange) : undefined;
  if (server !== undefined) {
    await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  }
  const browser = await launch();
  const problems = [];
  try {
    const page = await browser.newPage();
    watch(page, problems);
    if (server === undefined) {
      await page.goto(opt.url);
    } else {
      const query = new URLSearchParams({ phase: opt.phase, project: opt.project });
      await page.goto(`http://127.0.0.1:${server.address().port}/${opt.page}?${query}`);
    }
    await page.waitForFunction(() => window.bitwireInterop?.done === true, { timeout: TIMEOUT_MS - 10_000 });
    const report = await page.evaluate(() => window.bitwireInterop);
    for (const line of report.lines) {
      console.log(line);
    }
    console.log(`(${await browser.version()})`);
    for (const p of problems) {
      console.log(`FAIL ${p}`);
    }
    process.exitCode = report.ok && problems.length === 0 ? 0 : 1;
  } finally {
    await browser.close();
    server?.close();
    clearTimeout(timer);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
