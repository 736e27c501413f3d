'use strict';
// report.html: a page of its own, built from the report model (findings × servers) and each
// article's section, that opens from the file system with no server and no network: every chart
// is embedded as a data: URI, the style is inline. The first screen answers whether each finding
// still holds, on which server, and by how much beside the article; the rest follows per article;
// what a reader checks only sometimes (calibration, client path, sizes) sits in the appendix.
const { escapeHtml } = require('./escape');
const { STATUSES } = require('./model');
const { bandsText } = require('../analysis/rule-words');
const { position, bandStretches, COLOURS } = require('./ratio-scale');
const { ruleText } = require('../analysis/rule-words');
const { blocksHtml, tableHtml, inlineHtml } = require('./blocks');
const { ruleOf, bandsOf } = require('../analysis/rules');

/** The legend's example: an article's "28×" (log-inserts' first claim) held at its order, past a 10% margin of no effect. */
const LEGEND_CHECK = { kind: 'ratio', says: 'order', figure: 28, margin: 0.1 };

// CJK and Cyrillic in the stack: the articles' titles and quotes are Chinese and Russian
const FONTS = 'system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "PingFang SC", "Microsoft YaHei", sans-serif';

const statusClass = (status) => `s-${status.replace(/[^a-z]+/g, '-')}`;

const STYLE = `
* { box-sizing: border-box; }
body { font: 14px/1.4 ${FONTS}; margin: 0; color: #1d1d1d; background: #fff; }
main { max-width: 1380px; margin: 0 auto; padding: 10px 14px 40px; }
a { color: #0b57a4; }
h1 { font-size: 20px; margin: 0 0 2px; }
h2 { font-size: 18px; border-bottom: 1px solid #ccc; padding-bottom: 3px; margin: 30px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.top { display: flex; gap: 16px; align-items: baseline; justify-content: space-between; flex-wrap: wrap; }
nav.contents { font-size: 13px; }
nav.contents a { margin-left: 10px; }
.facts { font-size: 12.5px; color: #444; margin: 2px 0; }
.facts b { color: #1d1d1d; font-weight: 600; }
.tally { margin: 8px 0 6px; display: flex; gap: 6px; flex-wrap: wrap; align-items: center; font-size: 12.5px; }
.chip { padding: 2px 9px; border-radius: 10px; font-weight: 600; }
.legend { color: #555; margin-left: 8px; flex: 1 1 300px; }
.legend svg { vertical-align: middle; }
table { border-collapse: collapse; }
table.matrix { width: 100%; table-layout: fixed; font-size: 12.5px; }
.matrix th { text-align: left; font-weight: 600; padding: 3px 5px; border-bottom: 2px solid #999; vertical-align: bottom; }
.matrix th .sub { display: block; font-weight: normal; color: #555; font-size: 11.5px; }
.matrix td { padding: 2px 5px; border-bottom: 1px solid #fff; vertical-align: top; }
.matrix td.claim { border-bottom: 1px solid #eee; }
.matrix td.fig { border-bottom: 1px solid #eee; color: #333; font-variant-numeric: tabular-nums; }
.matrix tr.group td { background: #f4f4f4; padding: 3px 5px; font-size: 12px; border-bottom: 0; }
.matrix tr.group td b { font-size: 13px; }
.clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
td.cell { position: relative; }
td.cell a { color: inherit; text-decoration: none; display: block; }
td.cell a:hover .reason { text-decoration: underline; }
.cell .line { display: flex; align-items: center; gap: 5px; white-space: nowrap; }
.cell .verdict { font-weight: 700; overflow: hidden; text-overflow: ellipsis; flex: 0 1 auto; }
.cell .bar { flex: 0 0 auto; }
.cell .ratio { font-weight: 700; font-variant-numeric: tabular-nums; margin-left: auto; }
.cell .reason { font-size: 11.5px; color: #333; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; flex: 1 1 auto; }
.cell .mech { font-weight: 600; }
${STATUSES.concat('not run').map((s) => `.${statusClass(s)} { background: ${COLOURS[s].fill}; } .${statusClass(s)} .verdict { color: ${COLOURS[s].ink}; } .chip.${statusClass(s)} { color: ${COLOURS[s].ink}; }`).join('\n')}
.kitnote { color: #555; font-weight: normal; }
.article-meta { color: #444; font-size: 13px; }
.gloss { color: #555; font-style: italic; }
table.data { font-size: 12.5px; margin: 6px 0 10px; max-width: 100%; }
table.data th, table.data td { border: 1px solid #ddd; padding: 2px 6px; }
table.data th { background: #f3f3f3; font-weight: 600; }
table.data td { text-align: right; font-variant-numeric: tabular-nums; }
table.data td:first-child, table.data td.text { text-align: left; }
.tablewrap { max-width: 100%; overflow-x: auto; }
.findings { margin: 4px 0 8px; padding-left: 0; list-style: none; }
.findings > li { margin: 6px 0; padding: 4px 8px; border-left: 4px solid #ccc; background: #fafafa; }
.findings .rule { color: #444; font-size: 12.5px; }
.findings .verdicts { margin: 2px 0 0; padding-left: 18px; font-size: 12.5px; }
figure { margin: 10px 0 16px; }
figure img { max-width: 100%; width: 900px; border: 1px solid #eee; }
figcaption { font-size: 12.5px; color: #333; max-width: 900px; }
figcaption p { margin: 2px 0; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
.appendix table { font-size: 12px; border-collapse: collapse; }
.appendix th, .appendix td { border: 1px solid #ddd; padding: 2px 6px; }
.appendix { overflow-wrap: anywhere; }
code { background: #f4f4f4; padding: 0 3px; }
`;

