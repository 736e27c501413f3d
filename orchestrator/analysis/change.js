'use strict';
// Whether a finding's figure changed between two runs (orchestrate compare, bench:verdicts): a
// test on the difference of the two log-ratios with both runs' standard errors, Welch's t with
// the Welch–Satterthwaite degrees of freedom (each run's own t has n − 1, or K − 1 for runs
// combined), as criterion.rs calls a change against the last run by a test rather than by two
// intervals not overlapping (which flags a change only well past 95%: two intervals of equal
// width can miss each other only where the difference is about 2.8 standard errors of it).
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

module.exports = { changeTest, CHANGE_P, TEST_NAME };
