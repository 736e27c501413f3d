'use strict';
// The ratio kind: one selection's figure over another's ("28× faster"), held to the article's
// figure (says: order, about) or to a direction alone (the kit's own questions). Decided on paired
// samples (pairing.js); a side whose baseline server recorded nothing, or a zero to divide by,
// leaves it untested, and a side with no block left to pair, inconclusive.
const { comparison, estimateOf, describeSelection, sideFigure } = require('../pairing');
const { decide } = require('../decide');
const { figureRule, thresholdProblem, UNTESTABLE, INCONCLUSIVE } = require('../rules');
const { thresholdText } = require('./threshold-words');

/** Why a side's reference server (a scenario's baseline) measured nothing, as the run recorded it. */
function baselineMissing(check, all) {
  return [check.num, check.den].filter((s) => s?.fromServer).map((s) => all.find((r) => r.server === s.fromServer && r.unavailable))
    .filter(Boolean).map((r) => ({ code: 'baseline-unavailable', server: r.server, why: r.unavailable }));
}

/** A ratio of two selections: its estimate and the comparison it rests on. */
function ratioCheck(check, ctx) {
  const cmp = comparison(check, ctx, check.num, check.den);
  return { est: estimateOf(cmp), cmp };
}

/**
 * The ratio judged on a server (ctx: judge.js's): { decided, rule, est, detail, groups, dropped,
 * missing, duplicated }, as judge.js finishes every kind's.
 */
function judge(c, ctx, { rule, timed }) {
  const r = ratioCheck(c, ctx);
  const missing = baselineMissing(c, ctx.records);
  let decided;
  if (!r.est.n) {
    const zero = [r.cmp.num, r.cmp.den].some((t) => t && t.value === 0) ? [{ code: 'zero-denominator', side: describeSelection(c.den) }] : [];
    // both sides measured, but one had no block left to pair: said, and not decided
    const noPairs = r.cmp.noPairs && r.cmp.num && r.cmp.den ? [{ code: 'no-pairs', ...r.cmp.noPairs }] : [];
    decided = missing.length ? { status: UNTESTABLE, reasons: missing } : zero.length ? { status: UNTESTABLE, reasons: zero }
      : noPairs.length ? { status: INCONCLUSIVE, reasons: noPairs } : { status: UNTESTABLE, reasons: [{ code: 'not-measured' }] };
  } else {
    decided = decide(rule, r.est, { timed });
  }
  return {
    decided, rule, est: r.est, detail: { sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) } },
    groups: r.cmp.groups, dropped: [...r.cmp.dropped, ...r.est.dropped], missing: r.cmp.missing, duplicated: r.cmp.duplicated,
  };
}

module.exports = {
  kind: 'ratio',
  about: 'a over b past a threshold',
  decides: true,
  // an article's claim says what it claimed of its figure (check.says: order, about)
  saysFigure: true,
  // the planner can promise it from the probes' two sides (sizing/planner.js decidedDespiteShort)
  twoSided: true,
  // what a ratio's verdict carries of its own (verdict.js detail): each side's total; across servers, the others beside it
  detailFields: ['sides', 'also'],
  rule: figureRule,
  ruleProblem: thresholdProblem,
  words: thresholdText,
  judge,
  /** The same comparison on another clock (the article's, beside the deciding one). */
  estimateOn: (c, ctx) => ratioCheck(c, ctx).est,
};
