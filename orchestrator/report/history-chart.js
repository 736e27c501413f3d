'use strict';
// One small chart of a finding's history: each run's ratio as a dot with its 95% interval as a
// whisker, coloured by its status as the verdict matrix colours it (ratio-scale.js COLOURS), the
// article's figure as a dashed line, on a log scale; runs grouped by machine and server (version
// order), a change point as a red mark between the two it separates. Drawn once as shapes
// (chartShapes), then written as SVG for history.html and onto a canvas for history.png, so the
// two say the same. Every text from a run folder (a server's name, a run's name) is placed as
// text: escaped in the SVG, drawn as glyphs on the canvas.
const { escapeHtml } = require('./escape');
const { COLOURS } = require('./ratio-scale');
const { ratioText } = require('../analysis/reasons');

const W = 420;
const H = 230;
const M = { left: 52, right: 12, top: 30, bottom: 54 };
const SLOT = 24;
const GAP = 16;
/** The least width of a group of runs: room for its label under it. */
const GROUP_MIN = 84;
const CHANGE_COLOUR = '#d62728';

/** Log ticks (1, 2, 5 × 10^k) inside [lo, hi]. */
function ticksOf(lo, hi) {
  const out = [];
  // past three decades, one tick a decade: the labels would touch
  const steps = Math.log10(hi / lo) > 3 ? [1] : [1, 2, 5];
  for (let k = Math.floor(Math.log10(lo)) - 1; k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of steps) {
      const v = m * 10 ** k;
      if (v >= lo && v <= hi) out.push(v);
    }
  }
  return out.length >= 2 ? out : [lo, hi];
}

/** The slots of a finding's history: each run's x, the groups (machine, server) with their span, the change marks. */
function layout(history) {
  const slots = [];
  const groups = [];
  const machineSpans = [];
  const marks = [];
  let x = 0;
  history.machines.forEach((m, mi) => {
    if (mi) x += GAP;
    const machineFrom = x;
    m.servers.forEach((s, si) => {
      if (si) x += GAP / 2;
      const from = x;
      // the runs centred in their group, which is at least wide enough for its label
      const width = Math.max(GROUP_MIN, s.entries.length * SLOT);
      let at = from + (width - s.entries.length * SLOT) / 2;
      s.entries.forEach((e) => { slots.push({ x: at + SLOT / 2, entry: e }); at += SLOT; });
      x = from + width;
      groups.push({ from, to: x, label: s.server.short || s.server.key, title: s.server.key, key: s.server.key, machine: m.machine.id });
      const slotOf = (name) => slots.find((sl) => sl.entry.run.name === name && sl.entry.server.key === s.server.key && sl.entry.machine.id === m.machine.id);
      for (const c of s.changes) {
        const a = slotOf(c.from);
        const b = slotOf(c.to);
        if (a && b) marks.push({ x: (a.x + b.x) / 2, change: c });
      }
    });
    machineSpans.push({ from: machineFrom, to: x, label: `machine ${m.machine.id}` });
    for (const c of m.changes) {
      const a = groups.find((g) => g.key === c.from && g.machine === m.machine.id);
      const b = groups.find((g) => g.key === c.to && g.machine === m.machine.id);
      if (a && b && (c.changed || c.statusMoved)) marks.push({ x: (a.to + b.from) / 2, change: c });
    }
  });
  return { slots, groups, machineSpans, marks, width: x };
}

/**
 * The chart's shapes: [{ kind: 'line' | 'circle' | 'text' | 'rect', ... }] in chart coordinates
 * (W × H, or wider where the runs need it), and its width.
 */
