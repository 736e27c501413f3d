'use strict';
// The exports: each format in a small file of its own that renders the same read runs into
// bytes (hyperfine's src/export/), written beside the report by every run and every
// `orchestrate report`: results.csv (every measured figure, long format) and verdicts.json (the
// verdicts as data, from orchestrator/analysis/), each { FILE, render({ runs, scenarios, model }) }.
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');

const EXPORTERS = [require('./csv'), require('./verdicts-json')];

/**
 * Writes every export into outDir; returns the files' names. runs: [{ label, data }] (data:
 * readRun's answer); model: the report model, for exports of what the report decided.
 */
function writeExports(outDir, { runs, scenarios, model = null }) {
  return EXPORTERS.map((exporter) => {
    writeFileAtomic(path.join(outDir, exporter.FILE), exporter.render({ runs, scenarios, model }));
    return exporter.FILE;
  });
}

module.exports = { writeExports, EXPORTERS };
