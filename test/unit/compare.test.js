'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { compareRuns } = require('../../orchestrator/report/compare');
const { fixture } = require('../helpers/fixture');

/** A run folder with the fixture's pass 1 measured twice, hrMs taking the values given. */
function writeRun(dir, values, repeat = 2, sizes = null) {
  fs.mkdirSync(dir, { recursive: true });
  const lines = [{ type: 'run', startedAt: 'x', kit: {}, params: { scenarios: [fixture.name], size: 'smoke', sizes: {}, repeat } }];
  if (sizes) lines.push({ type: 'size', scenario: fixture.name, server: 's', size: 'auto', sizes, fraction: 0.1, budgetSeconds: 60, predictedSeconds: 50 });
  values.forEach((hrMs, i) => lines.push({
    type: 'measurement', scenario: fixture.name, server: 's', step: 'pass', pass: 1, collection: fixture.collections[1], hrMs, repeat: repeat > 1 ? i + 1 : undefined,
  }));
  fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

describe('compare', function () {
  this.timeout(20000);
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-compare-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const scenarios = [fixture];
  const compare = () => compareRuns({ dirA: path.join(dir, 'a'), dirB: path.join(dir, 'b'), out: path.join(dir, 'out'), scenarios, noise: 0.1 });

  it('flags a repeated cell only where the two runs\' ranges do not overlap', async () => {
    writeRun(path.join(dir, 'a'), [100, 140]);
    writeRun(path.join(dir, 'b'), [130, 150]); // medians 120 and 140: +17%, but the ranges overlap
    assert.equal((await compare()).flagged, 0);
    writeRun(path.join(dir, 'b'), [150, 160]);
    assert.equal((await compare()).flagged, 1);
    assert.match(fs.readFileSync(path.join(dir, 'out', 'compare.md'), 'utf8'), /ranges of its repeats in A and in B do not overlap/);
  });

  it('says where the two runs ran a scenario at different sizes', async () => {
    writeRun(path.join(dir, 'a'), [100], 1, { DOCS: 201, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    writeRun(path.join(dir, 'b'), [115], 1, { DOCS: 201, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    await compare();
    assert.doesNotMatch(fs.readFileSync(path.join(dir, 'out', 'compare.md'), 'utf8'), /sizes differ/);
    writeRun(path.join(dir, 'b'), [115], 1, { DOCS: 401, UPDATES: 51, REMOVES: 11, INSERTS: 10 });
    await compare();
    assert.match(fs.readFileSync(path.join(dir, 'out', 'compare.md'), 'utf8'), /\*\*The sizes differ\*\* \(A: DOCS=201 UPDATES=51 REMOVES=11 INSERTS=10, \? pass\(es\); B: DOCS=401 /);
  });

  it('falls back to the --noise margin without repeats', async () => {
    writeRun(path.join(dir, 'a'), [100], 1);
    writeRun(path.join(dir, 'b'), [115], 1);
    assert.equal((await compare()).flagged, 1);
  });
});

describe('compare: a figure changed, by a test', () => {
  const { verdictMoved } = require('../../orchestrator/report/compare');
  const { changeTest } = require('../../orchestrator/analysis/change');
  const { jStat } = require('jstat');
  // a verdict of 8 pairs whose interval is ratio ×/÷ exp(t × se)
  const v = (ratio, se, df = 7) => {
    const t = jStat.studentt.inv(0.975, df);
    return { ratio, se, df, lo: ratio * Math.exp(-t * se), hi: ratio * Math.exp(t * se) };
  };

  it('flags a change two overlapping intervals would miss, by Welch\'s t on the difference of the log-ratios', () => {
    // 1.00× and 1.25×, each ±2.365 × 0.06 on a log scale: the intervals meet (1.15 against 1.09), the test does not
    const a = v(1, 0.06);
    const b = v(1.25, 0.06);
    assert.ok(b.lo < a.hi, 'the intervals overlap');
    const { moved, test } = verdictMoved(a, b, 0.1);
    assert.equal(moved, true);
    assert.equal(test.test, 'Welch\'s t on the difference of the log-ratios');
    assert.ok(Math.abs(test.z - Math.log(1.25) / Math.sqrt(2 * 0.06 ** 2)) < 1e-12);
    assert.ok(Math.abs(test.df - 14) < 1e-9, 'equal errors: n₁ + n₂ − 2 degrees of freedom');
    assert.ok(test.p < 0.05 && test.p > 0.001, `${test.p}`);
  });

  it('does not flag a difference within both runs\' noise, and weighs a noisier run\'s few degrees of freedom', () => {
    assert.equal(verdictMoved(v(1, 0.06), v(1.1, 0.06), 0.1).moved, false);
    const t = changeTest(v(1, 0.02, 7), v(1.1, 0.1, 1));
    assert.ok(t.df < 2, `${t.df}: the noisier run's one degree of freedom rules`);
    assert.equal(t.changed, false);
  });

  it('falls back to the noise allowed where either run rests on one reading', () => {
    assert.deepEqual(verdictMoved({ ratio: 1 }, v(1.2, 0.01), 0.1), { moved: true, test: null });
    assert.deepEqual(verdictMoved({ ratio: 1 }, { ratio: 1.05 }, 0.1), { moved: false, test: null });
  });
});
