'use strict';
// The near kind: two values about equal ("about as fast"), within a tolerance of 1 either way, at
// each of the check's x (at) or once: a point that fails decides, else one that cannot be told,
// else a weaker one, else the farthest from 1 on a log scale.
const { fieldInfo } = require('../../results/fields');
const { comparison, estimateOf, sideFigure } = require('../pairing');
const { decide, figures } = require('../decide');
const { nearRule, thresholdProblem, FAILS, WEAKER, INCONCLUSIVE, UNTESTABLE, HOLDS } = require('../rules');
const { thresholdText } = require('./threshold-words');

/** Two values about equal, at each `at` x (or once): the farthest from 1 on a log scale decides. */
function nearCheck(check, ctx, rule) {
  const timed = fieldInfo(check.field).clock !== null;
  const points = (check.at || [undefined]).map((x) => {
    const at = (sel) => (x === undefined ? sel : { ...sel, [check.x]: x });
    const cmp = comparison(check, ctx, at(check.num), at(check.den));
    const est = estimateOf(cmp);
    const decided = est.n ? decide(rule, est, { timed }) : { status: UNTESTABLE, reasons: [] };
    // each point's sides are named at their x, so a short side says where it was short
    const groups = (cmp.groups || []).map((g) => ({ ...g, label: x === undefined ? g.label : `${g.label} at ${x}` }));
    return { x, cmp: { ...cmp, groups }, est, ...decided };
  });
  const measured = points.filter((p) => p.est.n);
  if (measured.length < points.length) {
    const missing = points.find((p) => !p.est.n);
    return { est: missing.est, cmp: missing.cmp, points, missingAt: missing.x };
  }
  const far = (p) => Math.abs(Math.log(p.est.ratio));
  // a point that fails decides; else one that cannot be told; else a weaker one; else the farthest from 1
  const deciding = points.find((p) => p.status === FAILS) || points.filter((p) => p.status === INCONCLUSIVE).sort((a, b) => far(b) - far(a))[0]
    || points.find((p) => p.status === WEAKER) || [...points].sort((a, b) => far(b) - far(a))[0];
  const status = points.some((p) => p.status === FAILS) ? FAILS : points.some((p) => p.status === INCONCLUSIVE) ? INCONCLUSIVE
    : points.some((p) => p.status === WEAKER) ? WEAKER : HOLDS;
  return { est: deciding.est, cmp: deciding.cmp, points, deciding, status, reasons: deciding.reasons, groups: points.flatMap((p) => p.cmp.groups) };
}

/** The near check judged on a server, as judge.js finishes every kind's. */
function judge(c, ctx, { rule }) {
  const r = nearCheck(c, ctx, rule);
  const decided = r.missingAt !== undefined || !r.est.n
    ? { status: UNTESTABLE, reasons: [{ code: 'not-measured', where: r.missingAt !== undefined ? `at ${r.missingAt} ${fieldInfo(c.x).words}` : '' }] }
    : { status: r.status, reasons: r.reasons };
  const points = r.points.filter((p) => p.x !== undefined).map((p) => ({ x: p.x, ...figures(p.est), status: p.status }));
  return {
    decided, rule, est: r.est,
    detail: { at: r.deciding?.x ?? null, x: c.x ?? null, ...(points.length ? { points } : {}), sides: { num: sideFigure(r.cmp.num, c.num), den: sideFigure(r.cmp.den, c.den) } },
    groups: r.groups || [], dropped: [...(r.cmp.dropped || []), ...(r.est.dropped || [])], missing: r.cmp.missing,
  };
}

module.exports = {
  kind: 'near',
  about: 'within a tolerance of 1',
  decides: true,
  saysFigure: false,
  // the deciding x, the field x is read from, each point's figures, the two sides' totals
  detailFields: ['at', 'x', 'points', 'sides'],
  rule: (check) => nearRule(check.tolerance),
  ruleProblem: (check) => (nearRule(check.tolerance) ? thresholdProblem(check) : 'a near check needs a tolerance above 0'),
  words: thresholdText,
  judge,
  estimateOn: (c, ctx, rule) => nearCheck(c, ctx, rule).est,
};
