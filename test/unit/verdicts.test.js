'use strict';
// Verdicts on crafted results. Every finding in every scenario's published.json must have a case
// for each outcome it can come to (holds, holds weaker where its rule has that band, does not
// hold, inconclusive, and cannot be tested here or needs a larger size where what it needs is
// missing), in its folder's test/verdict-cases.js, so a finding added without tests fails here.
// Each case is cut into 8 paired rounds (test/helpers/blocks.js) and judged through the analysis a
// report takes; the tests read the verdicts' fields, not their words.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { judge } = require('../../orchestrator/analysis/judge');
const {
  HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE, PUBLISHED_ONLY, ruleOf, bandsOf,
} = require('../../orchestrator/analysis/rules');
const { checkOf } = require('../../orchestrator/analysis/judge');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { withBlocks } = require('../helpers/blocks');
const { reasonWords } = require('../../orchestrator/analysis/reasons');
const { fixture } = require('../helpers/fixture');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const scenarioOf = (name) => scenarios.find((s) => s.name === name);
const SERVER = 's';

/** Each scenario's crafted cases (shell/<name>/test/verdict-cases.js): { cases, tooSmall, sendClockOnly, counts }. */
function casesOf(scenario) {
  const file = path.join(scenario.dir, 'test', 'verdict-cases.js');
  return fs.existsSync(file) ? require(file) : { cases: {}, tooSmall: [] };
}

/** A scenario's crafted records as a run holds them: the records, and (unless blocks is false) their paired rounds. */
function runOf(scenarioName, records, { blocks = true, spread = 0.03 } = {}) {
  const scenario = scenarioOf(scenarioName) ?? fixture;
  const measurements = records.map((r) => ({ scenario: scenarioName, server: SERVER, ...r }));
  return blocks ? withBlocks(measurements, { counts: casesOf(scenario).counts || [], spread }) : { measurements, blocks: [] };
}

/** The verdict of one finding on crafted records, at the sizes given (the article's by default). */
function verdictOn(scenarioName, id, { records, server = SERVER, sizes = null, blocks = true, spread }) {
  const scenario = scenarioOf(scenarioName) ?? fixture;
  const found = analyseScenario(scenario, { ...runOf(scenarioName, records, { blocks, spread }), sizesOf: () => sizes ?? scenario.sizes.article })
    .verdicts.filter((v) => v.finding === id && v.server === server);
  assert.equal(found.length, 1, `${scenarioName}/${id}: one verdict on ${server}, got ${found.map((v) => v.server).join(', ') || 'none'}`);
  return found[0];
}

const codes = (v) => v.reasons.map((r) => r.code);
const near = (actual, expected, what) => assert.ok(Math.abs(actual / expected - 1) < 0.02, `${what}: ${actual}, expected about ${expected}`);

