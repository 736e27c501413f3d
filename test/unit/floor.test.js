'use strict';
// A floor stops only what its bias could change (analysis/evidence.js): on crafted blocks of two
// sides, a verdict with a side's median block under its floor is taken again with up to a block's
// fixed cost out of any block of either side, and stands only where even the farthest that cost
// could carry its interval keeps its status. Each rule kind of analysis/rules.js: order and a
// direction alone, whose outer bands run to 0 and without bound; about, whose band a pull toward 1
// can carry a ratio into from above; near, whose band around 1 it can carry a ratio into from
// either side. And a drift a finding declares as its mechanism, said as that mechanism.
const assert = require('node:assert/strict');
const { checkEvidence, pulledInterval } = require('../../orchestrator/analysis/evidence');
const { pairedEstimate } = require('../../orchestrator/analysis/estimate');
const {
  ruleOf, statusOf, HOLDS, WEAKER, FAILS, INCONCLUSIVE,
} = require('../../orchestrator/analysis/rules');
const { reasonWords } = require('../../orchestrator/analysis/reasons');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { withBlocks, drift } = require('../helpers/blocks');
const { sql } = require('../../shell/log-inserts/test/verdict-cases');

const { shellDir, root } = resolveConfig();
const logInserts = discoverScenarios(shellDir, root).find((s) => s.name === 'log-inserts');

/** A wobble of a few per cent, alike for every run of the test: the pairs' ratios have a spread. */
const wobble = (i, side) => 1 + 0.03 * Math.sin(3 * i + side);

/**
 * Eight paired blocks of two sides, num's of numMs and den's of denMs (each with its wobble), on
 * the default floor (100 ms: the descriptor declares none); fixedMs: the probes' fitted fixed cost
 * of each side's block, as the run's size record would carry it. Returns what checkEvidence
 * returns for the status the rule gives the measured interval.
 */
function judged(rule, numMs, denMs, { fixedMs = null } = {}) {
  const rounds = Array.from({ length: 8 }, (_, i) => i + 1);
  const block = (side, ms, round) => ({ step: 'step', side, round, appliedMs: ms * wobble(round, side === 'num' ? 0 : 1) });
  const num = rounds.map((r) => block('num', numMs, r));
  const den = rounds.map((r) => block('den', denMs, r));
  const pairList = rounds.map((r, i) => ({ ratio: num[i].appliedMs / den[i].appliedMs, round: r, repeat: 0, numMs: num[i].appliedMs, denMs: den[i].appliedMs }));
  const estimateAgain = (list) => ({ ...pairedEstimate(list.map((p) => p.ratio)), pairList: list });
  const est = { ...estimateAgain(pairList), source: 'blocks' };
  const measured = statusOf(rule, est.lo, est.hi).status;
  const sizeRecord = fixedMs === null ? null : { spans: [{ step: 'step', fixedMs: { all: fixedMs } }] };
  const groups = [{ label: 'num', records: num }, { label: 'den', records: den }];
  const { decided } = checkEvidence({ status: measured, reasons: [] }, { rule, est, groups, fields: ['appliedMs'], descriptor: null, estimateAgain, sizeRecord });
  return { measured, est, decided, codes: decided.reasons.map((r) => r.code), reason: decided.reasons.find((r) => ['too-short', 'decided-despite-short'].includes(r.code)) };
}

