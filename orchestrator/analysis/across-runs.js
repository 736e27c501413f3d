'use strict';
// A verdict's interval across runs. One run's 95% interval knows only its own rounds; the spread
// between quiet runs of the same finding on the same machine and server is larger than any one
// run's interval admits (issue 45: 17 of 21 pairs agreed). Where the history holds at least
// MIN_RUNS comparable runs, this one included, the runs' estimates are combined by one-way random
// effects (random-effects.js: the between-run variance τ² estimated, Satterthwaite's degrees of
// freedom; Kalibera and Jones, ISMM 2013), and the verdict is decided on that interval; where it
// holds fewer, the verdict says its interval is within-run. Comparable: the same finding, server
// (what answered, its version), machine (its fingerprint's id), sizes and passes, and quiet (its
// blocks' contention measured and not busy).
const { randomEffects } = require('./random-effects');
const { statusOf, TESTED } = require('./rules');
const { ruleReasons } = require('./judge');
const { makeVerdict } = require('./verdict');

/** The fewest comparable runs, this one included, that give a verdict an interval across runs. */
const MIN_RUNS = 3;
const ACROSS_RUNS = 'across-runs';
const WITHIN_RUN = 'within-run';

/** The reasons that say the rule's own reading of an interval: made again from the interval across runs. */
const RULE_CODES = ['straddles', 'inside-margin', 'weaker', 'above-band'];
/** The reasons that set the interval aside (too few pairs, too short, the network decided): no interval across runs decides those. */
const VOIDING_CODES = ['too-short', 'one-reading', 'too-few-pairs', 'no-pairs', 'network-decided'];

/** Whether a run's estimate can enter the model: a ratio with a standard error and degrees of freedom. */
const usable = (e) => Number.isFinite(e?.ratio) && e.ratio > 0 && Number.isFinite(e.se) && e.se > 0 && Number.isFinite(e.df) && e.df > 0;

/**
 * Whether a verdict's status is the rule's reading of its interval alone, so that an interval
 * across runs may decide it instead: tested, no reason that sets the interval aside, and one
 * estimate behind it (a growth whose other series must stay flat, or a check at several points,
 * is decided on more than this interval).
 */
function decidedByItsInterval(v) {
  if (!TESTED.includes(v.status) || !v.thresholds || !usable(v)) return false;
  if (v.reasons.some((r) => VOIDING_CODES.includes(r.code))) return false;
  if (v.flat || (v.points && v.points.length > 1)) return false;
  return statusOf(v.thresholds, v.lo, v.hi).status === v.status;
}

/**
 * The interval across runs of a verdict and the comparable runs before it (others: [{ run,
 * startedAt, ratio, se, df, n }]), or null where fewer than MIN_RUNS runs in all can enter:
 * { ratio, lo, hi, runs (how many), df, se, tau2, method, from: [{ run, startedAt, ratio, lo, hi }] }.
 */
function acrossRunsEstimate(v, thisRun, others) {
  if (!usable(v)) return null;
  const runs = [...others.filter(usable), { ...thisRun, ratio: v.ratio, lo: v.lo, hi: v.hi, se: v.se, df: v.df, n: v.n }];
  if (runs.length < MIN_RUNS) return null;
  const re = randomEffects(runs.map(({ ratio, se, df, n }) => ({ ratio, se, df, n })));
  if (!re || !Number.isFinite(re.lo) || !Number.isFinite(re.hi)) return null;
  return {
    ratio: re.ratio, lo: re.lo, hi: re.hi, runs: runs.length, df: re.df, se: re.se, tau2: re.tau2, method: re.method,
    from: runs.map((r) => ({ run: r.run, startedAt: r.startedAt ?? null, ratio: r.ratio, lo: r.lo ?? null, hi: r.hi ?? null })),
  };
}

/**
 * The verdict with its interval across runs where the history gives one (estimate.acrossRuns,
 * estimate.scope 'across-runs'), and its status decided on it where the status was the rule's
 * reading of its own interval: the rule's reasons are made again from the interval across runs,
 * and an 'across-runs' reason says the run's own interval and status. Else the verdict as it
 * was: its estimate's scope is within-run (makeVerdict's default).
 */
function withAcrossRuns(v, thisRun, others) {
  const across = acrossRunsEstimate(v, thisRun, others);
  if (!across) return v;
  // the verdict's own groups, its estimate with the interval across runs beside its own
  const estimate = { ...v.estimate, acrossRuns: across };
  if (!decidedByItsInterval(v)) return makeVerdict({ ...v, estimate });
  const judged = statusOf(v.thresholds, across.lo, across.hi);
  const kept = v.reasons.filter((r) => !RULE_CODES.includes(r.code));
  const reasons = [
    { code: 'across-runs', runs: across.runs, ratio: across.ratio, lo: across.lo, hi: across.hi, within: { status: v.status, ratio: v.ratio, lo: v.lo, hi: v.hi } },
    ...ruleReasons(v.thresholds, judged), ...kept,
  ];
  return makeVerdict({ ...v, estimate, status: judged.status, reasons });
}

module.exports = { withAcrossRuns, acrossRunsEstimate, decidedByItsInterval, MIN_RUNS, ACROSS_RUNS, WITHIN_RUN };
