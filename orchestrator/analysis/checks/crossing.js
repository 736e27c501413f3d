'use strict';
// The crossing kind: two series over x (power-of-2-sizes' sizes per pass) where a starts above b
// by more than a margin and ends below it by more than the margin. Sizes are no timing: one
// reading each, read as recorded, so it rests on no pairs and no threshold table.
const { fieldInfo } = require('../../results/fields');
const { pick } = require('../pairing');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../rules');

const pctText = (share) => `${Number((share * 100).toPrecision(3))}%`;

/**
 * a and b over x (sizes per pass): a starts above b by more than the margin and ends below it by
 * more than the margin. Sizes are no timing: one reading each, read as recorded.
 */
function crossingCheck(check, records, server) {
  const series = (name) => pick(records.filter((r) => r.server === server), { ...check.where, [check.series]: name })
    .filter((r) => Number.isFinite(r[check.y]) && Number.isFinite(r[check.x]))
    .sort((p, q) => p[check.x] - q[check.x]);
  const a = series(check.a);
  const b = series(check.b);
  const xs = a.map((r) => r[check.x]).filter((x) => b.some((r) => r[check.x] === x));
  if (xs.length < (check.minPoints || 2)) return { status: UNTESTABLE, reasons: [{ code: 'too-few-points', points: xs.length }], crossing: null };
  const gap = (x) => {
    const av = a.find((r) => r[check.x] === x)[check.y];
    const bv = b.find((r) => r[check.x] === x)[check.y];
    return (av - bv) / bv;
  };
  const first = gap(xs[0]);
  const last = gap(xs.at(-1));
  // a crossing is a's fall from above b by more than the margin: two like series wobbling around
  // each other (sizes within 0.1%) cross at every other point, which says nothing
  const crossAt = xs.find((x, i) => i > 0 && gap(xs[i - 1]) > 0 && gap(x) <= 0 && xs.slice(0, i).some((p) => gap(p) > check.margin));
  const crossing = { x: check.x, a: check.a, b: check.b, fromX: xs[0], toX: xs.at(-1), first, last, crossAt: crossAt ?? null };
  if (Math.abs(first) <= check.margin || Math.abs(last) <= check.margin) {
    return { status: INCONCLUSIVE, reasons: [{ code: 'inside-margin', from: -check.margin, to: check.margin }], crossing };
  }
  return { status: first > 0 && last < 0 ? HOLDS : FAILS, reasons: [], crossing };
}

/** A crossing's rule in words: past the margin above at the first point and below at the last. */
function words(check) {
  const margin = pctText(check.margin);
  return `holds where ${check.a} is more than ${margin} above ${check.b} at the first ${fieldInfo(check.x).words || check.x} and more than ${margin} below at the last; within ${margin} at either end, inconclusive; otherwise, does not hold`;
}

/** The crossing judged on a server: its two ends and where they crossed, read as recorded (no pairs: judge.js adds no evidence). */
function judge(c, ctx) {
  const out = crossingCheck(c, ctx.records, ctx.server);
  return { decided: { status: out.status, reasons: out.reasons }, rule: null, n: out.crossing ? 1 : 0, detail: { crossing: out.crossing }, readAsRecorded: true };
}

module.exports = {
  kind: 'crossing',
  about: 'two series cross',
  decides: true,
  saysFigure: false,
  // the two ends and where they crossed
  detailFields: ['crossing'],
  words,
  judge,
};
