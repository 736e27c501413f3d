'use strict';
// A threshold table in words (rules.js), for the kinds whose rule is one (ratio, near, growth):
// each status once with where its interval must lie, held to the article's figure at each of its
// points. Made from the thresholds, never typed beside them; rule-words.js says a finding's rule
// through its kind.
const { fieldInfo } = require('../../results/fields');
const { ratioText } = require('../reasons');
const { STATUSES, INCONCLUSIVE, ruleOf, flatRuleOf, bandsOf } = require('../rules');

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

/**
 * A check's threshold table in words: its bands, or for a check held to the article's figure at
 * each of its points (figureAt), the bands from each point on ("from 1,000 per blog: holds where
 * …; from 10,000: …").
 */
function thresholdText(check) {
  const points = check.figureAt ? [...check.figureAt].sort((a, b) => a.x - b.x) : null;
  if (!points) {
    const rule = ruleOf(check);
    return rule ? `${heldText(rule)}${bandsText(bandsOf(rule))}` : '';
  }
  const x = fieldInfo(check.x).words;
  return points.map((p, i) => { const rule = ruleOf(check, { at: p.x }); return `from ${p.x.toLocaleString('en-US')}${i === 0 ? ` ${x}` : ''}, ${heldText(rule)}${bandsText(bandsOf(rule))}`; }).join('; ');
}

/** A growth's flat part in words: the other series within its factor either way, not beyond the failing one. */
function flatText(check) {
  const flat = flatRuleOf(check);
  if (!flat) return '';
  return `; and the other series within ${ratioText(flat.holdsAt)} of itself either way between the same two points (${ratioText(flat.failsAt)} or more apart: does not hold)`;
}

module.exports = { bandsText, heldText, thresholdText, flatText };
