'use strict';
// `orchestrate figures`: the articles' own figures from their published tables, with no server.
const path = require('node:path');
const { discoverScenarios } = require('../scenarios');
const { makeOutDir } = require('./out-dir');

function register(program, { config, log, setResult }) {
  program.command('figures')
    .description('render the articles\' own figures from their published tables, without a server')
    .option('--out <dir>', 'folder for the figures (default: reports/figures)')
    .action(async (opts) => {
      const { renderFigures } = require('../report/figures');
      const out = makeOutDir(opts.out || config.figuresDir);
      const files = await renderFigures(out, discoverScenarios(config.shellDir));
      log(`wrote ${files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}`);
      setResult(0);
    });
}

module.exports = { register };
