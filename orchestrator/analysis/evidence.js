'use strict';
// What a verdict rests on, checked once it is decided and carried beside it, so a user can check
// it (verdicts.json): its pairs' ratios, the blocks left out and why, the outliers among the pairs
// and whether one of them decides it, a drift over the rounds, how busy the machine was, and each
// side's median block against its floor.
//
// A floor guards a block's fixed cost (the clock's resolution, a round trip, a barrier, the turn
// between shells): a side whose typical block is under it may be mostly that cost. Such a cost
// pulls a ratio toward 1, so it can void only a verdict it could change: the interval is taken
// again with up to that cost out of any block of either side (the planner's fitted fixed cost of
// the side's block where the run's size record has it, else the floor itself), and where even the
// farthest it could move keeps the status, the verdict stands, decided a fortiori; else the floor
// makes it inconclusive. (hyperfine measures its shell's spawn cost and subtracts it, and warns
// where a command is too short to tell from it, instead of refusing the measurement.)
const { spanMs } = require('../results/fields');
const { matches, readsEveryDocument } = require('../results/records');
const { minSpanMs, fixedCostBound } = require('../sizing/planner');
const { statusOf, DECIDED, TESTED, INCONCLUSIVE } = require('./rules');
const { tukeyOutliers, driftOf } = require('./pairs');
const { contentionOf, busyReason } = require('./contention');
const { median } = require('../results/repeats');

/** The shares of the fixed cost's bound tried on each side (the corners among them): 25 estimates of a few pairs each. */
const FIXED_COST_SHARES = [0, 0.25, 0.5, 0.75, 1];

/** A side's name as the probes and the size record's spans name it: its step's variants' values ("save", "sql"), else "all". */
function sideName(descriptor, record) {
  const variants = descriptor?.steps?.find((s) => s.name === record.step)?.variants || [];
  return variants.map((v) => record[v]).join(' ') || 'all';
}

/**
 * The most of a fixed cost a block of a side could carry: from the planner's fitted fixed cost of
 * the side's median block (the size record's spans: fixedMs per side, where the probes told it
 * from the cost per unit), else the step's floor itself (sizing/planner.js fixedCostBound).
 */
function fixedCostOf(descriptor, record, minMs, sizeRecord) {
  const span = (sizeRecord?.spans || []).find((s) => s.step === record.step);
  return fixedCostBound(span, sideName(descriptor, record), minMs);
}

/**
 * Each side's timed spans against its step's floor (scaling.spans; else the default): groups
 * [{ label, records }] → [{ label, medianMs, minMs, under (blocks under the floor), blocks, short
 * (the median block under it), fixed (the most of a fixed cost its blocks could carry) }]. Sizes,
 * counts and means per operation are no spans.
 */
function floorsOf(groups, fields, descriptor, sizeRecord) {
  return groups.map(({ label, records }) => {
    const spans = records.map((r) => {
      const field = fields.find((f) => f && Number.isFinite(r[f]));
      return field ? { ms: spanMs(field, r[field]), record: r } : null;
    }).filter((s) => s && s.ms !== null);
    if (!spans.length) return null;
    const minMs = minSpanMs(descriptor, spans[0].record.step);
    const medianMs = median(spans.map((s) => s.ms));
    const fixed = fixedCostOf(descriptor, spans[0].record, minMs, sizeRecord);
    return { label, medianMs, minMs, under: spans.filter((s) => s.ms < minMs).length, blocks: spans.length, short: medianMs < minMs, fixed };
  }).filter(Boolean);
}

/** A floor's figures as a reason and the evidence carry them. */
const floorFigures = ({ short: _, fixed: __, ...f }) => f;

/**
 * The interval an estimate could have with up to fixedMs of a fixed cost out of any block of
 * either side, each side's own (x and y in [0, fixedMs], the same in every block of that side):
 * the pairs' ratios (a − x)/(b − y), taken on each pair's spans, estimated again as the estimate
 * was (estimateAgain), and the widest interval of them all. A side whose block could be all fixed
 * cost could hold no work at all: the interval then reaches 0 (a numerator) or has no bound above
 * (a denominator). Null where the pairs do not carry their spans (a time per operation, a run
 * recorded before pairing).
 */
function pulledInterval(est, fixedMs, estimateAgain) {
  const pairs = est?.pairList || [];
  if (!pairs.length || !Number.isFinite(est.lo) || !Number.isFinite(est.hi) || !pairs.every((p) => p.numMs > 0 && p.denMs > 0)) return null;
  let lo = est.lo;
  let hi = est.hi;
  if (pairs.some((p) => p.numMs <= fixedMs)) lo = 0;
  if (pairs.some((p) => p.denMs <= fixedMs)) hi = Infinity;
  for (const fx of FIXED_COST_SHARES) {
    for (const fy of FIXED_COST_SHARES) {
      const x = fixedMs * fx;
      const y = fixedMs * fy;
      if (pairs.some((p) => p.numMs <= x || p.denMs <= y)) continue;
      const again = estimateAgain(pairs.map((p) => ({ ...p, ratio: p.ratio * ((1 - x / p.numMs) / (1 - y / p.denMs)) })));
      if (!Number.isFinite(again?.lo) || !Number.isFinite(again?.hi)) continue;
      lo = Math.min(lo, again.lo);
      hi = Math.max(hi, again.hi);
    }
  }
  return { lo, hi };
}

