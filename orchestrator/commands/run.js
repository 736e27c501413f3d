'use strict';
// `orchestrate [run] [scenario...]`: the main job. Checks everything a user can get wrong before
// anything starts (scenarios, servers, overrides, the output folder, consent to write to a user's
// server), then hands over to run/ and renders the report, also after Ctrl-C.
const os = require('node:os');
const path = require('node:path');
const { Option } = require('commander');
const { UsageError } = require('../errors');
const { discoverScenarios, selectScenarios, SIZE_CHOICES } = require('../scenarios');
const { parseServerSpecs, ACCEPTED } = require('../servers/spec');
const { checkReachable } = require('../servers/start');
const { leaseUserServers } = require('../run/lease');
const { planResume } = require('../run/resume');
const { createProgress } = require('../run/progress');
const { SHELLS, DEFAULT_SHELL } = require('../run/shells');
const { installSignalHandlers, cleanupAll, openRunState } = require('../processes');
const { reapDeadRuns } = require('../run-state');
const { retractOkEnd } = require('../results/writer');
const { DiskWriteError } = require('../errors');
const { hasResults } = require('../results/reader');
const { parsePasses, parseRounds, parseSeed, parseSetting, parseBudget, collect } = require('./parse');
const { formatDuration } = require('../sizing/duration');
const { DEFAULT_BUDGET_SECONDS } = require('../config');
const { makeOutDir, timestamp } = require('./out-dir');
const { DECIDED, STATUSES } = require('../analysis/rules');
const { EXPORTERS, formatsText } = require('../report/exporters');
const { formatOption } = require('../report/outputs');

/** Every --set must name a size variable of a chosen scenario. */
function checkOverrides(overrides, scenarios) {
  const known = new Set(scenarios.flatMap((s) => Object.keys(s.sizes.article).filter((k) => k !== 'passes')));
  for (const name of Object.keys(overrides)) {
    if (!known.has(name)) throw new UsageError(`--set ${name}: no chosen scenario has that size variable (they have: ${[...known].sort().join(', ')})`);
  }
}

/** A new run's folder: made, writable, and not already holding a run. */
function prepareOutDir(dir) {
  if (hasResults(dir)) throw new UsageError(`--out ${dir} already holds a results.jsonl: choose another folder`);
  return makeOutDir(dir);
}

/**
 * Before writing to a server it did not start, the kit says where and how much, and asks; with
 * no terminal to ask on, it stops unless --yes was given.
 */
async function confirmUserServers(specs, scenarios, opts, log) {
  const userServers = specs.filter((s) => s.kind === 'uri');
  if (!userServers.length || opts.yes) return;
  const lines = [
    `The kit will write to ${userServers.map((s) => `'${s.spec}'`).join(', ')}:`,
    ...scenarios.map((s) => {
      const where = `  database ${s.database} (created, then dropped${opts.keepData ? ' unless --keep-data' : ''})`;
      if (opts.size === 'auto') {
        const upTo = Object.entries(s.sizes.article).filter(([k]) => k !== 'passes').map(([k, v]) => `${k}=${opts.set[k] ?? v}`).join(' ');
        return `${where}: first a few short probes, then the largest size predicted to fit ${formatDuration(opts.budget)}, at most ${upTo}`;
      }
      const { passes, ...sizes } = s.sizes[opts.size];
      return `${where}: ${Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(' ')}, ${opts.passes ?? passes} pass(es)`;
    }),
  ];
  if (!process.stdin.isTTY) {
    throw new UsageError(`${lines.join(' ').replace(/\s+/g, ' ')} -- no terminal to ask on: add --yes to go ahead`);
  }
  lines.forEach((l) => log(l));
  const readline = require('node:readline/promises');
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  const answer = await rl.question('Go ahead? [y/N] ');
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError('stopped: nothing was written');
}

/** --budget and --size-per-server belong to --size auto: given with a named size, they would do nothing. */
function checkSizeOptions(opts, given) {
  if (opts.size === 'auto') return;
  for (const [option, flag] of [['budget', '--budget'], ['sizePerServer', '--size-per-server']]) {
    if (given(option)) throw new UsageError(`${flag} applies to --size auto; --size ${opts.size} runs the sizes its name gives`);
  }
}

/** The verdicts' tally as the report's model counted them (its tally chips), decided ones first. */
// a status said of several findings: "3 do not hold", "2 need a larger size"
const PLURAL = { holds: 'hold', 'holds, weaker': 'hold, weaker', 'does not hold': 'do not hold', 'needs a larger size': 'need a larger size' };
function tallyLine(tally) {
  const part = (s) => `${tally[s]} ${tally[s] === 1 ? s : PLURAL[s] || s}`;
  const decided = DECIDED.reduce((n, s) => n + (tally[s] || 0), 0);
  const others = STATUSES.filter((s) => !DECIDED.includes(s) && tally[s]).map(part);
  if (!decided && !others.length) return 'no finding was judged';
  const shown = DECIDED.filter((s) => tally[s]).map(part);
  return [`${decided} decided${shown.length ? `: ${shown.join(' · ')}` : ''}`, ...others].join('; ');
}

