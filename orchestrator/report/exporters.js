'use strict';
// Every output of a report, in one list (outputs.js: one exporter per format, each turning the
// same page into bytes, hyperfine's src/export/). Each renders the page (page.js) alone and reads
// no file: report.html embeds the charts' bytes as rendered here, never as written. In the order
// they are written: the data first, so what was measured leaves the kit even if a chart cannot be
// drawn; the charts before report.html, which embeds them; first-screen.png, report.html's first
// screen in Chromium, only when asked for. A new format is one entry here.
const { oneFile } = require('./outputs');

// each exporter's module is loaded when it renders: a command lists its formats without loading canvas
const csv = (page) => require('../export/csv').render(page);
const verdictsJson = (page) => require('../export/verdicts-json').render(page);
const summaryMd = (page) => require('./summary-md').render(page);
const htmlReport = (page, charts) => require('./html').htmlReport(page, charts);
const verdictsPng = (model, title) => require('./verdicts-png').verdictsPng(model, title);

/** The PNG of every chart of a run's page, where the page draws them (one run). */
async function chartFiles(page) {
  if (!page.draw) return [];
  const { renderChart } = require('./charts');
  const out = [];
  for (const { section } of page.parts) {
    for (const chart of section?.charts || []) out.push({ file: chart.file, bytes: await renderChart(chart.config) });
  }
  return out;
}

/** first-screen.png from report.html's bytes, in Chromium (loaded only when asked for). */
async function firstScreen(page, rendered) {
  const { screenshotHtml } = require('./screenshot');
  return screenshotHtml(rendered.get('report.html')[0].bytes, page.outDir);
}

const EXPORTERS = [
  oneFile('results.csv', csv),
  oneFile('verdicts.json', verdictsJson),
  { format: 'charts', render: chartFiles },
  // read: where a file is named among the first a reader opens (the summary, the page, the picture)
  oneFile('summary.md', summaryMd, { read: 1 }),
  oneFile('report.html', (page, rendered) => htmlReport(page, rendered.get('charts')), { needs: ['charts'], read: 2 }),
  oneFile('verdicts.png', (page) => verdictsPng(page.model, page.title), { read: 3 }),
  oneFile('first-screen.png', firstScreen, { needs: ['report.html'], optional: true }),
];

/** The default formats in words, for the commands' descriptions: "results.csv, verdicts.json, the charts, … and verdicts.png". */
function formatsText(exporters) {
  const words = exporters.filter((e) => !e.optional).map((e) => (e.format === 'charts' ? 'the charts' : e.format));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join('');
}

module.exports = { EXPORTERS, formatsText };
