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
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { discoverScenarios } = require('../../orchestrator/scenarios');

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(ROOT, 'reports/examples/auto-embedded');

describe('comparison: a finding\'s figure in A against B', () => {
  // a verdict of 8 pairs whose interval is ratio ×/÷ exp(t × se)
  const v = (ratio, se, df = 7) => {
    const t = jStat.studentt.inv(0.975, df);
    return { ratio, se, df, n: df + 1, lo: ratio * Math.exp(-t * se), hi: ratio * Math.exp(t * se) };
  };

  it('calls a change only where Welch\'s t on the difference of the log-ratios passes and the whole interval of B/A lies past the noise band, and names it', () => {
    // 1.00× and 1.50×, each ±2.365 × 0.06 on a log scale
    const a = v(1, 0.06);
    const row = compareFinding(a, v(1.5, 0.06));
    assert.equal(row.status, 'changed');
    assert.equal(row.test.kind, 'welch');
    assert.match(row.test.name, /^Welch's t on the difference of the log-ratios \(both runs' standard errors.*Welch–Satterthwaite degrees of freedom\): changed where p < 0\.05 after Holm's correction across the findings compared and the whole 95% interval of B\/A lies past ±10%/);
    assert.ok(Math.abs(row.test.z - Math.log(1.5) / Math.sqrt(2 * 0.06 ** 2)) < 1e-12);
    assert.ok(Math.abs(row.test.df - 14) < 1e-9, 'equal errors: n₁ + n₂ − 2 degrees of freedom');
    // the interval of B/A: its log is the difference ± t(14) standard errors of it, wholly past +10%
    const half = jStat.studentt.inv(0.975, 14) * Math.sqrt(2 * 0.06 ** 2);
    assert.ok(Math.abs(row.lo - 1.5 * Math.exp(-half)) < 1e-9 && Math.abs(row.hi - 1.5 * Math.exp(half)) < 1e-9);
    assert.ok(row.lo > 1 + COMPARISON_RULE.noise);
    // 1.25×: the test passes (p ≈ 0.02) but the interval reaches into ±10%: a change smaller than
    // the noise allowed cannot be told from none (criterion.rs's rule)
    const small = compareFinding(a, v(1.25, 0.06));
    assert.ok(small.test.p < 0.05 && small.lo < 1 + COMPARISON_RULE.noise, `${small.test.p} ${small.lo}`);
    assert.equal(small.status, 'cannot tell');
  });

  it('holds a change\'s p to Holm\'s correction across the findings compared: ten findings at p ≈ 0.01 call a change only where one is far smaller', () => {
    const { holm } = require('../../orchestrator/analysis/change');
    assert.deepEqual(holm([0.01, 0.04, 0.03, null, 0.005]).map((p) => (p === null ? null : Number(p.toFixed(6)))), [0.03, 0.06, 0.06, null, 0.02]);
    // a finding of p ≈ 0.011 whose interval lies past the band: changed alone, not among ten such
    const a = v(1, 0.1);
    const b = v(1.5, 0.1);
    const alone = compareFinding(a, b);
    assert.ok(alone.test.p > 0.002 && alone.test.p < 0.05 && alone.lo > 1.1, JSON.stringify(alone.test));
    assert.equal(alone.status, 'changed');
    const adjusted = holm(Array(10).fill(alone.test.p));
    assert.equal(compareFinding(a, b, COMPARISON_RULE, adjusted[0]).status, 'cannot tell');
  });

  it('takes the spread between runs into a run\'s standard error where the history gives the verdict one (acrossRuns, τ²)', () => {
    const a = v(1, 0.03);
    const b = v(1.3, 0.03);
    assert.equal(compareFinding(a, b).status, 'changed');
    // runs of this finding differ by about 0.1 on a log scale from one to the next: 1.3× is within that
    const spread = (x) => ({ estimate: { ...x, acrossRuns: { ratio: x.ratio, lo: 0.8, hi: 1.6, runs: 5, df: 4, tau2: 0.1 ** 2 } } });
    const { estimateOf } = require('../../orchestrator/analysis/comparison');
    const [ea, eb] = [estimateOf(spread(a)), estimateOf(spread(b))];
    assert.ok(Math.abs(ea.se - Math.sqrt(0.03 ** 2 + 0.01)) < 1e-12 && ea.df === 4);
    assert.equal(compareFinding(ea, eb).status, 'cannot tell');
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
  it('by Welch\'s t on its repeats (each repeat a run) where both runs were repeated, past the noise band; else by the margin', () => {
    const cell = (...values) => {
      const mean = values.reduce((x, y) => x + y, 0) / values.length;
      const cv = Math.sqrt(values.reduce((x, y) => x + (y - mean) ** 2, 0) / values.length) / mean;
      const sorted = [...values].sort((x, y) => x - y);
      const median = (sorted[Math.floor((values.length - 1) / 2)] + sorted[Math.ceil((values.length - 1) / 2)]) / 2;
      return { value: median, spread: { min: Math.min(...values), max: Math.max(...values), cv, n: values.length } };
    };
    const apart = compareCell(cell(100, 104, 98), cell(150, 155, 148));
    assert.deepEqual([apart.status, apart.test.kind], ['changed', 'repeats']);
    assert.ok(apart.lo > 1.1 && apart.test.p < 0.05, JSON.stringify(apart));
    // two repeats a side: 1 df each, a +17% move inside their spread is not a change
    assert.equal(compareCell(cell(100, 140), cell(130, 150)).status, 'cannot tell');
    // two repeats a side, exactly: the logs of min and max, 1 df each
    const two = compareCell(cell(100, 140), cell(130, 150));
    const se = Math.sqrt((Math.log(1.4) ** 2 + Math.log(150 / 130) ** 2) / 4);
    assert.ok(Math.abs(two.test.t - (Math.log(Math.sqrt(130 * 150)) - Math.log(Math.sqrt(100 * 140))) / se) < 1e-9, JSON.stringify(two.test));
    assert.equal(compareCell(cell(100, 101, 100.5), cell(100.2, 100.9, 100.4)).status, 'same');
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
    const run = readRunModel(EXAMPLE, scenarios);
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

  /**
   * A copy of the example whose paired rounds are resampled with replacement (each round's blocks,
   * both sides together, drawn from a round of the same cell): a second run of the same server on
   * the same machine, as like the first as its own pairs say it could be.
   */
  function resampledCopy(seed) {
    const out = path.join(dir, `resampled-${seed}`);
    fs.mkdirSync(out, { recursive: true });
    let state = seed >>> 0;
    const uniform = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 4294967296; };
    const records = fs.readFileSync(path.join(EXAMPLE, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const cellOf = (r) => JSON.stringify([r.scenario, r.server, r.repeat ?? 0, r.pass ?? 0]);
    const rounds = new Map();
    for (const r of records.filter((x) => x.type === 'block' && !x.warmup && Number.isInteger(x.round))) {
      const cell = cellOf(r);
      if (!rounds.has(cell)) rounds.set(cell, new Map());
      const byRound = rounds.get(cell);
      byRound.set(r.round, [...(byRound.get(r.round) || []), r]);
    }
    const drawn = new Map([...rounds].map(([cell, byRound]) => {
      const keys = [...byRound.keys()];
      return [cell, new Map(keys.map((k) => [k, keys[Math.floor(uniform() * keys.length)]]))];
    }));
    const lines = [];
    for (const r of records) {
      if (r.type !== 'block' || r.warmup || !Number.isInteger(r.round)) { lines.push(r); continue; }
      const cell = cellOf(r);
      // each round's blocks are written once, as the blocks of the round drawn for it
      if (r !== rounds.get(cell).get(r.round)[0]) continue;
      for (const source of rounds.get(cell).get(drawn.get(cell).get(r.round))) lines.push({ ...source, round: r.round });
    }
    fs.writeFileSync(path.join(out, 'results.jsonl'), `${lines.map((x) => JSON.stringify(x)).join('\n')}\n`);
    return out;
  }

  it('against a second run as like it as its own pairs say (its rounds resampled): no finding changed', () => {
    for (const seed of [1, 2, 3]) {
      const c = buildComparison({ a: readRunModel(EXAMPLE, scenarios), b: readRunModel(resampledCopy(seed), scenarios), scenarios });
      const moved = c.findings.filter((f) => f.test?.kind === 'welch' && Math.abs(f.factor - 1) > 1e-6);
      assert.ok(moved.length >= 3, `seed ${seed}: ${moved.length} figures moved by the resampling`);
      assert.deepEqual(c.findings.filter((f) => f.status === 'changed').map((f) => [f.finding, f.factor, f.test.p]), [], `seed ${seed}`);
      assert.equal(c.counts.findings.changed, 0);
    }
  });

  it('flags the figure that moved past its noise, by Welch\'s t, and only that one', () => {
    const c = buildComparison({ a: readRunModel(EXAMPLE, scenarios), b: readRunModel(slowedCopy(1.5), scenarios), scenarios });
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
