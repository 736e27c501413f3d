'use strict';
// Text from a server, a script's output, a log, a server's name or a run folder, encoded for the
// context it is placed in (OWASP's output-encoding rule), so none of it becomes markup: HTML text
// and attributes (escapeHtml), a line of markdown or a table cell (markdownText). The page
// renders no markdown: what summary.md and report.html both say is held as blocks (blocks.js),
// each written in its own form, a run's words escaped for each.

const HTML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML, in an element or a quoted attribute. */
function escapeHtml(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML[c]);
}

/**
 * Text for markdown, shown as exactly that text by any CommonMark or GFM renderer: on one line
 * (a line break would let it start a heading, a list or a code block), every character that can
 * open markup backslash-escaped (HTML, emphasis, code, strikethrough, table cells, entities, the
 * bracket that closes a link or an image), and the GFM autolinks (http://, www., an e-mail
 * address) broken by an escape.
 */
function markdownText(text) {
  return String(text ?? '')
    .replace(/[\r\n\u0085\u2028\u2029]+/g, ' ')
    .replace(/[\\`*_<>|~&#@]/g, '\\$&')
    // a bracket opens a link or an image only where "](" or "][" closes it (no reference is ever
    // defined: a definition would need a line of its own); "[min–max]" stays as it reads
    .replace(/\](?=[([])/g, '\\]')
    .replace(/:\/\//g, '\\://')
    .replace(/\b(www)\./gi, '$1\\.')
    // what opens a block where the text starts a line: "- ", "+ ", "1. ", "> ", "=" and "-" underlines
    .replace(/^(\s*)(>|\[|[-+=*](?=[\s\-+=*]|$))/, '$1\\$2')
    .replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

module.exports = { escapeHtml, markdownText };
