'use strict';
// The articles' own figures from their published tables, with no server.
const fs = require('node:fs');
const { writeFileAtomic } = require('../fs-atomic');
const path = require('node:path');
const { pivotTable, toMarkdown, tableGroups } = require('./tables');
const { renderScenarioCharts, captionMarkdown } = require('./charts');
const { articleModel } = require('../analysis/run-model');

async function renderFigures(outDir, scenarios) {
  fs.mkdirSync(outDir, { recursive: true });
  const parts = ['# The articles\' published figures', 'Drawn from each scenario\'s published.json, as the articles printed them.'];
  const files = [];
  for (const scenario of scenarios) {
    const model = articleModel(scenario);
    const { published } = model;
    parts.push(`## ${scenario.name}: ${scenario.title}`, `“${scenario.article.title}” (${scenario.article.site}, ${scenario.article.year}); ${published.server}.`);
    for (const { spec, article } of model.tables) {
      const columns = spec.columns.filter((c) => c.published || c.publishedOnly).map((c) => ({ ...c, published: false, publishedOnly: false }));
      if (!columns.length) continue;
      parts.push(`**${spec.title}**`, toMarkdown(pivotTable({ ...spec, columns }, article.selected, [], tableGroups(scenario, spec))));
    }
    // the article's values as it printed them (no run, so nothing to normalise), with the rule under each
    for (const chart of await renderScenarioCharts(model, [], outDir)) {
      files.push(chart.file);
      parts.push(`![${chart.title}](${chart.file})`);
      const caption = captionMarkdown(chart);
      if (caption) parts.push(caption);
    }
  }
  writeFileAtomic(path.join(outDir, 'figures.md'), `${parts.join('\n\n')}\n`);
  return ['figures.md', ...files];
}

module.exports = { renderFigures };
