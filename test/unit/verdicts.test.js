'use strict';
// Verdicts on crafted results. Every finding in every scenario's published.json must have a case
// for each outcome it can come to (holds, does not hold, inconclusive, and cannot be tested here
// where what it needs is missing), so a finding added without tests fails here.
const assert = require('node:assert/strict');
const { judge, verdictsFor, verdictsMarkdown, HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE, PUBLISHED_ONLY } = require('../../orchestrator/report/verdicts');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const scenarioOf = (name) => scenarios.find((s) => s.name === name);
const finding = (scenario, id) => scenarioOf(scenario).loadPublished().findings.find((f) => f.id === id);
const SERVER = 's';

// ---- power-of-2-sizes: the article's own table as a server's measurements -------------------

function p2s({ outcome = 'applied', size = (r) => r.size, hrMs = (r) => r.ms } = {}) {
  const published = scenarioOf('power-of-2-sizes').loadPublished().records;
  return [
    { step: 'setup', collection: 'powerOf2Sizes', usePowerOf2Sizes: { outcome, reason: outcome === 'applied' ? null : 'no collMod' } },
    ...published.filter((r) => r.step === 'pass').map((r) => ({ ...r, size: size(r), hrMs: hrMs(r), writeConcern: 'w:0' })),
  ];
}
const scalePower = (field, k, onlyPass) => (r) => (r.collection === 'powerOf2Sizes' && (onlyPass === undefined || r.pass === onlyPass) ? r[field] * k : r[field]);

// ---- embedded-comments: the article's two tables ---------------------------------------------

function ec({ outcome = 'honoured', upTo = 10000, unsafe = {}, safe = {} } = {}) {
  const published = scenarioOf('embedded-comments').loadPublished().records;
  const changed = { unsafe, safe };
  return published.filter((r) => r.perBlog <= upTo).map((r) => {
    const f = changed[r.mode][`${r.layout} ${r.perBlog}`];
    return {
      ...r, seconds: f ? f(r.seconds) : r.seconds, unacknowledged: { outcome, reason: 'probe' },
      writeConcern: r.mode === 'safe' || outcome === 'honoured' ? `w:${r.mode === 'safe' ? 1 : 0}` : 'w:1',
    };
  });
}
const times = (k) => (x) => x * k;
const unsafeSeparate = (name) => scenarioOf('embedded-comments').loadPublished().records
  .find((r) => r.mode === 'unsafe' && r.layout === 'separate' && `${r.layout} ${r.perBlog}` === name.replace('embedded', 'separate')).seconds;
const asSeparate = (cell, k) => ({ [cell]: () => unsafeSeparate(cell) * k });
const allSafe = (k) => Object.fromEntries(['embedded', 'separate'].flatMap((l) => [1, 10, 100, 1000, 10000].map((n) => [`${l} ${n}`, times(k)])));

// ---- many-keys --------------------------------------------------------------------------------

