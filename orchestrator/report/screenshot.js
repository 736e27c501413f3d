'use strict';
// first-screen.png: report.html's first screen as a reader meets it (Chromium at 1400×900),
// taken by Debian's chromium driven by playwright-core, as bytes (an exporter's, exporters.js).
// Optional: `orchestrate report --screenshot` (or --format first-screen.png) asks for it (the
// kept examples hold one); a machine without Chromium is told so in one line.
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { UsageError } = require('../errors');
const { resolveConfig } = require('../config');
const { chromiumMissing } = require('../capabilities');

const VIEWPORT = { width: 1400, height: 900 };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The Chromium binary: CLASSICS_CHROMIUM, else Debian's (config.js). */
function chromiumPath() {
  return resolveConfig().chromium;
}

/** Opens Chromium headless (playwright-core); throws a UsageError where there is none. */
async function launchChromium() {
  const missing = chromiumMissing(resolveConfig());
  if (missing) throw new UsageError(missing);
  const executablePath = chromiumPath();
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch {
    // a dependency of the kit's own (it downloads no browser: the kit drives the machine's Chromium)
    throw new UsageError('playwright-core is not installed: run npm ci (or npm install playwright-core) in the kit\'s folder');
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * first-screen.png's bytes: the page (report.html's bytes) as Chromium shows it at 1400×900. The
 * page is given its folder (dir) as its address, so what it links beside it (a page of several
 * runs: the charts in their runs' folders) loads as it would from report.html on disk; the page
 * itself is taken from memory, not read back.
 */
async function screenshotHtml(html, dir) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(pathToFileURL(`${path.resolve(dir)}${path.sep}`).href);
    await page.setContent(Buffer.from(html).toString('utf8'), { waitUntil: 'load' });
    return await page.screenshot();
  } finally {
    await browser.close();
  }
}

module.exports = { screenshotHtml, launchChromium, chromiumPath, VIEWPORT, CHROMIUM_ARGS };
