'use strict';
// Text the report says in both summary.md and report.html, held as data (paragraphs, lists,
// tables, and inside them what is the kit's own words, a run's words, bold, code and emphasis),
// so each writes it in its own form and neither parses the other's: summary.md as markdown,
// report.html as HTML, a run's words escaped for each (escape.js).
//
// An inline part is a string (a run's words: a server's, a script's, a name), { say } (the kit's
// own words, which hold no markup), { strong: [parts] }, { code } or { em }. A block is
// { lines: [[parts], ...] } (a paragraph, a line each), { list: [[parts], ...] }, { lead: [parts],
// list } (a list right under its line), or { table: { header, rows }, align? } (a cell: parts;
// align: each column's 'left' or 'right' in the markdown's tight |---|---:| rule, which the
// servers' and the verdicts' tables keep; without it, the tables' own form, tables.js).
const { markdownText, escapeHtml } = require('./escape');
const { toMarkdown } = require('./tables');

const partsOf = (x) => [].concat(x);

function inlineMarkdown(parts) {
  return partsOf(parts).map((p) => {
    if (p === null || typeof p !== 'object') return markdownText(p);
    if (p.say !== undefined) return p.say;
    if (p.strong !== undefined) return `**${inlineMarkdown(p.strong)}**`;
    if (p.code !== undefined) return `\`${p.code}\``;
    return `*${p.em}*`;
  }).join('');
}

function inlineHtml(parts) {
  return partsOf(parts).map((p) => {
    if (p === null || typeof p !== 'object') return escapeHtml(p);
    if (p.say !== undefined) return escapeHtml(p.say);
    if (p.strong !== undefined) return `<strong>${inlineHtml(p.strong)}</strong>`;
    if (p.code !== undefined) return `<code>${escapeHtml(p.code)}</code>`;
    return `<em>${escapeHtml(p.em)}</em>`;
  }).join('');
}

/** A table with its columns' alignment in a tight rule (|---|---:|), its cells parts. */
function alignedTableMarkdown({ header, rows }, align) {
  const line = (cells) => `| ${cells.map(inlineMarkdown).join(' | ')} |`;
  return [line(header), `|${align.map((a) => (a === 'right' ? '---:' : '---')).join('|')}|`, ...rows.map(line)].join('\n');
}

/** A table in HTML, its cells parts; align as a table block's (the page's tables put numbers right, the first column left). */
function tableHtml({ header, rows }, align = null) {
  const td = (c, i) => (i > 0 && align?.[i] === 'left' ? `<td class="text">${inlineHtml(c)}</td>` : `<td>${inlineHtml(c)}</td>`);
  return `<div class="tablewrap"><table class="data"><thead><tr>${header.map((h) => `<th>${inlineHtml(h)}</th>`).join('')}</tr></thead>`
    + `<tbody>${rows.map((r) => `<tr>${r.map(td).join('')}</tr>`).join('')}</tbody></table></div>`;
}

function blockMarkdown(b) {
  const list = (items) => items.map((item) => `- ${inlineMarkdown(item)}`).join('\n');
  if (b.lines) return b.lines.map(inlineMarkdown).join('\n');
  if (b.lead) return `${inlineMarkdown(b.lead)}\n${list(b.list)}`;
  if (b.list) return list(b.list);
  return b.align ? alignedTableMarkdown(b.table, b.align) : toMarkdown(b.table);
}

function blockHtml(b) {
  const list = (items) => `<ul>${items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</ul>`;
  if (b.lines) return `<p>${b.lines.map(inlineHtml).join('<br>')}</p>`;
  if (b.lead) return `<p>${inlineHtml(b.lead)}</p>${list(b.list)}`;
  if (b.list) return list(b.list);
  return tableHtml(b.table, b.align);
}

/** Blocks as markdown, a blank line between two. */
const blocksMarkdown = (blocks) => blocks.map(blockMarkdown).join('\n\n');

/** Blocks as HTML. */
const blocksHtml = (blocks) => blocks.map(blockHtml).join('\n');

module.exports = { blocksMarkdown, blocksHtml, inlineMarkdown, inlineHtml, tableHtml };
