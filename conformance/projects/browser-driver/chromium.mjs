// Headless Chromium as every browser check of the project runs it (drive.mjs,
// bench/net/check-report.mjs): from npm (@sparticuz/chromium + puppeteer-core, installed
// next to this file by install.sh), with Chromium's own background networking off so that
// a page's requests are the only ones.

import chromium from "@sparticuz/chromium";
import puppeteer from "puppeteer-core";

/** Launches headless Chromium. */
export async function launch() {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: [
      ...chromium.args,
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-default-apps",
      "--disable-extensions",
      "--disable-sync",
      "--no-first-run",
    ],
    headless: true,
  });
}

/** Adds the page's console errors and uncaught exceptions to `problems`. */
export function watch(page, problems) {
  page.on("console", (m) => {
    if (m.type() === "error") {
      problems.push(`console error: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
}