/**
 * The small bar: the rule's bands, the article's ratio (a diamond), the measured one (a dot) and its
 * 95% interval (a whisker, where the verdict has one), on the one log scale.
 */
function ratioBar(bands, measured, article, { width = 104, height = 12, lo = null, hi = null } = {}) {
  const x = (p) => (p * (width - 8) + 4).toFixed(1);
  const mid = height / 2;
  const parts = [`<rect x="4" y="${mid - 2}" width="${width - 8}" height="4" fill="#ffffff" stroke="#bbb" stroke-width="0.5"/>`];
  for (const b of bandStretches(bands)) {
    parts.push(`<rect x="${x(b.x0)}" y="${mid - 3}" width="${(x(b.x1) - x(b.x0)).toFixed(1)}" height="6" fill="${COLOURS[b.status].band}"/>`);
  }
  parts.push(`<line x1="${x(0.5)}" y1="1" x2="${x(0.5)}" y2="${height - 1}" stroke="#777" stroke-width="0.8"/>`);
  const pa = position(article);
  if (pa !== null) parts.push(`<path d="M${x(pa)} ${mid - 5} l4 5 l-4 5 l-4 -5 z" fill="#fff" stroke="#111" stroke-width="1.2"/>`);
  const [pl, ph] = [position(lo), position(hi)];
  if (pl !== null && ph !== null) {
    parts.push(`<path class="whisker" d="M${x(pl)} ${mid} H${x(ph)} M${x(pl)} ${mid - 3} V${mid + 3} M${x(ph)} ${mid - 3} V${mid + 3}" stroke="#111" stroke-width="1.4" fill="none"/>`);
  }
  const pm = position(measured);
  if (pm !== null) parts.push(`<circle cx="${x(pm)}" cy="${mid}" r="3.6" fill="#111"/>`);
  return `<svg class="bar" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" aria-hidden="true">${parts.join('')}</svg>`;
}

/** A cell's ratio as its corner shows it: the ratio, and the pairs it rests on ("n=8"). */
function cornerText(cell) {
  if (!cell.ratioText || cell.ratioText === '–' || !(cell.n > 1)) return cell.ratioText || '';
  return `${cell.ratioText} n=${cell.n}`;
}

