'use strict';
// Verdicts on stored results that should pass and on crafted ones that should not.
const assert = require('node:assert/strict');
const path = require('node:path');
const { judge, verdictsFor, verdictsMarkdown, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../orchestrator/report/verdicts');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const finding = (scenario, id) => scenarios.find((s) => s.name === scenario).loadPublished().findings.find((f) => f.id === id);

/** The article's own table as a server's measurements, with usePowerOf2Sizes applied. */
function p2sRecords(transform = (r) => r) {
  const published = scenarios.find((s) => s.name === 'power-of-2-sizes').loadPublished().records;
  return [
    { step: 'setup', collection: 'powerOf2Sizes', usePowerOf2Sizes: { outcome: 'applied' } },
    ...published.filter((r) => r.step === 'pass').map((r) => transform({ ...r, hrMs: r.ms })),
  ];
}

describe('verdicts', () => {
  it('every finding of every scenario names its claim, the article\'s figure and how it is decided', () => {
    const missing = [];
    for (const s of scenarios) {
      for (const f of s.loadPublished().findings || []) {
        for (const field of ['id', 'claim', 'published', 'decidedBy', 'check']) if (!f[field]) missing.push(`${s.name}/${f.id}: ${field}`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(scenarios.every((s) => (s.loadPublished().findings || []).length > 0), 'every article has findings');
  });

  describe('power-of-2-sizes: the size curves cross', () => {
    const f = finding('power-of-2-sizes', 'sizes-cross');
    it('holds on the article\'s own numbers', () => {
      const v = judge(f, p2sRecords());
      assert.equal(v.status, HOLDS);
      assert.match(v.measured, /larger by 29\.9% at pass 1, smaller by 8\.3% at pass 21; crosses at pass 6/);
    });
    it('does not hold where the curves never cross', () => {
      const v = judge(f, p2sRecords((r) => (r.collection === 'powerOf2Sizes' ? { ...r, size: r.size * 1.5 } : r)));
      assert.equal(v.status, FAILS);
    });
    it('is inconclusive where the sizes end within the margin', () => {
      const records = p2sRecords((r) => (r.collection === 'powerOf2Sizes' && r.pass === 21 ? { ...r, size: 223309000 * 1.01 } : r));
      assert.equal(judge(f, records).status, INCONCLUSIVE);
    });
    it('cannot be tested where the server refused usePowerOf2Sizes, and says what it measured instead', () => {
      const records = p2sRecords();
      records[0].usePowerOf2Sizes = { outcome: 'refused', reason: 'no collMod' };
      const v = judge(f, records);
      assert.equal(v.status, UNTESTABLE);
      assert.match(v.measured, /MMAPv1 is gone.*measured instead: powerOf2Sizes larger by 29\.9%/);
    });
  });

  describe('ratios', () => {
    const f = finding('many-keys', 'buckets-faster');
    const records = (original, bucket, keys = 20000) => [
      { kind: 'update', schema: 'original', appliedSeconds: original, keys },
      { kind: 'update', schema: 'bucket', appliedSeconds: bucket, keys },
    ];
    it('holds past the threshold, fails near 1, is inconclusive between', () => {
      assert.equal(judge(f, records(18.35, 1.47)).status, HOLDS);
      assert.equal(judge(f, records(1.05, 1)).status, FAILS);
      assert.equal(judge(f, records(0.5, 1)).status, FAILS);
      assert.equal(judge(f, records(2, 1)).status, INCONCLUSIVE);
    });
    it('cannot be tested at a size too small to show the effect', () => {
      assert.equal(judge(f, records(18.35, 1.47, 2000)).status, UNTESTABLE);
    });
    it('takes a side from the SQL baseline\'s records and leaves the baseline out of the servers judged', () => {
      const s = scenarios.find((x) => x.name === 'log-inserts');
      const ms = [
        { scenario: 'log-inserts', server: 'postgresql', step: 'test1', method: 'sql', ms: 3000 },
        { scenario: 'log-inserts', server: 'pg', step: 'test1', method: 'insert', ms: 1000 },
        { scenario: 'log-inserts', server: 'pg', step: 'test2', method: 'save', ms: 1000 },
        { scenario: 'log-inserts', server: 'pg', step: 'test2', method: 'insert', ms: 1000 },
      ];
      const vs = verdictsFor([s], ms);
      assert.deepEqual(vs.map((v) => [v.finding.id, v.server, v.status]), [
        ['mongo-beats-sql', 'pg', HOLDS],
        ['insert-beats-save', 'pg', FAILS],
      ]);
      assert.match(verdictsMarkdown(vs), /\| log-inserts \| MongoDB inserts log records far faster than the SQL store \| pg \| \*\*holds\*\* \| 3\.00×/);
    });
  });

  it('judges the compressed engine only with both engines in the run', () => {
    const s = scenarios.find((x) => x.name === 'trade-candles');
    const one = [{ scenario: 'trade-candles', server: 'a', step: 'load', blockCompressor: 'snappy', ms: 10, storagePlusIndexBytes: 100 }];
    assert.ok(verdictsFor([s], one).filter((v) => v.server === 'all servers').every((v) => v.status === UNTESTABLE));
    const both = [...one, { scenario: 'trade-candles', server: 'z', step: 'load', blockCompressor: 'zstd', ms: 12, storagePlusIndexBytes: 60 }];
    const byId = Object.fromEntries(verdictsFor([s], both).filter((v) => v.server === 'all servers').map((v) => [v.finding.id, v.status]));
    assert.equal(byId['compressed-smaller'], HOLDS);
    assert.equal(byId['compressed-writes-faster'], FAILS);
  });
});

describe('repeats', () => {
  const { aggregateRepeats, median, coefficientOfVariation } = require('../../orchestrator/results/repeats');
  const p2s = scenarios.find((s) => s.name === 'power-of-2-sizes');
  const rec = (repeat, pass, ms, extra = {}) => ({ scenario: 'power-of-2-sizes', server: 's', step: 'pass', pass, collection: 'powerOf2Sizes', hrMs: ms, repeat, ...extra });

  it('takes medians and spreads, drops the warm-up, and keeps a check only if every run passed it', () => {
    const out = aggregateRepeats([
      rec(0, 1, 999, { warmup: true }), rec(1, 1, 10, { countOk: true }), rec(2, 1, 30, { countOk: false }), rec(3, 1, 20, { countOk: true }),
      rec(1, 2, 5), rec(2, 2, 5), rec(3, 2, 8),
    ], p2s);
    assert.equal(out.length, 2);
    assert.equal(out[0].hrMs, 20);
    assert.deepEqual([out[0].spread.hrMs.min, out[0].spread.hrMs.max, out[0].spread.hrMs.n], [10, 30, 3]);
    assert.equal(out[0].countOk, false);
    assert.equal(out[1].hrMs, 5);
    assert.equal(out[0].repeat, undefined);
  });

  it('leaves a single run alone', () => {
    const one = [rec(undefined, 1, 10)];
    assert.deepEqual(aggregateRepeats(one, p2s), one);
  });

  it('computes median and coefficient of variation', () => {
    assert.equal(median([3, 1, 2, 10]), 2.5);
    assert.ok(Math.abs(coefficientOfVariation([1, 3]) - 0.5) < 1e-12);
  });

  it('makes a verdict inconclusive where the repeats overlap its margin', () => {
    const f = finding('many-keys', 'buckets-faster');
    const r = (repeat, original, bucket) => [
      { scenario: 'many-keys', server: 's', kind: 'update', schema: 'original', appliedSeconds: original, keys: 20000, repeat },
      { scenario: 'many-keys', server: 's', kind: 'update', schema: 'bucket', appliedSeconds: bucket, keys: 20000, repeat },
    ];
    const s = scenarios.find((x) => x.name === 'many-keys');
    const steady = verdictsFor([s], [...r(1, 10, 1), ...r(2, 11, 1), ...r(3, 12, 1)]);
    assert.equal(steady[0].status, HOLDS);
    const shaky = verdictsFor([s], [...r(1, 10, 1), ...r(2, 2, 1), ...r(3, 12, 1)]);
    assert.equal(shaky[0].status, INCONCLUSIVE);
    assert.match(shaky[0].measured, /the repeats overlap the margin/);
    assert.ok(f);
  });
});
