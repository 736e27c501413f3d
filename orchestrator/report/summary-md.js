'use strict';
// summary.md: the run's facts, the matrix of verdicts, each scenario's tables and charts with
// their captions, and the appendix, in markdown, from the page (page.js). Text from a run folder
// goes in as text (markdownText), never as markup.
const { toMarkdown } = require('./tables');
const { captionMarkdown } = require('./charts');
const { markdownText: md } = require('./escape');
const { matrixMarkdown } = require('./matrix-markdown');
const { blocksMarkdown, inlineMarkdown } = require('./blocks');

const blockMarkdown = (b) => blocksMarkdown([b]);

/** What failed, where a run recorded failures: a section of its own, right after the verdicts. */
function failuresMarkdown(model) {
  return model.runs.filter((r) => r.data.failures.length).map((r) => [
    `## Failures${model.runs.length > 1 ? ` (${r.label})` : ''}`,
    r.data.failures.map((f) => `- ${md([f.server, f.scenario, f.step, f.pass ? `pass ${f.pass}` : null].filter(Boolean).join(' · '))}: ${md(f.error)}`).join('\n'),
  ].join('\n\n'));
}

/** One scenario's part (section: scenario-section.js); label: its run's, on a page of several. */
function scenarioMarkdown({ name, section }, label) {
  const of = label ? ` (${md(label)})` : '';
  if (!section) return `## ${md(name)}${of}\n\n_This kit has no scenario named ${md(name)}; its results are in results.jsonl._`;
  const { scenario, published } = section;
  const parts = [
    `## ${scenario.name}: ${scenario.title}${of}`,
    `Article: “${scenario.article.title}”${scenario.article.gloss ? ` (“${scenario.article.gloss}”)` : ''} (${scenario.article.site}, ${scenario.article.year}). Published on ${published.server}.`,
    section.introMarkdown,
  ];
  for (const s of section.servers) {
    // the kit's name for the server beside its real one, as the run's options and results.jsonl name it
    parts.push(`### ${md(s.server)}: ${md(s.name)}`, ...[...s.notes, s.once].filter(Boolean).map(blockMarkdown));
    for (const t of s.tables) parts.push(`**${t.title}**`, toMarkdown(t));
    parts.push(...[s.counts, s.serverTime].filter(Boolean).map(blockMarkdown));
  }
  if (!section.servers.length) parts.push('_No measurement of this scenario was recorded._');
  for (const chart of section.charts) {
    parts.push(`![${chart.title}](${chart.file})`);
    const caption = captionMarkdown(chart);
    if (caption) parts.push(caption);
  }
  return parts.join('\n\n');
}

/** summary.md's text of a page. */
function summaryMarkdown(page) {
  const { model, many } = page;
  const parts = [
    `# ${md(page.title)}`,
    ...model.runs.map((r) => `${many ? `**${md(r.label)}**: ` : ''}${[r.facts.date, r.facts.machine, r.facts.kit, r.facts.size, r.facts.shell].map(md).join(' · ')}${r.data.servers.length ? ` · ${r.data.servers.map((s) => md(s.nameWithAlias)).join(', ')}` : ''} · ${md(r.facts.busy)}.`),
    ...model.runs.flatMap((r) => r.notes.map((t) => (many ? `${md(r.label)}: ${inlineMarkdown(t)}` : inlineMarkdown(t)))),
    matrixMarkdown(model),
    ...failuresMarkdown(model),
    ...page.parts.map((part) => scenarioMarkdown(part, many ? part.run.label : null)),
    '## Appendix',
    ...model.runs.flatMap((r) => page.appendix.get(r.index).filter((i) => !i.page).map((i) => `### ${md(i.title)}${many ? ` (${md(r.label)})` : ''}\n\n${blocksMarkdown(i.blocks)}`)),
  ];
  return `${parts.join('\n\n')}\n`;
}

module.exports = { render: summaryMarkdown };
