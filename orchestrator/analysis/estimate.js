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
// combined as the mean of their log-ratios, with the spread of the runs' estimates (t on K − 1
// degrees of freedom), never with their pairs pooled as if independent.
const { jStat } = require('jstat');

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
const METHOD_RUNS = 't on the runs\' log-ratios';
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
 * Runs combined at the run level: each run's estimate (pairedEstimate of its own pairs), then the
 * mean of their log-ratios, its standard error the spread of the runs' estimates over √K, but
 * never below what the runs' own intervals say (the mean of their squared standard errors over K:
 * two runs that agree by chance do not make an interval narrower than either run's own; Röver,
 * Knapp and Friede, 2015), and t on K − 1 degrees of freedom. runs: [{ run, estimate }].
 */
function combinedEstimate(runs) {
  const used = runs.filter((r) => r.estimate.n >= 2);
  const K = used.length;
  const pairs = used.flatMap((r) => r.estimate.pairs);
  if (K < 2) return null;
  const logs = used.map((r) => Math.log(r.estimate.ratio));
  const m = mean(logs);
  const between = sdOf(logs) ** 2 / K;
  const within = used.reduce((a, r) => a + r.estimate.se ** 2, 0) / K / K;
  const se = Math.sqrt(Math.max(between, within));
  const t = tQuantile(K - 1);
  return {
    ratio: Math.exp(m), lo: Math.exp(m - t * se), hi: Math.exp(m + t * se), n: pairs.length, se, df: K - 1, method: METHOD_RUNS, pairs,
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
