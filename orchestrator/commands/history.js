'use strict';
// `orchestrate history [finding...]`: each finding's ratio and interval in every run of the
// history (reports/runs/* and the folders --runs adds), grouped by machine and by server, versions
// in order, then by time, with the change points compare's test finds; history.html and
// history.png in --out. results/history.js opens the store, analysis/history.js analyses each run
// as the report does, report/history.js renders.
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { makeOutDir } = require('./out-dir');

function register(program, { config, log, setResult }) {
  program.command('history [findings...]')
    .description('each finding\'s ratio and 95% interval in every kept run (reports/runs/* and --runs), by machine and server version, then by time, with where it changed; writes history.html and history.png')
    .option('--runs <dirs...>', 'more run folders, or folders of them (runs copied from another machine), read with those in reports/runs')
    .option('--out <dir>', 'folder for history.html and history.png (default: reports/history)')
    .option('--json', 'print the history as JSON to stdout and nothing else; what it wrote is said on stderr')
    .action(async (findings, opts) => {
      const { openHistory } = require('../results/history');
      const { runHistory, findingHistories } = require('../analysis/history');
      const { historyLines, historyJson, HISTORY_EXPORTERS } = require('../report/history');
      const { writeRendered } = require('../report/outputs');
      const scenarios = discoverScenarios(config.shellDir);
      const known = new Set(scenarios.flatMap((s) => (s.loadPublished().findings || []).map((f) => f.id)));
      const unknown = findings.filter((f) => !known.has(f));
      if (unknown.length) throw new UsageError(`no finding ${unknown.map((f) => `'${f}'`).join(', ')} in any scenario (npx orchestrate list names them)`);
      const store = openHistory({ runsDir: config.runsDir, added: opts.runs || [] });
      if (!store.runs.length) throw new UsageError(`no run in ${config.runsDir}${opts.runs ? ' or in the folders --runs gave' : ''}: run a scenario first, or give run folders with --runs`);
      const history = runHistory(store, scenarios);
      const histories = findingHistories(history.entries({ findings }));
      const out = makeOutDir(opts.out || config.historyDir);
      const written = await writeRendered(HISTORY_EXPORTERS, { histories, problems: history.problems }, undefined, out);
      const shown = path.relative(process.cwd(), out) || '.';
      const wrote = `wrote ${written.map(({ file }) => path.join(shown, file)).join(', ')} (${store.runs.length} run(s), ${histories.length} finding(s))`;
      if (opts.json) {
        process.stdout.write(historyJson(histories, history.problems));
        process.stderr.write(`${wrote}\n`);
      } else {
        for (const line of historyLines(histories, history.problems)) log(line);
        log(wrote);
      }
      setResult(0);
    });
}

module.exports = { register };