/** A path a user can copy: relative to the working folder where it lies below it. */
function shownPath(file) {
  const rel = path.relative(process.cwd(), file);
  return !rel ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}

/**
 * The run's last lines, what a person reads first at the end: the folder (each file with
 * --verbose), failed steps, the tally of the verdicts, then report.html to open, as hyperfine ends
 * on its result.
 */
function endingLines(report, out, { verbose = false, failures = 0 } = {}) {
  const folder = shownPath(out);
  const lines = [];
  if (verbose) lines.push(`wrote ${report.files.map((f) => path.join(folder, f)).join(', ')}`);
  else {
    const named = ['summary.md', 'results.csv', 'verdicts.json'].filter((f) => report.files.includes(f));
    const more = report.files.filter((f) => f !== 'report.html' && !named.includes(f)).length;
    const listed = more ? `${named.join(', ')} and ${more} more file${more === 1 ? '' : 's'}` : named.join(', ');
    lines.push(`in ${path.join(folder, path.sep)}: ${listed} (--verbose names each)`);
  }
  if (failures) lines.push(`${failures} step(s) failed: see the Failures section of summary.md`);
  lines.push(tallyLine(report.model.tally));
  if (report.files.includes('report.html')) lines.push(`open: ${path.join(folder, 'report.html')}`);
  return lines;
}

async function runCommand(namesGiven, optsGiven, { config, log, given = () => false }) {
  let names = namesGiven;
  let opts = optsGiven;
  // what a killed run left (its servers still serving, its folders, a kept cluster's lock) goes first
  reapDeadRuns(config.stateDir).forEach((line) => log(line));
  if (!opts.resume) checkSizeOptions(opts, given);
  let resume = null;
  if (opts.resume) {
    if (!hasResults(opts.resume)) throw new UsageError(`--resume ${opts.resume}: no results.jsonl there`);
    resume = planResume(path.resolve(opts.resume), opts);
    ({ scenarioNames: names, opts } = resume);
  }
  const warnings = [];
  const scenarios = selectScenarios(discoverScenarios(config.shellDir), names, (w) => warnings.push(w));
  if (opts.shell !== 'kit' && opts.lean === 'off') throw new UsageError('--lean off: the lean path is the kit\'s shell\'s; mongosh has none (drop --lean, or use --shell kit)');
  const specs = resume ? resume.specs : parseServerSpecs(opts.server);
  checkOverrides(opts.set, scenarios);
  await checkReachable(specs, config);
  await confirmUserServers(specs, scenarios, opts, log);
  const out = resume ? path.resolve(opts.resume) : prepareOutDir(path.resolve(opts.out || path.join(config.runsDir, timestamp())));
  warnings.forEach((w) => process.stderr.write(`warning: ${w}\n`));
  const runId = resume ? resume.runId : `${path.basename(out)}-${process.pid}`;
  try {
    openRunState(config.stateDir, { runId, out });
  } catch (err) {
    process.stderr.write(`warning: cannot record what this run starts in ${config.stateDir} (${err.code || err.message}): should it be killed, \`orchestrate clean\` will not find what it left\n`);
  }
  const releaseLeases = await leaseUserServers(specs, { runId, serverSelectionTimeoutMs: config.serverSelectionTimeoutMs });
  const { runBenchmarks } = require('../run/benchmarks');
  const { renderRunReport } = require('../report/render');
  const { openHistory } = require('../results/history');
  // the runs kept on this machine: a verdict with enough comparable runs among them is decided across them
  const history = () => openHistory({ runsDir: config.runsDir });

  let interrupt = () => {};
  const removeHandlers = installSignalHandlers((signal) => interrupt(signal));
  const progress = createProgress();
  try {
    log(`results: ${path.relative(process.cwd(), out) || '.'}/results.jsonl`);
    const { failures } = await runBenchmarks({
      scenarios,
      specs,
      config,
      progress,
      options: {
        size: opts.size, budgetSeconds: opts.budget, sizePerServer: opts.sizePerServer, passes: opts.passes, seed: opts.seed, keepData: opts.keepData, out, log, runId,
        workers: opts.workers, baselines: opts.baseline, overrides: opts.set, calibrate: opts.calibrate, reuse: opts.reuse,
        repeat: opts.repeat, warmup: opts.warmup, warmupBlocks: opts.warmupBlocks, shell: opts.shell, lean: opts.lean, rounds: opts.rounds,
        resume: resume && { done: resume.done, sizes: resume.sizes, calibrations: resume.calibrations, from: resume.from },
        registerInterrupt: (fn) => {
          interrupt = async (signal) => {
            progress.stop();
            fn(signal);
            // what was measured before the signal still gets its summary and charts
            await renderRunReport(out, scenarios, { history: history(), formats: opts.format }).then(
              (report) => [
                `wrote what was measured so far to ${shownPath(out)}`, tallyLine(report.model.tally),
                ...(report.files.includes('report.html') ? [`open: ${path.join(shownPath(out), 'report.html')}`] : []),
              ].forEach((l) => log(l)),
              (err) => log(`could not render the report: ${err.message}`));
          };
        },
      },
    });
    let report;
    try {
      report = await renderRunReport(out, scenarios, { history: history(), formats: opts.format });
    } catch (err) {
      // the results are whole; their end record must not say "ok" of a run whose outputs are not
      if (err instanceof DiskWriteError) retractOkEnd(path.join(out, 'results.jsonl'), err.message);
      throw err;
    }
    // a record the report could not read (one that breaks its schema) is said, as report says it
    for (const p of report.problems) process.stderr.write(`warning: ${p}\n`);
    endingLines(report, out, { verbose: opts.verbose, failures }).forEach((line) => log(line));
    return failures ? 1 : 0;
  } finally {
    progress.stop();
    await releaseLeases();
    await cleanupAll();
    removeHandlers();
  }
}

