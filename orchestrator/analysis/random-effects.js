'use strict';
// Runs combined by one-way random effects on their log-ratios (Kalibera and Jones, ISMM 2013:
// variation at each level of repetition; the runs are the level that varies between runs). Each
// run gives its own paired estimate (estimate.js pairedEstimate: its geometric-mean ratio, the
// standard error of its mean log-ratio, its degrees of freedom); the model is
//
//   y_i = μ + u_i + e_i,   u_i ~ N(0, τ²) (the run's own effect),   e_i ~ N(0, s_i²) (its pairs' noise)
//
// with y_i = log(ratio_i) and s_i = se_i. Used by --repeat K (estimate.js combinedEstimate), by
// compare for repeated cells, and by the history store across comparable runs (acrossRuns).
//
// τ² by DerSimonian–Laird (1986), not REML: DL is closed form, so it cannot fail to converge at
// K = 2, where REML's likelihood is flat; and where the runs' standard errors are equal (--repeat,
// the same plan each run) the two agree: DL gives τ² = max(0, B − s²), B the variance of the
// runs' log-ratios, which is REML's estimate in a balanced one-way model.
//
//   w_i = 1/s_i²,  ȳ_w = Σ w_i y_i / Σ w_i,  Q = Σ w_i (y_i − ȳ_w)²,  c = Σ w_i − Σ w_i² / Σ w_i
//   τ² = max(0, (Q − (K − 1)) / c)
//   w*_i = 1/(s_i² + τ²),  μ = Σ w*_i y_i / Σ w*_i,  V = Var(μ) = 1 / Σ w*_i
//
// Degrees of freedom: Welch–Satterthwaite's effective df (Satterthwaite 1946; the GUM, JCGM
// 100:2008, G.4.1), V split into what the pairs' noise gives it and what the runs' spread gives:
//
//   V_within  = Σ w*_i² s_i² / (Σ w*_i)²       credited ν_w = V_within² / Σ_i (w*_i² s_i² / (Σ w*_i)²)² / df_i
//                                              (Σ df_i where the runs are alike), at most CAP·(K − 1)
//   V_between = τ² Σ w*_i² / (Σ w*_i)²         credited K − 1
//   ν = V² / (V_within² / ν_w + V_between² / (K − 1))
//
// so where the runs' spread dominates ν approaches K − 1 (the exact t of the balanced one-way
// model, Kalibera and Jones's interval on the runs' means), and where the runs agree it rests on
// the pairs' noise with more degrees of freedom than the runs alone give: three runs of 8 pairs
// give a narrower interval than one run.
//
// Why the cap (a departure from the plain formula, said here because it is ours): in a balanced
// one-way model the textbook Satterthwaite on the mean squares gives exactly K − 1 wherever
// τ² > 0, and the pooled pairs' df (Σ df_i) only where τ² is estimated as zero — a pretest. Where
// the runs agree by chance but their true spread is as large as their own noise or twice it, that
// pretest's interval is too narrow: a seeded simulation of the balanced model gives 85% at K = 2
// and 88–89% at K = 3 with a between-run spread twice a run's standard error. Two runs (one
// between-run df) cannot tell such a spread from none, so the within part is credited at most
// WITHIN_DF_CAP·(K − 1) df: the largest cap that keeps coverage at least 93% at between/within
// 0, ½, 1 and 2 for K = 2, 3 and 5 in test/unit/coverage.test.js (cap 2 gives 92.9% at K = 3,
// between/within 2), while three quiet runs give a median 0.83× one run's width. Its price: two
// runs give about 1.8× one run's width (with the plain formula 1.07×, at 85% coverage).
const { jStat } = require('jstat');

/** The within-run part of the variance is credited at most this many df per between-run df. */
const WITHIN_DF_CAP = 1.5;
const METHOD = 'random effects on the runs\' log-ratios (DerSimonian–Laird τ², Welch–Satterthwaite df)';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * runs: [{ ratio, se, df, n }] (each run's own paired estimate); level: the interval's coverage.
 * Returns null where fewer than 2 runs are usable (a positive finite ratio, a positive finite
 * standard error and df), else { ratio, lo, hi, se, df, tau2, k, method, runs: [{ ratio, se, df, n,
 * weight }] (the runs used, each with its share of the pooled mean) }.
 */
function randomEffects(runs, { level = 0.95 } = {}) {
  const used = (runs || []).filter((r) => Number.isFinite(r?.ratio) && r.ratio > 0 && Number.isFinite(r.se) && r.se > 0 && Number.isFinite(r.df) && r.df > 0);
  const k = used.length;
  if (k < 2) return null;
  const y = used.map((r) => Math.log(r.ratio));
  // the pairs' noise pooled across the runs where each says how many pairs it rests on (a common
  // σ², as the one-way model has it): σ² = Σ df_i·n_i·se_i² / Σ df_i, s_i² = σ²/n_i, on Σ df_i
  // df. A run's own s_i² from 8 pairs is rough (7 df), and weights 1/s_i² from rough variances
  // favour the runs whose noise was underestimated by chance, an interval too narrow.
  const pooled = used.every((r) => Number.isFinite(r.n) && r.n >= 2);
  const sigma2 = pooled ? sum(used.map((r) => r.df * r.n * r.se ** 2)) / sum(used.map((r) => r.df)) : null;
  const v = used.map((r) => (pooled ? sigma2 / r.n : r.se ** 2));
  // DerSimonian–Laird τ²
  const w = v.map((x) => 1 / x);
  const sw = sum(w);
  const yw = sum(w.map((wi, i) => wi * y[i])) / sw;
  const q = sum(w.map((wi, i) => wi * (y[i] - yw) ** 2));
  const c = sw - sum(w.map((wi) => wi * wi)) / sw;
  const tau2 = Math.max(0, (q - (k - 1)) / c);
  // the pooled mean and its variance
  const ws = v.map((x) => 1 / (x + tau2));
  const sws = sum(ws);
  const mu = sum(ws.map((wi, i) => wi * y[i])) / sws;
  const variance = 1 / sws;
  // Welch–Satterthwaite: the within part (each run's own df) and the between part (K − 1)
  const within = ws.map((wi, i) => (wi * wi * v[i]) / (sws * sws));
  const vWithin = sum(within);
  const vBetween = (tau2 * sum(ws.map((wi) => wi * wi))) / (sws * sws);
  const dfPairs = pooled ? sum(used.map((r) => r.df)) : vWithin ** 2 / sum(within.map((a, i) => (a * a) / used[i].df));
  const nuWithin = Math.min(dfPairs, WITHIN_DF_CAP * (k - 1));
  const df = variance ** 2 / (vWithin ** 2 / nuWithin + vBetween ** 2 / (k - 1));
  const se = Math.sqrt(variance);
  const half = jStat.studentt.inv(1 - (1 - level) / 2, df) * se;
  return {
    ratio: Math.exp(mu), lo: Math.exp(mu - half), hi: Math.exp(mu + half), se, df, tau2, k, method: METHOD,
    runs: used.map((r, i) => ({ ratio: r.ratio, se: r.se, df: r.df, n: r.n ?? null, weight: ws[i] / sws })),
  };
}

module.exports = { randomEffects, WITHIN_DF_CAP, METHOD };