const mk = (original, bucket, keys = 20000) => [
  { kind: 'update', schema: 'original', appliedSeconds: original, keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
  { kind: 'update', schema: 'bucket', appliedSeconds: bucket, keys, writeConcern: 'w:0', plan: 'UPDATE <- IXSCAN identity; 1 keys and 1 documents examined' },
];

// ---- log-inserts: the SQL baseline is a server of its own -----------------------------------

const sql = (step, sqlMs, saveMs) => [
  ...(sqlMs === null ? [] : [{ server: 'postgresql', step, method: 'sql', ms: sqlMs }]),
  { step, method: 'save', ms: saveMs, writeConcern: 'w:0' },
  { step, method: 'insert', ms: saveMs / 2, writeConcern: 'w:0' },
];
const saves = (saveMs, insertMs) => [
  ...(saveMs === null ? [] : [{ step: 'test2', method: 'save', ms: saveMs, writeConcern: 'w:1', upsertCostText: 'an upsert by _id: FerretDB: PostgreSQL Seq Scan; one took 6 ms into an empty collection and 23 ms into this one of 200 documents (3.95x)' }]),
  { step: 'test2', method: 'insert', ms: insertMs, writeConcern: 'w:1' },
];

// ---- trade-candles: each engine a server; the little-memory rerun on one ---------------------

const loads = (byEngine) => Object.entries(byEngine).flatMap(([engine, v]) => [
  { server: engine, step: 'load', collection: 'candles', blockCompressor: engine, ms: v.ms ?? 100, storagePlusIndexBytes: v.bytes ?? 100 },
  { server: engine, step: 'read', run: 'own-memory', query: 'byTicker', meanUs: v.us ?? 100 },
]);
const lowMemory = (ratio, outcome = 'applied', dataPerCache = 1.5) => [
  { step: 'read', run: 'own-memory', query: 'timeRange', meanUs: 1000, lowMemory: null },
  { step: 'read', run: 'little-memory', query: 'timeRange', meanUs: 1000 * ratio, lowMemory: { outcome, reason: 'why', dataPerCache } },
];

/**
 * scenario → finding → outcome → { records, server? (the verdict's server, default SERVER),
 * measured? (a pattern the verdict's text must match) }. Records without a server are SERVER's.
 */
const CASES = {
  'power-of-2-sizes': {
    'sizes-cross': {
      [HOLDS]: { records: p2s(), measured: /larger by 29\.9% at pass 1, smaller by 8\.3% at pass 21; crosses at pass 6/ },
      [FAILS]: { records: p2s({ size: scalePower('size', 1.5) }) },
      [INCONCLUSIVE]: { records: p2s({ size: (r) => (r.collection === 'powerOf2Sizes' && r.pass === 21 ? 223309000 * 1.01 : r.size) }) },
      [UNTESTABLE]: { records: p2s({ outcome: 'refused' }), measured: /no server this kit can reach has MMAPv1.*measured instead: powerOf2Sizes larger by 29\.9%/ },
    },
    'same-speed': {
      [HOLDS]: { records: p2s(), measured: /1\.04× \(hrMs summed 462,981 \/ 446,995\)/ },
      [FAILS]: { records: p2s({ hrMs: scalePower('ms', 1.5) }) },
      [INCONCLUSIVE]: { records: p2s({ hrMs: scalePower('ms', 1.2) }) },
      // WiredTiger takes the option and ignores it: equal times there prove nothing
      [UNTESTABLE]: { records: p2s({ outcome: 'ignored' }), measured: /MMAPv1.*two like collections.*measured instead: 1\.04×.*writes: w:0/ },
    },
  },
  'embedded-comments': {
    'embedded-slows': {
      [HOLDS]: { records: ec(), measured: /24\.92× at 10000 perBlog/ },
      [FAILS]: { records: ec({ safe: { 'embedded 1000': () => 4.4, 'embedded 10000': () => 4.4 } }) },
      [INCONCLUSIVE]: { records: ec({ safe: { 'embedded 1000': () => 6, 'embedded 10000': () => 8 } }) },
      [UNTESTABLE]: { records: ec({ upTo: 100 }), measured: /stops at 100 perBlog/ },
    },
    'unsafe-as-fast-up-to-100': {
      [HOLDS]: { records: ec(), measured: /1\.09× at 10 perBlog.*1\.03× at 100 perBlog.*unsafe table's writes: w:0/ },
      [FAILS]: { records: ec({ unsafe: asSeparate('embedded 100', 1.8) }) },
      [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10', 1.35) }) },
      [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /answers fire-and-forget.*measured instead/ },
    },
    'unsafe-26x-at-10000': {
      [HOLDS]: { records: ec(), measured: /27\.65×/ },
      [FAILS]: { records: ec({ unsafe: asSeparate('embedded 10000', 2) }) },
      [INCONCLUSIVE]: { records: ec({ unsafe: asSeparate('embedded 10000', 6) }) },
      [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /answers fire-and-forget/ },
    },
    'safe-3x-slower': {
      [HOLDS]: { records: ec(), measured: /2\.98×/ },
      [FAILS]: { records: ec({ safe: allSafe(1 / 2.98 * 1.1) }) },
      [INCONCLUSIVE]: { records: ec({ safe: allSafe(1 / 2.98 * 1.6) }) },
      [UNTESTABLE]: { records: ec({ outcome: 'refused' }), measured: /can only agree|acknowledged/ },
    },
  },
  'many-keys': {
    'buckets-faster': {
      [HOLDS]: { records: mk(18.35, 1.47), measured: /12\.48×.*writes: w:0; the update's plan: UPDATE <- IXSCAN/ },
      [FAILS]: { records: mk(1.05, 1) },
      [INCONCLUSIVE]: { records: mk(2, 1) },
      [UNTESTABLE]: { records: mk(18.35, 1.47, 2000), measured: /walking 20,000 keys \(keys 2000/ },
    },
  },
  'log-inserts': {
    'mongo-beats-sql-test1': {
      [HOLDS]: { records: sql('test1', 21310, 760), measured: /28\.04×.*MongoDB writes: w:0/ },
      [FAILS]: { records: sql('test1', 800, 760) },
      [INCONCLUSIVE]: { records: sql('test1', 1200, 760) },
      [UNTESTABLE]: { records: sql('test1', null, 760), measured: /not measured/ },
    },
    'mongo-beats-sql-test2': {
      [HOLDS]: { records: sql('test2', 294800, 6190), measured: /47\.63×/ },
      [FAILS]: { records: sql('test2', 6000, 6190) },
      [INCONCLUSIVE]: { records: sql('test2', 9000, 6190) },
      [UNTESTABLE]: { records: sql('test2', null, 6190) },
    },
    'insert-beats-save': {
      [HOLDS]: { records: saves(6190, 2900), measured: /2\.13×.*save: an upsert by _id: FerretDB: PostgreSQL Seq Scan.*3\.95x/ },
      [FAILS]: { records: saves(3000, 2900) },
      [INCONCLUSIVE]: { records: saves(3800, 2900) },
      [UNTESTABLE]: { records: saves(null, 2900) },
    },
  },
  'trade-candles': {
    'zstd-smaller': {
      [HOLDS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 60 }, snappy: { bytes: 75 } }), measured: /0\.60×.*snappy \(today's default\) \(snappy\): 0\.75×/ },
      [FAILS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 98 } }) },
      [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 92 } }) },
      [UNTESTABLE]: { server: 'all servers', records: loads({ snappy: {}, zstd: { bytes: 60 } }), measured: /mongod:none --server mongod:zstd/ },
    },
    'zstd-writes-faster': {
      [HOLDS]: { server: 'all servers', records: loads({ none: { ms: 100 }, zstd: { ms: 70 } }) },
      [FAILS]: { server: 'all servers', records: loads({ none: { ms: 100 }, zstd: { ms: 120 } }) },
      [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { ms: 100 }, zstd: { ms: 93 } }) },
      [UNTESTABLE]: { server: 'all servers', records: loads({ zstd: { ms: 70 } }) },
    },
    'zstd-reads-slower': {
      [HOLDS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 150 } }) },
      [FAILS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 101 } }) },
      [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 107 } }) },
      [UNTESTABLE]: { server: 'all servers', records: loads({ none: { us: 100 } }) },
    },
    'little-memory-slower': {
      [HOLDS]: { records: lowMemory(2) },
      [FAILS]: { records: lowMemory(1.05) },
      [INCONCLUSIVE]: { records: lowMemory(1.3) },
      [UNTESTABLE]: { records: lowMemory(2, 'not applied'), measured: /cannot cut this server's cache \(lowMemory.outcome: not applied\); measured instead: 2\.00×/ },
    },
  },
};
// The size can also leave a finding untested where the feature is there.
const TOO_SMALL = [
  ['embedded-comments', 'unsafe-26x-at-10000', ec({ upTo: 1000 }), /too small: the article measured this at 10,000/],
  ['trade-candles', 'little-memory-slower', lowMemory(2, 'applied', 0.01), /too small: the data and indexes fit in the smallest cache/],
];