function cellHtml(cell, row, barWidth) {
  if (!cell) return '<td class="cell s-not-run"></td>';
  const drawn = cell.bands || row.bands;
  const article = (cell.article || row.article).ratio;
  const bar = drawn && cell.status !== 'not run' && (Number.isFinite(cell.ratio) || Number.isFinite(article))
    ? ratioBar(drawn, cell.ratio, article, { width: barWidth, lo: cell.lo, hi: cell.hi }) : '';
  const word = `${escapeHtml(cell.status)}${cell.mechanism ? `<span class="mech">, ${escapeHtml(cell.mechanism)}</span>` : ''}`;
  const reason = cell.reason || '';
  const title = [cell.status, cell.mechanism, cell.measured].filter(Boolean).join(' · ');
  return `<td class="cell ${statusClass(cell.status)}" data-status="${escapeHtml(cell.status)}" title="${escapeHtml(title)}"><a href="${escapeHtml(cell.evidence || `#${row.anchor}`)}">`
    + `<div class="line"><span class="verdict">${word}</span><span class="ratio">${escapeHtml(cornerText(cell))}</span></div>`
    + `<div class="line">${bar}<span class="reason">${escapeHtml(reason)}</span></div></a></td>`;
}

function rowHtml(row, columns, { prefix = '' } = {}) {
  const claim = `${prefix}${escapeHtml(row.claim)}`;
  return `<tr class="finding" data-finding="${escapeHtml(`${row.scenario}/${row.id}`)}"><td class="claim" title="${escapeHtml(row.published)}"><div class="clamp">${claim}</div></td>`
    + `<td class="fig" title="${escapeHtml(row.published)}"><div class="clamp">${escapeHtml(row.article.text)}</div></td>`
    + `${columns.map((c) => cellHtml(row.cells[c.key], row, columns.length > 2 ? 84 : 120)).join('')}</tr>`;
}

function articleLabel(article) {
  const a = article.article || {};
  return `${escapeHtml(a.author || a.site || '')}${a.year ? `, ${a.year}` : ''}`;
}

/** The matrix: findings grouped by article (claims first), then the kit's own questions apart. */
function matrixHtml(model) {
  const { columns } = model;
  if (!columns.length) return '<p id="matrix">No server was measured in this run, so no finding could be judged: see the failures below.</p>';
  const span = columns.length + 2;
  const head = `<thead><tr><th style="width:${columns.length > 1 ? 27 : 40}%">finding (the article's claim)</th><th style="width:${columns.length > 1 ? 8 : 9}%">article</th>`
    + `${columns.map((c) => `<th>${escapeHtml(c.name)}<span class="sub">${escapeHtml(c.sub)}</span></th>`).join('')}</tr></thead>`;
  const body = [];
  for (const a of model.articles) {
    if (!a.rows.length && !a.foldedRow) continue;
    body.push(`<tr class="group"><td colspan="${span}"><b>${escapeHtml(a.scenario)}</b> · ${articleLabel(a)} · ${escapeHtml(a.publishedServer || '')} · <a href="#${a.anchor}">section and charts</a></td></tr>`);
    for (const row of a.rows) body.push(rowHtml(row, columns));
    if (a.foldedRow) body.push(rowHtml(a.foldedRow, columns));
  }
  if (model.kitRows.length) {
    body.push(`<tr class="group"><td colspan="${span}"><b>The kit's own questions</b> <span class="kitnote">· asked of today's servers beside an article; not the articles' claims</span></td></tr>`);
    for (const row of model.kitRows) body.push(rowHtml(row, columns, { prefix: `<span class="kitnote">${escapeHtml(row.scenario)}:</span> ` }));
  }
  return `<table class="matrix" id="matrix">${head}<tbody>${body.join('\n')}</tbody></table>`;
}