function chartShapes(history) {
  const { slots, groups, machineSpans, marks, width: inner } = layout(history);
  const width = Math.max(W, M.left + M.right + inner + 8);
  const values = [...slots.flatMap((s) => [s.entry.lo, s.entry.hi, s.entry.ratio]), history.articleRatio].filter((v) => Number.isFinite(v) && v > 0);
  const lo = values.length ? Math.min(...values) / 1.15 : 0.5;
  const hi = values.length ? Math.max(...values) * 1.15 : 2;
  const plotH = H - M.top - M.bottom;
  const y = (v) => M.top + plotH * (1 - (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)));
  const x0 = M.left + 4;
  const shapes = [];
  shapes.push({ kind: 'text', x: 6, y: 16, text: `${history.finding} (${history.scenario})`, size: 13, bold: true });
  for (const t of ticksOf(lo, hi)) {
    shapes.push({ kind: 'line', x1: M.left, y1: y(t), x2: width - M.right, y2: y(t), stroke: '#eee', width: 1 });
    shapes.push({ kind: 'text', x: M.left - 4, y: y(t) + 4, text: ratioText(t), size: 10, anchor: 'end', fill: '#555' });
  }
  shapes.push({ kind: 'line', x1: M.left, y1: M.top, x2: M.left, y2: H - M.bottom, stroke: '#999', width: 1 });
  if (Number.isFinite(history.articleRatio) && history.articleRatio > 0) {
    shapes.push({ kind: 'line', x1: M.left, y1: y(history.articleRatio), x2: width - M.right, y2: y(history.articleRatio), stroke: '#111', width: 1.2, dash: '5 3' });
    shapes.push({ kind: 'text', x: width - M.right, y: y(history.articleRatio) - 3, text: `article ${ratioText(history.articleRatio)}`, size: 10, anchor: 'end', fill: '#111' });
  }
  groups.forEach((g) => {
    shapes.push({ kind: 'line', x1: x0 + g.from + 2, y1: H - M.bottom + 4, x2: x0 + g.to - 2, y2: H - M.bottom + 4, stroke: '#999', width: 1 });
    shapes.push({ kind: 'text', x: x0 + (g.from + g.to) / 2, y: H - M.bottom + 16, text: g.label, title: g.title, size: 10, anchor: 'middle', fill: '#333', maxWidth: g.to - g.from });
  });
  // each machine's runs under one bracket: a series never crosses it
  machineSpans.forEach((m) => {
    shapes.push({ kind: 'line', x1: x0 + m.from, y1: H - M.bottom + 24, x2: x0 + m.to, y2: H - M.bottom + 24, stroke: '#bbb', width: 1 });
    shapes.push({ kind: 'text', x: x0 + (m.from + m.to) / 2, y: H - M.bottom + 36, text: m.label, size: 9, anchor: 'middle', fill: '#777', maxWidth: m.to - m.from });
  });
  marks.sort((a, b) => a.x - b.x).forEach((m, i) => {
    const x = x0 + m.x;
    shapes.push({ kind: 'line', x1: x, y1: M.top, x2: x, y2: H - M.bottom, stroke: CHANGE_COLOUR, width: 1.5, dash: '3 2' });
    const words = [m.change.changed ? `×${m.change.factor.toFixed(2)}` : null, m.change.statusMoved ? 'status' : null].filter(Boolean).join(', ');
    // marks close together take turns above and below the top line, so their words do not run into each other
    shapes.push({ kind: 'text', x: x + 2, y: i % 2 ? M.top + 9 : M.top - 2, text: `▲ ${words}`, size: 9, fill: CHANGE_COLOUR });
  });
  for (const s of slots) {
    const e = s.entry;
    const colour = COLOURS[e.status] || COLOURS['not run'];
    const x = x0 + s.x;
    if (Number.isFinite(e.lo) && Number.isFinite(e.hi)) {
      shapes.push({ kind: 'line', x1: x, y1: y(e.lo), x2: x, y2: y(e.hi), stroke: colour.ink, width: 2 });
      shapes.push({ kind: 'line', x1: x - 4, y1: y(e.lo), x2: x + 4, y2: y(e.lo), stroke: colour.ink, width: 1.5 });
      shapes.push({ kind: 'line', x1: x - 4, y1: y(e.hi), x2: x + 4, y2: y(e.hi), stroke: colour.ink, width: 1.5 });
    }
    if (!(Number.isFinite(e.ratio) && e.ratio > 0)) {
      // a run that measured no ratio (not tested, a step that failed): a hollow mark at the foot, its status as its title
      shapes.push({ kind: 'circle', x, y: H - M.bottom - 5, r: 3, fill: '#fff', stroke: colour.ink, title: `${e.run.name}: ${e.status}, no ratio` });
    } else {
      shapes.push({ kind: 'circle', x, y: y(e.ratio), r: 4.5, fill: colour.band, stroke: colour.ink, title: `${e.run.name}: ${e.status}, ${ratioText(e.ratio)}${Number.isFinite(e.lo) ? ` (${ratioText(e.lo)}–${ratioText(e.hi)})` : ''}${e.quiet === false ? ', busy' : ''}` });
    }
  }
  return { width, height: H, shapes };
}

