'use strict';
// The orchestrate command: builds the commander program; bin/orchestrate.js calls main(argv).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Command, Option, InvalidArgumentError, CommanderError } = require('commander');
const { resolveConfig } = require('./config');
const { ClassicsError, UsageError } = require('./errors');
const { discoverScenarios, selectScenarios, SIZE_NAMES } = require('./scenarios');
const { parseServerSpecs, ACCEPTED } = require('./servers/spec');
const { checkReachable } = require('./servers/start');
const { leaseUserServers } = require('./run/lease');
const { installSignalHandlers, cleanupAll } = require('./processes');
const { createProgress } = require('./run/progress');

function parsePasses(value) {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('Not a whole number of at least 1.');
  return Number(value);
}

function parseFraction(value) {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(n > 0 && n < 10)) throw new InvalidArgumentError('Not a fraction above 0, such as 0.1.');
  return n;
}

function parseSeed(value) {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new InvalidArgumentError('Not a whole number from 0 to 4294967295.');
  return Number(value);
}

function parseSetting(value, previous) {
  const m = /^([A-Z][A-Z0-9_]*)=(\d+)$/.exec(value);
  if (!m) throw new InvalidArgumentError('Not NAME=NUMBER, with NAME a size variable such as DOCS.');
  return { ...previous, [m[1]]: Number(m[2]) };
}

/** Every --set must name a size variable of a chosen scenario. */
function checkOverrides(overrides, scenarios) {
  for (const name of Object.keys(overrides)) {
    const known = new Set(scenarios.flatMap((s) => Object.keys(s.sizes.article).filter((k) => k !== 'passes')));
    if (!known.has(name)) throw new UsageError(`--set ${name}: no chosen scenario has that size variable (they have: ${[...known].sort().join(', ')})`);
  }
}

function collect(value, previous) {
  return previous.concat([value]);
}

function timestamp() {
  return new Date().toISOString().replace(/\..*$/, '').replace(/:/g, '-');
}

