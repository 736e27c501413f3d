'use strict';
// The articles' own figures from their published tables, with no server: figures.md and the
// charts, each an exporter (outputs.js) over the scenarios' article models.
const fs = require('node:fs');
const { pivotTable, toMarkdown, tableGroups } = require('./tables');
const { scenarioCharts, renderChart, captionMarkdown } = require('./charts');
const { articleModel } = require('../analysis/run-model');
const { oneFile, writeRendered } = require('./outputs');

/** What the figures are drawn from: per scenario, its article model and its charts (configs, not drawn). */
function figuresPage(scenarios) {
  return scenarios.map((scenario) => {
    const model = articleModel(scenario);
    // the article's values as it printed them (no run, so nothing to normalise)
    return { scenario, model, charts: scenarioCharts(model, []) };
  });
}

/** figures.md: each article's published tables, then its charts with the rule under each. */
function figuresMarkdown(page) {
  const parts = ['# The articles\' published figures', 'Drawn from each scenario\'s published.json, as the articles printed them.'];
  for (const { scenario, model, charts } of page) {
    const { published } = model;
    parts.push(`## ${scenario.name}: ${scenario.title}`, `“${scenario.article.title}” (${scenario.article.site}, ${scenario.article.year}); ${published.server}.`);
    for (const { spec, article } of model.tables) {
      const columns = spec.columns.filter((c) => c.published || c.publishedOnly).map((c) => ({ ...c, published: false, publishedOnly: false }));
      if (!columns.length) continue;
      parts.push(`**${spec.title}**`, toMarkdown(pivotTable({ ...spec, columns }, article.selected, [], tableGroups(scenario, spec))));
    }
    for (const chart of charts) {
      parts.push(`![${chart.title}](${chart.file})`);
      const caption = captionMarkdown(chart);
      if (caption) parts.push(caption);
    }
  }
  return `${parts.join('\n\n')}\n`;
}

/** The PNG of every scenario's charts. */
async function figureCharts(page) {
  const out = [];
  for (const { charts } of page) {
    for (const chart of charts) out.push({ file: chart.file, bytes: await renderChart(chart.config) });
  }
  return out;
}

/** The figures' exporters, in the order written. */
const FIGURE_EXPORTERS = [
  oneFile('figures.md', figuresMarkdown),
  { format: 'charts', render: figureCharts },
];

/** Writes the chosen figures (formats: default all) into outDir; returns the files written. */
async function renderFigures(outDir, scenarios, formats) {
  fs.mkdirSync(outDir, { recursive: true });
  return (await writeRendered(FIGURE_EXPORTERS, figuresPage(scenarios), formats, outDir)).map((o) => o.file);
}

module.exports = { renderFigures, FIGURE_EXPORTERS };
