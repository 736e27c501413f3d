'use strict';
// Whether a finding's figure changed between two runs (orchestrate compare, bench:verdicts): a
// test on the difference of the two log-ratios with both runs' standard errors, Welch's t with
// the Welch–Satterthwaite degrees of freedom (each run's own t has n − 1, or K − 1 for runs
// combined), as criterion.rs calls a change against the last run by a test rather than by two
// intervals not overlapping (which flags a change only well past 95%: two intervals of equal
// width can miss each other only where the difference is about 2.8 standard errors of it). Where
// several findings are tested at once their p-values are adjusted by Holm's method (holm), and a
// change is called only where the whole interval of B/A also lies past the noise the user allows
// (comparison.js), as criterion.rs calls a change only where p < α and the interval lies beyond ±noise.
const { jStat } = require('jstat');

/** A change is called where Welch's test of no difference has p below this. */
const CHANGE_P = 0.05;
const TEST_NAME = 'Welch\'s t on the difference of the log-ratios';

/**
 * The test of a change from verdict a to verdict b ({ ratio, se, df }): { test, factor (b / a),
 * lo, hi (its 95% interval), diff (its log), se, z (diff / se), t, df, p, changed }, or null
 * where either has no standard error (one reading, a size).
 */
function changeTest(a, b) {
  const ok = (v) => Number.isFinite(v?.ratio) && v.ratio > 0 && Number.isFinite(v.se) && v.se > 0 && Number.isFinite(v.df) && v.df > 0;
  if (!ok(a) || !ok(b)) return null;
  const diff = Math.log(b.ratio) - Math.log(a.ratio);
  const va = a.se ** 2;
  const vb = b.se ** 2;
  const se = Math.sqrt(va + vb);
  const z = diff / se;
  const df = (va + vb) ** 2 / (va ** 2 / a.df + vb ** 2 / b.df);
  const p = 2 * (1 - jStat.studentt.cdf(Math.abs(z), df));
  const half = jStat.studentt.inv(1 - CHANGE_P / 2, df) * se;
  return { test: TEST_NAME, factor: Math.exp(diff), lo: Math.exp(diff - half), hi: Math.exp(diff + half), diff, se, z, t: z, df, p, changed: p < CHANGE_P };
}

/**
 * Holm's step-down adjustment of p-values tested at once (Holm 1979): sorted ascending, the i-th
 * of m is multiplied by m − i + 1 and kept at least the one before it, at most 1. Controls the
 * chance of any false change among the m at the level each adjusted p is held to, where a plain
 * p < 0.05 on each of ten findings calls one in about three comparisons of identical runs.
 * ps: numbers (or null, left out of the family and returned null), in any order; returns the
 * adjusted values in the same order.
 */
function holm(ps) {
  const order = ps.map((p, i) => [p, i]).filter(([p]) => Number.isFinite(p)).sort((x, y) => x[0] - y[0]);
  const m = order.length;
  const out = ps.map(() => null);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}

/**
 * The change test of two sets of repeated readings (a cell measured in --repeat runs: each repeat
 * a run that gives one reading, so the random-effects model's spread is the runs' alone): Welch's
 * t on the difference of their mean logs, each side's standard error its repeats' spread over √K
 * with K − 1 df. a, b: { logMean, logSd, k }. The same figures as changeTest, or null where a side
 * has fewer than 2 readings or no spread at all.
 */
function repeatsTest(a, b) {
  const side = (x) => (x && x.k >= 2 && Number.isFinite(x.logMean) && Number.isFinite(x.logSd) && x.logSd > 0
    ? { ratio: Math.exp(x.logMean), se: x.logSd / Math.sqrt(x.k), df: x.k - 1 } : null);
  const sa = side(a);
  const sb = side(b);
  return sa && sb ? changeTest(sa, sb) : null;
}

module.exports = { changeTest, repeatsTest, holm, CHANGE_P, TEST_NAME };
