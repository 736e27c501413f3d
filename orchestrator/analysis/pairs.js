'use strict';
// What a verdict's pairs say beside its estimate: outliers among them, classified by Tukey's
// fences on their log-ratios and reported, never silently dropped or kept (criterion.rs,
// src/stats/univariate/outliers/tukey.rs), and a drift of the ratio over the rounds, tested by
// Spearman's rank correlation of the log-ratio with the round (a trend the pairs' interval takes
// for noise: the machine warming, a cache filling, a collection growing on one side only).
const { jStat } = require('jstat');

/** Tukey's fences: past 1.5 interquartile ranges a pair is a mild outlier, past 3 a severe one. */
const MILD = 1.5;
const SEVERE = 3;
/** A drift is said where Spearman's test of the log-ratio against the round has p below this. */
const DRIFT_P = 0.05;
/** The fewest pairs a drift or an outlier can be told from. */
const MIN_FOR_SHAPE = 5;

/** The q-quantile of sorted numbers, interpolated between neighbours (type 7, R's and numpy's default). */
function quantile(sorted, q) {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return sorted[lo] + (h - lo) * ((sorted[Math.min(lo + 1, sorted.length - 1)]) - sorted[lo]);
}

/**
 * The outliers among pairs ([{ ratio, round?, repeat? }]): each pair past a fence, with its
 * severity and side: [{ index, ratio, round, repeat, severity: 'mild' | 'severe', side: 'low' |
 * 'high' }], in the pairs' order. Fewer than MIN_FOR_SHAPE pairs: none can be told.
 */
function tukeyOutliers(pairs) {
  if (pairs.length < MIN_FOR_SHAPE) return [];
  const logs = pairs.map((p) => Math.log(p.ratio));
  const sorted = [...logs].sort((a, b) => a - b);
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  const out = [];
  logs.forEach((x, index) => {
    const below = q1 - x;
    const above = x - q3;
    const past = Math.max(below, above);
    if (!(past > MILD * iqr) || iqr === 0) return;
    out.push({ index, ratio: pairs[index].ratio, round: pairs[index].round ?? null, repeat: pairs[index].repeat ?? null, severity: past > SEVERE * iqr ? 'severe' : 'mild', side: below > above ? 'low' : 'high' });
  });
  return out;
}

/** Ranks of numbers, ties given their mean rank (1-based). */
function ranks(xs) {
  const order = xs.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
  const r = new Array(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j += 1;
    for (let k = i; k <= j; k += 1) r[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Pearson's correlation of two series. */
function correlation(a, b) {
  const n = a.length;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let sab = 0; let saa = 0; let sbb = 0;
  for (let i = 0; i < n; i += 1) { sab += (a[i] - ma) * (b[i] - mb); saa += (a[i] - ma) ** 2; sbb += (b[i] - mb) ** 2; }
  return saa && sbb ? sab / Math.sqrt(saa * sbb) : 0;
}

/**
 * The drift of the log-ratio over the rounds of one run ([{ ratio, round }]): Spearman's ρ of
 * the log-ratio against the round with its two-sided p (Student's t on n − 2 degrees of freedom,
 * the usual approximation), and the least-squares slope as the change a round, a factor
 * (1.052: +5.2% a round): { rho, p, perRound, n, drifts (p < DRIFT_P) }, or null where the pairs
 * are too few or carry no rounds.
 */
function driftOf(pairs) {
  const timed = pairs.filter((p) => Number.isFinite(p.round));
  if (timed.length < MIN_FOR_SHAPE || new Set(timed.map((p) => p.round)).size < MIN_FOR_SHAPE) return null;
  const x = timed.map((p) => p.round);
  const y = timed.map((p) => Math.log(p.ratio));
  const n = timed.length;
  const rho = correlation(ranks(x), ranks(y));
  const t = Math.abs(rho) >= 1 ? Infinity : rho * Math.sqrt((n - 2) / (1 - rho * rho));
  const p = Number.isFinite(t) ? 2 * (1 - jStat.studentt.cdf(Math.abs(t), n - 2)) : 0;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  const sxx = x.reduce((s, v) => s + (v - mx) ** 2, 0);
  const slope = sxx ? x.reduce((s, v, i) => s + (v - mx) * (y[i] - my), 0) / sxx : 0;
  return { rho, p, perRound: Math.exp(slope), n, drifts: p < DRIFT_P };
}

module.exports = { tukeyOutliers, driftOf, quantile, ranks, MILD, SEVERE, DRIFT_P, MIN_FOR_SHAPE };