function register(program, { config, log, setResult }) {
  const scenarios = discoverScenarios(config.shellDir);
  const repeating = scenarios.filter((s) => s.passesOption).map((s) => `${s.sizes.article.passes} for ${s.name}`);
  program.command('run [scenario...]', { isDefault: true })
    .description(`run scenarios (all by default) on each server, recording each measurement in results.jsonl, then write ${formatsText(EXPORTERS)}`)
    .option('--passes <n>', `passes of the scenarios that repeat a pass (default: the size's${repeating.length ? `; the article's: ${repeating.join(', ')}` : ''})`, parsePasses)
    .addOption(new Option('--server <spec>', `a server to run on, repeatable: ${ACCEPTED}`).argParser(collect).default([], 'embedded'))
    .addOption(new Option('--shell <shell>', 'the shell that runs the scripts and takes the timings').choices(SHELLS).default(DEFAULT_SHELL))
    .addOption(new Option('--lean <on|off>', 'the kit\'s shell\'s lean path for the single-document writes and reads; off sends every call through the driver').choices(['on', 'off']).default('on'))
    .addOption(new Option('--size <size>', 'how much of the article\'s workload to run: auto, the largest part predicted to fit --budget (up to the article\'s), or a size each scenario lists').choices(SIZE_CHOICES).default('auto'))
    .addOption(new Option('--budget <duration>', 'with --size auto: the time each scenario\'s steps may take on one server (90s, 5m, 1m30s)').argParser(parseBudget).default(DEFAULT_BUDGET_SECONDS, formatDuration(DEFAULT_BUDGET_SECONDS)))
    .option('--size-per-server', 'with --size auto: each server runs a scenario at its own largest fit (by default one size for all, the largest that fits on each)')
    .option('--out <dir>', 'folder for results.jsonl, summary.md and charts (default: reports/runs/<timestamp>)')
    .option(...formatOption('run', EXPORTERS))
    .option('--seed <n>', 'draw the scripts\' random numbers from a seeded generator (default: Math.random)', parseSeed)
    .addOption(new Option('--workers <n>', 'shells for the parallel steps').argParser(parsePasses).default(os.cpus().length, 'the machine\'s cores'))
    .option('--no-baseline', 'skip the scenarios\' baselines on other databases (a SQL store)')
    .addOption(new Option('--set <NAME=N>', 'override one size variable of the chosen size, repeatable (e.g. --set DOCS=2001)').argParser(parseSetting).default({}, 'none'))
    .option('--rounds <n>', 'paired rounds each comparison is cut into, its variants interleaved in a drawn order (default: the scenario\'s, else 8; a verdict needs 8 pairs, from rounds × repeats)', parseRounds)
    .addOption(new Option('--repeat <k>', 'run each scenario K times on each server: the tables show the median, min, max and CV, and every run\'s rounds add pairs to the verdicts').argParser(parsePasses).default(1))
    .option('--no-warmup', 'with --repeat, count the first run too (by default it warms up and is not counted)')
    .option('--no-warmup-blocks', 'run no warm-up round before each comparison\'s round 1 (by default a block of every variant is run first, recorded and not counted)')
    .option('--no-calibrate', 'skip measuring what the shell adds per operation on each server')
    .option('--no-reuse', 'calibrate and probe afresh, without checking the figures an earlier run on this machine, server and kit kept (the fresh ones are kept)')
    .option('--keep-data', 'leave the kit\'s databases on the server after the run')
    .option('--resume <dir>', 'continue the run in DIR where it stopped (its servers must have kept their data)')
    .option('-y, --yes', 'write to servers the kit did not start without asking')
    .option('--verbose', 'end by naming every file written (by default: the folder, the tally of the verdicts and report.html)')
    .action(async (names, opts, command) => setResult(await runCommand(names, opts, { config, log, given: (o) => command.getOptionValueSource(o) === 'cli' })));
}

module.exports = { register, checkOverrides, endingLines, tallyLine };
