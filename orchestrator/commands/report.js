'use strict';
// `orchestrate report DIR`: summary.md, report.html and the charts again, from results.jsonl alone.
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { hasResults } = require('../results/reader');

function register(program, { config, log, setResult }) {
  program.command('report <dir>')
    .description('re-render summary.md, report.html and the charts of a run from its results.jsonl')
    .action(async (dir) => {
      const { renderRunReport } = require('../report/render');
      const runDir = path.resolve(dir);
      if (!hasResults(runDir)) throw new UsageError(`${dir} holds no results.jsonl: give the folder of a run (reports/runs/...)`);
      const report = await renderRunReport(runDir, discoverScenarios(config.shellDir));
      for (const p of report.problems) log(`warning: ${p}`);
      log(`wrote ${report.files.map((f) => path.join(dir, f)).join(', ')}`);
      setResult(0);
    });
}

module.exports = { register };
