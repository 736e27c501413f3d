'use strict';
// `orchestrate compare RUN_A RUN_B`: two runs side by side, cell by cell: read both, build their
// Comparison (analysis/comparison.js), render it (report/compare.js), write its files.
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { hasResults, readRun } = require('../results/reader');
const { writeFileAtomic } = require('../fs-atomic');
const { parseFraction } = require('./parse');
const { makeOutDir } = require('./out-dir');

function register(program, { config, log, setResult }) {
  program.command('compare <runA> <runB>')
    .description('put two runs side by side: per finding and per cell of each scenario\'s tables, B/A, and whether it changed, by the test it names')
    .option('--server-a <name>', 'the server of run A to compare, where it ran on several')
    .option('--server-b <name>', 'the server of run B to compare, where it ran on several')
    // its default is the comparison rule's (analysis/comparison.js), loaded only when compare runs
    .option('--noise <fraction>', 'flag changes past this fraction where a run has no measure of its own noise (default 0.1: ±10%)', parseFraction)
    .option('--out <dir>', 'folder for compare.md and its charts (default: reports/compare/<A>-vs-<B>)')
    .action(async (runA, runB, opts) => {
      for (const dir of [runA, runB]) {
        if (!hasResults(dir)) throw new UsageError(`${dir} holds no results.jsonl: give the folders of two runs`);
      }
      const { buildComparison } = require('../analysis/comparison');
      const { compareExporters, compareSummaryLine } = require('../report/compare');
      const comparison = buildComparison({
        a: readRun(path.resolve(runA)), b: readRun(path.resolve(runB)), scenarios: discoverScenarios(config.shellDir),
        serverA: opts.serverA, serverB: opts.serverB, noise: opts.noise,
        // the kept runs: each verdict's spread between comparable runs, as the report has it
        history: require('../results/history').openHistory({ runsDir: config.runsDir }),
      });
      // runs from two machines: said first, before anything a reader could take as a change
      if (comparison.machines.line) log(comparison.machines.line);
      const name = `${path.basename(path.resolve(runA))}-vs-${path.basename(path.resolve(runB))}`;
      const out = makeOutDir(opts.out || path.join(config.compareDir, name));
      const exporters = compareExporters(comparison);
      for (const { file, render } of exporters) writeFileAtomic(path.join(out, file), await render());
      log(`wrote ${exporters.map(({ file }) => path.join(path.relative(process.cwd(), out) || '.', file)).join(', ')}; ${compareSummaryLine(comparison)}`);
      setResult(0);
    });
}

module.exports = { register };
