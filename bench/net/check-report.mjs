// Checks a benchmark report (`report.html`, written by `netreport` or the simulator's
// `sim`) in headless Chromium and prints a one-line verdict; exits 1 unless:
//
// - every chart (`svg.chart`) is laid out with a non-zero size and draws data: at least one
//   element of class `mark` (a bar, a line, a dot) with a non-empty box;
// - every image (`img`, embedded as a `data:` URL) decodes to a non-zero size;
// - the page logs no console error and throws no uncaught exception;
// - the page requests nothing but the file itself and the `data:` URLs inside it (every
//   other request is intercepted, aborted and reported);
// - the page has no script.
//
//   node check-report.mjs --driver DIR --report FILE
//
// DIR is the browser driver's directory (conformance/projects/browser-driver/install.sh
// prints it; check-report.sh passes it): Chromium is launched by its chromium.mjs, as
// every browser check of the project launches it.

import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const TIMEOUT_MS = 60_000;

function options() {
  const args = process.argv.slice(2);
  const out = {};
  for (let i = 0; i < args.length; i += 2) {
    out[args[i].replace(/^--/, "")] = args[i + 1];
  }
  for (const k of ["driver", "report"]) {
    if (out[k] === undefined) {
      console.error("usage: node check-report.mjs --driver DIR --report FILE");
      process.exit(2);
    }
  }
  return { driver: resolve(out.driver), report: resolve(out.report) };
}

/** What the page shows: runs inside the page. */
function inspect() {
  for (const d of document.querySelectorAll("details")) {
    d.open = true;
  }
  const charts = [...document.querySelectorAll("svg.chart")].map((svg, i) => {
    const box = svg.getBoundingClientRect();
    const marks = [...svg.querySelectorAll(".mark")].filter((m) => {
      const b = m.getBBox();
      return (b.width > 0 || b.height > 0) && getComputedStyle(m).visibility !== "hidden";
    });
    const title = svg.querySelector("title")?.textContent ?? `chart ${i + 1}`;
    return { title, width: box.width, height: box.height, marks: marks.length };
  });
  const images = [...document.querySelectorAll("img")].map((img) => ({
    alt: img.alt,
    width: img.naturalWidth,
    height: img.naturalHeight,
  }));
  return {
    charts,
    images,
    tables: document.querySelectorAll("table").length,
    scripts: document.querySelectorAll("script").length,
  };
}

async function main() {
  const opt = options();
  const timer = setTimeout(() => {
    console.log(`check-report: FAIL: no verdict after ${TIMEOUT_MS / 1000} s`);
    process.exit(1);
  }, TIMEOUT_MS);
  const { launch, watch } = await import(pathToFileURL(join(opt.driver, "chromium.mjs")).href);
  const browser = await launch();
  const problems = [];
  const url = pathToFileURL(opt.report).href;
  try {
    const page = await browser.newPage();
    watch(page, problems);
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      if (req.url() === url || req.url().startsWith("data:")) {
        req.continue();
      } else {
        problems.push(`request: ${req.url()}`);
        req.abort();
      }
    });
    const response = await page.goto(url, { waitUntil: "load", timeout: TIMEOUT_MS - 10_000 });
    if (response !== null && !response.ok()) {
      problems.push(`loading ${url}: status ${response.status()}`);
    }
    const seen = await page.evaluate(inspect);
    if (seen.charts.length === 0) {
      problems.push("no charts (svg.chart)");
    }
    for (const c of seen.charts) {
      if (!(c.width > 0 && c.height > 0)) {
        problems.push(`chart "${c.title}": laid out at ${c.width}x${c.height}`);
      }
      if (c.marks === 0) {
        problems.push(`chart "${c.title}": draws no data`);
      }
    }
    for (const img of seen.images) {
      if (!(img.width > 0 && img.height > 0)) {
        problems.push(`image "${img.alt}": does not decode (${img.width}x${img.height})`);
      }
    }
    if (seen.scripts > 0) {
      problems.push(`${seen.scripts} <script> elements`);
    }
    const version = await browser.version();
    const marks = seen.charts.reduce((n, c) => n + c.marks, 0);
    if (problems.length === 0) {
      console.log(
        `check-report: ok: ${opt.report}: ${seen.charts.length} charts drawn (${marks} marks), ` +
          `${seen.images.length} images, ${seen.tables} tables, ` +
          `no console or page errors, no request but the file (${version})`,
      );
    } else {
      for (const p of problems) {
        console.log(`  ${p}`);
      }
      console.log(`check-report: FAIL: ${opt.report}: ${problems.length} problems (${version})`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    clearTimeout(timer);
  }
}

main().catch((e) => {
  console.log(`check-report: FAIL: ${e?.stack ?? e}`);
  process.exit(1);
});
