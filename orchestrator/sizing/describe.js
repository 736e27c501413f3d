'use strict';
// The plan in words: the table printed before a run (one per scenario, a row per server) and the
// pieces summary.md reuses, all from size records alone.
const { formatDuration } = require('./duration');

const int = (n) => Number(n).toLocaleString('en-US');

/** NAME=n for the variables that vary with the budget, and any other that differs from the article's. */
function sizeText(scenario, sizes) {
  const vary = scenario.scaling?.vary || {};
  return Object.entries(sizes).filter(([k, v]) => k !== 'passes' && (k in vary || v !== scenario.sizes.article[k]))
    .map(([k, v]) => `${k}=${int(v)}`).join(' ');
}

function percent(fraction) {
  if (!Number.isFinite(fraction)) return '–';
  const p = fraction * 100;
  return `${p >= 10 ? p.toFixed(0) : p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

function seconds(s) {
  if (!Number.isFinite(s)) return '–';
  return s >= 100 ? `${s.toFixed(0)} s` : `${s.toFixed(1)} s`;
}

/** What a finding needs, in words: TOTAL ≥ 1,000. */
function needText(atLeast) {
  return Object.entries(atLeast).map(([k, v]) => `${k} ≥ ${int(v)}`).join(', ');
}

/** One line per finding a plan's size is too small for: what it needs, and the budget that would fit it. */
function tooSmallLines(record) {
  const remedy = (t) => {
    if (record.size === 'article') return ': --set pins a variable below it';
    if (record.size !== 'auto') return `: the ${record.size} size is below it (--size article, or --size auto with a budget, reaches it)`;
    return t.budgetSeconds ? `: --budget ${formatDuration(t.budgetSeconds)} would fit it` : ': no --budget fits it while --set pins a variable below it';
  };
  return (record.findings?.tooSmall || []).map((t) => `${t.id} needs ${needText(t.atLeast)} (${t.why})${remedy(t)}`);
}

/** One line per step whose sides' median blocks are not predicted to clear their floor with its margin at this size. */
function shortSpanLines(record) {
  const notPromised = record.findings?.tooShort?.length ? `, so ${record.findings.tooShort.join(', ')} ${record.findings.tooShort.length === 1 ? 'is' : 'are'} not promised` : '';
  const margin = (s) => (s.marginMs ? `${s.marginMs / s.minMs}× the ${int(s.minMs)} ms floor a verdict holds each side's median block to (the least margin the table promises at)` : `the ${int(s.minMs)} ms a verdict needs`);
  return (record.spans || []).filter((s) => !s.met).map((s) => `${s.step}: its shortest side's median block is predicted at ${s.predictedMs === null ? 'an unknown span' : `${int(Math.round(s.predictedMs))} ms`} with ${s.variable}=${int(s.value)}, under ${margin(s)}${notPromised} (a larger --budget raises ${s.variable})`);
}

/** Fixed-width text table rows. */
function textTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => `  ${r.map((c, i) => String(c).padEnd(widths[i])).join('  ')}`.trimEnd());
}

/**
 * The lines that say which servers run the scenario paired (their blocks taking turns while both
 * run), and which of them are companions a default server brought along, and why.
 */
function pairLines(scenario, records) {
  const lines = [];
  const said = new Set();
  const findings = records.some((r) => r.pairedWith) ? scenario.loadPublished?.().findings || [] : [];
  for (const r of records) {
    if (!r.pairedWith || said.has(r.server)) continue;
    said.add(r.server).add(r.pairedWith);
    const both = `${r.server} and ${r.pairedWith}`;
    const across = (r.findings?.decidable || []).filter((id) => findings.find((f) => f.id === id)?.across);
    const decides = across.length ? `, deciding ${across.join(', ')}` : '';
    if (r.companionOf) {
      const twice = Number.isFinite(r.predictedSeconds) ? ` (predicted: about ${seconds(2 * r.predictedSeconds)} for the two, their blocks one after the other)` : '';
      lines.push(`  ${both}: started beside ${r.companionOf}, a ${scenario.companions.beside}, for ${scenario.name} alone once its scenarios are done, at its size; their steps run at once, their blocks taking turns${decides}${twice}`);
      if (scenario.companions.why) lines.push(`    why: ${scenario.companions.why}`);
    } else {
      lines.push(`  ${both} run its steps at once, their blocks taking turns${decides}`);
    }
  }
  return lines;
}

/** The lines printed before a scenario runs: its plan on each server, and what its size cannot decide. */
function planLines(scenario, records, { passes } = {}) {
  if (!records.length) return [];
  const first = records[0];
  const auto = first.size === 'auto';
  const own = records.filter((r) => !r.companionOf);
  const head = auto
    ? `${scenario.name}: ${first.perServer ? 'each server its own size (--size-per-server)' : own.length > 1 ? 'one size on every server, the largest that fits on each' : 'the largest size'} predicted to fit the ${formatDuration(first.budgetSeconds)} budget${first.budgetWhy ? ` (${Math.round(first.budgetShare * 100)}% of --budget: ${first.budgetWhy})` : ''}`
    : `${scenario.name}: the ${first.size} size`;
  const rows = [['server', 'size', 'of the article', 'predicted', 'findings it can decide']];
  for (const r of records) {
    rows.push([r.server, `${sizeText(scenario, r.sizes)}${passes ? `, ${passes} pass${passes === 1 ? '' : 'es'}` : ''}`, percent(r.fraction),
      auto ? `${seconds(r.predictedSeconds)}${r.fits === false ? ' (over budget: the smallest size)' : ''}` : '–',
      r.findings ? (r.findings.decidable.join(', ') || 'none') : '–']);
  }
  const notes = [...new Set(records.flatMap((r) => [...tooSmallLines(r), ...shortSpanLines(r)].map((l) => `  ${records.length > 1 ? `${r.server}: ` : ''}${l}`)))];
  return [head, ...textTable(rows), ...notes, ...pairLines(scenario, records)];
}

module.exports = { sizeText, percent, seconds, needText, tooSmallLines, shortSpanLines, planLines, pairLines, textTable };
