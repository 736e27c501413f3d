'use strict';
// `orchestrate report DIR [DIR ...]`: summary.md, report.html, verdicts.png and the charts again,
// from results.jsonl alone. Several run folders make one page whose matrix has a column per
// run × server, written to --out (the runs' own folders are left as they are). --format chooses
// which outputs are written (report/exporters.js lists them).
const path = require('node:path');
const { UsageError } = require('../errors');
const { discoverScenarios } = require('../scenarios');
const { hasResults } = require('../results/reader');
const { makeOutDir } = require('./out-dir');
const { EXPORTERS, formatsText } = require('../report/exporters');
const { formatOption, defaultFormats } = require('../report/outputs');

function register(program, { config, log, setResult }) {
  program.command('report <dirs...>')
    .description(`re-render ${formatsText(EXPORTERS)} of a run from its results.jsonl; with several runs, one page of them side by side`)
    .option('--out <dir>', 'with several runs: the folder for the page (default: reports/side-by-side/<A>+<B>...)')
    .option('--screenshot', 'also write first-screen.png, the page\'s first screen at 1400×900, taken by the machine\'s Chromium (CLASSICS_CHROMIUM, else /usr/bin/chromium) through playwright-core, a dependency of the kit')
    .option(...formatOption('report', EXPORTERS))
    .option('--json', 'print the verdicts (verdicts.json) to stdout and nothing else; what it wrote is said on stderr')
    .action(async (dirs, opts) => {
      const { renderReport } = require('../report/render');
      const runDirs = dirs.map((d) => path.resolve(d));
      for (const [i, dir] of runDirs.entries()) {
        if (!hasResults(dir)) throw new UsageError(`${dirs[i]} holds no results.jsonl: give the folder of a run (reports/runs/...)`);
      }
      if (runDirs.length === 1 && opts.out) throw new UsageError('--out is for several runs side by side; one run\'s report is written into its own folder');
      const outDir = runDirs.length === 1 ? runDirs[0]
        : makeOutDir(opts.out || path.join(path.dirname(config.compareDir), 'side-by-side', runDirs.map((d) => path.basename(d)).join('+')));
      const { openHistory } = require('../results/history');
      // the runs kept on this machine: a verdict with enough comparable runs among them is decided across them
      const history = openHistory({ runsDir: config.runsDir });
      // --screenshot adds first-screen.png to what --format chose; --json prints verdicts.json, so writes it too
      const chosen = opts.format || defaultFormats(EXPORTERS);
      const formats = [...new Set([...chosen, ...(opts.screenshot ? ['first-screen.png'] : []), ...(opts.json ? ['verdicts.json'] : [])])];
      const report = await renderReport(runDirs, discoverScenarios(config.shellDir), { outDir, history, formats });
      // warnings go to stderr, as run's do; with --json, stdout holds the verdicts alone
      const say = opts.json ? (line) => process.stderr.write(`${line}\n`) : log;
      for (const p of report.problems) process.stderr.write(`warning: ${p}\n`);
      const relative = path.relative(process.cwd(), outDir) || '.';
      const shown = relative.startsWith('..') ? outDir : relative;
      // a page of several runs draws no chart of its own: --format charts alone writes nothing there
      say(report.files.length ? `wrote ${report.files.map((f) => path.join(shown, f)).join(', ')}` : `wrote nothing to ${shown}: a page of several runs shows the charts each run drew`);
      if (opts.json) process.stdout.write(report.outputs.find((o) => o.file === 'verdicts.json').bytes);
      setResult(0);
    });
}

module.exports = { register };
