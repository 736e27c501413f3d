'use strict';
// Every decided verdict recomputed by an independent hand (test/unit/recompute-verdicts.test.js on
// the kept examples, test/integration/verdicts-recomputed.test.js on the fixture runs): from the
// verdicts.json the kit wrote, its interval again from its own pairs (the mean log-ratio ± t·s/√n,
// t from a table written here, not from jStat), and its status again from its own thresholds (the
// rule kinds of analysis/rules.js, re-implemented here as plainly as they read, not called).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

/** Student's t, its 0.975 quantile by degrees of freedom (any table of t; R's qt(0.975, df)). */
const T975 = {
  1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624, 8: 2.306004, 9: 2.262157, 10: 2.228139,
  11: 2.200985, 12: 2.178813, 13: 2.160369, 14: 2.144787, 15: 2.131450, 16: 2.119905, 17: 2.109816, 18: 2.100922, 19: 2.093024, 20: 2.085963,
  21: 2.079614, 22: 2.073873, 23: 2.068658, 24: 2.063899, 25: 2.059539, 26: 2.055529, 27: 2.051831, 28: 2.048407, 29: 2.045230, 30: 2.042272,
  40: 2.021075, 60: 2.000298, 120: 1.979930,
};

const DECIDED = ['holds', 'holds, weaker', 'does not hold'];

/** The interval of pairs' ratios: geometric mean × / ÷ exp(t(n − 1) · sd/√n), sd with n − 1. */
function intervalOf(pairs) {
  const logs = pairs.map(Math.log);
  const n = logs.length;
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const t = T975[n - 1];
  assert.ok(t, `no t quantile written here for ${n - 1} df`);
  const half = (t * sd) / Math.sqrt(n);
  return { ratio: Math.exp(mean), lo: Math.exp(mean - half), hi: Math.exp(mean + half) };
}

/**
 * The status an interval gives under thresholds { says, direction, holdsAt, failsAt, upTo? }, as
 * rules.js's header says it in words: an interval wholly past the holding threshold holds, wholly
 * on the failing side of no effect fails, between the two (order, about) holds weaker, and across
 * a threshold is inconclusive. atMost is the same read as 1/x; near holds within holdsAt either way.
 */
function statusFrom(th, lo, hi) {
  if (th.direction === 'near') {
    if (lo >= 1 / th.holdsAt && hi <= th.holdsAt) return 'holds';
    if (hi <= 1 / th.failsAt || lo >= th.failsAt) return 'does not hold';
    return 'inconclusive';
  }
  if (th.direction === 'atMost') {
    const flip = { ...th, direction: 'atLeast', holdsAt: 1 / th.holdsAt, failsAt: 1 / th.failsAt, ...(th.upTo ? { upTo: 1 / th.upTo } : {}) };
    return statusFrom(flip, 1 / hi, 1 / lo);
  }
  const upTo = th.says === 'about' ? th.upTo : Infinity;
  if (lo >= th.holdsAt && hi <= upTo) return 'holds';
  if (hi <= th.failsAt || lo >= upTo) return 'does not hold';
  if (th.says !== 'direction' && lo >= th.failsAt && hi <= th.holdsAt) return 'holds, weaker';
  return 'inconclusive';
}

/** A growth's status: its main part's and its flat part's, either failing fails it, a weaker slowdown beside a flat one holds weaker. */
function growthStatus(main, flat) {
  if (main === 'does not hold' || flat === 'does not hold') return 'does not hold';
  if ((main === 'holds' || main === 'holds, weaker') && flat === 'holds') return main;
  return 'inconclusive';
}

const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

/**
 * Each decided verdict of a verdicts.json checked: returns { checked, skipped: [why] } and fails
 * on the first that does not recompute.
 */
function recompute(file) {
  const verdicts = JSON.parse(fs.readFileSync(file, 'utf8'));
  const label = (v) => `${path.basename(path.dirname(file))}: ${v.scenario}/${v.finding} on ${v.server}`;
  let checked = 0;
  const skipped = [];
  for (const v of verdicts.filter((x) => DECIDED.includes(x.status))) {
    const th = v.thresholds;
    assert.ok(th && Number.isFinite(th.holdsAt) && Number.isFinite(th.failsAt), `${label(v)}: decided without thresholds`);
    const pairs = v.estimate?.pairs ?? v.pairs;
    if (v.method === 't on paired log-ratios') {
      assert.equal(pairs.length, v.n, label(v));
      const again = intervalOf(pairs);
      assert.ok(close(again.ratio, v.ratio) && close(again.lo, v.lo) && close(again.hi, v.hi), `${label(v)}: ${JSON.stringify(again)} against ${v.ratio} (${v.lo}–${v.hi})`);
    } else {
      // runs combined (--repeat): the interval is the random-effects model's, not the pairs' alone
      skipped.push(`${label(v)}: ${v.method}`);
    }
    let status = statusFrom(th, v.lo ?? v.ratio, v.hi ?? v.ratio);
    if (v.flat) {
      if (v.flat.n >= 2) assert.ok(v.flat.lo <= v.flat.ratio && v.flat.ratio <= v.flat.hi, label(v));
      status = growthStatus(status, statusFrom({ direction: 'near', holdsAt: v.flat.holdsAt, failsAt: v.flat.failsAt }, v.flat.lo ?? v.flat.ratio, v.flat.hi ?? v.flat.ratio));
    }
    assert.equal(v.status, status, `${label(v)}: ${v.ratio} (${v.lo}–${v.hi}) against ${JSON.stringify(th)}${v.flat ? `, flat ${JSON.stringify(v.flat)}` : ''}`);
    checked += 1;
  }
  return { checked, skipped };
}

module.exports = { recompute, statusFrom, intervalOf, T975 };