/**
 * A decided verdict with a side's median block under its floor: it stands where the status of
 * the interval its blocks' fixed cost could give (pulledInterval) is its own, and says so
 * (decided-despite-short); else it is inconclusive (too-short), saying how far that cost could
 * carry it. Only where one estimate decides it (two sides: a ratio, a growth with no flat part,
 * one point of a near check): where several do, the floor voids it as it is.
 */
function weighFloor(decided, { rule, est, floors, groups, estimateAgain }) {
  const short = floors.filter((f) => f.short);
  const bound = floors.reduce((m, f) => (f.fixed.ms > m.ms ? f.fixed : m), { ms: 0, fittedMs: null, from: 'floor' });
  const pulled = rule && groups.length === 2 && estimateAgain ? pulledInterval(est, bound.ms, estimateAgain) : null;
  const figures = short.map(floorFigures);
  // hi null: no bound above (a denominator's block could be all fixed cost), as JSON can carry it
  const pull = pulled ? { fixedMs: bound.ms, from: bound.from, ...(bound.fittedMs !== null ? { fittedMs: bound.fittedMs } : {}), lo: pulled.lo, hi: Number.isFinite(pulled.hi) ? pulled.hi : null } : {};
  if (pulled && statusOf(rule, pulled.lo, pulled.hi).status === decided.status) {
    return { ...decided, reasons: [...decided.reasons, { code: 'decided-despite-short', status: decided.status, ...pull, figures }] };
  }
  return { status: INCONCLUSIVE, reasons: [{ code: 'too-short', figures, ...pull }] };
}

/**
 * The mechanism a finding declares for a drift of its ratio (published.json driftMechanism:
 * the side that slows, whether only where the server reads every document to find one, and the
 * words), where this drift is it: the ratio moves the way that side slowing moves it, and (onScan)
 * a record of that side says the server read every document. Null otherwise: the machine drifted.
 */
function declaredDrift(finding, records, drift) {
  const declared = finding?.driftMechanism;
  if (!declared || !drift?.drifts) return null;
  const check = finding.check || {};
  const names = (sel) => sel && Object.entries(declared.slows).every(([k, v]) => sel[k] === v);
  const way = names(check.num) ? 1 : names(check.den) ? -1 : 0;
  if (!way || Math.sign(Math.log(drift.perRound)) !== way) return null;
  if (declared.onScan && !records.some((r) => matches(r, { where: declared.slows }) && readsEveryDocument(r))) return null;
  return declared.text;
}

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
 * estimate (its pairList: [{ ratio, round, repeat, numMs, denMs }]); groups: each side's timed
 * records; fields: the timed fields; blocks: the counted block records (their contention);
 * estimateWithout(i): the estimate without pair i; estimateAgain(pairList): the estimate of pairs
 * with other ratios; sizeRecord: the run's size record of the scenario on the server (the fitted
 * fixed costs of its sides' blocks); finding and records (this server's): a drift the finding
 * declares as its mechanism. Returns { decided (where a side's median block is under its floor,
 * inconclusive unless the floor could not change it; outlier, drift and busy-machine reasons
 * added), evidence: { pairs, outliers, drift, contention, floors } }.
 */
function checkEvidence(decided, {
  rule, est, groups = [], fields = [], descriptor, blocks = [], estimateWithout = () => null, estimateAgain = null, sizeRecord = null, finding = null, records = [],
}) {
  const floors = floorsOf(groups, fields, descriptor, sizeRecord);
  let out = decided;
  if (DECIDED.includes(out.status) && floors.some((f) => f.short)) out = weighFloor(out, { rule, est, floors, groups, estimateAgain });
  else out = { ...out, reasons: [...out.reasons] };
  const pairList = est?.pairList || [];
  const outliers = tukeyOutliers(pairList);
  const drift = est?.source === 'repeats' ? null : driftOf(pairList);
  const contention = contentionOf(blocks.filter((b) => b.type === 'block'));
  if (TESTED.includes(out.status)) {
    out.reasons.push(...outliersDeciding(rule, est, outliers, estimateWithout));
    const mechanism = declaredDrift(finding, records, drift);
    if (drift?.drifts) out.reasons.push({ code: 'drift', perRound: drift.perRound, rho: drift.rho, p: drift.p, n: drift.n, ...(mechanism ? { mechanism } : {}) });
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
      floors: floors.map(floorFigures),
    },
  };
}

module.exports = { checkEvidence, pulledInterval, declaredDrift };
