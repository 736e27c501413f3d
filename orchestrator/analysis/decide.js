'use strict';
// An estimate held to a rule (rules.js's threshold table): its status with why, as every check
// kind that decides on an interval reads it, and the estimate's figures as a verdict carries them.
const { METHOD_ONE } = require('./estimate');
const { statusOf, INCONCLUSIVE, WEAKER, FAILS } = require('./rules');

const same = (a, b) => Math.abs(a / b - 1) < 1e-9;

/** Why a rule gave the status it gave: the edge straddled, the margin, a weaker effect, a band overshot. */
function ruleReasons(rule, { status, straddles, band }) {
  if (straddles) return [{ code: 'straddles', ...straddles }];
  if (!band) return [];
  if (status === INCONCLUSIVE) return [{ code: 'inside-margin', from: band.from, to: band.to }];
  if (status === WEAKER) return [{ code: 'weaker', from: band.from, to: band.to, figure: rule.figure }];
  if (status === FAILS && rule.upTo && (same(band.from, rule.upTo) || same(band.to, rule.upTo))) return [{ code: 'above-band', at: rule.upTo, figure: rule.figure }];
  return [];
}

/**
 * The status of an estimate under a rule, with why: its interval decides, and only where it rests
 * on the pairs a verdict needs (est.need, tied to the rounds the run planned); fewer, or one
 * reading per side (a run recorded before pairing), leave a timing inconclusive. A size is no
 * timing: its one reading is the figure, and decides.
 */
function decide(rule, est, { timed = true } = {}) {
  const lo = est.lo ?? est.ratio;
  const hi = est.hi ?? est.ratio;
  const judged = statusOf(rule, lo, hi);
  if (timed && est.n < est.need) {
    const short = est.source === 'single' && est.method === METHOD_ONE ? { code: 'one-reading' } : { code: 'too-few-pairs', n: est.n, need: est.need, planned: est.planned };
    return { status: INCONCLUSIVE, reasons: [short] };
  }
  return { status: judged.status, reasons: ruleReasons(rule, judged) };
}

/** The estimate's own fields, as a verdict and its parts carry them. */
const figures = (est) => ({ ratio: est.ratio, lo: est.lo, hi: est.hi, n: est.n, se: est.se ?? null, df: est.df ?? null, method: est.method, ...(est.runs ? { runs: est.runs } : {}) });

module.exports = { decide, ruleReasons, figures };
