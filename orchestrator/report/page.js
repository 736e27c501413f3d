'use strict';
// What every output of a report is rendered from: the run models (analysis/run-model.js), the
// page's model of them (model.js: the matrix of findings × servers), each scenario's part as data
// (scenario-section.js) and each run's appendix (run-appendix.js). Built once per report; the
// exporters (exporters.js) only turn it into bytes. It reads no file: which charts a run's folder
// holds is handed to it (render.js lists the folders).
const path = require('node:path');
const { buildReportModel } = require('./model');
const { scenarioSection } = require('./scenario-section');
const { appendixItems } = require('./run-appendix');

/** Where a page finds a chart another run's folder holds: its path from the page's folder, as a URL path. */
const hrefOf = (outDir, file) => path.relative(outDir, file).split(path.sep).map(encodeURIComponent).join('/');

/**
 * The page of one run or of several side by side. runModels: each run's model; outDir: where the
 * outputs go; draw: whether the charts are drawn (one run), else those already drawn in each
 * run's folder are shown (inFolders: Map run folder → the file names it holds). Returns { model,
 * scenarios, runs, title, many, outDir, draw, parts, appendix }: parts in the page's order, each
 * { run, name, section } (section null where the kit has no such scenario), each section's charts
 * those the page shows (file: its name; href, where not drawn: where the page finds it in its run's folder).
 */
function buildPage(runModels, scenarios, { outDir, draw, inFolders = new Map() }) {
  const model = buildReportModel(runModels, scenarios);
  const many = model.runs.length > 1;
  const title = many ? `mongo-classics: ${model.runs.map((r) => r.label).join(', ')}` : `mongo-classics run ${model.runs[0].label}`;
  const parts = [];
  for (const run of model.runs) {
    for (const name of run.data.run.params.scenarios) {
      const sm = run.scenarioModels.get(name);
      if (!sm) { parts.push({ run, name, section: null }); continue; }
      const section = scenarioSection(sm, run.data.run, run.data.servers);
      // a page of several runs shows the charts each run drew in its own folder
      const charts = draw ? section.charts
        : section.charts.filter((c) => inFolders.get(run.dir)?.has(c.file)).map((c) => ({ ...c, href: hrefOf(outDir, path.join(run.dir, c.file)) }));
      parts.push({ run, name, section: { ...section, charts } });
    }
  }
  const appendix = new Map(model.runs.map((r) => [r.index, appendixItems(r)]));
  return { model, scenarios, runs: model.runs, title, many, outDir, draw, parts, appendix };
}

module.exports = { buildPage };