function tallyHtml(model) {
  const chips = STATUSES.filter((s) => model.tally[s]).map((s) => `<span class="chip ${statusClass(s)}">${model.tally[s]} ${escapeHtml(s)}</span>`);
  // the bands of a claim of "28×" held at its order, from its rule's thresholds: does not hold, holds weaker, holds
  const legend = `<span class="legend">${ratioBar(bandsOf(ruleOf(LEGEND_CHECK)), 3, LEGEND_CHECK.figure)}`
    + ' ● measured, ├─┤ its 95% interval over n pairs, ◇ the article, on one log scale 0.01×–100× (tick at 1×) over the rule\'s bands (holds at the article\'s order or in its band; holds, weaker short of it) · a cell links to its evidence</span>';
  return `<div class="tally">${chips.join('')}${legend}</div>`;
}

function factsHtml(model) {
  return model.runs.map((r) => {
    const servers = model.columns.filter((c) => c.run === r.index).map((c) => `<b>${escapeHtml(c.name)}</b> (<code>${escapeHtml(c.server)}</code>)`);
    const baselines = r.data.servers.filter((s) => s.baselineFor).map((s) => `${escapeHtml(s.product)} ${escapeHtml(String(s.version).split(' ')[0])} as the SQL baseline`);
    const f = r.facts;
    const notes = r.notes.map((n) => `<p class="facts">${model.runs.length > 1 ? `<b>${escapeHtml(r.label)}</b>: ` : ''}${inlineHtml(n)}</p>`).join('');
    return `<p class="facts">${model.runs.length > 1 ? `<b>${escapeHtml(r.label)}</b>: ` : ''}${escapeHtml(f.date)} · ${escapeHtml(f.machine)} · ${escapeHtml(f.kit)} · ${escapeHtml(f.size)} · ${escapeHtml(f.shell)} · ${[...servers, ...baselines].join(', ')} · ${escapeHtml(f.busy)}</p>${notes}`;
  }).join('\n');
}


/**
 * A chart's src: embedded as a data: URI from its bytes where the page drew it (a run's own report
 * opens alone), else the path to it in its run's folder (a page of several runs would copy every
 * run's charts); null where the page has neither.
 */
function pngSrc(chart, drawn) {
  if (chart.href) return chart.href;
  const bytes = drawn.get(chart.file);
  return bytes ? `data:image/png;base64,${Buffer.from(bytes).toString('base64')}` : null;
}

/** One finding's evidence: its claim, the rule, and each column's verdict with what was measured. */
function findingEvidence(row, columns, said) {
  const lines = columns.map((c) => {
    const cell = row.cells[c.key];
    if (!cell || cell.status === 'not run') return '';
    // a reason already given in this section is pointed to, not repeated
    const why = cell.why && said.has(cell.why) ? `${cell.reason} (as above)` : cell.why;
    if (cell.why) said.add(cell.why);
    const text = [why, cell.instead ? `measured instead: ${cell.instead}` : (cell.why ? '' : cell.measured || cell.reason)].filter(Boolean).join('; ');
    return `<li><b>${escapeHtml(c.name)}</b>${columns.length > 1 ? ` <span class="kitnote">(${escapeHtml(c.sub)})</span>` : ''}: <span class="${statusClass(cell.status)}" style="padding:0 4px">${escapeHtml(cell.status)}</span>${cell.mechanism ? `, ${escapeHtml(cell.mechanism)}` : ''}: ${escapeHtml(text)}${cell.conditions ? `<br><span class="kitnote">Conditions: ${escapeHtml(cell.conditions)}</span>` : ''}</li>`;
  }).join('');
  // the rule's bands in words from its thresholds: a growth's at each of the article's points
  const bands = row.finding?.check ? ruleText(row.finding) : bandsText(row.bands);
  // the findings only published, folded into one row in the matrix, are listed under one heading and one reason
  if (row.folded) {
    return `<li id="${row.anchor}"><b>What the article found of what no server today runs</b>`
      + `<ul class="verdicts">${row.folded.map((f) => `<li id="${f.anchor}">${escapeHtml(f.claim)}: ${escapeHtml(f.published)}</li>`).join('')}</ul>`
      + `<span class="rule">${escapeHtml(row.rule)}.</span><ul class="verdicts">${lines}</ul></li>`;
  }
  const drawn = Number.isFinite(row.article.ratio) && row.bands ? ` (drawn as ${escapeHtml(row.article.text)})` : '';
  // a kit question's published.json says what the article said beside it, naming the article itself
  return `<li id="${row.anchor}"><b>${row.kit ? 'The kit\'s question: ' : ''}${escapeHtml(row.claim)}</b><br>`
    + `<span class="rule">${row.kit ? 'Beside it, ' : 'The article: '}${escapeHtml(row.published)}${drawn}.<br>${row.reasoning ? `${row.kit ? 'Why this rule' : 'What it claimed'}: ${escapeHtml(row.reasoning)}.<br>` : ''}The rule: ${escapeHtml(row.rule)}${bands ? ` On the scale: ${escapeHtml(bands)}.` : ''}</span>`
    + `<ul class="verdicts">${lines}</ul></li>`;
}

