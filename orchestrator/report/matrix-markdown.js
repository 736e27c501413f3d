'use strict';
// summary.md's verdicts: the report model's matrix as a markdown table (the verdict word and the
// measured ratio beside the article's), each reason said once, as a numbered note.
const { STATUSES, NOT_RUN } = require('./model');
const { markdownText: md } = require('./escape');

/** Numbers each distinct reason once, in the order the matrix meets them. */
function reasonNotes(rows, columns) {
  const notes = new Map();
  for (const row of rows) {
    for (const col of columns) {
      const cell = row.cells[col.key];
      if (cell?.reason && !notes.has(cell.reason)) notes.set(cell.reason, notes.size + 1);
    }
  }
  return notes;
}

function cellText(cell, notes) {
  if (!cell) return '–';
  if (cell.status === NOT_RUN) return NOT_RUN;
  // the ratio with its 95% interval and the pairs it rests on: "1.62× (1.41–1.88×, n=8)"
  const ratio = cell.estimateText && cell.estimateText !== '–' ? ` ${md(cell.estimateText)}` : '';
  const mechanism = cell.mechanism ? `, ${md(cell.mechanism)}` : '';
  // [n] points to a note; no reference definition is ever written, so it stays text
  const note = cell.reason ? ` [${notes.get(cell.reason)}]` : '';
  return `**${md(cell.status)}**${mechanism}${ratio}${note}`;
}

/** The matrix, its tally and its notes as markdown. */
function matrixMarkdown(model) {
  const { columns } = model;
  const rows = [...model.articles.flatMap((a) => [...a.rows, ...(a.foldedRow ? [a.foldedRow] : [])]), ...model.kitRows];
  if (!rows.length) return '';
  if (!columns.length) return '## Verdicts\n\nNo server was measured in this run, so no finding could be judged: see the failures below.';
  const notes = reasonNotes(rows, columns);
  const header = ['article', 'finding', 'article\'s figure', ...columns.map((c) => `${c.name} (${c.sub})`)];
  // each cell is markdown: the kit's words in bold or italics, what the run's records say (servers' names, reasons) as text
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const body = rows.map((row) => line([
    md(row.scenario), `${row.kit ? '*the kit\'s question:* ' : ''}${md(row.claim)}`, md(row.article.text || '–'), ...columns.map((c) => cellText(row.cells[c.key], notes)),
  ]));
  const tally = STATUSES.filter((s) => model.tally[s]).map((s) => `${model.tally[s]} ${s}`).join(' · ');
  return [
    '## Verdicts',
    `${tally ? `${tally}. ` : ''}Each cell: the verdict, the measured ratio (the finding's figure, as its rule computes it) with its 95% interval and the pairs it rests on, and a note saying why. A finding holds only where its whole interval is of the article's order (at least the square root of its figure, on a log scale) or, for "about N×", inside the band around N; *holds, weaker* is an interval wholly past no effect in the article's direction but short of that; *does not hold* is an interval wholly at no effect or the other way, or past an "about" band; *inconclusive* is an interval across a threshold or inside a rule's margin, or fewer pairs than a verdict needs (one reading per side decides nothing); *needs a larger size* names what would reach the size the finding needs; *cannot be tested here* gives the reason, with what was measured instead; *published only* is a finding about what no server today runs. The kit's own questions are not the articles' claims. Each rule is in the appendix, and each article's section gives the evidence.`,
    [line(header.map(md)), `| ${header.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`, ...body].join('\n'),
    ...(notes.size ? [`Notes:\n${[...notes].map(([text, n]) => `${n}. ${md(text)}`).join('\n')}`] : []),
  ].join('\n\n');
}

module.exports = { matrixMarkdown };
