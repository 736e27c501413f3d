'use strict';
// summary.md, report.html, verdicts.png, the charts, results.csv and verdicts.json of a run, from
// results.jsonl alone (and the scenarios' descriptors and published data), so `orchestrate report
// DIR` gives what the run itself wrote: each run is read and analysed once, into its run model
// (analysis/run-model.js); the page is built from those once (page.js); every output is an
// exporter over the page (exporters.js), rendered in memory and written here (outputs.js).
const fs = require('node:fs');
const { readRunModel } = require('../analysis/run-model');
const { buildPage } = require('./page');
const { EXPORTERS } = require('./exporters');
const { writeRendered } = require('./outputs');

/** Where a file is said among those written: what a reader opens first (an exporter's `read`), then the rest as written. */
const READ_ORDER = new Map(EXPORTERS.filter((e) => e.read).map((e) => [e.format, e.read]));
const readOrder = (output) => READ_ORDER.get(output.format) ?? READ_ORDER.size + 1;

/** The file names a run's folder holds (none where it cannot be read): the charts it drew, for a page of several runs. */
function filesIn(dir) {
  try {
    return new Set(fs.readdirSync(dir));
  } catch {
    return new Set();
  }
}

/**
 * Writes the chosen outputs (formats: default all but the optional; exporters.js) into outDir for
 * one run or several side by side (draw: whether the charts are drawn; several runs show those
 * each drew); returns what it wrote (files, and outputs: [{ file, bytes, format }]), any problems
 * reading the runs, the failures they recorded and the page's model. history: the history store
 * (results/history.js openHistory), where each verdict's interval may be taken across runs.
 */
async function renderReport(runDirs, scenarios, { outDir = runDirs[0], draw = runDirs.length === 1, history = null, formats } = {}) {
  const runModels = runDirs.map((dir) => readRunModel(dir, scenarios, history));
  const inFolders = draw ? new Map() : new Map(runModels.map((r) => [r.dir, filesIn(r.dir)]));
  const page = buildPage(runModels, scenarios, { outDir, draw, inFolders });
  const outputs = await writeRendered(EXPORTERS, page, formats, outDir);
  // said with what a reader opens first (the summary, the page, the picture), then the data and the charts as written
  const files = [...outputs].sort((a, b) => readOrder(a) - readOrder(b)).map((o) => o.file);
  const problems = page.runs.flatMap((r) => r.data.problems.map((p) => (page.many ? `${r.label}: ${p}` : p)));
  const failures = page.runs.reduce((n, r) => n + r.data.failures.length, 0);
  return { files, outputs, problems, failures, model: page.model };
}

/** Writes the chosen outputs (default: every one but the optional) of the run in runDir into it; returns what it wrote and any problems. */
function renderRunReport(runDir, scenarios, { history = null, formats } = {}) {
  return renderReport([runDir], scenarios, { history, formats });
}

module.exports = { renderRunReport, renderReport };