/** An --out folder that can be written, or a UsageError. */
function prepareOutDir(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    if (fs.existsSync(path.join(dir, 'results.jsonl'))) {
      throw new UsageError(`--out ${dir} already holds a results.jsonl: choose another folder`);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--out ${dir} cannot be written: ${err.code || err.message}`);
  }
  return dir;
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
      const { passes, ...sizes } = s.sizes[opts.size];
      return `  database ${s.database} (created, then dropped${opts.keepData ? ' unless --keep-data' : ''}): ${Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(' ')}, ${opts.passes ?? passes} pass(es)`;
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

/**
 * --resume DIR: the run's own parameters from its results.jsonl, what each server and scenario
 * already recorded, and the servers to reach again (kept by --keep-data, or given anew for a URI
 * whose password the results do not hold).
 */
function planResume(dir, opts, config) {
  const { readResults } = require('./results/log');
  const { records } = readResults(path.join(dir, 'results.jsonl'));
  const run = records.find((r) => r.type === 'run');
  if (!run) throw new UsageError(`--resume ${dir}: results.jsonl has no run header`);
  const given = new Map(parseServerSpecs(opts.server.length ? opts.server : []).map((s) => [s.name, s]));
  const specs = run.params.servers.map((text) => {
    const recorded = require('./servers/spec').parseServerSpec(text);
    if (recorded.kind === 'uri') {
      const again = given.get(recorded.name);
      if (again) return again;
      if (text.includes('****')) throw new UsageError(`--resume: give server '${recorded.name}' again with --server ${recorded.name}=URI (the results do not keep its password)`);
      return recorded;
    }
    if (!run.params.keepData) {
      throw new UsageError(`--resume: server '${recorded.name}' was started by the kit without --keep-data, so its data is gone; only runs with --keep-data or URI servers can be resumed`);
    }
    return recorded;
  });
  const done = new Map();
  for (const m of records.filter((r) => r.type === 'measurement')) {
    const key = `${m.server}|${m.scenario}`;
    if (!done.has(key)) done.set(key, { steps: new Set(), counts: {} });
    const entry = done.get(key);
    entry.steps.add(`${m.step}|${m.pass}`);
    if (m.collection && Number.isInteger(m.count)) entry.counts[m.collection] = { count: m.count, expectedCount: m.expectedCount, step: m.step, pass: m.pass };
  }
  const p = run.params;
  if ((p.repeat || 1) > 1) throw new UsageError('--resume: runs with --repeat cannot be resumed; run them again');
  return {
    scenarioNames: p.scenarios,
    specs,
    opts: { ...opts, size: p.size, passes: Object.values(p.passes)[0], seed: p.seed ?? undefined, keepData: p.keepData, set: p.overrides || {}, workers: p.workers || opts.workers },
    done,
    runId: records.filter((r) => r.type === 'run' || r.type === 'resume').at(-1).runId,
  };
}

async function runCommand(scenarioNamesGiven, optsGiven, config, log) {
  let scenarioNames = scenarioNamesGiven;
  let opts = optsGiven;
  let resume = null;
  if (opts.resume) {
    if (!fs.existsSync(path.join(opts.resume, 'results.jsonl'))) throw new UsageError(`--resume ${opts.resume}: no results.jsonl there`);
    resume = planResume(path.resolve(opts.resume), opts, config);
    ({ scenarioNames, opts } = resume);
  }
  const warnings = [];
  const scenarios = selectScenarios(discoverScenarios(config.shellDir, config.root), scenarioNames, (w) => warnings.push(w));
  const specs = resume ? resume.specs : parseServerSpecs(opts.server);
  checkOverrides(opts.set, scenarios);
  await checkReachable(specs, config);
  await confirmUserServers(specs, scenarios, opts, log);
  const out = resume ? path.resolve(opts.resume) : prepareOutDir(path.resolve(opts.out || path.join(config.runsDir, timestamp())));
  warnings.forEach((w) => process.stderr.write(`warning: ${w}\n`));
  const runId = `${path.basename(out)}-${process.pid}`;
  const releaseLeases = await leaseUserServers(specs, { runId, serverSelectionTimeoutMs: config.serverSelectionTimeoutMs });
  const { runBenchmarks } = require('./run/steps');
  const { renderRunReport } = require('./report/render');

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
        size: opts.size, passes: opts.passes, seed: opts.seed, keepData: opts.keepData, out, log, runId,
        workers: opts.workers, baselines: opts.baseline, overrides: opts.set, calibrate: opts.calibrate,
        repeat: opts.repeat, warmup: opts.warmup,
        resume: resume && { done: resume.done },
        registerInterrupt: (fn) => {
          interrupt = async (signal) => {
            progress.stop();
            fn(signal);
            // what was measured before the signal still gets its summary and charts
            await renderRunReport(out, scenarios).then(
              () => log(`wrote what was measured so far to ${out}/summary.md`),
              (err) => log(`could not render the report: ${err.message}`));
          };
        },
      },
    });
    const report = await renderRunReport(out, scenarios);
    log(`wrote ${report.files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}`);
    if (failures) log(`${failures} step(s) failed: see the Failures section of summary.md`);
    return failures ? 1 : 0;
  } finally {
    progress.stop();
    await releaseLeases();
    await cleanupAll();
    removeHandlers();
  }
}

async function reportCommand(dir, config, log) {
  const { renderRunReport } = require('./report/render');
  const runDir = path.resolve(dir);
  if (!fs.existsSync(path.join(runDir, 'results.jsonl'))) {
    throw new UsageError(`${dir} holds no results.jsonl: give the folder of a run (reports/runs/...)`);
  }
  const report = await renderRunReport(runDir, discoverScenarios(config.shellDir, config.root));
  for (const p of report.problems) log(`warning: ${p}`);
  log(`wrote ${report.files.map((f) => path.join(dir, f)).join(', ')}`);
  return 0;
}

async function figuresCommand(opts, config, log) {
  const { renderFigures } = require('./report/figures');
  const out = path.resolve(opts.out || config.figuresDir);
  try { fs.mkdirSync(out, { recursive: true }); fs.accessSync(out, fs.constants.W_OK); } catch (err) {
    throw new UsageError(`--out ${opts.out} cannot be written: ${err.code || err.message}`);
  }
  const files = await renderFigures(out, discoverScenarios(config.shellDir, config.root));
  log(`wrote ${files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}`);
  return 0;
}

/** Starts one server and keeps it until Ctrl-C, so a user can paste the scripts into mongosh. */
async function serveCommand(specText, config, log) {
  const { startServer } = require('./servers/start');
  const [spec] = parseServerSpecs([specText || 'embedded']);
  if (spec.kind === 'uri') throw new UsageError('serve starts a server: give embedded, mongod, mongod@VERSION, ferretdb or ferretdb-pg');
  const logDir = require('./processes').makeTempDir('classics-serve-logs-');
  const stopped = new Promise((resolve) => { installSignalHandlers(resolve); });
  const server = await startServer(spec, { config, logDir, log });
  log(`${spec.name}: ${server.description} at ${server.uri}`);
  log(`try: npx mongosh ${server.uri} --eval 'var DOCS=1001' --file shell/power-of-2-sizes/setup.js`);
  log('Ctrl-C stops it and removes its data.');
  await stopped;
  return 0;
}

async function compareCommand(runA, runB, opts, config, log) {
  for (const dir of [runA, runB]) {
    if (!fs.existsSync(path.join(dir, 'results.jsonl'))) throw new UsageError(`${dir} holds no results.jsonl: give the folders of two runs`);
  }
  const { compareRuns } = require('./report/compare');
  const out = path.resolve(opts.out || path.join(config.root, 'reports', 'compare', `${path.basename(path.resolve(runA))}-vs-${path.basename(path.resolve(runB))}`));
  const { files, flagged } = await compareRuns({
    dirA: path.resolve(runA), dirB: path.resolve(runB), out, scenarios: discoverScenarios(config.shellDir, config.root),
    serverA: opts.serverA, serverB: opts.serverB, noise: opts.noise,
  });
  log(`wrote ${files.map((f) => path.join(path.relative(process.cwd(), out) || '.', f)).join(', ')}; ${flagged} cell(s) changed past ±${Math.round(opts.noise * 100)}%`);
  return 0;
}

function listCommand(config, log) {
  const scenarios = discoverScenarios(config.shellDir, config.root);
  for (const s of scenarios) {
    log(`${s.name}: ${s.title}`);
    for (const size of SIZE_NAMES) log(`  ${size.padEnd(7)} ${Object.entries(s.sizes[size]).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  }
  for (const b of scenarios.broken) log(`${b.name}: BROKEN: ${b.problem}`);
  return scenarios.broken.length ? 1 : 0;
}

function buildProgram(config, log, setResult) {
  const program = new Command('orchestrate')
    .description('Replays classic MongoDB benchmark articles on today\'s servers, beside the published numbers.')
    .version(require('../package.json').version)
    .exitOverride();

  program.command('run [scenario...]', { isDefault: true })
    .description('run scenarios (all by default) on each server, then write summary.md and the charts')
    .option('--passes <n>', 'passes of each scenario\'s repeated step (default: the size\'s, 21 for power-of-2-sizes)', parsePasses)
    .addOption(new Option('--server <spec>', `a server to run on, repeatable: ${ACCEPTED}`).argParser(collect).default([], 'embedded'))
    .addOption(new Option('--size <size>', 'how much of the article\'s workload to run').choices(SIZE_NAMES).default('quick'))
    .option('--out <dir>', 'folder for results.jsonl, summary.md and charts (default: reports/runs/<timestamp>)')
    .option('--seed <n>', 'draw the scripts\' random numbers from a seeded generator (default: Math.random)', parseSeed)
    .addOption(new Option('--workers <n>', 'shells for the parallel steps').argParser(parsePasses).default(os.cpus().length, 'the machine\'s cores'))
    .option('--no-baseline', 'skip the SQL baselines (the log-inserts article\'s SQL Server row)')
    .addOption(new Option('--set <NAME=N>', 'override one size variable of the chosen size, repeatable (e.g. --set DOCS=2001)').argParser(parseSetting).default({}, 'none'))
    .addOption(new Option('--repeat <k>', 'run each scenario K times on each server and report the median, min, max and CV').argParser(parsePasses).default(1))
    .option('--no-warmup', 'with --repeat, count the first run too (by default it warms up and is not counted)')
    .option('--no-calibrate', 'skip measuring the harness overhead on each server')
    .option('--keep-data', 'leave the kit\'s databases on the server after the run')
    .option('--resume <dir>', 'continue the run in DIR where it stopped (its servers must have kept their data)')
    .option('-y, --yes', 'write to servers the kit did not start without asking')
    .action(async (names, opts) => setResult(await runCommand(names, opts, config, log)));

  program.command('report <dir>')
    .description('re-render summary.md and the charts of a run from its results.jsonl')
    .action(async (dir) => setResult(await reportCommand(dir, config, log)));

  program.command('compare <runA> <runB>')
    .description('put two runs side by side: per cell of each scenario\'s tables, B/A, flagged past the noise you allow')
    .option('--server-a <name>', 'the server of run A to compare, where it ran on several')
    .option('--server-b <name>', 'the server of run B to compare, where it ran on several')
    .option('--noise <fraction>', 'flag changes past this fraction (default 0.1: ±10%)', parseFraction, 0.1)
    .option('--out <dir>', 'folder for compare.md and its charts (default: reports/compare/<A>-vs-<B>)')
    .action(async (runA, runB, opts) => setResult(await compareCommand(runA, runB, opts, config, log)));

  program.command('figures')
    .description('render the articles\' own figures from their published tables, without a server')
    .option('--out <dir>', 'folder for the figures (default: reports/figures)')
    .action(async (opts) => setResult(await figuresCommand(opts, config, log)));

  program.command('serve [spec]')
    .description('start one server (default: embedded) and keep it until Ctrl-C, to paste the scripts into mongosh')
    .action(async (spec) => setResult(await serveCommand(spec, config, log)));

  program.command('list')
    .description('list the scenarios and their sizes')
    .action(() => setResult(listCommand(config, log)));
  return program;
}

/** Runs the CLI; resolves to the exit code. Errors are one line; DEBUG=classics:* adds the stack. */
async function main(argv, { env = process.env, log = (line) => process.stdout.write(`${line}\n`) } = {}) {
  // `orchestrate list | head` closes the pipe early: that is not an error
  process.stdout.on('error', (err) => { if (err.code === 'EPIPE') process.exit(0); });
  const config = resolveConfig(env);
  let result = 0;
  const program = buildProgram(config, log, (code) => { result = code; });
  try {
    await program.parseAsync(argv);
    return result;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has printed its message already
      return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code) ? 0 : 2;
    }
    const debugOn = /classics/.test(env.DEBUG || '');
    if (err instanceof ClassicsError) {
      process.stderr.write(`${err.name}: ${err.message}\n`);
      if (debugOn) process.stderr.write(`${err.stack}\n`);
      await cleanupAll();
      return err.exitCode;
    }
    process.stderr.write(`error: ${err.message}\n`);
    if (debugOn) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write('(set DEBUG=classics:* for the stack)\n');
    await cleanupAll();
    return 1;
  }
}

module.exports = { main, parsePasses, parseSeed };
