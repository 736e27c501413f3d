'use strict';
// A finding's rule in words, made from its threshold table (rules.js) by one function, ruleText,
// and never typed beside it: published.json's decidedBy says what is compared and on which
// clock, and these words say where each status begins. A unit test holds every figure in them
// to the thresholds.
const { fieldInfo } = require('../results/fields');
const { ratioText } = require('./reasons');
const { STATUSES, INCONCLUSIVE, ruleOf, flatRuleOf, bandsOf } = require('./rules');
const { checkOf } = require('./judge');

const pctText = (share) => `${Number((share * 100).toPrecision(3))}%`;

/**
 * A rule's bands in words, each status once with where its interval must lie: "holds where the
 * whole 95% interval is at 5.30× or more; holds, weaker at 1.10× to 5.30×; does not hold at 1.10×
 * or less; otherwise, inconclusive".
 */
function bandsText(bands) {
  if (!bands) return '';
  const phrase = (b) => (b.from === 0 ? `${ratioText(b.to)} or less` : b.to === Infinity ? `${ratioText(b.from)} or more` : `${ratioText(b.from)} to ${ratioText(b.to)}`);
  const parts = STATUSES.filter((s) => s !== INCONCLUSIVE && bands.some((b) => b.status === s))
    .map((s, i) => `${s} ${i === 0 ? 'where the whole 95% interval is ' : ''}at ${bands.filter((b) => b.status === s).map(phrase).join(' or ')}`);
  return `${parts.join('; ')}; otherwise, inconclusive`;
}

/** What a threshold is to the article's figure: its order (the square root), or a band around it. */
function heldText(rule) {
  if (rule?.says === 'order') return `the article's ${ratioText(rule.figure)} held at its order (its square root, ${ratioText(rule.holdsAt)}): `;
  if (rule?.says === 'about' && rule.direction !== 'near') return `about the article's ${ratioText(rule.figure)} (${ratioText(Math.min(rule.holdsAt, rule.upTo))} to ${ratioText(Math.max(rule.holdsAt, rule.upTo))}): `;
  return '';
}

/** A growth's flat part in words: the other series within its factor either way, not beyond the failing one. */
function flatText(check) {
  const flat = flatRuleOf(check);
  if (!flat) return '';
  return `; and the other series within ${ratioText(flat.holdsAt)} of itself either way between the same two points (${ratioText(flat.failsAt)} or more apart: does not hold)`;
}

/** A crossing's rule in words: past the margin above at the first point and below at the last. */
function crossingText(check) {
  const margin = pctText(check.margin);
  return `holds where ${check.a} is more than ${margin} above ${check.b} at the first ${fieldInfo(check.x).words || check.x} and more than ${margin} below at the last; within ${margin} at either end, inconclusive; otherwise, does not hold`;
}

/**
 * A finding's rule in words from its threshold table: its bands, or for a growth held to the
 * article's figure at each of its points, the bands from each point on ("from 1,000 per blog:
 * holds where …; from 10,000: …"), its flat part after; a crossing's margin. Empty for a finding
 * only published.
 */
function ruleText(finding) {
  const check = checkOf(finding);
  if (check.kind === 'crossing') return crossingText(check);
  const points = check.figureAt ? [...check.figureAt].sort((a, b) => a.x - b.x) : null;
  let text;
  if (!points) {
    const rule = ruleOf(check);
    text = rule ? `${heldText(rule)}${bandsText(bandsOf(rule))}` : '';
  } else {
    const x = fieldInfo(check.x).words;
    text = points.map((p, i) => { const rule = ruleOf(check, { at: p.x }); return `from ${p.x.toLocaleString('en-US')}${i === 0 ? ` ${x}` : ''}, ${heldText(rule)}${bandsText(bandsOf(rule))}`; }).join('; ');
  }
  return text ? `${text}${flatText(check)}` : '';
}

/** A finding's rule (its check's threshold table, held to the article's figure), for a view's bands. */
const ruleOfFinding = (finding) => ruleOf(checkOf(finding));

module.exports = { ruleText, bandsText, ruleOfFinding };
