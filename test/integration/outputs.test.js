'use strict';
// What a user takes elsewhere, through the real CLI: `list --json` and `config --json` as JSON,
// `orchestrate report` on a run folder with a broken record (one warning line on stderr naming
// its line and field, the rest rendered) and results.csv beside the report; the outputs as bytes
// (report.html embedding the charts rendered for it, --format), and every kept example
// re-rendered byte for byte from its results.jsonl.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parse } = require('csv-parse/sync');
const { invokeOrchestrate } = require('../helpers/cli');
const { renderReport } = require('../../orchestrator/report/render');
const { renderFigures } = require('../../orchestrator/report/figures');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { chromiumMissing } = require('../../orchestrator/capabilities');
const { VIEWPORT } = require('../../orchestrator/report/screenshot');
const { skip } = require('../helpers/skips');
const { inspectPng } = require('../helpers/png');

const EXAMPLES = path.join(__dirname, '..', '..', 'reports', 'examples');
const EXAMPLE = path.join(EXAMPLES, 'article-ferretdb2-trade-candles', 'results.jsonl');

describe('outputs a user takes elsewhere', function () {
  this.timeout(120000);

  it('list --json prints the scenarios as JSON and nothing else', async () => {
    const { code, stdout, stderr } = await invokeOrchestrate(['list', '--json']);
    assert.equal(code, 0, stderr);
    const { scenarios, broken } = JSON.parse(stdout);
    assert.deepEqual(broken, []);
    assert.ok(scenarios.some((s) => s.name === 'trade-candles' && s.sizes.article.TICKERS > 0 && s.auto.vary.length > 0), stdout.slice(0, 300));
  });

  it('config --json prints the settings and what this machine has as JSON and nothing else', async () => {
    const { code, stdout, stderr } = await invokeOrchestrate(['config', '--json'], { env: { CLASSICS_TEST_URI: 'mongodb://u:secret@127.0.0.1:1/' } });
    assert.equal(code, 0, stderr);
    const config = JSON.parse(stdout);
    assert.ok(config.variables.some((v) => v.name === 'CLASSICS_STATE_DIR'), stdout.slice(0, 300));
    assert.ok(config.capabilities.some((c) => c.kind === 'server' && 'missing' in c));
    assert.doesNotMatch(stdout, /secret/);
  });

  describe('report on a run folder with a broken record', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-outputs-'));
    let result;
    before(async () => {
      const lines = fs.readFileSync(EXAMPLE, 'utf8').split('\n').filter(Boolean);
      const at = lines.findIndex((l) => JSON.parse(l).type === 'measurement' && JSON.parse(l).meanUs);
      lines[at] = JSON.stringify({ ...JSON.parse(lines[at]), meanUs: 'slow' });
      fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
      result = { ...(await invokeOrchestrate(['report', dir])), line: at + 1 };
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('says in one line on stderr which line and which field, and renders the rest', () => {
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, `warning: line ${result.line} (a measurement record): meanUs must be number or null, not "slow"; the record was skipped\n`);
      assert.match(result.stdout, /^wrote .*summary\.md, .*report\.html, .*verdicts\.png, .*results\.csv/);
      assert.ok(fs.existsSync(path.join(dir, 'report.html')));
    });

    it('writes results.csv beside the report, without the broken record', () => {
      const rows = parse(fs.readFileSync(path.join(dir, 'results.csv')), { columns: true });
      assert.ok(rows.length > 50);
      assert.ok(rows.every((r) => r.scenario === 'trade-candles' && r.server === 'ferretdb2'));
      assert.ok(!rows.some((r) => r.value === 'slow'));
    });
  });
});

