'use strict';
// report.html in a real headless browser (Debian's Chromium driven by playwright-core) at
// 1400×900, the side-by-side page of two runs, verdicts.png, and `orchestrate compare`, on two
// small real runs.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture, FIXTURE_SHELL_DIR } = require('../helpers/fixture');
const { skipUnless } = require('../helpers/servers');
const { skip } = require('../helpers/skips');
const { inspectPng } = require('../helpers/png');
const { spawnSync } = require('node:child_process');
const { readRun } = require('../../orchestrator/results/reader');
const { buildReportModel, STATUSES, NOT_RUN } = require('../../orchestrator/report/model');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { CHROMIUM_ARGS, VIEWPORT, chromiumPath } = require('../../orchestrator/report/screenshot');
const { chromiumMissing } = require('../../orchestrator/capabilities');
const { resolveConfig } = require('../../orchestrator/config');

const CHROMIUM = chromiumPath();
const EXAMPLES = path.join(__dirname, '..', '..', 'reports', 'examples');

describe('report.html and compare, on two smoke runs', function () {
  this.timeout(300000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-page-'));
  const runA = path.join(root, 'a');
  const runB = path.join(root, 'b');

  before(async function () {
    skipUnless(this, 'ferretdb');
    skipUnless(this, 'ferretdb-pg');
    // A with the calibration, which the suite and the page check (a calibration costs about 14 s of
    // CPU, so B has none: what the calibration measures is the same code on every server); one
    // pass: the compare reads pass 1's row
    for (const [out, server, calibrate] of [[runA, 'ferretdb', []], [runB, 'ferretdb-pg', ['--no-calibrate']]]) {
      const { code, stderr } = await invokeOnFixture(['--server', server, '--size', 'smoke', '--passes', '1', ...calibrate, '--out', out]);
      assert.equal(code, 0, stderr);
    }
  });

  // one Chromium for the suite's pages (each in a context of its own), closed after them
  let chromiumStarted = null;
  after(async () => {
    if (chromiumStarted) await (await chromiumStarted).close().catch(() => {});
    fs.rmSync(root, { recursive: true, force: true });
  });

  /**
   * A page at 1400×900 in a fresh context of the suite's Chromium, with every page's errors and
   * network requests collected, or a skip with its reason. `browser.close()` closes its context.
   */
  async function openPage(test, file) {
    const missing = chromiumMissing(resolveConfig());
    if (missing) skip(test, 'no Chromium', missing);
    const { chromium } = require('playwright-core');
    chromiumStarted ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await (await chromiumStarted).newContext({ viewport: VIEWPORT });
    const browser = { close: () => context.close() };
    const page = await context.newPage();
    const errors = [];
    const requests = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) requests.push(r.url()); });
    await page.goto(`file://${file}`);
    return { browser, page, errors, requests };
  }

  it('opens from the file system in Chromium without errors and shows every chart', async function () {
    const { browser, page, errors, requests } = await openPage(this, path.join(runA, 'report.html'));
    try {
      const images = await page.$$eval('img', (imgs) => imgs.map((i) => ({ alt: i.alt, complete: i.complete, width: i.naturalWidth })));
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [], 'the page asks the network for nothing');
      assert.ok(images.length >= 2, 'both charts are on the page');
      assert.ok(images.every((i) => i.complete && i.width === 1000), JSON.stringify(images));
      // every heading can be linked to, and the contents line links to each section
      const ids = await page.$$eval('h1, h2', (hs) => hs.map((h) => h.id));
      assert.ok(ids.every(Boolean), ids.join(' | '));
      const targets = await page.$$eval('nav.contents a', (as) => as.map((a) => a.getAttribute('href').slice(1)));
      assert.ok(targets.length >= 3 && targets.every((t) => ids.includes(t)), `${targets} against ${ids}`);
      assert.ok(ids.some((id) => id.includes(fixture.name)));
      const text = await page.textContent('body');
      assert.match(text, /Calibration: what the shell adds/);
      assert.doesNotMatch(await page.textContent('#matrix'), /\bhrMs\b|\.outcome\b/, 'no field names in the matrix');
    } finally {
      await browser.close();
    }
  });

  it('shows the verdict matrix on the first screen at 1400×900: a cell per finding × server, one colour per verdict, no horizontal scroll', async function () {
    const { browser, page } = await openPage(this, path.join(runA, 'report.html'));
    try {
      const model = buildReportModel([readRunModel(runA, discoverScenarios(FIXTURE_SHELL_DIR))], discoverScenarios(FIXTURE_SHELL_DIR));
      const matrix = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('#matrix tr.finding')];
        return {
          top: document.querySelector('#matrix').getBoundingClientRect().top,
          rows: rows.map((r) => ({ finding: r.dataset.finding, cells: [...r.querySelectorAll('td.cell')].map((c) => ({ status: c.dataset.status, bottom: c.getBoundingClientRect().bottom })) })),
          headers: [...document.querySelectorAll('#matrix thead th')].slice(2).map((th) => th.textContent),
        };
      });
      assert.ok(matrix.top < VIEWPORT.height / 3, `the matrix starts at ${matrix.top} px`);
      assert.equal(matrix.rows.length, model.rows.length, 'a row per finding (published-only findings folded into one)');
      assert.deepEqual(matrix.headers.map((h) => h.split(/ferretdb/)[0]), model.columns.map((c) => c.name), 'a column per server, by its real name');
      assert.match(matrix.headers[0], /^FerretDB 1\.\d+ on SQLite/);
      for (const row of matrix.rows) {
        assert.equal(row.cells.length, model.columns.length, row.finding);
        for (const cell of row.cells) assert.ok(cell.bottom <= VIEWPORT.height, `${row.finding}: a cell ends at ${cell.bottom} px, below the first screen`);
      }
      // every verdict kind the page can show, in the page's own style: each its own colour
      const colours = await page.evaluate((statuses) => statuses.map((s) => {
        const td = document.createElement('td');
        td.className = `cell s-${s.replace(/[^a-z]+/g, '-')}`;
        document.querySelector('#matrix tr.finding').appendChild(td);
        const bg = getComputedStyle(td).backgroundColor;
        td.remove();
        return bg;
      }), [...STATUSES, NOT_RUN]);
      assert.equal(new Set(colours).size, STATUSES.length + 1, colours.join(', '));
      assert.ok(colours.every((c) => c !== 'rgba(0, 0, 0, 0)'), colours.join(', '));
      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      assert.ok(width.scroll <= width.client, `the page is ${width.scroll} px wide in a ${width.client} px window`);
    } finally {
      await browser.close();
    }
  });

  it('renders Chinese in the page\'s fonts, not as missing-glyph boxes', async function () {
    const cjk = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
    if (cjk.error || !cjk.stdout.trim()) {
      skip(this, 'no CJK font', 'fc-list :lang=zh lists none; Debian\'s fonts-noto-cjk has one');
    }
    const { browser, page } = await openPage(this, path.join(runA, 'report.html'));
    try {
      const widths = await page.evaluate(() => {
        const width = (text) => {
          const span = document.createElement('span');
          span.style.fontSize = '40px';
          span.textContent = text;
          document.querySelector('main').appendChild(span);
          const w = span.getBoundingClientRect().width;
          span.remove();
          return w;
        };
        // U+10FFFD is a private-use code point no font draws: the missing-glyph box
        return { chinese: width('更新测试'), missing: width('\u{10FFFD}\u{10FFFD}\u{10FFFD}\u{10FFFD}') };
      });
      assert.notEqual(Math.round(widths.chinese), Math.round(widths.missing), JSON.stringify(widths));
    } finally {
      await browser.close();
    }
  });

  it('puts two runs side by side on one page, a column per run × server', async function () {
    const out = path.join(root, 'side');
    const { code, stderr } = await invokeOnFixture(['report', runA, runB, '--out', out]);
    assert.equal(code, 0, stderr);
    const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
    const headers = [...html.matchAll(/<th>([^<]+)<span class="sub">([^<]+)<\/span><\/th>/g)].map((m) => `${m[1]} | ${m[2]}`);
    assert.equal(headers.length, 2, headers.join('\n'));
    assert.match(headers[0], /^FerretDB 1\.\d+ on SQLite \| a · size smoke/);
    assert.match(headers[1], /^FerretDB 1\.\d+ on PostgreSQL [\d.]+ \| b · size smoke/);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /^## Verdicts$/m);
    const png = await inspectPng(fs.readFileSync(path.join(out, 'verdicts.png')));
    assert.ok(png.width === 1400 && png.distinctColours > 5, JSON.stringify(png));
  });

  it('refuses --out for one run, and a folder without results among several, in one line', async () => {
    const one = await invokeOnFixture(['report', runA, '--out', path.join(root, 'x')]);
    assert.equal(one.code, 2);
    assert.match(one.stderr.trim(), /^UsageError: --out is for several runs side by side; [^\n]+$/);
    const none = await invokeOnFixture(['report', runA, root]);
    assert.equal(none.code, 2);
    assert.match(none.stderr.trim(), /^UsageError: .* holds no results\.jsonl: give the folder of a run \(reports\/runs\/\.\.\.\)$/);
  });

  it('writes verdicts.png with each run', async () => {
    const png = await inspectPng(fs.readFileSync(path.join(runA, 'verdicts.png')));
    assert.ok(png.width === 1400 && png.distinctColours > 5, JSON.stringify(png));
  });

  it('measures what each shell adds on the server before its scenarios, beside the driver, and says it in summary.md', () => {
    assert.deepEqual(readRun(runB).calibrations, [], 'the run given --no-calibrate calibrated nothing');
    for (const out of [runA]) {
      const [calibration] = readRun(out).calibrations;
      assert.ok(calibration.shells.length >= 1 && calibration.shells.includes(calibration.shell), JSON.stringify(calibration.shells));
      for (const type of ['insert', 'find', 'update', 'remove']) {
        const o = calibration.perOp[type];
        assert.ok(o.driverMs > 0, `${type}: driver`);
        for (const shell of calibration.shells) assert.ok(o.shellMs[shell] > 0 && Number.isFinite(o.ratio[shell]), `${type}: ${shell}`);
      }
      assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /### Calibration: what the shell adds[\s\S]*\| update by \\?_id \|/);
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

describe('the kept examples', () => {
  it('each hold the first screen of their page as a picture, 1400×900', async () => {
    const dirs = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'report.html')));
    assert.ok(dirs.length >= 3, dirs.join(', '));
    for (const dir of dirs) {
      const file = path.join(EXAMPLES, dir, 'first-screen.png');
      assert.ok(fs.existsSync(file), `${dir} has no first-screen.png (npx orchestrate report ${path.join('reports', 'examples', dir)} --screenshot)`);
      const png = await inspectPng(fs.readFileSync(file));
      assert.deepEqual([png.width, png.height], [VIEWPORT.width, VIEWPORT.height], dir);
    }
  });
});