describe('a floor stops only what its bias could change', () => {
  const order = ruleOf({ kind: 'ratio', says: 'order', figure: 28, margin: 0.1 }); // holds at 5.29×, fails at 1.1× or less
  const about = ruleOf({ kind: 'ratio', says: 'about', figure: 3, band: 1.25, margin: 0.1 }); // holds 2.4–3.75×, fails under 1.1× and over 3.75×
  const near = ruleOf({ kind: 'near', tolerance: 0.2 }); // holds within 1.2× either way

  it('bounds the interval a fixed cost of up to c a block could give: a block that could be all of it reaches 0 or has no bound', () => {
    const pairs = [{ ratio: 2, numMs: 200, denMs: 100 }, { ratio: 2, numMs: 200, denMs: 100 }];
    const again = (list) => pairedEstimate(list.map((p) => p.ratio));
    const est = { ...again(pairs), pairList: pairs };
    // 50 ms out of either side: (200 − 50) / 100 = 1.5 at least, 200 / (100 − 50) = 4 at most
    const at50 = pulledInterval(est, 50, again);
    assert.ok(Math.abs(at50.lo - 1.5) < 1e-9 && Math.abs(at50.hi - 4) < 1e-9, JSON.stringify(at50));
    assert.deepEqual(pulledInterval(est, 100, again).hi, Infinity);
    assert.deepEqual(pulledInterval(est, 200, again), { lo: 0, hi: Infinity });
    // pairs that carry no spans (a time per operation): nothing to weigh
    assert.equal(pulledInterval({ ...est, pairList: pairs.map((p) => ({ ...p, numMs: null })) }, 50, again), null);
  });

  describe('order', () => {
    it('(a) still makes a verdict inconclusive where the pull could carry it across a threshold', () => {
      // 40 ms against 120 ms: 0.33×, does not hold; but with 100 ms out of each 120 ms block, 40 / 20 = 2×: past no effect (1.1×)
      const r = judged(order, 40, 120);
      assert.equal(r.measured, FAILS);
      assert.equal(r.decided.status, INCONCLUSIVE, JSON.stringify(r.decided));
      assert.equal(r.reason.code, 'too-short');
      assert.ok(r.reason.hi > 1.1, JSON.stringify(r.reason));
    });

    it('(b) decides a verdict a fortiori where it cannot: far below 1 against a rule above it, or far past its order', () => {
      const low = judged(order, 40, 900);
      assert.equal(low.measured, FAILS);
      assert.equal(low.decided.status, FAILS, JSON.stringify(low.decided));
      assert.deepEqual([low.reason.code, low.reason.from, low.reason.fixedMs, low.reason.lo], ['decided-despite-short', 'floor', 100, 0]);
      assert.ok(low.reason.hi < 1.1 && low.reason.hi > low.est.hi);
      assert.ok(!low.codes.includes('too-short'));
      const high = judged(order, 3000, 60);
      assert.equal(high.decided.status, HOLDS, JSON.stringify(high.decided));
      assert.equal(high.reason.hi, null, 'a denominator that could be all fixed cost: no bound above');
      assert.ok(high.reason.lo > order.holdsAt && high.reason.lo < high.est.lo);
      assert.match(reasonWords(high.decided.reasons), /still "holds"/);
    });

    it('never decides "holds, weaker" a fortiori where the floor reaches both of its edges', () => {
      const r = judged(order, 250, 90);
      assert.equal(r.measured, WEAKER);
      assert.equal(r.decided.status, INCONCLUSIVE);
    });

    it('takes the probes\' fitted fixed cost where the run recorded it: a small one keeps a verdict the floor would void', () => {
      assert.equal(judged(order, 40, 120).decided.status, INCONCLUSIVE);
      const fitted = judged(order, 40, 120, { fixedMs: 5 });
      assert.equal(fitted.decided.status, FAILS, JSON.stringify(fitted.decided));
      assert.deepEqual([fitted.reason.fixedMs, fitted.reason.fittedMs, fitted.reason.from], [10, 5, 'fitted']);
    });
  });

  describe('a direction alone: its outer bands run to 0 and without bound, as an order\'s do', () => {
    const direction = ruleOf({ kind: 'ratio', atLeast: 1.5, margin: 0.1 }); // holds at 1.5× or more, fails at 1.1× or less
    it('decides either outer band a fortiori, and never a ratio the pull could carry into its margin', () => {
      assert.equal(judged(direction, 900, 60).decided.status, HOLDS);
      assert.equal(judged(direction, 40, 900).decided.status, FAILS);
      const close = judged(direction, 200, 90);
      assert.equal(close.measured, HOLDS);
      assert.equal(close.decided.status, INCONCLUSIVE);
    });
  });

  describe('(c) about: a pull toward 1 can carry a ratio into the band from above', () => {
    it('decides "does not hold" above the band only where even the pull leaves it above, on the band\'s side farther from 1', () => {
      // 10×, its denominator short: at least (900 − 100) / 90 = 8.9×, still past 3.75×
      const far = judged(about, 900, 90);
      assert.equal(far.measured, FAILS);
      assert.equal(far.decided.status, FAILS, JSON.stringify(far.decided));
      assert.equal(far.reason.code, 'decided-despite-short');
      assert.ok(far.reason.lo > about.upTo);
      // 4.2×, just above the band: the pull could bring it to (378 − 100) / 90 = 3.1×, inside it
      const edge = judged(about, 378, 90);
      assert.equal(edge.measured, FAILS);
      assert.equal(edge.decided.status, INCONCLUSIVE, JSON.stringify(edge.decided));
      assert.ok(edge.reason.lo < about.upTo);
    });

    it('decides "does not hold" below no effect a fortiori, on the band\'s far side from its figure', () => {
      const below = judged(about, 40, 900);
      assert.equal(below.decided.status, FAILS, JSON.stringify(below.decided));
    });

    it('never decides "holds" inside the band a fortiori with a short side whose block could be all fixed cost', () => {
      const inside = judged(about, 270, 90);
      assert.equal(inside.measured, HOLDS);
      assert.equal(inside.decided.status, INCONCLUSIVE);
      // with a small fitted fixed cost the band may still hold it: 270 ± 8 against 90 ± 8 stays within 2.4–3.75×
      assert.equal(judged(about, 270, 90, { fixedMs: 4 }).decided.status, HOLDS);
    });
  });

  describe('near: the band around 1', () => {
    it('decides "does not hold" a fortiori far outside the band, never "holds" where a short block could be all fixed cost', () => {
      assert.equal(judged(near, 900, 60).decided.status, FAILS);
      assert.equal(judged(near, 60, 900).decided.status, FAILS);
      const inside = judged(near, 95, 90);
      assert.equal(inside.measured, HOLDS);
      assert.equal(inside.decided.status, INCONCLUSIVE);
      // just outside the band: the pull toward 1 could carry it in
      const edge = judged(near, 150, 90);
      assert.equal(edge.measured, FAILS);
      assert.equal(edge.decided.status, INCONCLUSIVE);
    });
  });
});