function gloss(article) {
  return article?.gloss ? ` <span class="gloss">(“${escapeHtml(article.gloss)}”)</span>` : '';
}

/** One article's section: its findings' evidence, then per run its tables and charts with what to read in each. */
function articleHtml(article, model, sectionsOf, drawn) {
  const a = article.article || {};
  const rows = [...article.rows, ...(article.foldedRow ? [article.foldedRow] : []), ...model.kitRows.filter((r) => r.scenario === article.scenario)];
  const said = new Set();
  const parts = [
    `<h2 id="${article.anchor}">${escapeHtml(article.scenario)}: ${escapeHtml(article.title)}</h2>`,
    `<p class="article-meta">“<span lang="${escapeHtml(a.language || 'en')}">${escapeHtml(a.title)}</span>”${gloss(a)}, ${escapeHtml(a.author ? `${a.author}, ` : '')}${escapeHtml(a.site)}, ${escapeHtml(a.year)}${a.url ? ` · <a href="${escapeHtml(a.url)}">${escapeHtml(a.url)}</a>` : ''}. Published on ${escapeHtml(article.publishedServer)}.</p>`,
    `<h3 id="${article.anchor}-findings">Findings and their evidence</h3><ul class="findings">${rows.map((r) => findingEvidence(r, model.columns, said)).join('')}</ul>`,
  ];
  for (const run of model.runs) {
    const section = sectionsOf(run.index, article.scenario);
    if (!section) continue;
    const runNote = model.runs.length > 1 ? ` (${escapeHtml(run.label)})` : '';
    parts.push(`<p class="article-meta">${escapeHtml(section.intro)}${runNote}</p>`);
    for (const s of section.servers) {
      parts.push(`<h3 id="${article.anchor}-${run.index}-${escapeHtml(s.server)}">Tables: ${escapeHtml(s.name)}${runNote}</h3>`);
      for (const t of s.tables) parts.push(`<p><b>${escapeHtml(t.title)}</b></p>`, tableHtml(t));
      // the scripts' notes, counts and once-only steps
      const more = [...s.declared, ...s.notes, s.once, s.counts, s.serverTime].filter(Boolean);
      if (more.length) parts.push(`<details><summary>What the scripts recorded beside the tables</summary>${blocksHtml(more)}</details>`);
    }
    for (const chart of section.charts) {
      const src = pngSrc(chart, drawn);
      if (!src) continue;
      // a rule is said under the first chart that draws its finding, and pointed to after that
      const caption = [
        ...chart.rules.map((r) => {
          const again = said.has(r.claim);
          said.add(r.claim);
          return `<p><b>Rule:</b> ${escapeHtml(r.claim)}: ${again ? 'as under the chart above' : escapeHtml(r.rule)}</p>`;
        }),
        ...(chart.differs.length ? [`<p><b>Differs from the article:</b> ${escapeHtml(chart.differs.join('; '))}.</p>`] : []),
      ];
      parts.push(`<figure><img alt="${escapeHtml(chart.title)}" src="${src}">${caption.length ? `<figcaption>${caption.join('')}</figcaption>` : ''}</figure>`);
    }
  }
  return `<section>${parts.join('\n')}</section>`;
}

