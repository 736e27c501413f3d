'use strict';
// The Comparison of two runs (analysis/comparison.js): each finding's figure held against the
// other run's by a test it names, each cell's value likewise, a status decided by the comparison's
// own thresholds. On a kept example against itself and against a copy whose figure was moved.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { jStat } = require('jstat');
const { buildComparison, compareFinding, compareCell, COMPARISON_RULE } = require('../../orchestrator/analysis/comparison');
const { readRun } = require('../../orchestrator/results/reader');
const { discoverScenarios } = require('../../orchestrator/scenarios');

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(ROOT, 'reports/examples/auto-embedded');

describe('comparison: a finding\'s figure in A against B', () => {
  // a verdict of 8 pairs whose interval is ratio ×/÷ exp(t × se)
  const v = (ratio, se, df = 7) => {
    const t = jStat.studentt.inv(0.975, df);
    return { ratio, se, df, n: df + 1, lo: ratio * Math.exp(-t * se), hi: ratio * Math.exp(t * se) };
  };

  it('calls a change two overlapping intervals would miss, by Welch\'s t on the difference of the log-ratios, and names it', () => {
    // 1.00× and 1.25×, each ±2.365 × 0.06 on a log scale: the intervals meet (1.15 against 1.09), the test does not
    const a = v(1, 0.06);
    const b = v(1.25, 0.06);
    assert.ok(b.lo < a.hi, 'the intervals overlap');
    const row = compareFinding(a, b);
    assert.equal(row.status, 'changed');
    assert.equal(row.test.kind, 'welch');
    assert.match(row.test.name, /^Welch's t on the difference of the log-ratios \(both runs' standard errors, Welch–Satterthwaite degrees of freedom\): changed at p < 0\.05/);
    assert.ok(Math.abs(row.test.z - Math.log(1.25) / Math.sqrt(2 * 0.06 ** 2)) < 1e-12);
    assert.ok(Math.abs(row.test.df - 14) < 1e-9, 'equal errors: n₁ + n₂ − 2 degrees of freedom');
    assert.ok(row.test.p < 0.05 && row.test.p > 0.001, `${row.test.p}`);
    // the interval of B/A: its log is the difference ± t(14) standard errors of it
    const half = jStat.studentt.inv(0.975, 14) * Math.sqrt(2 * 0.06 ** 2);
    assert.ok(Math.abs(row.lo - 1.25 * Math.exp(-half)) < 1e-9 && Math.abs(row.hi - 1.25 * Math.exp(half)) < 1e-9);
    assert.ok(row.lo > 1, 'a change: its interval leaves 1 out');
  });

  it('calls no change within both runs\' noise: the same where the interval of B/A lies within the noise band, cannot tell where it is wider', () => {
    assert.equal(compareFinding(v(1, 0.01), v(1.01, 0.01)).status, 'same');
    const wide = compareFinding(v(1, 0.06), v(1.1, 0.06));
    assert.equal(wide.status, 'cannot tell');
    assert.ok(wide.lo < 1 - COMPARISON_RULE.noise || wide.hi > 1 + COMPARISON_RULE.noise);
  });

  it('falls back to the margin allowed where either run rests on one reading, and says so', () => {
    const row = compareFinding({ ratio: 1 }, v(1.2, 0.01));
    assert.deepEqual([row.status, row.test.kind, row.factor], ['changed', 'margin', 1.2]);
    assert.match(row.test.name, /±10% margin allowed \(--noise\)/);
    assert.equal(compareFinding({ ratio: 1 }, { ratio: 1.05 }).status, 'same');
    assert.equal(compareFinding({ ratio: 1 }, { ratio: 1.05 }, { ...COMPARISON_RULE, noise: 0.01 }).status, 'changed');
    assert.deepEqual(compareFinding(null, v(1, 0.01)), { factor: null, lo: null, hi: null, test: null, status: 'cannot tell' });
  });
});