describe('a drift the finding declares as its mechanism', () => {
  /** mongo-beats-sql-test1 on crafted blocks, the saves slowing (or speeding up) each round; scan: the save record says the server read every document for an upsert. */
  function test1(perRound, { scan = true } = {}) {
    const records = sql('test1', 21310, 760).map((r) => ({ scenario: 'log-inserts', server: 's', ...r, ...(r.method === 'save' ? { upsertCost: { scan, docsExamined: null, keysExamined: null } } : {}) }));
    const run = withBlocks(records, { counts: ['iterations'], spread: 0.01, shape: drift(perRound, (r) => r.method === 'save') });
    return analyseScenario(logInserts, { ...run, sizesOf: () => logInserts.sizes.article }).verdicts.find((v) => v.finding === 'mongo-beats-sql-test1');
  }
  const driftOf = (v) => v.reasons.find((r) => r.code === 'drift');

  it('names save\'s growth on a server that reads every document for an _id as the finding\'s mechanism', () => {
    const v = test1(1.1);
    const d = driftOf(v);
    assert.ok(d && d.perRound < 1, JSON.stringify(v.reasons));
    assert.match(d.mechanism, /save's cost grows with the collection on this server/);
    assert.match(reasonWords([d]), /the finding's mechanism, not the machine drifting/);
    assert.doesNotMatch(reasonWords([d]), /log-inserts/);
  });

  it('says the machine drifted where the server found the _id by its index, or the ratio moved the other way', () => {
    const indexed = driftOf(test1(1.1, { scan: false }));
    assert.ok(indexed && !indexed.mechanism, JSON.stringify(indexed));
    assert.match(reasonWords([indexed]), /the ratio drifts over the rounds/);
    const faster = driftOf(test1(1 / 1.1));
    assert.ok(faster && !faster.mechanism, JSON.stringify(faster));
  });
});
