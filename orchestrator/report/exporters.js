'use strict';
// Every output of a report, in one list (hyperfine's src/export/: one exporter per format, each
// turning the same results into bytes): { file, render(page) → text or bytes }, or for the
// charts, whose files depend on the run, { render(page) → [{ file, bytes }] }. Each renders the
// page (page.js) alone: none reads what another wrote. In the order they are written: the data
// first, so what was measured leaves the kit even if a chart cannot be drawn; the charts before
// report.html, which embeds them.
const csv = require('../export/csv');
const verdictsJson = require('../export/verdicts-json');
const summaryMd = require('./summary-md');
const { renderChart } = require('./charts');
const { htmlReport } = require('./html');
const { verdictsPng } = require('./verdicts-png');

/** The PNG of every chart of a run's page, where the page draws them (one run). */
async function chartFiles(page) {
  if (!page.draw) return [];
  const out = [];
  for (const { section } of page.parts) {
    for (const chart of section?.charts || []) out.push({ file: chart.file, bytes: await renderChart(chart.config) });
  }
  return out;
}

const EXPORTERS = [
  { file: csv.FILE, render: csv.render },
  { file: verdictsJson.FILE, render: verdictsJson.render },
  { render: chartFiles },
  { file: summaryMd.FILE, render: summaryMd.render },
  { file: 'report.html', render: htmlReport },
  { file: 'verdicts.png', render: (page) => verdictsPng(page.model, page.title) },
];

/** What an exporter makes of a page: [{ file, bytes }]. */
async function outputsOf(exporter, page) {
  return exporter.file ? [{ file: exporter.file, bytes: await exporter.render(page) }] : exporter.render(page);
}

module.exports = { EXPORTERS, outputsOf };
