'use strict';
// `orchestrate figures`: the articles' own figures from their published tables, with no server;
// --format chooses figures.md, the charts or both (report/figures.js).
const path = require('node:path');
const { discoverScenarios } = require('../scenarios');
const { makeOutDir } = require('./out-dir');
const { formatOption } = require('../report/outputs');
const { FIGURE_EXPORTERS, renderFigures } = require('../report/figures');

function register(program, { config, log, setResult }) {
  program.command('figures')
    .description('render the articles\' own figures from their published tables, without a server')
    .option('--out <dir>', 'folder for the figures (default: reports/figures)')
    .option(...formatOption('figures', FIGURE_EXPORTERS))
    .action(async (opts) => {
      const out = makeOutDir(opts.out || config.figuresDir);
      const files = await renderFigures(out, discoverScenarios(config.shellDir), opts.format);
      log(`wrote ${files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}`);
      setResult(0);
    });
}

module.exports = { register };
