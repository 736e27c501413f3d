'use strict';
// `orchestrate compare RUN_A RUN_B`: two runs side by side, cell by cell.
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { hasResults } = require('../results/reader');
const { parseFraction } = require('./parse');
const { makeOutDir } = require('./out-dir');

function register(program, { config, log, setResult }) {
  program.command('compare <runA> <runB>')
    .description('put two runs side by side: per cell of each scenario\'s tables, B/A, flagged past the noise you allow')
    .option('--server-a <name>', 'the server of run A to compare, where it ran on several')
    .option('--server-b <name>', 'the server of run B to compare, where it ran on several')
    .option('--noise <fraction>', 'flag changes past this fraction (default 0.1: ±10%)', parseFraction, 0.1)
    .option('--out <dir>', 'folder for compare.md and its charts (default: reports/compare/<A>-vs-<B>)')
    .action(async (runA, runB, opts) => {
      for (const dir of [runA, runB]) {
        if (!hasResults(dir)) throw new UsageError(`${dir} holds no results.jsonl: give the folders of two runs`);
      }
      const { compareRuns } = require('../report/compare');
      const name = `${path.basename(path.resolve(runA))}-vs-${path.basename(path.resolve(runB))}`;
      const out = makeOutDir(opts.out || path.join(config.compareDir, name));
      const { files, flagged } = await compareRuns({
        dirA: path.resolve(runA), dirB: path.resolve(runB), out, scenarios: discoverScenarios(config.shellDir),
        serverA: opts.serverA, serverB: opts.serverB, noise: opts.noise,
      });
      log(`wrote ${files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}; ${flagged} cell(s) changed past ±${Math.round(opts.noise * 100)}%`);
      setResult(0);
    });
}

module.exports = { register };
