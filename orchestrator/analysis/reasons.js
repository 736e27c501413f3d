'use strict';
const { formatDuration } = require('../sizing/duration');
// Why a verdict reads as it does, as codes carrying their facts (hyperfine's warnings: an enum
// whose words live in one Display). The analysis attaches reasons; every view says them through
// reasonWords, and no view matches a sentence to find one.
const { networkText } = require('./network');
const { flowControlText } = require('./replication');
const { flowControlUnknownText } = require('./replication');
const { hopUnmeasuredText } = require('./network');
const { membersMayDifferText, readConcernText } = require('./members');
const { InternalError } = require('../errors');

const ratioText = (r) => {
  if (!Number.isFinite(r)) return '–';
  if (r >= 100) return `${Math.round(r)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  if (r >= 0.01) return `${r.toFixed(2)}×`;
  return `${r.toPrecision(2)}×`;
};
/** Bytes in binary units: "1.5 GiB". */
function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u += 1; }
  return `${v.toFixed(u ? 1 : 0)} ${units[u]}`;
}
const count = (n) => Number(n).toLocaleString('en-US');
const msText = (ms) => `${ms.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`;
const pct = (share) => `${Math.round(share * 100)}%`;
const signedPct = (factor) => `${factor >= 1 ? '+' : '−'}${Math.abs((factor - 1) * 100).toFixed(1)}%`;
const pText = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(p < 0.01 ? 3 : 2)}`);
const where = (r) => [Number.isInteger(r.round) ? `round ${r.round}` : null, r.repeat ? `run ${r.repeat}` : null].filter(Boolean).join(' of ') || 'one pair';
/** What would reach a size a finding needs: the --budget the planner priced, or a larger fixed size. */
const reach = (r) => {
  if (r.size) return `; the ${r.size} size is below it (--size article, or --size auto with a budget, reaches it)`;
  if (r.budgetSeconds) return `; --budget ${formatDuration(r.budgetSeconds)} would reach it`;
  if (r.budgetSeconds === null) return '; no --budget reaches it while --set pins a variable below it';
  return '';
};

/** The sides whose median block is under their floor, at most three named. */
const shortSides = (figures) => `${figures.slice(0, 3).map((f) => `${f.label}'s median block took ${msText(f.medianMs)} (${f.under} of ${f.blocks} block${f.blocks === 1 ? '' : 's'} under the ${count(f.minMs)} ms a verdict needs)`).join(', ')}${figures.length > 3 ? ` and ${figures.length - 3} more` : ''}`;
/** The fixed cost a block of a short side may carry, and where its bound comes from. */
const fixedCostText = (r) => `a fixed cost of up to ${msText(r.fixedMs)} a block (${r.from === 'fitted' ? `twice the ${msText(r.fittedMs)} the probes fitted` : 'its floor: the run fitted none'})`;
/** An interval a fixed cost could give: it may reach 0, or have no bound above. */
function pulledText({ lo, hi }) {
  if (Number.isFinite(hi)) return `within ${lo > 0 ? ratioText(lo).replace('×', '') : '0'}–${ratioText(hi)}`;
  return lo > 0 ? `at ${ratioText(lo)} or more` : 'anywhere from 0 up';
}

/** Each code's words, from its facts. */
const WORDS = {
  'published-only': (r) => r.text,
  // a precondition a record must meet (a server that takes w:0 writes, a cache the kit may cut)
  'requirement-unmet': (r) => r.text,
  'size-too-small': (r) => `the size is too small: ${r.short.map((s) => `${s.name} ${count(s.value)}, it needs ${count(s.need)}`).join('; ')}${r.why ? ` (${r.why})` : ''}${reach(r)}`,
  'baseline-unavailable': (r) => `${r.server} did not run: ${r.why}`,
  'needs-other-engine': (r) => `needs ${r.hint}`,
  'not-measured': (r) => `not measured${r.where ? ` ${r.where}` : ''}`,
  'zero-denominator': (r) => `${r.side || 'the other side'} measured 0, so no ratio can be taken`,
  'too-few-points': (r) => `${r.points} point(s) of both series: too few to tell`,
  'flat-unmeasured': () => 'the other series was not measured at both of the growth\'s points, so whether it stays flat cannot be told',
  'not-flat': (r) => `the other series does not stay flat: ${ratioText(r.ratio)}${Number.isFinite(r.lo) ? ` (${ratioText(r.lo)}–${ratioText(r.hi)})` : ''}, beyond ${ratioText(r.at)} either way`,
  'flat-straddles': (r) => `whether the other series stays within ${ratioText(r.at)} either way cannot be told: ${ratioText(r.ratio)} (${ratioText(r.lo)}–${ratioText(r.hi)})`,
  'too-short': (r) => `the timed span was too short to decide: ${shortSides(r.figures)}${Number.isFinite(r.fixedMs) ? `; ${fixedCostText(r)} could put the interval ${pulledText(r)}` : ''}; a larger size or --budget lengthens it`,
  'decided-despite-short': (r) => `decided a fortiori: its short blocks could only pull the ratio toward 1, by ${fixedCostText(r)}; with that cost out of any block of either side the interval stays ${pulledText(r)}, still "${r.status}"; ${r.figures.slice(0, 3).map((f) => `${f.label}'s median block took ${msText(f.medianMs)}, ${f.under} of ${f.blocks} under the ${count(f.minMs)} ms floor`).join('; ')}`,
  'one-reading': () => 'one reading per side (a run recorded before pairing): no interval, so no verdict',
  'too-few-pairs': (r) => `rests on ${r.n} pair(s), fewer than the ${r.need} a verdict needs${r.planned > 1 ? ` (of the ${r.planned} the run planned)` : ''}`,
  'no-pairs': (r) => `${r.side} had no block left to pair${Object.keys(r.dropped || {}).length ? ` (${Object.entries(r.dropped).map(([why, n]) => `${n} ${why}`).join(', ')} left out)` : ''}: nothing to decide on`,
  straddles: (r) => `the 95% interval straddles ${r.which === 'holds' ? 'the holding threshold' : r.which === 'band' ? 'the top of the band around the article\'s figure' : 'the failing threshold'} ${ratioText(r.at)}`,
  'inside-margin': (r) => `inside the margin, between ${ratioText(r.from)} and ${ratioText(r.to)}`,
  weaker: (r) => `a smaller effect than the article's ${ratioText(r.figure)}, in its direction: the whole 95% interval is between ${ratioText(Math.min(r.from, r.to))} and ${ratioText(Math.max(r.from, r.to))}`,
  'above-band': (r) => `a larger effect than the article's "about ${ratioText(r.figure)}": the whole 95% interval is past ${ratioText(r.at)}`,
  'outlier-decides': (r) => `one outlier decides it: without ${where(r)} (${ratioText(r.ratio)}) the interval is ${ratioText(r.without.lo)}–${ratioText(r.without.hi)}, ${r.without.status}`,
  drift: (r) => (r.mechanism
    ? `${r.mechanism}: the finding's mechanism, not the machine drifting (the ratio moves ${signedPct(r.perRound)} a round, Spearman's ρ ${r.rho.toFixed(2)}, ${pText(r.p)}, ${r.n} pairs)`
    : `the ratio drifts over the rounds, ${signedPct(r.perRound)} a round (Spearman's ρ ${r.rho.toFixed(2)}, ${pText(r.p)}, ${r.n} pairs)`),
  'busy-machine': (r) => `taken on a busy machine: other processes took ${pct(r.medianOtherShare)} of its CPU during the median block (at most ${pct(r.maxOtherShare)}, ${r.blocks} blocks measured)`,
  'repeats-misaligned': () => 'the repeated runs printed different numbers of lines, so the first run stands alone',
  'partner-missing': (r) => `${r.missing} round(s) had no block of both sides and were left out`,
  'shared-machine': () => 'another run of the kit shared the machine',
  'network-decided': networkText,
  'across-runs': (r) => `decided across ${r.runs} comparable quiet runs on this machine and server (random effects on their log-ratios): ${ratioText(r.ratio)} (${ratioText(r.lo)}–${ratioText(r.hi)}); this run alone ${ratioText(r.within.ratio)} (${ratioText(r.within.lo)}–${ratioText(r.within.hi)}), ${r.within.status}`,
  'flow-control': flowControlText,
  'flow-control-unknown': flowControlUnknownText,
  'hop-unmeasured': hopUnmeasuredText,
  'members-may-differ': membersMayDifferText,
  'read-concern': readConcernText,
};

/** The words of one reason. */
function reasonText(reason) {
  const words = WORDS[reason.code];
  if (!words) throw new InternalError(`no words for reason ${reason.code}`);
  return words(reason);
}

/** A verdict's reasons in words, in their order, joined: its one-line reason. */
function reasonWords(reasons) {
  return reasons.map(reasonText).join('; ');
}

module.exports = { reasonText, reasonWords, ratioText, formatBytes, REASON_CODES: Object.keys(WORDS) };
