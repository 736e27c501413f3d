'use strict';
// A ratio and how sure it is, made once here and read by every view, as criterion.rs's Estimate
// (a point estimate, a confidence interval, a standard error). A ratio of two variants comes from
// paired samples: each pair a block of each variant timed in the same round, so a drift of the
// machine lands on both; its interval is Student's t on the pairs' log-ratios (Kalibera and
// Jones, ISMM 2013: intervals on ratios of paired means). t rather than a bootstrap: with 8 pairs
// a percentile bootstrap's interval is too narrow (it takes the sample's spread for the
// population's, a √((n−1)/n)·z/t shortfall of about 25% at n = 8), while t is exact where the
// log-ratios are normal and about right where they are not.
const { jStat } = require('jstat');

/** The interval's coverage: a 95% interval. */
const LEVEL = 0.95;
/** The fewest pairs a verdict may rest on (issue 32: at least 8 pairs each way). */
const MIN_PAIRS = 8;

const METHOD_PAIRED = 't on paired log-ratios';
const METHOD_ONE = 'one reading';

/**
 * { ratio, lo, hi, n, se, method } from the pairs' ratios (num/den of each pair, each > 0): the
 * geometric mean ratio, with a 95% interval where there are two pairs or more. Pairs whose ratio
 * is not a positive finite number (a zero or missing side) are dropped and counted in `dropped`.
 */
function pairedEstimate(ratios) {
  const good = ratios.filter((r) => Number.isFinite(r) && r > 0);
  const dropped = ratios.length - good.length;
  const n = good.length;
  if (!n) return { ratio: null, lo: null, hi: null, n: 0, se: null, method: null, dropped };
  const logs = good.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { ratio: Math.exp(mean), lo: null, hi: null, n, se: null, method: METHOD_ONE, dropped };
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const se = sd / Math.sqrt(n);
  const t = jStat.studentt.inv(1 - (1 - LEVEL) / 2, n - 1);
  return { ratio: Math.exp(mean), lo: Math.exp(mean - t * se), hi: Math.exp(mean + t * se), n, se, method: METHOD_PAIRED, dropped };
}

/** One reading of each side: the ratio alone, with no interval (runs recorded before pairing). */
function singleEstimate(num, den) {
  if (!Number.isFinite(num) || !Number.isFinite(den) || den === 0) return { ratio: null, lo: null, hi: null, n: 0, se: null, method: null, dropped: 1 };
  return { ratio: num / den, lo: null, hi: null, n: 1, se: null, method: METHOD_ONE, dropped: 0 };
}

/**
 * Pairs two sides' samples by their key: Map(key → value) each; a key on one side only (a round
 * whose partner's block failed) is left out. Returns [{ key, num, den }] in the keys' order.
 */
function pairUp(numSamples, denSamples) {
  return [...numSamples.keys()].filter((k) => denSamples.has(k)).map((key) => ({ key, num: numSamples.get(key), den: denSamples.get(key) }));
}

module.exports = { pairedEstimate, singleEstimate, pairUp, LEVEL, MIN_PAIRS, METHOD_PAIRED, METHOD_ONE };
