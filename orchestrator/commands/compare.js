'use strict';
// `orchestrate compare RUN_A RUN_B`: two runs side by side, cell by cell: read each into its run
// model (analysis/run-model.js, as the report reads it), build their Comparison
// (analysis/comparison.js), render it (report/compare.js's exporters), write the chosen outputs.
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { hasResults } = require('../results/reader');
const { parseFraction } = require('./parse');
const { makeOutDir } = require('./out-dir');
const { formatOption, writeRendered } = require('../report/outputs');
const { COMPARE_EXPORTERS, compareSummaryLine } = require('../report/compare');

function register(program, { config, log, setResult }) {
  program.command('compare <runA> <runB>')
    .description('put two runs side by side: per finding and per cell of each scenario\'s tables, B/A, and whether it changed, by the test it names')
    .option('--server-a <name>', 'the server of run A to compare, where it ran on several')
    .option('--server-b <name>', 'the server of run B to compare, where it ran on several')
    // its default is the comparison rule's (analysis/comparison.js), loaded only when compare runs
    .option('--noise <fraction>', 'flag changes past this fraction where a run has no measure of its own noise (default 0.1: ±10%)', parseFraction)
    .option('--out <dir>', 'folder for compare.md and its charts (default: reports/compare/<A>-vs-<B>)')
    .option(...formatOption('compare', COMPARE_EXPORTERS))
    .action(async (runA, runB, opts) => {
      for (const dir of [runA, runB]) {
        if (!hasResults(dir)) throw new UsageError(`${dir} holds no results.jsonl: give the folders of two runs`);
      }
      const { readRunModel } = require('../analysis/run-model');
      const { buildComparison } = require('../analysis/comparison');
      const scenarios = discoverScenarios(config.shellDir);
      // the kept runs: each verdict's spread between comparable runs, as the report has it
      const history = require('../results/history').openHistory({ runsDir: config.runsDir });
      const comparison = buildComparison({
        a: readRunModel(path.resolve(runA), scenarios, history), b: readRunModel(path.resolve(runB), scenarios, history),
        scenarios, serverA: opts.serverA, serverB: opts.serverB, noise: opts.noise,
      });
      // runs from two machines: said first, before anything a reader could take as a change
      if (comparison.machines.line) log(comparison.machines.line);
      const name = `${path.basename(path.resolve(runA))}-vs-${path.basename(path.resolve(runB))}`;
      const out = makeOutDir(opts.out || path.join(config.compareDir, name));
      const written = await writeRendered(COMPARE_EXPORTERS, comparison, opts.format, out);
      log(`wrote ${written.map(({ file }) => path.join(path.relative(process.cwd(), out) || '.', file)).join(', ')}; ${compareSummaryLine(comparison)}`);
      setResult(0);
    });
}

module.exports = { register };
