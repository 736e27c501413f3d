'use strict';
// What a verdict rests on, checked once it is decided and carried beside it, so a user can check
// it (verdicts.json): its pairs' ratios, the blocks left out and why, the outliers among the pairs
// and whether one of them decides it, a drift over the rounds, how busy the machine was, and each
// side's median block against its floor (a floor guards the clock's resolution and a block's own
// overhead: it voids a verdict where the typical block of a side is under it, the one block whose
// shortfall would change the ratio, not where any single block is).
const { spanMs } = require('../results/fields');
const { minSpanMs } = require('../sizing/planner');
const { statusOf, DECIDED, TESTED, INCONCLUSIVE } = require('./rules');
const { tukeyOutliers, driftOf } = require('./pairs');
const { contentionOf, busyReason } = require('./contention');
const { median } = require('../results/repeats');


/**
 * Each side's timed spans against its step's floor (scaling.spans; else the default): groups
 * [{ label, records }] → [{ label, medianMs, minMs, under (blocks under the floor), blocks, short
 * (the median block under it) }]. Sizes, counts and means per operation are no spans.
 */
function floorsOf(groups, fields, descriptor) {
  return groups.map(({ label, records }) => {
    const spans = records.map((r) => {
      const field = fields.find((f) => f && Number.isFinite(r[f]));
      return field ? { ms: spanMs(field, r[field]), step: r.step } : null;
    }).filter((s) => s && s.ms !== null);
    if (!spans.length) return null;
    const minMs = minSpanMs(descriptor, spans[0].step);
    const medianMs = median(spans.map((s) => s.ms));
    return { label, medianMs, minMs, under: spans.filter((s) => s.ms < minMs).length, blocks: spans.length, short: medianMs < minMs };
  }).filter(Boolean);
}

/** The too-short reason: the sides whose median block is under their floor. */
const tooShortReason = (short) => ({ code: 'too-short', figures: short.map(({ short: _, ...f }) => f) });

/**
 * Whether leaving out one outlier would change the status the rule gives: for each outlier, the
 * estimate again without it (estimateWithout) and its status by the rule alone (not the minimum
 * of pairs: one fewer pair is no new finding). Returns the reasons: [{ code: 'outlier-decides', ... }].
 */
function outliersDeciding(rule, est, outliers, estimateWithout) {
  if (!rule || !outliers.length || !Number.isFinite(est.lo)) return [];
  const now = statusOf(rule, est.lo, est.hi).status;
  return outliers.flatMap((o) => {
    const other = estimateWithout(o.index);
    if (!other || !Number.isFinite(other.lo)) return [];
    const then = statusOf(rule, other.lo, other.hi).status;
    return then === now ? [] : [{ code: 'outlier-decides', ratio: o.ratio, round: o.round, repeat: o.repeat, without: { status: then, ratio: other.ratio, lo: other.lo, hi: other.hi } }];
  });
}

/**
 * A decided verdict checked against what it rests on. decided: { status, reasons }; est: the
 * estimate (its pairList: [{ ratio, round, repeat }]); groups: each side's timed records; fields:
 * the timed fields; blocks: the counted block records (their contention); estimateWithout(i): the
 * estimate without pair i. Returns { decided (made inconclusive where a side's median block is
 * under its floor; outlier, drift and busy-machine reasons added), evidence: { pairs, outliers,
 * drift, contention, floors } }.
 */
function checkEvidence(decided, { rule, est, groups = [], fields = [], descriptor, blocks = [], estimateWithout = () => null }) {
  const floors = floorsOf(groups, fields, descriptor);
  const short = floors.filter((f) => f.short);
  let out = decided;
  if (DECIDED.includes(out.status) && short.length) out = { status: INCONCLUSIVE, reasons: [tooShortReason(short)] };
  else out = { ...out, reasons: [...out.reasons] };
  const pairList = est?.pairList || [];
  const outliers = tukeyOutliers(pairList);
  const drift = est?.source === 'repeats' ? null : driftOf(pairList);
  const contention = contentionOf(blocks.filter((b) => b.type === 'block'));
  if (TESTED.includes(out.status)) {
    out.reasons.push(...outliersDeciding(rule, est, outliers, estimateWithout));
    if (drift?.drifts) out.reasons.push({ code: 'drift', perRound: drift.perRound, rho: drift.rho, p: drift.p, n: drift.n });
    const busy = busyReason(contention);
    if (busy) out.reasons.push(busy);
  }
  return {
    decided: out,
    evidence: {
      pairs: pairList.map((p) => p.ratio),
      outliers: outliers.map(({ index, ...o }) => o),
      drift,
      contention,
      floors: floors.map(({ short: _, ...f }) => f),
    },
  };
}

module.exports = { checkEvidence };
