'use strict';
// Why a verdict reads as it does, as codes carrying their facts (hyperfine's warnings: an enum
// whose words live in one Display). The analysis attaches reasons; every view says them through
// reasonWords, and no view matches a sentence to find one.
const { networkText } = require('./network');
const { flowControlText } = require('./replication');

const ratioText = (r) => {
  if (!Number.isFinite(r)) return '–';
  if (r >= 100) return `${Math.round(r)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  if (r >= 0.01) return `${r.toFixed(2)}×`;
  return `${r.toPrecision(2)}×`;
};
const count = (n) => Number(n).toLocaleString('en-US');
const msText = (ms) => `${ms.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`;

/** Each code's words, from its facts. */
const WORDS = {
  'published-only': (r) => r.text,
  // a precondition a record must meet (a server that takes w:0 writes, a cache the kit may cut)
  'requirement-unmet': (r) => r.text,
  'size-too-small': (r) => `the size is too small: ${r.short.map((s) => `${s.name} ${count(s.value)}, it needs ${count(s.need)}`).join('; ')}${r.why ? ` (${r.why})` : ''}`,
  'baseline-unavailable': (r) => `${r.server} did not run: ${r.why}`,
  'needs-other-engine': (r) => `needs ${r.hint}`,
  'not-measured': (r) => `not measured${r.where ? ` ${r.where}` : ''}`,
  'zero-denominator': (r) => `${r.side || 'the other side'} measured 0, so no ratio can be taken`,
  'too-few-points': (r) => `${r.points} point(s) of both series: too few to tell`,
  'flat-unmeasured': () => 'the other series was not measured at both of the growth\'s points, so whether it stays flat cannot be told',
  'not-flat': (r) => `the other series does not stay flat: ${ratioText(r.ratio)}${Number.isFinite(r.lo) ? ` (${ratioText(r.lo)}–${ratioText(r.hi)})` : ''}, beyond ${ratioText(r.at)} either way`,
  'flat-straddles': (r) => `whether the other series stays within ${ratioText(r.at)} either way cannot be told: ${ratioText(r.ratio)} (${ratioText(r.lo)}–${ratioText(r.hi)})`,
  'too-short': (r) => `the timed span was too short to decide (${r.figures.slice(0, 3).map((f) => `${f.label} ${msText(f.ms)}`).join(', ')}${(r.count ?? r.figures.length) > 3 ? ` and ${(r.count ?? r.figures.length) - 3} more` : ''}, under the ${count(r.figures[0].minMs)} ms a verdict needs; a larger size or --budget lengthens it)`,
  'one-reading': () => 'one reading per side, so no interval',
  'too-few-pairs': (r) => `rests on ${r.n} pair(s), fewer than the ${r.need} a verdict needs`,
  straddles: (r) => `the 95% interval straddles ${r.which === 'holds' ? 'the holding threshold' : 'the failing threshold'} ${ratioText(r.at)}`,
  'inside-margin': (r) => `inside the margin, between ${ratioText(r.from)} and ${ratioText(r.to)}`,
  'repeats-misaligned': () => 'the repeated runs printed different numbers of lines, so the first run stands alone',
  'partner-missing': (r) => `${r.missing} round(s) had no block of both sides and were left out`,
  'shared-machine': () => 'another run of the kit shared the machine',
  'network-decided': networkText,
  'flow-control': flowControlText,
};

/** The words of one reason. */
function reasonText(reason) {
  const words = WORDS[reason.code];
  if (!words) throw new Error(`no words for reason ${reason.code}`);
  return words(reason);
}

/** A verdict's reasons in words, in their order, joined: its one-line reason. */
function reasonWords(reasons) {
  return reasons.map(reasonText).join('; ');
}

module.exports = { reasonText, reasonWords, ratioText, REASON_CODES: Object.keys(WORDS) };
