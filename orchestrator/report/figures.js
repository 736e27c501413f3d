'use strict';
// The articles' own figures from their published tables, with no server.
const fs = require('node:fs');
const path = require('node:path');
const { pivotTable, toMarkdown, tableGroups } = require('./tables');
const { chartConfig, renderChart } = require('./charts');

async function renderFigures(outDir, scenarios) {
  fs.mkdirSync(outDir, { recursive: true });
  const parts = ['# The articles\' published figures', 'Drawn from each scenario\'s published.json, as the articles printed them.'];
  const files = [];
  for (const scenario of scenarios) {
    const published = scenario.loadPublished();
    parts.push(`## ${scenario.name}: ${scenario.title}`, `“${scenario.article.title}” (${scenario.article.site}, ${scenario.article.year}); ${published.server}.`);
    for (const spec of scenario.tables) {
      const columns = spec.columns.filter((c) => c.published || c.publishedOnly).map((c) => ({ ...c, published: false, publishedOnly: false }));
      if (!columns.length) continue;
      parts.push(`**${spec.title}**`, toMarkdown(pivotTable({ ...spec, columns }, published.records, [], tableGroups(scenario, spec))));
    }
    for (const chart of scenario.charts) {
      const file = `${scenario.name}-${chart.id}.png`;
      const config = chartConfig({ spec: chart, measured: new Map(), published: published.records, groups: chart.groups || scenario.collections, sameScale: true, subtitle: 'the article\'s published values' });
      if (!config.data.datasets.length) continue; // the article printed no values for this chart
      fs.writeFileSync(path.join(outDir, file), await renderChart(config));
      files.push(file);
      parts.push(`![${chart.title}](${file})`);
    }
  }
  fs.writeFileSync(path.join(outDir, 'figures.md'), `${parts.join('\n\n')}\n`);
  return ['figures.md', ...files];
}

module.exports = { renderFigures };
