'use strict';
// The history's views: the lines `orchestrate history` prints, history.html (a small chart per
// finding, report/history-chart.js) and history.png (the same charts on one canvas), and its JSON.
// They render the histories the analysis made (analysis/history.js findingHistories) and judge
// nothing; a run's words (its folder's name, a server's name) are escaped in the page.
const { createCanvas } = require('canvas');
const { escapeHtml } = require('./escape');
const { chartSvg, drawChart, chartShapes } = require('./history-chart');
const { COLOURS } = require('./ratio-scale');
const { ratioText } = require('../analysis/reasons');
const { oneFile } = require('./outputs');

const FONT = '"DejaVu Sans", "Noto Sans", sans-serif';

const interval = (e) => (Number.isFinite(e.lo) && Number.isFinite(e.hi) ? ` (${ratioText(e.lo).replace('×', '')}–${ratioText(e.hi)})` : '');
const ratioWords = (e) => (Number.isFinite(e.ratio) ? `${ratioText(e.ratio)}${interval(e)}` : '–');
const when = (iso) => (iso ? String(iso).replace('T', ' ').slice(0, 16) : '?');
const quietWords = (e) => (e.quiet === true ? 'quiet' : e.quiet === false ? 'busy' : 'contention not measured');
const canaryWords = (c) => (Number.isFinite(c?.insert) ? `, driver insert ${c.insert.toFixed(2)} ms` : '');
const sizeWords = (sizes) => (sizes ? Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(' ') : 'sizes unknown');

/** The machines the histories hold, each once: [fingerprint]. */
function machinesOf(histories) {
  return [...new Map(histories.flatMap((h) => h.machines.map((m) => [m.machine.id, m.machine]))).values()];
}

/** The first line where the runs come from several machines, else null. */
function machinesLine(histories) {
  const machines = machinesOf(histories);
  if (machines.length < 2) return null;
  return `These runs come from ${machines.length} different machines (${machines.map((m) => m.id).join(', ')}): each is its own series below; compare the shapes — each finding's status and ratios of ratios — not absolute times.`;
}