/** The verdict of one finding on crafted records, through the same path a report takes. */
function verdictOn(scenarioName, id, { records, server = SERVER }) {
  const scenario = scenarioOf(scenarioName);
  const measurements = records.map((r) => ({ scenario: scenarioName, server: SERVER, ...r }));
  const found = verdictsFor([scenario], measurements).filter((v) => v.finding.id === id && v.server === server);
  assert.equal(found.length, 1, `${scenarioName}/${id}: one verdict on ${server}, got ${found.map((v) => v.server).join(', ') || 'none'}`);
  return found[0];
}

describe('verdicts', () => {
  it('every finding of every scenario names its claim, the article\'s figure and how it is decided', () => {
    const missing = [];
    for (const s of scenarios) {
      for (const f of s.loadPublished().findings || []) {
        for (const field of ['id', 'claim', 'published', 'decidedBy', 'check']) if (!f[field]) missing.push(`${s.name}/${f.id}: ${field}`);
        if (f.check?.kind === 'publishedOnly' && !f.check.reason) missing.push(`${s.name}/${f.id}: a published-only finding says why it cannot be measured`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(scenarios.every((s) => (s.loadPublished().findings || []).length > 0), 'every article has findings');
  });

  it('every checked finding has a crafted case for every outcome (a new finding needs its tests)', () => {
    const missing = [];
    for (const s of scenarios) {
      for (const f of (s.loadPublished().findings || []).filter((x) => x.check.kind !== 'publishedOnly')) {
        for (const outcome of [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE]) if (!CASES[s.name]?.[f.id]?.[outcome]) missing.push(`${s.name}/${f.id}: ${outcome}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  for (const s of scenarios) {
    for (const f of s.loadPublished().findings || []) {
      describe(`${s.name} · ${f.id}`, () => {
        if (f.check.kind === 'publishedOnly') {
          it('is shown as the article published it, with why it cannot be run', () => {
            const v = verdictOn(s.name, f.id, { records: [], server: 'the article\'s' });
            assert.equal(v.status, PUBLISHED_ONLY);
            assert.equal(v.measured, f.check.reason);
          });
          return;
        }
        for (const outcome of [HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE]) {
          const c = CASES[s.name]?.[f.id]?.[outcome];
          if (!c) continue;
          it(outcome, () => {
            const v = verdictOn(s.name, f.id, c);
            assert.equal(v.status, outcome, v.measured);
            if (c.measured) assert.match(v.measured, c.measured);
          });
        }
      });
    }
  }

  for (const [scenario, id, records, pattern] of TOO_SMALL) {
    it(`${scenario} · ${id}: cannot be tested at a size too small to show it`, () => {
      const v = verdictOn(scenario, id, { records });
      assert.equal(v.status, UNTESTABLE);
      assert.match(v.measured, pattern);
    });
  }

  it('every server kind a scenario declares names findings it has, with a reason', () => {
    const problems = [];
    for (const s of scenarios) {
      const ids = new Set((s.loadPublished().findings || []).map((f) => f.id));
      if (!s.servers || !Object.keys(s.servers).length) problems.push(`${s.name}: declares no servers`);
      for (const [kind, decl] of Object.entries(s.servers || {})) {
        if (!/^(ferretdb|ferretdb-pg|mongod(:\w+)?)$/.test(kind)) problems.push(`${s.name}: unknown server kind ${kind}`);
        for (const [id, reason] of Object.entries(decl.cannotTest || {})) {
          if (!ids.has(id)) problems.push(`${s.name}: ${kind} names ${id}, which is no finding of it`);
          if (typeof reason !== 'string' || reason.length < 20) problems.push(`${s.name}: ${kind} gives no reason for ${id}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  it('leaves the SQL baseline out of the servers judged and marks the kit\'s own questions in the table', () => {
    const s = scenarioOf('log-inserts');
    const vs = verdictsFor([s], [...sql('test1', 3000, 1000), ...sql('test2', 3000, 1000)].map((r) => ({ scenario: 'log-inserts', server: 'pg', ...r })));
    assert.deepEqual([...new Set(vs.map((v) => v.server))], ['pg']);
    assert.match(verdictsMarkdown(vs), /\| log-inserts \| MongoDB \(save, as the article timed it\) logs far faster than the SQL store in test 1 \(one loop\) \| pg \| \*\*holds\*\* \| 3\.00×/);
    const t = scenarioOf('trade-candles');
    const md = verdictsMarkdown(verdictsFor([t], loads({ none: {}, zstd: { bytes: 60 } }).map((r) => ({ scenario: 'trade-candles', ...r }))));
    assert.match(md, /\| trade-candles \| TokuMX stored the day smaller than MongoDB \| the article's \| \*\*published only\*\* \| TokuMX cannot be run today/);
    assert.match(md, /\| trade-candles \| \*the kit's question, not the article's:\* compressed \(zstd\) data and indexes are smaller/);
  });
});

describe('repeats', () => {
  const { aggregateRepeats, median, coefficientOfVariation } = require('../../orchestrator/results/repeats');
  const p2sScenario = scenarioOf('power-of-2-sizes');
  const rec = (repeat, pass, ms, extra = {}) => ({ scenario: 'power-of-2-sizes', server: 's', step: 'pass', pass, collection: 'powerOf2Sizes', hrMs: ms, repeat, ...extra });

  it('takes medians and spreads, drops the warm-up, and keeps a check only if every run passed it', () => {
    const out = aggregateRepeats([
      rec(0, 1, 999, { warmup: true }), rec(1, 1, 10, { countOk: true }), rec(2, 1, 30, { countOk: false }), rec(3, 1, 20, { countOk: true }),
      rec(1, 2, 5), rec(2, 2, 5), rec(3, 2, 8),
    ], p2sScenario);
    assert.equal(out.length, 2);
    assert.equal(out[0].hrMs, 20);
    assert.deepEqual([out[0].spread.hrMs.min, out[0].spread.hrMs.max, out[0].spread.hrMs.n], [10, 30, 3]);
    assert.equal(out[0].countOk, false);
    assert.equal(out[1].hrMs, 5);
    assert.equal(out[0].repeat, undefined);
  });

  it('leaves a single run alone', () => {
    const one = [rec(undefined, 1, 10)];
    assert.deepEqual(aggregateRepeats(one, p2sScenario), one);
  });

  it('computes median and coefficient of variation', () => {
    assert.equal(median([3, 1, 2, 10]), 2.5);
    assert.ok(Math.abs(coefficientOfVariation([1, 3]) - 0.5) < 1e-12);
  });

  it('makes a verdict inconclusive where the repeats overlap its margin', () => {
    const f = finding('many-keys', 'buckets-faster');
    const r = (repeat, original, bucket) => mk(original, bucket).map((x) => ({ scenario: 'many-keys', server: 's', repeat, ...x }));
    const s = scenarioOf('many-keys');
    const steady = verdictsFor([s], [...r(1, 10, 1), ...r(2, 11, 1), ...r(3, 12, 1)]);
    assert.equal(steady[0].status, HOLDS);
    const shaky = verdictsFor([s], [...r(1, 10, 1), ...r(2, 2, 1), ...r(3, 12, 1)]);
    assert.equal(shaky[0].status, INCONCLUSIVE);
    assert.match(shaky[0].measured, /the repeats overlap the margin/);
    assert.ok(f);
    assert.ok(judge);
  });
});
