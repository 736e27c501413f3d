'use strict';
// first-screen.png: report.html's first screen as a reader meets it (Chromium at 1400×900),
// taken by Debian's chromium driven by playwright-core. Optional: `orchestrate report --screenshot`
// asks for it (the kept examples hold one); a machine without Chromium is told so in one line.
const path = require('node:path');
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

/** Writes first-screen.png beside report.html in dir; returns its file name. */
async function screenshotFirstScreen(dir) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`file://${path.join(path.resolve(dir), 'report.html')}`);
    await page.screenshot({ path: path.join(dir, 'first-screen.png') });
    return 'first-screen.png';
  } finally {
    await browser.close();
  }
}

module.exports = { screenshotFirstScreen, launchChromium, chromiumPath, VIEWPORT, CHROMIUM_ARGS };
