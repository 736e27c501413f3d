'use strict';
// A ratio and how sure it is, made once here and read by every view, as criterion.rs's Estimate
// (a point estimate, a confidence interval, a standard error). A ratio of two variants comes from
// paired samples: each pair a block of each variant timed in the same round, so a drift of the
// machine lands on both; its interval is Student's t on the pairs' log-ratios (Kalibera and
// Jones, ISMM 2013: intervals on ratios of paired means). t rather than a bootstrap: with 8 pairs
// a percentile bootstrap's interval is too narrow (it takes the sample's spread for the
// population's, a √((n−1)/n)·z/t shortfall of about 25% at n = 8), while t is exact where the
// log-ratios are normal and about right where they are not (test/unit/coverage.test.js measures
// its coverage at the noise the kept runs show).
//
// Runs repeated (--repeat K) are the level that varies between runs (Kalibera and Jones: repeat
// at the level that varies): each run gives one estimate from its own pairs, and the runs are
// combined by one-way random effects on their log-ratios (random-effects.js), never with their
// pairs pooled as if independent.
const { jStat } = require('jstat');
const { randomEffects, METHOD: RE_METHOD } = require('./random-effects');

/** The interval's coverage: a 95% interval. */
const LEVEL = 0.95;
/**
 * The fewest pairs a verdict may rest on, as a share of the rounds the run planned, and never
 * fewer than MIN_PAIRS_FLOOR: at the default 8 rounds, 6, so a lost block or two is said, not
 * fatal, while one round alone, or a handful, never decides.
 */
const MIN_PAIRS_SHARE = 0.75;
const MIN_PAIRS_FLOOR = 6;

const METHOD_PAIRED = 't on paired log-ratios';
const METHOD_RUNS = RE_METHOD;
const METHOD_ONE = 'one reading';

/** The pairs a verdict needs out of the rounds (or samples, or runs) a run planned. */
function minPairs(planned) {
  return Math.max(MIN_PAIRS_FLOOR, Math.ceil(MIN_PAIRS_SHARE * (Number(planned) || 0)));
}

const tQuantile = (df) => jStat.studentt.inv(1 - (1 - LEVEL) / 2, df);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sdOf = (xs) => { const m = mean(xs); return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)); };

/**
 * { ratio, lo, hi, n, se, df, method, pairs } from the pairs' ratios (num/den of each pair, each
 * > 0): the geometric mean ratio, with a 95% interval where there are two pairs or more. A ratio
 * that is not a positive finite number (a zero or missing side) is no pair: the caller leaves it
 * out and lists it (judge.js, estimateFromPairs: dropped, reason unusable). pairs: the ratios it
 * rests on, in their order.
 */
function pairedEstimate(ratios) {
  const good = ratios.filter((r) => Number.isFinite(r) && r > 0);
  const n = good.length;
  if (!n) return { ratio: null, lo: null, hi: null, n: 0, se: null, df: null, method: null, pairs: [] };
  const logs = good.map(Math.log);
  const m = mean(logs);
  if (n === 1) return { ratio: Math.exp(m), lo: null, hi: null, n, se: null, df: null, method: METHOD_ONE, pairs: good };
  const se = sdOf(logs) / Math.sqrt(n);
  const t = tQuantile(n - 1);
  return { ratio: Math.exp(m), lo: Math.exp(m - t * se), hi: Math.exp(m + t * se), n, se, df: n - 1, method: METHOD_PAIRED, pairs: good };
}

/**
 * Runs combined at the run level (--repeat K): each run's estimate (pairedEstimate of its own
 * pairs), then one-way random effects on the runs' log-ratios (random-effects.js: DerSimonian–
 * Laird τ², Welch–Satterthwaite df): where the runs agree the interval rests on their pairs'
 * noise with more degrees of freedom than one run has, so three quiet runs give a narrower
 * interval than one; where they differ by more than their pairs' noise says, on the runs' spread
 * (t on about K − 1). Never the pairs pooled as if independent. runs: [{ run, estimate }].
 */
function combinedEstimate(runs) {
  const used = runs.filter((r) => r.estimate.n >= 2);
  const re = randomEffects(used.map((r) => ({ ratio: r.estimate.ratio, se: r.estimate.se, df: r.estimate.df, n: r.estimate.n })), { level: LEVEL });
  if (!re) return null;
  const pairs = used.flatMap((r) => r.estimate.pairs);
  return {
    ratio: re.ratio, lo: re.lo, hi: re.hi, n: pairs.length, se: re.se, df: re.df, method: METHOD_RUNS, pairs, tau2: re.tau2,
    runs: used.map((r) => ({ run: r.run, ratio: r.estimate.ratio, lo: r.estimate.lo, hi: r.estimate.hi, n: r.estimate.n, se: r.estimate.se })),
  };
}

/** One reading of each side: the ratio alone, with no interval (runs recorded before pairing). */
function singleEstimate(num, den) {
  if (!Number.isFinite(num) || !Number.isFinite(den) || den === 0) return { ratio: null, lo: null, hi: null, n: 0, se: null, df: null, method: null, pairs: [] };
  return { ratio: num / den, lo: null, hi: null, n: 1, se: null, df: null, method: METHOD_ONE, pairs: [num / den] };
}

module.exports = {
  pairedEstimate, combinedEstimate, singleEstimate, minPairs, tQuantile,
  LEVEL, MIN_PAIRS_SHARE, MIN_PAIRS_FLOOR, METHOD_PAIRED, METHOD_RUNS, METHOD_ONE,
};