/** A case's expectations on a verdict's fields. */
function expectFields(v, expect = {}) {
  if (expect.ratio !== undefined) near(v.ratio, expect.ratio, 'ratio');
  if (expect.at !== undefined) assert.equal(v.at, expect.at);
  if (expect.clock !== undefined) assert.equal(v.clock, expect.clock);
  for (const code of expect.reasons || []) assert.ok(codes(v).includes(code), `reasons ${codes(v).join(', ')} lack ${code}`);
  for (const label of expect.context || []) assert.ok(v.context.some((c) => c.label === label), `no context ${label}`);
  if (expect.articleClockRatio !== undefined) near(v.articleClockEstimate.ratio, expect.articleClockRatio, 'the article\'s clock');
  if (expect.also) assert.deepEqual(v.also.map((a) => Number(a.ratio.toFixed(2))), expect.also);
  if (expect.crossing) {
    for (const [k, x] of Object.entries(expect.crossing)) {
      if (x === null) assert.equal(v.crossing[k], null, k);
      else assert.ok(Math.abs(v.crossing[k] - x) < 0.001, `crossing ${k}: ${v.crossing[k]}`);
    }
  }
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
        const cases = casesOf(s).cases[f.id] || {};
        // holds, weaker wherever the rule has that band (an article's figure held at its order or band)
        const weaker = (bandsOf(ruleOf(checkOf(f))) || []).some((b) => b.status === WEAKER);
        for (const outcome of [HOLDS, FAILS, INCONCLUSIVE, ...(weaker ? [WEAKER] : [])]) if (!cases[outcome]) missing.push(`${s.name}/${f.id}: ${outcome}`);
        if (!cases[UNTESTABLE] && !cases[NEEDS_SIZE]) missing.push(`${s.name}/${f.id}: ${UNTESTABLE} or ${NEEDS_SIZE}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('every article\'s figure is a field that agrees with its own published table, where the table answers the check', () => {
    const { judgePublished } = require('../../orchestrator/analysis/analyse');
    const checked = [];
    for (const s of scenarios) {
      for (const f of (s.loadPublished().findings || []).filter((x) => x.source !== 'kit' && x.check.kind !== 'publishedOnly' && !x.across)) {
        const v = judgePublished(f, s.loadPublished().records || []);
        if (!Number.isFinite(v?.ratio)) continue;
        // a growth's figure is its largest point's; a near finding's the first point's
        const figure = f.check.figureAt ? f.check.figureAt.at(-1).ratio : f.figure;
        assert.ok(Math.abs(v.ratio / figure - 1) < 0.01, `${s.name}/${f.id}: figure ${figure}, the table gives ${v.ratio}`);
        for (const p of f.check.figureAt || []) {
          const at = judgePublished(f, s.loadPublished().records, p.x);
          assert.ok(Math.abs(at.ratio / p.ratio - 1) < 0.01, `${s.name}/${f.id} at ${p.x}: ${p.ratio}, the table gives ${at.ratio}`);
        }
        checked.push(f.id);
      }
    }
    assert.ok(checked.length >= 8, checked.join(', '));
  });

  for (const s of scenarios) {
    for (const f of s.loadPublished().findings || []) {
      describe(`${s.name} · ${f.id}`, () => {
        if (f.check.kind === 'publishedOnly') {
          it('is shown as the article published it, with why it cannot be run', () => {
            const v = verdictOn(s.name, f.id, { records: [], server: 'the article\'s' });
            assert.equal(v.status, PUBLISHED_ONLY);
            assert.deepEqual(v.reasons, [{ code: 'published-only', text: f.check.reason }]);
          });
          return;
        }
        for (const outcome of [HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE]) {
          const c = casesOf(s).cases[f.id]?.[outcome];
          if (!c) continue;
          it(outcome, () => {
            const v = verdictOn(s.name, f.id, c);
            assert.equal(v.status, outcome, JSON.stringify(v.reasons));
            expectFields(v, c.expect);
            // a comparison of timings rests on the 8 paired rounds, with its interval around its
            // ratio, and lists the ratio of each pair
            if (Number.isFinite(v.ratio) && v.clock && !f.check.kind.startsWith('crossing') && !f.check.sampleBy) {
              assert.equal(v.n, 8, `${f.id}: n ${v.n}`);
              assert.equal(v.pairs.length, v.n);
              assert.ok(v.lo <= v.ratio && v.ratio <= v.hi, `${v.lo} ≤ ${v.ratio} ≤ ${v.hi}`);
              assert.equal(v.method, 't on paired log-ratios');
            }
          });
        }
      });
    }
  }

  for (const s of scenarios) {
    for (const [id, records, reasons, { server, sizes, status = UNTESTABLE } = {}] of casesOf(s).tooSmall) {
      it(`${s.name} · ${id}: ${status} where the size or the server cannot show it (${reasons.join(', ')})`, () => {
        const v = verdictOn(s.name, id, { records, server, sizes });
        assert.equal(v.status, status, JSON.stringify(v.reasons));
        expectFields(v, { reasons });
      });
    }
  }

  // a fast server's w:0 send clock times the shell, not the server: each finding decided on the
  // applied time comes out otherwise than its send time would say, and carries the article's
  // clock beside it
  for (const s of scenarios) {
    for (const [id, records, outcome] of casesOf(s).sendClockOnly || []) {
      it(`${s.name} · ${id}: decided on the applied time where only the send clock is fast`, () => {
        const finding = s.loadPublished().findings.find((f) => f.id === id);
        assert.equal(finding.clock?.decides.startsWith('applied'), true, `${id} names its clock`);
        const v = verdictOn(s.name, id, { records });
        assert.equal(v.status, outcome, JSON.stringify(v.reasons));
        assert.equal(v.clock, 'applied');
        assert.equal(v.articleClock, 'send');
        assert.ok(v.articleClockEstimate && v.articleClockEstimate.n === 8, 'the article\'s clock beside it, paired too');
        const onSend = { ...finding, clock: undefined, check: { ...finding.check, field: finding.clock.article } };
        const run = runOf(s.name, records);
        const sendVerdict = judge(onSend, { scenario: s.name, server: SERVER, records: run.measurements, blocks: run.blocks, raw: run.measurements, descriptor: s, sizes: s.sizes.article });
        assert.notEqual(sendVerdict.status, outcome, `the send time alone would say ${sendVerdict.status}`);
      });
    }
  }

  it('holds a threshold on the cache to every server among the records, not the one that missed most', () => {
    const tc = scenarioOf('trade-candles');
    const { lowMemory } = require('../../shell/trade-candles/test/verdict-cases');
    const on = (server, pages) => lowMemory(2, 'applied', 1.5, 'why', pages).map((r) => ({ ...r, server }));
    const verdictOf = (records) => analyseScenario(tc, { ...withBlocks(records.map((r) => ({ scenario: tc.name, ...r }))), sizesOf: () => tc.sizes.article })
      .verdicts.filter((v) => v.finding === 'little-memory-slower');
    const both = verdictOf([...on('a', 180), ...on('b', 0.2)]);
    assert.deepEqual(both.map((v) => v.status), [HOLDS, UNTESTABLE]);
    assert.match(both[1].reasons[0].text, /pages read into the cache per query 0\.2, reads that miss/);
  });

  // the smallest size each finding needs lives in its scenario's descriptor (scaling.findings)
  for (const s of scenarios) {
    for (const [id, need] of Object.entries(s.scaling.findings || {})) {
      const holds = casesOf(s).cases[id]?.[HOLDS];
      if (!holds || !need.atLeast) continue;
      it(`${s.name} · ${id}: needs a larger size below the size its descriptor declares, and holds at it`, () => {
        const [name, least] = Object.entries(need.atLeast)[0];
        const small = verdictOn(s.name, id, { records: holds.records, sizes: { ...s.sizes.article, ...need.atLeast, [name]: least - 1 } });
        assert.equal(small.status, NEEDS_SIZE);
        assert.deepEqual(small.reasons.find((r) => r.code === 'size-too-small').short, [{ name, value: least - 1, need: least }]);
        assert.equal(verdictOn(s.name, id, { records: holds.records, sizes: { ...s.sizes.article, ...need.atLeast } }).status, HOLDS);
      });
    }
  }

  describe('spans too short to decide from', () => {
    const { mk } = require('../../shell/many-keys/test/verdict-cases');
    it('makes a verdict inconclusive where a side\'s median block is a few milliseconds', () => {
      // 8 blocks of 50 ms and 4 ms: the ratio is there, but a block of 4 ms is the clock's noise
      const short = verdictOn('many-keys', 'buckets-faster', { records: mk(0.4, 0.032) });
      assert.equal(short.status, INCONCLUSIVE);
      const tooShort = short.reasons.find((r) => r.code === 'too-short');
      assert.deepEqual(tooShort.figures.map((f) => [f.label, f.under, f.blocks, f.minMs]), [['update original', 8, 8, 100], ['update bucket', 8, 8, 100]]);
      assert.ok(tooShort.figures.every((f) => f.medianMs < 100), JSON.stringify(tooShort.figures));
      near(short.ratio, 12.5, 'the ratio is still shown');
      assert.equal(verdictOn('many-keys', 'buckets-faster', { records: mk(12, 1) }).status, HOLDS);
    });

    it('does not turn on one block under the floor where the side\'s median block clears it, and counts it', () => {
      // the bucket side's blocks of 125 ms, one of them 97 ms (the SQL block against 100 ms)
      const run = runOf('many-keys', mk(12, 1), { spread: 0 });
      const blocks = run.blocks.map((b) => (b.schema === 'bucket' && b.round === 3 ? { ...b, appliedSeconds: 0.097 } : b));
      const v = analyseScenario(scenarioOf('many-keys'), { measurements: run.measurements, blocks, sizesOf: () => scenarioOf('many-keys').sizes.article }).verdicts[0];
      assert.equal(v.status, HOLDS, JSON.stringify(v.reasons));
      assert.deepEqual(v.floors.find((f) => f.label === 'update bucket'), { label: 'update bucket', medianMs: 125, minMs: 100, under: 1, blocks: 8 });
      // five of the eight under it: the median is, and the floor weighs the verdict: at 12×, no
      // fixed cost of up to 100 ms a block brings it near the article's order (3.53×)
      const most = run.blocks.map((b) => (b.schema === 'bucket' && b.round <= 5 ? { ...b, appliedSeconds: 0.097 } : b));
      const w = analyseScenario(scenarioOf('many-keys'), { measurements: run.measurements, blocks: most, sizesOf: () => null }).verdicts[0];
      assert.equal(w.status, HOLDS, JSON.stringify(w.reasons));
      const despite = w.reasons.find((r) => r.code === 'decided-despite-short');
      assert.deepEqual(despite.figures.map((f) => [f.label, f.under, f.blocks]), [['update bucket', 5, 8]]);
      // at 3.8×, the same blocks could be the fixed cost's: the verdict cannot rest on them
      const closer = withBlocks(mk(3.8, 1).map((r) => ({ scenario: 'many-keys', server: SERVER, ...r })), { counts: ['updates'], spread: 0 });
      const shortened = closer.blocks.map((b) => (b.schema === 'bucket' && b.round <= 5 ? { ...b, appliedSeconds: 0.097 } : b));
      const x = analyseScenario(scenarioOf('many-keys'), { measurements: closer.measurements, blocks: shortened, sizesOf: () => null }).verdicts[0];
      assert.equal(x.status, INCONCLUSIVE, JSON.stringify(x.reasons));
      assert.equal(x.reasons[0].code, 'too-short');
      assert.ok(x.reasons[0].lo < 3.53 && x.reasons[0].fixedMs === 100, JSON.stringify(x.reasons[0]));
    });

    it('holds a step to the span its descriptor declares, the SQL baseline\'s blocks too', () => {
      const logInserts = scenarioOf('log-inserts');
      const test2 = logInserts.scaling.spans.test2.minMs;
      assert.ok(test2 > 100, 'test 2 declares a longer minimum than the default');
      // the SQL side's 8 blocks just under test 2's minimum, the saves' under twice it: 0.5×,
      // which does not hold, but with up to 500 ms of a block's fixed cost out of a save's 900 ms
      // it could be 450 / 400 ms, 1.13×, past no effect (1.1×)
      const records = (saveBlocks) => [
        { server: 'postgresql', step: 'test2', method: 'sql', iterations: 100000, ms: test2 * 8 * 0.9 },
        { step: 'test2', method: 'save', iterations: 100000, ms: test2 * 8 * saveBlocks, appliedMs: test2 * 8 * saveBlocks },
        { step: 'test2', method: 'insert', iterations: 100000, ms: test2 * 8 * saveBlocks, appliedMs: test2 * 8 * saveBlocks },
      ];
      const v = verdictOn('log-inserts', 'mongo-beats-sql-test2', { records: records(1.8), spread: 0 });
      assert.equal(v.status, INCONCLUSIVE, JSON.stringify(v.reasons));
      const tooShort = v.reasons.find((r) => r.code === 'too-short');
      assert.deepEqual(tooShort.figures.map((f) => [f.label, f.minMs, f.under]), [['sql test2', test2, 8]]);
      assert.deepEqual([tooShort.fixedMs, tooShort.from, tooShort.lo], [test2, 'floor', 0]);
      near(tooShort.hi, 450 / 400, 'the farthest a fixed cost could carry it');
    });

    describe('a floor stops only what its bias could change', () => {
      const FIXED = 'decided-despite-short';
      // sql against save (mongo-beats-sql-test1: order of 28×, holds at 5.30×, fails at 1.10× or
      // less), 8 rounds: the SQL side's blocks of sqlBlock ms, under the 100 ms floor; the saves' of saveBlock
      const test1 = (sqlBlock, saveBlock) => sql('test1', (sqlBlock * 8) / K, (saveBlock * 8) / K);
      const { sql, K } = require('../../shell/log-inserts/test/verdict-cases');

      it('decides a verdict a fortiori where no fixed cost of up to the floor could carry it across a threshold', () => {
        // 30 ms against 600 ms: 0.05×, and at most 30 / 500 = 0.06× with 100 ms out of each save
        const v = verdictOn('log-inserts', 'mongo-beats-sql-test1', { records: test1(30, 600), spread: 0.03 });
        assert.equal(v.status, FAILS, JSON.stringify(v.reasons));
        assert.ok(!codes(v).includes('too-short'));
        const r = v.reasons.find((x) => x.code === FIXED);
        assert.deepEqual([r.status, r.fixedMs, r.from, r.lo], [FAILS, 100, 'floor', 0]);
        assert.ok(r.hi > v.hi && r.hi < 1.1, JSON.stringify(r));
        assert.deepEqual(r.figures.map((f) => [f.label, f.under, f.blocks]), [['sql test1', 8, 8]]);
        assert.match(reasonWords(v.reasons), /decided a fortiori: its short blocks could only pull the ratio toward 1, by a fixed cost of up to 100 ms a block/);
      });

      it('still voids a verdict where the fixed cost\'s pull could carry it across a threshold', () => {
        // 30 ms against 110 ms: 0.27×, but with 100 ms out of each save, 30 / 10 = 3×: past no effect
        const v = verdictOn('log-inserts', 'mongo-beats-sql-test1', { records: test1(30, 110), spread: 0.03 });
        assert.equal(v.status, INCONCLUSIVE, JSON.stringify(v.reasons));
        const r = v.reasons.find((x) => x.code === 'too-short');
        assert.ok(r.hi > 1.1, JSON.stringify(r));
        assert.ok(!codes(v).includes(FIXED));
        // the effect far past its order with the short side in the denominator: the interval may
        // grow without bound above, and still holds
        const up = verdictOn('log-inserts', 'mongo-beats-sql-test1', { records: test1(3000, 60), spread: 0.03 });
        assert.equal(up.status, HOLDS, JSON.stringify(up.reasons));
        const u = up.reasons.find((x) => x.code === FIXED);
        assert.equal(u.hi, null, "no bound above");
        assert.ok(u.lo > 5.3 && u.lo < up.lo, JSON.stringify(u));
        // nearer its order, the same short saves could be all fixed cost, or none: not decided
        assert.equal(verdictOn('log-inserts', 'mongo-beats-sql-test1', { records: test1(400, 60), spread: 0.03 }).status, INCONCLUSIVE);
      });

      it('takes the fixed cost the probes fitted for a side\'s block where the run recorded it, not the floor', () => {
        const scenario = scenarioOf('log-inserts');
        const run = runOf('log-inserts', test1(30, 110), { spread: 0.03 });
        const sizeRecord = { spans: [{ step: 'test1', minMs: 100, fixedMs: { sql: 4, save: 6, insert: 5 } }] };
        const v = analyseScenario(scenario, { ...run, sizesOf: () => scenario.sizes.article, sizeRecordOf: () => sizeRecord }).verdicts.find((x) => x.finding === 'mongo-beats-sql-test1');
        // 30 ms blocks carrying at most twice 6 ms of fixed cost: 0.27× could be at most 30 / 98 = 0.31×
        assert.equal(v.status, FAILS, JSON.stringify(v.reasons));
        const r = v.reasons.find((x) => x.code === FIXED);
        assert.deepEqual([r.fixedMs, r.fittedMs, r.from], [12, 6, 'fitted']);
        assert.ok(r.lo > 0 && r.hi < 0.35, JSON.stringify(r));
        assert.match(reasonWords(v.reasons), /up to 12 ms a block \(twice the 6 ms the probes fitted\)/);
      });
    });
  });

  describe('paired rounds', () => {
    const { mk } = require('../../shell/many-keys/test/verdict-cases');
    const mkScenario = scenarioOf('many-keys');
    const finding = mkScenario.loadPublished().findings.find((f) => f.id === 'buckets-faster');
    // blocks of original and bucket whose times are a true ratio apart, where the block that runs
    // first in its round pays `firstCost` more (a cache warming, a drift), in ABBA orders
    const ordered = (ratio, firstCost, firstIs) => Array.from({ length: 8 }, (_, i) => i + 1).flatMap((round) => {
      const originalFirst = firstIs(round);
      const block = (schema, base, first) => ({
        scenario: 'many-keys', server: SERVER, step: 'update', type: 'block', kind: 'update', schema, round, rounds: 8, position: first ? 1 : 2,
        appliedSeconds: base * (first ? 1 + firstCost : 1) * (1 + 0.01 * Math.sin(round)), updates: 1250,
      });
      return [block('original', ratio, originalFirst), block('bucket', 1, !originalFirst)];
    });
    const judgeBlocks = (blocks) => judge(finding, { scenario: 'many-keys', server: SERVER, records: mk(18, 1.5).map((r) => ({ ...r, server: SERVER })), blocks, raw: [], descriptor: mkScenario, sizes: mkScenario.sizes.article });

    it('does not depend on which variant ran first: balanced orders cancel a first-position cost', () => {
      const abba = (round) => [1, 4, 5, 8].includes(round);
      const baba = (round) => !abba(round);
      const a = judgeBlocks(ordered(4, 0.3, abba));
      const b = judgeBlocks(ordered(4, 0.3, baba));
      near(a.ratio, 4, 'ABBA');
      near(b.ratio, 4, 'BAAB');
      assert.equal(a.status, b.status);
      // always original first: the drift lands on one side, and the ratio is 30% off
      const oneSided = judgeBlocks(ordered(4, 0.3, () => true));
      assert.ok(oneSided.ratio > 5, `${oneSided.ratio}`);
    });

    it('gives every decided ratio a 95% interval from Student\'s t on the pairs\' log-ratios', () => {
      const run = runOf('many-keys', mk(18.35, 1.47), { spread: 0.2 });
      const v = analyseScenario(mkScenario, { ...run, sizesOf: () => mkScenario.sizes.article }).verdicts[0];
      // the same figures, worked out here from the blocks
      const of = (schema) => run.blocks.filter((b) => b.schema === schema).sort((a, b) => a.round - b.round).map((b) => b.appliedSeconds);
      const logs = of('original').map((x, i) => Math.log(x / of('bucket')[i]));
      const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
      const se = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (logs.length - 1) / logs.length);
      const { jStat } = require('jstat');
      assert.equal(v.n, 8);
      assert.ok(Math.abs(v.ratio - Math.exp(mean)) < 1e-9);
      assert.ok(Math.abs(v.se - se) < 1e-12);
      assert.ok(Math.abs(v.lo - Math.exp(mean - jStat.studentt.inv(0.975, 7) * se)) < 1e-9);
      assert.ok(Math.abs(v.hi - Math.exp(mean + jStat.studentt.inv(0.975, 7) * se)) < 1e-9);
      assert.ok(v.hi / v.lo > 1.1, `an interval of some width: ${v.lo}–${v.hi}`);
    });

    it('is inconclusive where the interval straddles a threshold, and says which', () => {
      // √12.49 = 3.53× is the holding threshold (the article's order): a ratio of 3.6 with wide noise straddles it
      const v = verdictOn('many-keys', 'buckets-faster', { records: mk(3.6 * 1.47, 1.47), spread: 0.4 });
      assert.equal(v.status, INCONCLUSIVE);
      assert.deepEqual(v.reasons.find((r) => r.code === 'straddles'), { code: 'straddles', which: 'holds', at: Math.sqrt(12.49) });
    });

    it('judges "about 3×" as a band: inside it holds, past it does not, short of it but past no effect holds, weaker', () => {
      const { aboveBand } = require('../../shell/embedded-comments/test/verdict-cases');
      const [id, records, code] = aboveBand;
      const v = verdictOn('embedded-comments', id, { records });
      assert.equal(v.status, FAILS, JSON.stringify(v.reasons));
      assert.ok(codes(v).includes(code));
      assert.deepEqual([v.thresholds.holdsAt, v.thresholds.upTo].map((x) => Number(x.toFixed(3))), [2.384, 3.725]);
    });

    it('judges "about equal" on a log scale: 0.8 and 1.25 alike', () => {
      const ps = scenarioOf('power-of-2-sizes');
      const f = ps.loadPublished().findings.find((x) => x.id === 'same-speed');
      const p2 = (k) => [
        { step: 'setup', collection: 'powerOf2Sizes', usePowerOf2Sizes: { outcome: 'applied' } },
        ...[1, 2, 3].flatMap((pass) => [
          { step: 'pass', pass, collection: 'powerOf2Sizes', hrMs: 10000 * k, ops: 1000 },
          { step: 'pass', pass, collection: 'noPowerOf2Sizes', hrMs: 10000, ops: 1000 },
        ]),
      ];
      const at = (k, spread = 0) => verdictOn('power-of-2-sizes', f.id, { records: p2(k), spread });
      const t = f.check.tolerance;
      assert.equal(at((1 + t) * 1.1).status, at(1 / ((1 + t) * 1.1)).status);
      for (const k of [1 + t * 0.8, 1 / (1 + t * 0.8)]) assert.equal(at(k).status, HOLDS, `${k}`);
      // an interval wholly outside the band is no longer "about equal"; one across its edge cannot be told
      for (const k of [1 + t * 1.5, 1 / (1 + t * 1.5)]) assert.equal(at(k).status, FAILS, `${k}`);
      for (const k of [1 + t, 1 / (1 + t)]) assert.equal(at(k, 0.05).status, INCONCLUSIVE, `${k}`);
    });

    it('leaves out a round whose partner\'s block is missing, and says so: one lost block is said, not fatal', () => {
      const { sql } = require('../../shell/log-inserts/test/verdict-cases');
      const run = runOf('log-inserts', sql('test1', 21310, 760));
      const judgeWithout = (rounds) => analyseScenario(scenarioOf('log-inserts'), { measurements: run.measurements, blocks: run.blocks.filter((b) => !(b.server === 'postgresql' && rounds.includes(b.round))), sizesOf: () => null })
        .verdicts.find((x) => x.finding === 'mongo-beats-sql-test1');
      const v = judgeWithout([3]);
      assert.equal(v.n, 7);
      assert.equal(v.status, HOLDS, JSON.stringify(v.reasons));
      assert.deepEqual(v.reasons.find((r) => r.code === 'partner-missing'), { code: 'partner-missing', missing: 1 });
      assert.deepEqual(v.dropped, [{ side: 'sql test1', round: 3, repeat: 0, reason: 'partner-missing' }]);
      // three lost: 5 pairs, fewer than the 6 of 8 a verdict needs, and it cannot hold
      const w = judgeWithout([2, 3, 4]);
      assert.equal(w.status, INCONCLUSIVE);
      assert.deepEqual(w.reasons.find((r) => r.code === 'too-few-pairs'), { code: 'too-few-pairs', n: 5, need: 6, planned: 8 });
    });

    it('a run recorded before pairing still renders: one reading per side, no interval, and decides nothing', () => {
      const v = verdictOn('many-keys', 'buckets-faster', { records: mk(18.35, 1.47), blocks: false });
      assert.equal(v.status, INCONCLUSIVE);
      assert.deepEqual([v.n, v.lo, v.hi, v.method], [1, null, null, 'one reading']);
      assert.deepEqual(codes(v), ['one-reading']);
      near(v.ratio, 12.48, 'the reading is still shown');
    });

    it('pairs a run\'s repeats by repeat where it has no blocks (--repeat before pairing)', () => {
      const r = (repeat, original, bucket) => mk(original, bucket).map((x) => ({ ...x, repeat }));
      const v = verdictOn('many-keys', 'buckets-faster', { records: [...r(1, 18, 1.5), ...r(2, 19, 1.5), ...r(3, 18.5, 1.6)], blocks: false });
      assert.equal(v.n, 3);
      assert.ok(Number.isFinite(v.lo) && Number.isFinite(v.hi));
      assert.equal(v.status, INCONCLUSIVE);
      assert.ok(codes(v).includes('too-few-pairs'), 'three pairs are fewer than a verdict needs');
    });
  });

  describe('a server far away', () => {
    const { mk } = require('../../shell/many-keys/test/verdict-cases');
    const scenario = scenarioOf('many-keys');
    // acknowledged updates of 1 ms each: 10,000 in 10 s on the original schema, 4.5× faster in
    // buckets (past the order of the article's 12.49×, √12.49 = 3.53×: holds where the server is near)
    const acked = mk(10, 10 / 4.5).map((r) => ({ ...r, writeConcern: 'w:1' }));
    const verdictWith = (serverRecord) => analyseScenario(scenario, { ...runOf('many-keys', acked), servers: [serverRecord], sizesOf: () => scenario.sizes.article })
      .verdicts.find((v) => v.finding === 'buckets-faster');

    it('makes a verdict inconclusive where the round trip is over half of each operation, naming the network first', () => {
      const near = verdictWith({ server: SERVER, startedByKit: false, roundTripMs: 0.1 });
      assert.equal(near.status, HOLDS, 'the same records, the server near: the buckets hold');
      assert.equal(near.reasons.some((r) => r.code === 'network-decided'), false);
      const v = verdictWith({ server: SERVER, startedByKit: false, roundTripMs: 0.9 });
      assert.equal(v.status, INCONCLUSIVE, 'the network could have made the ratio');
      assert.equal(v.reasons[0].code, 'network-decided');
      assert.ok(v.reasons[0].share > 0.5, JSON.stringify(v.reasons));
      assert.match(reasonWords(v.reasons), /^the network, not the server, could have made it: the round trip \(0\.9 ms\) is \d+% of the time per operation \(update bucket\)/);
    });

    it('weighs each side apart: the side the network weighs most speaks for the verdict', () => {
      // 0.156 ms is a sixth of the original schema's 1 ms updates, but 70% of the buckets' 0.222 ms
      const v = verdictWith({ server: SERVER, startedByKit: false, roundTripMs: 0.7 / 4.5 });
      const network = v.reasons.find((r) => r.code === 'network-decided');
      assert.ok(network, JSON.stringify(v.reasons));
      assert.equal(v.status, INCONCLUSIVE);
      assert.equal(network.side, 'update bucket');
      assert.ok(Math.abs(network.share - 0.7) < 0.01, String(network.share));
    });

    it('leaves a verdict inconclusive where the operations waited for a hop inside a cluster that was not measured, naming why', () => {
      const cluster = { server: SERVER, startedByKit: false, topology: 'sharded', roundTripMs: 0.02 };
      const measured = verdictWith({ ...cluster, hopMs: 0.01 });
      assert.equal(measured.status, HOLDS, 'the hop measured and small: the buckets hold');
      const why = 'the kit\'s shell could not time it (not authorized on classics_lease): a ping through the driver stands, and the hop inside the cluster is not measured';
      const v = verdictWith({ ...cluster, roundTripNote: why });
      assert.equal(v.status, INCONCLUSIVE, 'the hop was counted as 0 ms and the verdict stood');
      assert.equal(v.reasons[0].code, 'hop-unmeasured');
      assert.equal(v.reasons[0].why, why);
      assert.match(reasonWords(v.reasons), /^whether the network made it cannot be told: every operation through mongos waited for the hop from mongos to the shards/);
    });

    it('says nothing of a network on loopback, where a ping times the server the kit started', () => {
      assert.equal(verdictWith({ server: SERVER, startedByKit: true, roundTripMs: 0.9 }).reasons.some((r) => r.code === 'network-decided'), false);
    });

    it('shares a parallel step\'s span among its shells', () => {
      const { networkShare } = require('../../orchestrator/analysis/network');
      const record = { hrMs: 1000, ops: 1000, writeConcern: 'w:1' };
      assert.equal(networkShare({ roundTripMs: 0.6 }, [record], { timeField: 'hrMs' }).decided, true);
      assert.equal(networkShare({ roundTripMs: 0.6 }, [{ ...record, workers: 2 }], { timeField: 'hrMs' }).decided, false);
    });
  });

  describe('defects the old verdict code had', () => {
    it('across servers: a zero on the reference side is no ratio, said so', () => {
      const tc = scenarioOf('trade-candles');
      const { loads } = require('../../shell/trade-candles/test/verdict-cases');
      const records = loads({ none: { bytes: 0 }, zstd: { bytes: 60 } }).map((r) => ({ scenario: tc.name, ...r }));
      const v = analyseScenario(tc, { measurements: records, blocks: [], sizesOf: () => null }).verdicts.find((x) => x.finding === 'zstd-smaller');
      assert.equal(v.status, UNTESTABLE);
      assert.equal(v.ratio, null);
    });

    it('across servers: paired blocks give the ratio its interval', () => {
      const tc = scenarioOf('trade-candles');
      const { loads } = require('../../shell/trade-candles/test/verdict-cases');
      const v = verdictOn('trade-candles', 'zstd-writes-faster', { records: loads({ none: { ms: 1000 }, zstd: { ms: 700 } }), server: 'all servers', spread: 0.1 });
      assert.equal(v.n, 8);
      assert.equal(v.pairs.length, 8);
      assert.ok(v.hi > v.lo);
      assert.equal(v.status, HOLDS, JSON.stringify(v.reasons));
      assert.deepEqual(v.floors.map((f) => f.label), ['time to durability on zstd', 'time to durability on none']);
      assert.ok(tc);
    });

    it('a growth does not hold where the other series is clearly not flat', () => {
      const { ec } = require('../../shell/embedded-comments/test/verdict-cases');
      const notFlat = ec({ safe: { 'separate 1000': (x) => x * 3, 'separate 10000': (x) => x * 3 } });
      const v = verdictOn('embedded-comments', 'embedded-slows', { records: notFlat });
      assert.equal(v.status, FAILS);
      assert.equal(v.flat.status, FAILS);
      assert.ok(codes(v).includes('not-flat'));
    });

    it('a growth whose other series has one cell says it cannot tell the flatness', () => {
      const { ec } = require('../../shell/embedded-comments/test/verdict-cases');
      const one = ec().filter((r) => !(r.layout === 'separate' && r.mode === 'safe' && r.perBlog > 1));
      const v = verdictOn('embedded-comments', 'embedded-slows', { records: one });
      assert.equal(v.status, INCONCLUSIVE);
      assert.ok(codes(v).includes('flat-unmeasured'));
    });

    it('a finding without a failing threshold is refused by the contract check', () => {
      const { publishedProblems } = require('../../orchestrator/scenarios');
      const published = scenarioOf('many-keys').loadPublished();
      const broken = { ...published, findings: published.findings.map((f) => ({ ...f, check: { ...f.check, margin: undefined } })) };
      assert.match(publishedProblems(broken, scenarioOf('many-keys')).join('\n'), /buckets-faster: a check that says "order" needs a failing threshold/);
      // an article's claim with no figure to hold it to, or with no says at all
      const noFigure = { ...published, findings: published.findings.map(({ figure, ...f }) => f) };
      assert.match(publishedProblems(noFigure, scenarioOf('many-keys')).join('\n'), /buckets-faster: a check that says "order" needs the article's figure/);
      const direction = { ...published, findings: published.findings.map((f) => ({ ...f, check: { ...f.check, says: undefined, atLeast: 3 } })) };
      assert.match(publishedProblems(direction, scenarioOf('many-keys')).join('\n'), /buckets-faster: an article's claim says what it claimed of its figure/);
      assert.deepEqual(publishedProblems(published, scenarioOf('many-keys')), []);
    });

    it('repeats that printed different numbers of lines are said, not silently one sample', () => {
      const { mk } = require('../../shell/many-keys/test/verdict-cases');
      const lines = [...mk(18, 1.5).map((r) => ({ ...r, repeat: 1 })), ...mk(18, 1.5).map((r) => ({ ...r, repeat: 2 })), { ...mk(18, 1.5)[0], repeat: 2 }];
      const scenario = scenarioOf('many-keys');
      const v = analyseScenario(scenario, { measurements: lines.map((r) => ({ scenario: 'many-keys', server: SERVER, ...r })), blocks: [], sizesOf: () => scenario.sizes.article })
        .verdicts.find((x) => x.finding === 'buckets-faster');
      assert.ok(codes(v).includes('repeats-misaligned'), JSON.stringify(v.reasons));
      // the repeat that printed two lines for one cell drops out of the pairs: one pair is left, and decides nothing
      assert.equal(v.n, 1);
      assert.equal(v.status, INCONCLUSIVE);
    });
  });

  it('every server kind a scenario declares names findings it has, with a reason', () => {
    const problems = [];
    for (const s of scenarios) {
      const ids = new Set((s.loadPublished().findings || []).map((f) => f.id));
      if (!s.servers || !Object.keys(s.servers).length) problems.push(`${s.name}: declares no servers`);
      for (const [kind, decl] of Object.entries(s.servers || {})) {
        if (!/^(ferretdb|ferretdb-pg|ferretdb2|mongod(:\w+)?)$/.test(kind)) problems.push(`${s.name}: unknown server kind ${kind}`);
        for (const [id, reason] of Object.entries(decl.cannotTest || {})) {
          if (!ids.has(id)) problems.push(`${s.name}: ${kind} names ${id}, which is no finding of it`);
          if (typeof reason !== 'string' || reason.length < 20) problems.push(`${s.name}: ${kind} gives no reason for ${id}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('repeats', () => {
  const { aggregateRepeats, median, coefficientOfVariation } = require('../../orchestrator/results/repeats');
  const rec = (repeat, pass, ms, extra = {}) => ({ scenario: fixture.name, server: 's', step: 'pass', pass, collection: 'right', hrMs: ms, repeat, ...extra });

  it('takes medians and spreads, drops the warm-up, and keeps a check only if every run passed it', () => {
    const out = aggregateRepeats([
      rec(0, 1, 999, { warmup: true }), rec(1, 1, 10, { countOk: true }), rec(2, 1, 30, { countOk: false }), rec(3, 1, 20, { countOk: true }),
      rec(1, 2, 5), rec(2, 2, 5), rec(3, 2, 8),
    ], fixture);
    assert.equal(out.length, 2);
    assert.equal(out[0].hrMs, 20);
    assert.deepEqual([out[0].spread.hrMs.min, out[0].spread.hrMs.max, out[0].spread.hrMs.n], [10, 30, 3]);
    assert.equal(out[0].countOk, false);
    assert.equal(out[1].hrMs, 5);
    assert.equal(out[0].repeat, undefined);
  });

  it('leaves a single run alone', () => {
    const one = [rec(undefined, 1, 10)];
    assert.deepEqual(aggregateRepeats(one, fixture), one);
  });

  it('computes median and coefficient of variation', () => {
    assert.equal(median([3, 1, 2, 10]), 2.5);
    assert.ok(Math.abs(coefficientOfVariation([1, 3]) - 0.5) < 1e-12);
  });
});
