'use strict';
// report.html in a real headless browser (Debian's Chromium driven by playwright-core), and
// `orchestrate compare` on two small real runs.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { skipUnless } = require('../helpers/servers');
const { inspectPng } = require('../helpers/png');
const { readRun } = require('../../orchestrator/results/reader');

const CHROMIUM = process.env.CLASSICS_CHROMIUM || '/usr/bin/chromium';

describe('report.html and compare, on two smoke runs', function () {
  this.timeout(300000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-page-'));
  const runA = path.join(root, 'a');
  const runB = path.join(root, 'b');

  before(async function () {
    skipUnless(this, 'ferretdb');
    skipUnless(this, 'ferretdb-pg');
    for (const [out, server] of [[runA, 'ferretdb'], [runB, 'ferretdb-pg']]) {
      const { code, stderr } = await invokeOnFixture(['--server', server, '--size', 'smoke', '--passes', '2', '--out', out]);
      assert.equal(code, 0, stderr);
    }
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('opens from the file system in Chromium without errors and shows every chart', async function () {
    if (!fs.existsSync(CHROMIUM)) {
      process.stdout.write(`      skipped: no Chromium at ${CHROMIUM} (Debian's chromium package; npm run setup installs it as root)\n`);
      this.skip();
    }
    const { chromium } = require('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const errors = [];
      const requests = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) requests.push(r.url()); });
      await page.goto(`file://${path.join(runA, 'report.html')}`);
      const images = await page.$$eval('img', (imgs) => imgs.map((i) => ({ alt: i.alt, complete: i.complete, width: i.naturalWidth })));
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [], 'the page asks the network for nothing');
      assert.ok(images.length >= 2, 'both charts are on the page');
      assert.ok(images.every((i) => i.complete && i.width === 1000), JSON.stringify(images));
      const headings = await page.$$eval('h2', (hs) => hs.map((h) => h.textContent));
      assert.ok(headings.includes('Verdicts'), headings.join(' | '));
      assert.ok(headings.some((h) => h.startsWith(fixture.name)));
      const text = await page.textContent('body');
      assert.match(text, /cannot be tested here/);
      assert.match(text, /Calibration: what the shell adds/);
    } finally {
      await browser.close();
    }
  });

  it('measures what each shell adds on each server before its scenarios, beside the driver', () => {
    for (const out of [runA, runB]) {
      const [calibration] = readRun(out).calibrations;
      assert.ok(calibration.shells.length >= 1 && calibration.shells.includes(calibration.shell), JSON.stringify(calibration.shells));
      for (const type of ['insert', 'find', 'update', 'remove']) {
        const o = calibration.perOp[type];
        assert.ok(o.driverMs > 0, `${type}: driver`);
        for (const shell of calibration.shells) assert.ok(o.shellMs[shell] > 0 && Number.isFinite(o.ratio[shell]), `${type}: ${shell}`);
      }
      assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /### Calibration: what the shell adds[\s\S]*\| update by _id \|/);
    }
  });

  it('compares the two runs cell by cell, with B/A and a chart', async () => {
    const out = path.join(root, 'cmp');
    const { code, stdout, stderr } = await invokeOnFixture(['compare', runA, runB, '--out', out]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /cell\(s\) changed past ±10%/);
    const md = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    assert.match(md, new RegExp(`## ${fixture.name}: A on ferretdb, B on ferretdb-pg`));
    const row = new RegExp(`\\| ${fixture.tables[0].title} · 1 · ${fixture.collections[1]} · hr ms \\| ([\\d,.]+) \\| ([\\d,.]+) \\| ×([\\d.]+) \\|`).exec(md);
    assert.ok(row, md);
    const [a, b, ratio] = row.slice(1).map((v) => Number(v.replace(/,/g, '')));
    assert.ok(Math.abs(b / a - ratio) < 0.01, 'the ratio is B/A');
    const png = await inspectPng(fs.readFileSync(path.join(out, `compare-${fixture.name}.png`)));
    assert.ok(png.distinctColours > 5);
  });

  it('refuses to compare a folder without results, in one line', async () => {
    const { code, stderr } = await invokeOnFixture(['compare', runA, root]);
    assert.equal(code, 2);
    assert.match(stderr.trim(), /^UsageError: .* holds no results\.jsonl: give the folders of two runs$/);
  });
});
