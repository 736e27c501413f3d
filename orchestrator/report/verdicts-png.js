'use strict';
// verdicts.png: the report model's matrix as a picture (for a README or a blog post), drawn with
// node-canvas (the canvas chartjs-node-canvas renders the charts on): offline, no browser.
const { createCanvas } = require('canvas');
const { STATUSES } = require('./model');
const { position, bandStretches, COLOURS } = require('./ratio-scale');

const WIDTH = 1400;
const FONT = '"DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const ROW = 40;
const GROUP = 24;
const PAD = 16;

/** text cut to fit width, with an ellipsis. */
function fit(ctx, text, width) {
  let t = String(text ?? '');
  if (ctx.measureText(t).width <= width) return t;
  while (t.length > 1 && ctx.measureText(`${t}…`).width > width) t = t.slice(0, -1);
  return `${t.trimEnd()}…`;
}

/** A name in at most two lines that fit width: [first, second] (second empty where one line holds it). */
function wrapTwo(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return [text, ''];
  const words = text.split(' ');
  let first = '';
  while (words.length && ctx.measureText(`${first} ${words[0]}`.trim()).width <= width) first = `${first} ${words.shift()}`.trim();
  return [first, fit(ctx, words.join(' '), width)];
}

function drawBar(ctx, x, y, w, bands, measured, article, lo = null, hi = null) {
  const h = 10;
  const at = (p) => x + p * w;
  ctx.fillStyle = '#fff';
  ctx.fillRect(x, y + h / 2 - 2, w, 4);
  for (const b of bandStretches(bands)) {
    ctx.fillStyle = COLOURS[b.status].band;
    ctx.fillRect(at(b.x0), y + h / 2 - 3, at(b.x1) - at(b.x0), 6);
  }
  ctx.strokeStyle = '#777';
  ctx.lineWidth = 1;
  ctx.beginPath(); ctx.moveTo(at(0.5), y); ctx.lineTo(at(0.5), y + h); ctx.stroke();
  const pa = position(article);
  if (pa !== null) {
    ctx.fillStyle = '#fff'; ctx.strokeStyle = '#111'; ctx.lineWidth = 1.2;
    ctx.beginPath(); ctx.moveTo(at(pa), y); ctx.lineTo(at(pa) + 4, y + h / 2); ctx.lineTo(at(pa), y + h); ctx.lineTo(at(pa) - 4, y + h / 2); ctx.closePath(); ctx.fill(); ctx.stroke();
  }
  // the 95% interval, a whisker under the dot
  const [pl, ph] = [position(lo), position(hi)];
  if (pl !== null && ph !== null) {
    ctx.strokeStyle = '#111'; ctx.lineWidth = 1.4;
    ctx.beginPath();
    ctx.moveTo(at(pl), y + h / 2); ctx.lineTo(at(ph), y + h / 2);
    ctx.moveTo(at(pl), y + h / 2 - 3); ctx.lineTo(at(pl), y + h / 2 + 3);
    ctx.moveTo(at(ph), y + h / 2 - 3); ctx.lineTo(at(ph), y + h / 2 + 3);
    ctx.stroke();
  }
  const pm = position(measured);
  if (pm !== null) { ctx.fillStyle = '#111'; ctx.beginPath(); ctx.arc(at(pm), y + h / 2, 3.6, 0, Math.PI * 2); ctx.fill(); }
}

/** The lines the picture draws: group headings and finding rows, as the page's matrix orders them. */
function lines(model) {
  const out = [];
  for (const a of model.articles) {
    if (!a.rows.length && !a.foldedRow) continue;
    out.push({ group: `${a.scenario} · ${a.article?.author || a.article?.site || ''}, ${a.article?.year || ''}` });
    for (const row of [...a.rows, ...(a.foldedRow ? [a.foldedRow] : [])]) out.push({ row });
  }
  if (model.kitRows.length) {
    out.push({ group: 'the kit\'s own questions (not the articles\' claims)' });
    for (const row of model.kitRows) out.push({ row, prefix: `${row.scenario}: ` });
  }
  return out;
}