/** What failed, right under the matrix where a run recorded failures. */
function failuresHtml(model) {
  const runs = model.runs.filter((r) => r.data.failures.length);
  if (!runs.length) return '';
  return `<h2 id="failures">Failures</h2>${runs.map((r) => `<ul>${r.data.failures.map((f) => `<li>${model.runs.length > 1 ? `${escapeHtml(r.label)}: ` : ''}${escapeHtml([f.server, f.scenario, f.step, f.pass ? `pass ${f.pass}` : null].filter(Boolean).join(' · '))}: ${escapeHtml(f.error)}</li>`).join('')}</ul>`).join('')}`;
}

/** The appendix: each run's details, calibration, client path, sizes, failures, collapsed. */
function appendixHtml(model, appendixOf) {
  const parts = ['<h2 id="appendix">Appendix</h2>'];
  for (const run of model.runs) {
    for (const item of appendixOf(run.index)) {
      parts.push(`<details${item.open ? ' open' : ''}><summary>${escapeHtml(item.title)}${model.runs.length > 1 ? ` (${escapeHtml(run.label)})` : ''}</summary>${blocksHtml(item.blocks)}</details>`);
    }
  }
  return `<section class="appendix">${parts.join('\n')}</section>`;
}

/**
 * What the page may load: no script from anywhere, no request, no form; its inline
 * style; images only as data: URIs, or, where a page of several runs points to the charts in
 * their runs' folders, from beside the page (the file system it opens from).
 */
function contentSecurityPolicy(body) {
  const byPath = /<img [^>]*src="(?!data:)/.test(body);
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:${byPath ? " 'self' file:" : ''}; base-uri 'none'; form-action 'none'`;
}

/**
 * The page, from the model, each article's section (sectionsOf(runIndex, scenarioName)), the
 * appendix items (appendixOf(runIndex): [{ title, markdown }]) and the charts drawn for it
 * (charts: [{ file, bytes }], embedded).
 */
function reportHtml({ model, title, sectionsOf, appendixOf, charts = [] }) {
  const drawn = new Map(charts.map(({ file, bytes }) => [file, bytes]));
  const contents = [
    '<a href="#verdicts">verdicts</a>',
    ...model.articles.map((a) => `<a href="#${a.anchor}">${escapeHtml(a.scenario)}</a>`),
    '<a href="#appendix">appendix</a>',
  ];
  const body = `<main>
<div class="top"><h1 id="verdicts">${escapeHtml(title)}</h1><nav class="contents">${contents.join(' ')}</nav></div>
${factsHtml(model)}
${tallyHtml(model)}
${matrixHtml(model)}
${failuresHtml(model)}
${model.articles.map((a) => articleHtml(a, model, sectionsOf, drawn)).join('\n')}
${appendixHtml(model, appendixOf)}
</main>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(body)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * report.html's text of a page (page.js): its sections and its appendix, less what summary.md
 * alone keeps, with the charts drawn for it (charts: the chart exporter's [{ file, bytes }]).
 */
function htmlReport(page, charts = []) {
  const sections = new Map(page.parts.map((p) => [`${p.run.index}|${p.name}`, p.section]));
  return reportHtml({
    model: page.model, title: page.title, charts,
    sectionsOf: (run, name) => sections.get(`${run}|${name}`), appendixOf: (run) => page.appendix.get(run).filter((i) => !i.summary),
  });
}

module.exports = { htmlReport, reportHtml, escapeHtml };
