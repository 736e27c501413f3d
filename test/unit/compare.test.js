'use strict';
// `orchestrate compare`: the views of a Comparison (report/compare.js) and the command that reads
// two runs, builds it and writes them. What decides a row is held in comparison.test.js.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildComparison, COMPARISON_RULE } = require('../../orchestrator/analysis/comparison');
const { compareMarkdown, compareChartConfig } = require('../../orchestrator/report/compare');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { main } = require('../../orchestrator/cli');
const { fixture } = require('../helpers/fixture');

const EXAMPLES = path.resolve(__dirname, '../../reports/examples');

/** A run folder with the fixture's pass 1 measured twice, hrMs taking the values given. */
function writeRun(dir, values, repeat = 2, sizes = null) {
  fs.mkdirSync(dir, { recursive: true });
  const lines = [
    { type: 'run', startedAt: 'x', kit: {}, params: { scenarios: [fixture.name], size: 'smoke', sizes: {}, repeat } },
    // the server, as a run records it before its measurements: a run model draws a server's records from it
    { type: 'server', server: 's', spec: 's', description: 's', startedByKit: true, product: 'FerretDB', version: '1.24.0' },
  ];
  if (sizes) lines.push({ type: 'size', scenario: fixture.name, server: 's', size: 'auto', sizes, fraction: 0.1, budgetSeconds: 60, predictedSeconds: 50 });
  values.forEach((hrMs, i) => lines.push({
    type: 'measurement', scenario: fixture.name, server: 's', step: 'pass', pass: 1, collection: fixture.collections[1], hrMs, repeat: repeat > 1 ? i + 1 : undefined,
  }));
  fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

describe('compare: the cells of two runs', function () {
  this.timeout(20000);
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-compare-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const compare = () => buildComparison({ a: readRunModel(path.join(dir, 'a'), [fixture]), b: readRunModel(path.join(dir, 'b'), [fixture]), scenarios: [fixture], noise: 0.1 });

  it('flags a repeated cell only where Welch\'s t on its repeats passes and B/A lies wholly past the noise band, and says it was by its repeats', () => {
    writeRun(path.join(dir, 'a'), [100, 140]);
    writeRun(path.join(dir, 'b'), [150, 160]); // +31%, but two repeats a side give 1 df each
    assert.equal(compare().counts.cells.changed, 0);
    writeRun(path.join(dir, 'a'), [100, 104, 98], 3);
    writeRun(path.join(dir, 'b'), [150, 155, 148], 3);
    const c = compare();
    assert.deepEqual(c.counts.cells, { changed: 1, byTest: { repeats: 1 } });
    const md = compareMarkdown(c);
    assert.match(md, /- \*\*Welch's t on the repeats\*\*: Welch's t on the difference of the repeats' mean logs \(each repeat a run/);
    assert.match(md, /\| ×1\.50 \| \*\*changed\*\* \| Welch's t on the repeats: t = [\d.]+, [\d.]+ df, p (?:=|\\?<) [\d.]+ \|$/m);
  });

  it('says where the two runs ran a scenario at different sizes', () => {
    writeRun(path.join(dir, 'a'), [100], 1, { DOCS: 201, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    writeRun(path.join(dir, 'b'), [115], 1, { DOCS: 201, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    assert.doesNotMatch(compareMarkdown(compare()), /sizes differ/);
    writeRun(path.join(dir, 'b'), [115], 1, { DOCS: 401, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    assert.match(compareMarkdown(compare()), /\*\*The sizes differ\*\* \(A: DOCS=201 UPDATES=51 REMOVES=11 INSERTS=10, \? pass\(es\); B: DOCS=401 /);
  });

  it('falls back to the --noise margin without repeats, and names it', () => {
    writeRun(path.join(dir, 'a'), [100], 1);
    writeRun(path.join(dir, 'b'), [115], 1);
    const c = compare();
    assert.deepEqual(c.counts.cells, { changed: 1, byTest: { margin: 1 } });
    assert.match(compareMarkdown(c), /\| ×1\.15 \| \*\*changed\*\* \| margin ±10% \|$/m);
  });

  it('draws each cell as a bar of B/A from 1, coloured by its status', () => {
    writeRun(path.join(dir, 'a'), [100], 1);
    writeRun(path.join(dir, 'b'), [115], 1);
    const config = compareChartConfig(compare().scenarios[0]);
    assert.deepEqual(config.data.datasets[0].data, [[1, 1.15]]);
    assert.deepEqual(config.data.datasets[0].backgroundColor, ['#e15759']);
    assert.equal(config.options.scales.x.type, 'logarithmic');
  });
});

describe('orchestrate compare of two kept examples', function () {
  this.timeout(60000);
  let out;
  let lines;
  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-compare-examples-'));
    lines = [];
    const code = await main(['node', 'orchestrate', 'compare', path.join(EXAMPLES, 'quick-embedded'), path.join(EXAMPLES, 'auto-embedded'), '--out', out], {
      env: { ...process.env, CLASSICS_SHELL_DIR: '' }, // the articles' scenarios, whatever the shell points at
      log: (l) => lines.push(l),
    });
    assert.equal(code, 0);
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes compare.md and a chart per scenario, and says what changed by which test', () => {
    assert.deepEqual(fs.readdirSync(out).sort(), ['compare-embedded-comments.png', 'compare-log-inserts.png', 'compare-many-keys.png', 'compare-power-of-2-sizes.png', 'compare-trade-candles.png', 'compare.md']);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /; \d+ finding\(s\) changed \(\d+ by Welch's t on the log-ratios after Holm's correction and past ±10%, \d+ past ±10%\); \d+ cell\(s\) changed past ±10%, 0 by Welch's t on the repeats$/);
  });

  it('names in compare.md the test that decided each finding: Welch\'s t where both runs were paired, the margin where one holds one reading', () => {
    const md = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    const row = (claim) => md.split('\n').find((l) => l.includes(claim));
    // power-of-2-sizes interleaves its passes in both runs: a standard error on each side
    assert.match(row('usePowerOf2Sizes is about as fast as the padding factor'), /\| ×0\.99 \(0\.98–1\.00\) \| same \| Welch's t: t = -1\.84, 25\.9 df, p = 0\.08 \|/);
    // quick-embedded was recorded before pairing: one reading, and so the margin
    assert.match(row('bucketed keys make the updates many times faster'), /\| ×0\.24 \| \*\*changed\*\* \| margin ±10% \| \*\*verdict moved\*\* \|$/);
    assert.match(md, /- \*\*Welch's t\*\*: Welch's t on the difference of the log-ratios \(both runs' standard errors, with the spread between runs where the history gives it; Welch–Satterthwaite degrees of freedom\): changed where p \\?< 0\.05 after Holm's correction across the findings compared and the whole 95% interval of B\/A lies past ±10%/);
  });

  it('says the default --noise in its help as the comparison rule has it', () => {
    const help = require('node:child_process').execFileSync(process.execPath, [path.resolve(__dirname, '../../bin/orchestrate.js'), 'compare', '--help'], { encoding: 'utf8', env: { ...process.env, CLASSICS_SHELL_DIR: '' } });
    assert.match(help, new RegExp(`default ${COMPARISON_RULE.noise}: ±${Math.round(COMPARISON_RULE.noise * 100)}%`));
  });
});