/** A change point in words: a change of the ratio (compare's test), a status that moved, or neither. */
function changeWords(c) {
  const factor = Number.isFinite(c.factor) ? `×${c.factor.toFixed(2)}${Number.isFinite(c.lo) ? ` (${c.lo.toFixed(2)}–${c.hi.toFixed(2)})` : ''}` : 'not measured in both';
  const status = c.statusMoved ? `; status ${c.statusFrom} → ${c.statusTo}` : '';
  if (c.sizesDiffer) return `${c.statusMoved ? 'status moved' : 'sizes differ'} ${c.kind}, ${c.from} → ${c.to}: ratio ${factor} not tested (the sizes differ)${status}`;
  const head = c.changed ? 'CHANGE' : c.statusMoved ? 'status moved' : 'no change';
  const pWords = (p) => (p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`);
  const holmWords = Number.isFinite(c.pHolm) && c.pHolm !== c.p ? ` (after Holm's correction across the findings ${pWords(c.pHolm)})` : '';
  return `${head} ${c.kind}, ${c.from} → ${c.to}: ratio ${factor}, ${c.status}${Number.isFinite(c.p) ? `, p ${pWords(c.p)}${holmWords}` : ''}${status}`;
}

/** The lines `orchestrate history` prints. */
function historyLines(histories, problems = []) {
  const out = [];
  const first = machinesLine(histories);
  if (first) out.push(first, '');
  if (!histories.length) out.push('No finding measured in the runs of the history.');
  for (const h of histories) {
    out.push(`${h.finding} (${h.scenario})${Number.isFinite(h.articleRatio) ? `: the article's ${ratioText(h.articleRatio)}` : ''}`);
    for (const m of h.machines) {
      out.push(`  on ${m.machine.words}${m.machine.derived ? ' (from the run\'s header: recorded before fingerprints)' : ''}`);
      m.servers.forEach((s, i) => {
        out.push(`    ${s.server.key}`);
        for (const e of s.entries) {
          out.push(`      ${e.run.name.padEnd(16)} ${when(e.run.startedAt)}  ${ratioWords(e).padEnd(22)} ${e.status}; n=${e.n}, ${sizeWords(e.sizes)}, ${quietWords(e)}${canaryWords(e.canary)}${e.run.added ? ', added' : ''}`);
        }
        for (const c of s.changes) out.push(`      ▲ ${changeWords(c)}`);
        const between = m.changes.find((c) => c.from === s.server.key);
        if (between && i < m.servers.length - 1) out.push(`    ${between.changed || between.statusMoved ? '▲' : '·'} ${changeWords(between)}`);
      });
    }
    out.push('');
  }
  for (const p of problems) out.push(`warning: ${p}`);
  return out;
}

/** The history as JSON: { machines, findings, problems }. */
function historyJson(histories, problems = []) {
  const entry = (e) => ({
    run: e.run.name, dir: e.run.dir, startedAt: e.run.startedAt, added: e.run.added, status: e.status,
    ratio: e.ratio, lo: e.lo, hi: e.hi, se: e.se, df: e.df, n: e.n, sizes: e.sizes, quiet: e.quiet, contention: e.contention, canary: e.canary,
  });
  return `${JSON.stringify({
    machines: machinesOf(histories),
    findings: histories.map((h) => ({
      finding: h.finding, scenario: h.scenario, articleRatio: h.articleRatio,
      machines: h.machines.map((m) => ({
        machine: m.machine.id,
        servers: m.servers.map((s) => ({ server: s.server, runs: s.entries.map(entry), changes: s.changes })),
        changes: m.changes,
      })),
    })),
    problems,
  }, null, 2)}\n`;
}

/** The legend of the status colours, as the verdict matrix uses them. */
function legendHtml(histories) {
  const statuses = [...new Set(histories.flatMap((h) => h.machines.flatMap((m) => m.servers.flatMap((s) => s.entries.map((e) => e.status)))))];
  return statuses.map((s) => `<span class="key" style="background:${COLOURS[s]?.fill ?? '#fff'};color:${COLOURS[s]?.ink ?? '#111'}">${escapeHtml(s)}</span>`).join(' ');
}

/** history.html: the machines, then one small chart per finding, each with its change points in words. */
function historyHtml(histories, problems = []) {
  const machines = machinesOf(histories);
  const first = machinesLine(histories);
  const sections = histories.map((h) => {
    const changes = h.machines.flatMap((m) => [...m.servers.flatMap((s) => s.changes), ...m.changes]).filter((c) => c.changed || c.statusMoved);
    return `<section class="finding">${chartSvg(h)}${changes.length ? `<ul>${changes.map((c) => `<li>${escapeHtml(changeWords(c))}</li>`).join('')}</ul>` : '<p class="quiet">no change point</p>'}</section>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>History of the findings</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; color: #111; }
h1 { font-size: 20px; margin: 0 0 6px; }
p { margin: 4px 0; font-size: 13px; }
.first { font-weight: bold; color: #9b1c12; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 10px; }
.finding { border: 1px solid #ddd; padding: 4px; font-size: 12px; }
.finding ul { margin: 2px 0 2px 18px; padding: 0; max-width: 420px; }
.quiet { color: #777; }
.key { padding: 1px 6px; font-size: 12px; border-radius: 2px; }
</style></head><body>
<h1>History of the findings</h1>
${first ? `<p class="first">${escapeHtml(first)}</p>` : ''}
<p>${machines.map((m) => escapeHtml(m.words)).join('<br>')}</p>
<p>Each run's ratio (dot) and 95% interval (whisker), coloured by its verdict: ${legendHtml(histories)}; the article's figure dashed; runs grouped by machine and server, versions in order, then by time; a red mark where the ratio changed by compare's test or the status moved.</p>
<div class="grid">
${sections}
</div>
${problems.length ? `<p>${problems.map((p) => escapeHtml(p)).join('<br>')}</p>` : ''}
</body></html>
`;
}

/** history.png: the charts on one canvas, two columns. */
function historyPng(histories) {
  const sized = histories.map((h) => ({ h, ...chartShapes(h) }));
  const colW = Math.max(420, ...sized.map((s) => s.width));
  const cols = colW > 700 ? 1 : 2;
  const rows = Math.max(1, Math.ceil(sized.length / cols));
  const height = 40 + rows * (sized[0]?.height ?? 230) + 10;
  const canvas = createCanvas(cols * colW + 20, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, height);
  ctx.fillStyle = '#111';
  ctx.font = `bold 16px ${FONT}`;
  ctx.fillText('History of the findings: each run\'s ratio and 95% interval; dashed, the article\'s figure', 10, 22);
  sized.forEach((s, i) => drawChart(ctx, s.h, 10 + (i % cols) * colW, 36 + Math.floor(i / cols) * s.height, FONT));
  return canvas.toBuffer('image/png');
}

/** The history's exporters (outputs.js), over { histories, problems }: history.html, then history.png. */
const HISTORY_EXPORTERS = [
  oneFile('history.html', ({ histories, problems }) => historyHtml(histories, problems)),
  oneFile('history.png', ({ histories }) => historyPng(histories)),
];

module.exports = { HISTORY_EXPORTERS, historyLines, historyJson, historyHtml, historyPng, machinesLine, machinesOf, changeWords };