/** The chart as an SVG element's text: every text escaped. */
function chartSvg(history) {
  const { width, height, shapes } = chartShapes(history);
  const attr = (v) => escapeHtml(String(v));
  const body = shapes.map((s) => {
    if (s.kind === 'line') return `<line x1="${s.x1.toFixed(1)}" y1="${s.y1.toFixed(1)}" x2="${s.x2.toFixed(1)}" y2="${s.y2.toFixed(1)}" stroke="${s.stroke}" stroke-width="${s.width}"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`;
    if (s.kind === 'circle') return `<circle cx="${s.x.toFixed(1)}" cy="${s.y.toFixed(1)}" r="${s.r}" fill="${s.fill}" stroke="${s.stroke}"><title>${escapeHtml(s.title)}</title></circle>`;
    const anchor = s.anchor ? ` text-anchor="${s.anchor === 'end' ? 'end' : s.anchor === 'middle' ? 'middle' : 'start'}"` : '';
    const text = s.maxWidth ? clip(s.text, s.maxWidth, s.size) : s.text;
    const title = s.title || (text !== s.text ? s.text : null);
    return `<text x="${s.x.toFixed(1)}" y="${s.y.toFixed(1)}" font-size="${s.size}"${s.bold ? ' font-weight="bold"' : ''} fill="${s.fill || '#111'}"${anchor}>${escapeHtml(text)}${title ? `<title>${attr(title)}</title>` : ''}</text>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${attr(`${history.finding}: each run's ratio and 95% interval`)}">${body}</svg>`;
}

/** Text cut to about maxWidth pixels at a font size (an average glyph is about 0.55 of it). */
function clip(text, maxWidth, size) {
  const n = Math.max(4, Math.floor(maxWidth / (size * 0.55)));
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/** The chart drawn on a canvas context at (ox, oy). */
function drawChart(ctx, history, ox, oy, font) {
  const { shapes } = chartShapes(history);
  ctx.save();
  ctx.translate(ox, oy);
  for (const s of shapes) {
    if (s.kind === 'line') {
      ctx.strokeStyle = s.stroke; ctx.lineWidth = s.width; ctx.setLineDash(s.dash ? s.dash.split(' ').map(Number) : []);
      ctx.beginPath(); ctx.moveTo(s.x1, s.y1); ctx.lineTo(s.x2, s.y2); ctx.stroke();
    } else if (s.kind === 'circle') {
      ctx.setLineDash([]); ctx.fillStyle = s.fill; ctx.strokeStyle = s.stroke; ctx.lineWidth = 1.2;
      ctx.beginPath(); ctx.arc(s.x, s.y, s.r, 0, Math.PI * 2); ctx.fill(); ctx.stroke();
    } else {
      ctx.font = `${s.bold ? 'bold ' : ''}${s.size}px ${font}`; ctx.fillStyle = s.fill || '#111';
      ctx.textAlign = s.anchor === 'end' ? 'right' : s.anchor === 'middle' ? 'center' : 'left';
      ctx.fillText(s.maxWidth ? clip(s.text, s.maxWidth, s.size) : s.text, s.x, s.y);
    }
  }
  ctx.restore();
}

module.exports = { chartShapes, chartSvg, drawChart, W, H };
