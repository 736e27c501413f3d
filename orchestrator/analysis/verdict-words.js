'use strict';
// A verdict's figures in words, for every view that writes them (summary.md, report.html,
// verdicts.png, compare): made from the verdict's fields alone, so the words can never say a
// figure the data does not hold.
const { fieldInfo } = require('../results/fields');
const { ratioText, formatBytes } = require('./reasons');

/** "1.41–1.88" for an interval, or null where there is none. */
function intervalText(v) {
  return Number.isFinite(v?.lo) && Number.isFinite(v?.hi) ? `${ratioText(v.lo).replace('×', '')}–${ratioText(v.hi)}` : null;
}

/** "1.62× (1.41–1.88×, n=8)", "(… n=24 in 3 runs)", "1.62× (one reading)", or "–" where nothing was measured. */
function estimateText(v) {
  if (!Number.isFinite(v?.ratio)) return '–';
  const interval = intervalText(v);
  if (interval) return `${ratioText(v.ratio)} (${interval}, n=${v.n}${v.runs?.length > 1 ? ` in ${v.runs.length} runs` : ''})`;
  // a size is no timing: its one reading is the figure itself, not a reading short of an interval
  return `${ratioText(v.ratio)}${v.n === 1 && v.clock !== null ? ' (one reading)' : ''}`;
}

/** A measured value with its unit, from the field it was read on (µs, ms, s, bytes). */
function valueWithUnit(field, value) {
  if (!Number.isFinite(value)) return '–';
  const sig = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const { unit } = fieldInfo(field);
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'µs') return value >= 1000 ? `${sig(value / 1000)} ms` : `${sig(value)} µs`;
  if (unit === 'ms') return value >= 1000 ? `${sig(value / 1000)} s` : `${sig(value)} ms`;
  if (unit === 's') return `${sig(value)} s`;
  return sig(value);
}

/** A clock's name in words ("applied time"), from a verdict's field. */
const clockWords = (field) => (field ? fieldInfo(field).words : '');

/** A crossing's two ends as "+29.9% → −8.3%, cross at 7". */
function crossingText(c) {
  if (!c) return null;
  const pct = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;
  return `${pct(c.first)} → ${pct(c.last)}${c.crossAt !== null ? `, cross at ${c.crossAt}` : ''}`;
}

/**
 * What was measured, in a sentence: the ratio with its interval on the deciding clock, the two
 * sides' totals, the points or the flat series where the rule has them, the article's clock
 * beside it and the context (write concern, plan). From the verdict alone (verdict.js): the field
 * its points are read on (detail.x) and the article's clock (article.field) are its own.
 */
function detailText(v) {
  if (v.status === 'published only') return v.reasons.map((r) => r.text).join('; ');
  const parts = [];
  const x = v.detail?.x ? fieldInfo(v.detail.x).words : '';
  if (v.crossing) parts.push(crossingText(v.crossing));
  if (Number.isFinite(v.ratio)) {
    let head = `${estimateText(v)} on the ${clockWords(v.field)}`;
    if (Number.isFinite(v.at) && Number.isFinite(v.ref)) head += `, at ${v.at.toLocaleString('en-US')} ${x} against the fastest, ${v.ref.toLocaleString('en-US')}`;
    else if (Number.isFinite(v.at)) head += ` at ${v.at.toLocaleString('en-US')} ${x}`;
    parts.push(head);
  }
  if (v.sides?.num && v.sides?.den && Number.isFinite(v.sides.num.value) && Number.isFinite(v.sides.den.value)) {
    parts.push(`${v.sides.num.label || 'one side'} ${valueWithUnit(v.sides.num.field, v.sides.num.value)} against ${v.sides.den.label || 'the other'} ${valueWithUnit(v.sides.den.field, v.sides.den.value)}${v.n > 1 ? ' in all' : ''}`);
  }
  if (v.points?.length > 1) parts.push(v.points.map((p) => `${estimateText(p)} at ${p.x.toLocaleString('en-US')} ${x}`).join(', '));
  if (v.flat) parts.push(`the other series ${estimateText(v.flat)} between the same two points`);
  if (v.also?.length) parts.push(`beside it ${v.also.map((a) => `${a.label} (${a.server}): ${ratioText(a.ratio)}`).join(', ')}`);
  if (v.articleClockEstimate) parts.push(`the article's clock, the ${fieldInfo(v.article?.field || '').words}: ${estimateText(v.articleClockEstimate)}`);
  const text = parts.join('; ');
  const context = (v.context || []).map((c) => `${c.label}: ${c.values.join('; ')}`).join('; ');
  return context ? `${text} [${context}]` : text;
}

/** How busy the machine was over a run, for its header: the run's contention (analysis/contention.js) in words. */
function contentionText(c) {
  if (!c) return 'how busy the machine was: not measured';
  const pct = (x) => `${Math.round(x * 100)}%`;
  if (!c.blocks && c.run) return `other processes took ${pct(c.run.otherShare)} of the machine's CPU over the run`;
  return `${c.busy ? 'a busy machine: ' : ''}other processes took ${pct(c.medianOtherShare)} of the CPU during the median timed block (at most ${pct(c.maxOtherShare)}, ${c.blocks} blocks)`;
}

module.exports = {
  estimateText, intervalText, detailText, valueWithUnit, crossingText, ratioText, contentionText,
};