/** Draws the matrix; returns the PNG's bytes. */
function verdictsPng(model, title) {
  const items = lines(model);
  const factLines = model.runs.length;
  const head = 112 + 16 * (factLines - 1) + 14;
  const height = head + items.reduce((n, i) => n + (i.group ? GROUP : ROW), 0) + PAD;
  const canvas = createCanvas(WIDTH, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, WIDTH, height);
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#111';
  ctx.font = `bold 18px ${FONT}`;
  ctx.fillText(fit(ctx, title, WIDTH - 2 * PAD), PAD, 18);
  ctx.font = `12px ${FONT}`;
  ctx.fillStyle = '#444';
  model.runs.forEach((r, i) => {
    const facts = `${model.runs.length > 1 ? `${r.label}: ` : ''}${r.facts.date}, ${r.facts.machine}, ${r.facts.kit}, ${r.facts.size}, ${r.data.servers.map((s) => s.nameWithAlias).join(', ')}; ${r.facts.busy}`;
    ctx.fillText(fit(ctx, facts, WIDTH - 2 * PAD), PAD, 38 + 16 * i);
  });
  const tallyY = 50 + 16 * (factLines - 1);
  // the tally
  let x = PAD;
  ctx.font = `bold 12px ${FONT}`;
  for (const s of STATUSES.filter((k) => model.tally[k])) {
    const text = `${model.tally[s]} ${s}`;
    const w = ctx.measureText(text).width + 16;
    ctx.fillStyle = COLOURS[s].fill; ctx.fillRect(x, tallyY, w, 18);
    ctx.fillStyle = COLOURS[s].ink; ctx.fillText(text, x + 8, tallyY + 9);
    x += w + 6;
  }
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = '#555';
  ctx.fillText('● measured  ◇ article, on one log scale 0.01×–100× (tick at 1×), over the rule\'s bands', x + 8, tallyY + 9);

  const claimW = model.columns.length > 1 ? 380 : 560;
  const figW = 110;
  const colW = (WIDTH - 2 * PAD - claimW - figW) / Math.max(1, model.columns.length);
  const colX = (i) => PAD + claimW + figW + i * colW;
  ctx.font = `bold 12px ${FONT}`;
  ctx.fillStyle = '#111';
  ctx.fillText('finding (the article\'s claim)', PAD, head - 12);
  ctx.fillText('article', PAD + claimW, head - 12);
  model.columns.forEach((c, i) => {
    ctx.font = `bold 12px ${FONT}`; ctx.fillStyle = '#111';
    const [first, second] = wrapTwo(ctx, c.name, colW - 8);
    if (second) ctx.fillText(first, colX(i) + 4, head - 38);
    ctx.fillText(second || first, colX(i) + 4, head - 23);
    ctx.font = `11px ${FONT}`; ctx.fillStyle = '#555';
    ctx.fillText(fit(ctx, c.sub, colW - 8), colX(i) + 4, head - 8);
  });
  ctx.fillStyle = '#999';
  ctx.fillRect(PAD, head - 1, WIDTH - 2 * PAD, 2);

  let y = head + 1;
  for (const item of items) {
    if (item.group) {
      ctx.fillStyle = '#f2f2f2'; ctx.fillRect(PAD, y, WIDTH - 2 * PAD, GROUP);
      ctx.fillStyle = '#111'; ctx.font = `bold 12px ${FONT}`;
      ctx.fillText(fit(ctx, item.group, WIDTH - 3 * PAD), PAD + 4, y + GROUP / 2);
      y += GROUP;
      continue;
    }
    const { row } = item;
    ctx.fillStyle = '#222'; ctx.font = `12px ${FONT}`;
    ctx.fillText(fit(ctx, `${item.prefix || ''}${row.claim}`, claimW - 10), PAD + 4, y + ROW / 2);
    ctx.fillText(fit(ctx, row.article.text, figW - 8), PAD + claimW, y + ROW / 2);
    model.columns.forEach((c, i) => {
      const cell = row.cells[c.key];
      const cx = colX(i);
      const colours = COLOURS[cell?.status] || COLOURS['not run'];
      ctx.fillStyle = colours.fill; ctx.fillRect(cx + 1, y + 1, colW - 2, ROW - 2);
      if (!cell) return;
      ctx.font = `bold 12px ${FONT}`; ctx.fillStyle = colours.ink;
      ctx.fillText(fit(ctx, `${cell.status}${cell.mechanism ? `, ${cell.mechanism}` : ''}`, colW - 70), cx + 6, y + 12);
      ctx.textAlign = 'right'; ctx.fillStyle = '#111';
      ctx.fillText(`${cell.ratioText || ''}${cell.n > 1 && cell.ratioText && cell.ratioText !== '–' ? ` n=${cell.n}` : ''}`, cx + colW - 6, y + 12);
      ctx.textAlign = 'left';
      const bands = cell.bands || row.bands;
      const article = (cell.article || row.article).ratio;
      const drawn = bands && cell.status !== 'not run' && (Number.isFinite(cell.ratio) || Number.isFinite(article));
      if (drawn) drawBar(ctx, cx + 6, y + 22, Math.min(120, colW * 0.4), bands, cell.ratio, article, cell.lo, cell.hi);
      ctx.font = `11px ${FONT}`; ctx.fillStyle = '#333';
      const barW = drawn ? Math.min(120, colW * 0.4) + 12 : 0;
      ctx.fillText(fit(ctx, cell.reason, colW - 12 - barW), cx + 6 + barW, y + 28);
    });
    ctx.fillStyle = '#e6e6e6'; ctx.fillRect(PAD, y + ROW - 1, claimW + figW, 1);
    y += ROW;
  }
  return canvas.toBuffer('image/png');
}

module.exports = { verdictsPng };
