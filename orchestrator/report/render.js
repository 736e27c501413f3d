'use strict';
// summary.md, report.html, verdicts.png, the charts, results.csv and verdicts.json of a run, from
// results.jsonl alone (and the scenarios' descriptors and published data), so `orchestrate report
// DIR` gives what the run itself wrote: each run is read and analysed once, into its run model
// (analysis/run-model.js); the page is built from those once (page.js); every output is an
// exporter over the page (exporters.js), written here.
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { readRunModel } = require('../analysis/run-model');
const { buildPage } = require('./page');
const { EXPORTERS, outputsOf } = require('./exporters');

const READ_FIRST = ['summary.md', 'report.html', 'verdicts.png'];
const readFirst = (file) => (READ_FIRST.includes(file) ? READ_FIRST.indexOf(file) : READ_FIRST.length);

/**
 * Writes every output into outDir for one run or several side by side (draw: whether the charts
 * are drawn; several runs show those each drew); returns what it wrote, any problems reading the
 * runs, the failures they recorded and the page's model. history: the history store
 * (results/history.js openHistory), where each verdict's interval may be taken across runs.
 */
async function renderReport(runDirs, scenarios, { outDir = runDirs[0], draw = runDirs.length === 1, history = null } = {}) {
  const page = buildPage(runDirs.map((dir) => readRunModel(dir, scenarios, history)), scenarios, { outDir, draw });
  const files = [];
  for (const exporter of EXPORTERS) {
    for (const { file, bytes } of await outputsOf(exporter, page)) {
      writeFileAtomic(path.join(outDir, file), bytes);
      files.push(file);
    }
  }
  // said with what a reader opens first (the summary, the page, the picture), then the data and the charts as written
  files.sort((a, b) => readFirst(a) - readFirst(b));
  const problems = page.runs.flatMap((r) => r.data.problems.map((p) => (page.many ? `${r.label}: ${p}` : p)));
  const failures = page.runs.reduce((n, r) => n + r.data.failures.length, 0);
  return { files, problems, failures, model: page.model };
}

/** Writes every output of the run in runDir into it; returns what it wrote and any problems. */
function renderRunReport(runDir, scenarios, { history = null } = {}) {
  return renderReport([runDir], scenarios, { history });
}

module.exports = { renderRunReport, renderReport };