describe('comparison: a cell\'s value in A against B', () => {
  it('by the ranges of its repeats where both runs were repeated, else by the margin', () => {
    const cell = (value, min, max) => ({ value, spread: { min, max } });
    assert.deepEqual(((r) => [r.status, r.test.kind])(compareCell(cell(120, 100, 140), cell(155, 150, 160))), ['changed', 'ranges']);
    assert.equal(compareCell(cell(120, 100, 140), cell(140, 130, 150)).status, 'cannot tell', '+17%, but the ranges overlap');
    assert.equal(compareCell(cell(120, 100, 140), cell(125, 110, 150)).status, 'same');
    assert.deepEqual(((r) => [r.status, r.test.kind])(compareCell({ value: 100 }, { value: 115 })), ['changed', 'margin']);
  });
});

describe('comparison: the kept example auto-embedded (8 paired rounds)', function () {
  this.timeout(60000);
  const scenarios = discoverScenarios(path.join(ROOT, 'shell'));
  let dir;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-comparison-')); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A copy of the example in which each of many-keys' blocks on the original schema took `factor` times as long. */
  function slowedCopy(factor) {
    const out = path.join(dir, `slowed-${factor}`);
    fs.mkdirSync(out, { recursive: true });
    const lines = fs.readFileSync(path.join(EXAMPLE, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => {
      const r = JSON.parse(l);
      if (r.type !== 'block' || r.scenario !== 'many-keys' || r.collection !== 'original') return l;
      for (const f of ['ms', 'hrMs', 'seconds', 'appliedMs', 'appliedHrMs', 'appliedSeconds']) if (Number.isFinite(r[f])) r[f] *= factor;
      return JSON.stringify(r);
    });
    fs.writeFileSync(path.join(out, 'results.jsonl'), `${lines.join('\n')}\n`);
    return out;
  }

  it('against itself: nothing changed; a figure is the same where 8 rounds can say so, cannot tell where they are too few', () => {
    const run = readRun(EXAMPLE);
    const c = buildComparison({ a: run, b: run, scenarios });
    assert.equal(c.counts.findings.changed, 0);
    assert.equal(c.counts.cells.changed, 0);
    const tested = c.findings.filter((f) => f.test?.kind === 'welch');
    assert.ok(tested.length >= 5, `${tested.length} findings tested`);
    const within = (f) => f.lo >= 1 - COMPARISON_RULE.noise && f.hi <= 1 + COMPARISON_RULE.noise;
    for (const f of tested) {
      assert.ok(Math.abs(f.factor - 1) < 1e-9 && f.test.p > 0.99, f.finding);
      assert.equal(f.status, within(f) ? 'same' : 'cannot tell', f.finding);
    }
    assert.ok(tested.some((f) => f.status === 'same') && tested.some((f) => f.status === 'cannot tell'));
  });

  it('flags the figure that moved past its noise, by Welch\'s t, and only that one', () => {
    const c = buildComparison({ a: readRun(EXAMPLE), b: readRun(slowedCopy(1.5)), scenarios });
    const changed = c.findings.filter((f) => f.status === 'changed');
    assert.deepEqual(changed.map((f) => [f.scenario, f.finding, f.test.kind]), [['many-keys', 'buckets-faster', 'welch']]);
    const [row] = changed;
    assert.ok(Math.abs(row.factor - 1.5) < 0.01, `${row.factor}`);
    assert.ok(row.lo > 1 + COMPARISON_RULE.noise, 'its interval is past the noise band');
    assert.ok(row.test.p < COMPARISON_RULE.p);
    assert.equal(c.counts.findings.byTest.welch, 1);
    assert.deepEqual(c.findings.filter((f) => f.scenario !== 'many-keys').map((f) => f.factor).filter((x) => x !== null && Math.abs(x - 1) > 1e-9), [], 'the other figures did not move');
  });
});