describe('outputs as bytes, and the kept examples re-rendered', function () {
  this.timeout(300000);
  const scenarios = discoverScenarios(resolveConfig().shellDir);
  let root;
  beforeEach(() => { root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-outputs-')); });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** A run folder in root holding a copy of a kept example's results.jsonl and nothing else. */
  function exampleCopy(name = path.basename(path.dirname(EXAMPLE))) {
    const dir = path.join(root, name);
    fs.mkdirSync(dir);
    fs.copyFileSync(path.join(EXAMPLES, name, 'results.jsonl'), path.join(dir, 'results.jsonl'));
    return dir;
  }

  /** The files of a kept example that differ from, or are missing in, its re-rendering (first-screen.png is Chromium's: taken apart). */
  function differing(name, dir) {
    return fs.readdirSync(path.join(EXAMPLES, name)).filter((f) => f !== 'first-screen.png')
      .filter((f) => !fs.existsSync(path.join(dir, f)) || !fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(path.join(EXAMPLES, name, f))));
  }

  it('report.html alone embeds every chart from the bytes rendered for it, with no chart on disk, the same page as the kept example\'s', async () => {
    const dir = exampleCopy();
    const report = await renderReport([dir], scenarios, { formats: ['report.html'] });
    assert.deepEqual(report.files, ['report.html']);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['report.html', 'results.jsonl']);
    const html = fs.readFileSync(path.join(dir, 'report.html'));
    assert.equal((html.toString().match(/src="data:image\/png;base64,/g) || []).length, 6);
    assert.ok(html.equals(fs.readFileSync(path.join(path.dirname(EXAMPLE), 'report.html'))), 'report.html as kept, byte for byte');
  });

  it('orchestrate report --format writes only the formats named; a bad one is one line and exit code 2, writing nothing', async () => {
    const dir = exampleCopy();
    const bad = await invokeOrchestrate(['report', dir, '--format', 'verdicts.json,html']);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'UnknownFormatError: --format "html": report writes no such output; choose from results.csv, verdicts.json, charts, summary.md, report.html, verdicts.png, first-screen.png (a comma list)\n');
    assert.deepEqual(fs.readdirSync(dir), ['results.jsonl']);
    const { code, stdout, stderr } = await invokeOrchestrate(['report', dir, '--format', 'verdicts.json,summary.md'], { env: { CLASSICS_RUNS_DIR: path.join(root, 'runs') } });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^wrote \S*summary\.md, \S*verdicts\.json\n$/);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['results.jsonl', 'summary.md', 'verdicts.json']);
    for (const file of ['summary.md', 'verdicts.json']) assert.ok(fs.readFileSync(path.join(dir, file)).equals(fs.readFileSync(path.join(path.dirname(EXAMPLE), file))), file);
  });

  it('first-screen.png alone: report.html\'s first screen taken from its bytes in Chromium, 1400×900, nothing else written', async function () {
    const missing = chromiumMissing(resolveConfig());
    if (missing) skip(this, 'no Chromium', missing);
    const dir = exampleCopy();
    const report = await renderReport([dir], scenarios, { formats: ['first-screen.png'] });
    assert.deepEqual(report.files, ['first-screen.png']);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['first-screen.png', 'results.jsonl']);
    const png = await inspectPng(fs.readFileSync(path.join(dir, 'first-screen.png')));
    assert.deepEqual([png.width, png.height], [VIEWPORT.width, VIEWPORT.height]);
    assert.ok(png.distinctColours > 20, 'the page drawn, not a blank screen');
  });

  it('figures: figures.md and the charts each alone, the charts those figures.md links', async () => {
    const md = path.join(root, 'md');
    const charts = path.join(root, 'charts');
    assert.deepEqual(await renderFigures(md, scenarios, ['figures.md']), ['figures.md']);
    assert.deepEqual(fs.readdirSync(md), ['figures.md']);
    const linked = [...fs.readFileSync(path.join(md, 'figures.md'), 'utf8').matchAll(/!\[[^\]]*\]\(([^)]+\.png)\)/g)].map((m) => m[1]);
    assert.ok(linked.length >= 5, linked.join(', '));
    const drawn = await renderFigures(charts, scenarios, ['charts']);
    assert.deepEqual(drawn, linked);
    assert.deepEqual(fs.readdirSync(charts).sort(), [...linked].sort());
    const png = await inspectPng(fs.readFileSync(path.join(charts, drawn[0])));
    assert.ok(png.distinctColours > 5);
  });

  it('every kept example re-renders byte for byte from its results.jsonl: each run, then the page of several side by side', async () => {
    const runs = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'results.jsonl'))).sort();
    assert.ok(runs.length >= 5, runs.join(', '));
    for (const name of runs) {
      const dir = exampleCopy(name);
      await renderReport([dir], scenarios);
      assert.deepEqual(differing(name, dir), [], `${name}: re-rendered (npx orchestrate report reports/examples/${name})`);
    }
    // the page of several runs, from the folders just rendered, as `orchestrate report A B C --out side-by-side` writes it
    const sideBySide = fs.readFileSync(path.join(EXAMPLES, 'side-by-side', 'report.html'), 'utf8');
    const shown = /<title>mongo-classics: (.*)<\/title>/.exec(sideBySide)[1].split(', ');
    const out = path.join(root, 'side-by-side');
    fs.mkdirSync(out);
    await renderReport(shown.map((name) => path.join(root, name)), scenarios, { outDir: out, draw: false });
    assert.deepEqual(differing('side-by-side', out), [], 'side-by-side: re-rendered (npx orchestrate report reports/examples/{A,B,C} --out reports/examples/side-by-side)');
  });
});
