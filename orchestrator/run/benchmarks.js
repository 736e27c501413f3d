'use strict';
// The main job: for each server in turn, what the shell adds there (calibration), then each
// scenario's steps, every measurement appended to results.jsonl the moment it is taken, then the
// scenarios' baselines. A failure is recorded and the run goes on with the next scenario or
// server; the exit code says whether anything failed.
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { startServer, describeServer } = require('../servers/start');
const { ResultsLog } = require('../results/writer');
const { RESULTS_FILE } = require('../results/reader');
const { describeTestBed } = require('./test-bed');
const { runBaseline } = require('./baseline');
const { claimDatabase } = require('./ownership');
const { measureCalibration, programAnchor } = require('./calibration');
const { builtCompiledClient } = require('./compiled-client');
const { runScenario, scenarioPlan, repetitions, safeFileName, errorText } = require('./steps');
const { ResumeMismatchError } = require('../errors');
const { SHELLS } = require('./shells');

/** Puts what the shell adds per operation on this server into the results, for every report. */
async function calibrate({ server, client, options, results, progress, logDir, config }) {
  const ops = options.calibrationOps || 100;
  progress.startStep(`${server.name} · calibration`);
  try {
    await claimDatabase(client, config.databases.calibration, { prefix: config.dbPrefix, runId: options.runId });
  } catch (err) {
    // a user who may not write the calibration database still gets the scenarios' numbers
    progress.endStep('skipped');
    options.log(`${server.name}: no calibration (${errorText(err)})`);
    return;
  }
  // the compiled client where npm run bench has built it: a C client's cost beside the shells'
  const compiled = builtCompiledClient(config);
  const anchors = compiled ? { compiled: programAnchor('compiled client', compiled) } : {};
  const { perOp, anchors: anchored, calls } = await measureCalibration({
    log: (line) => options.log(line),
    uri: server.uri, client, ops, rounds: 2, server: server.name, shells: SHELLS, anchors, lean: options.lean, database: config.databases.calibration,
    logFile: path.join(logDir, safeFileName(`${server.name}-calibration.log`)),
  });
  results.append({
    type: 'calibration', server: server.name, ops, rounds: 2, shell: options.shell, shells: SHELLS, anchors: anchored, perOp,
    ...(calls ? { calls } : {}),
  });
  progress.endStep(Object.entries(perOp).map(([t, o]) => `${t} ×${o.ratio[options.shell].toFixed(2)}`).join(', '));
}

async function runOnServer({ spec, scenarios, options, results, progress, logDir, config }) {
  let server;
  try {
    const keepDir = options.keepData && spec.kind !== 'uri' ? path.join(options.out, 'servers', safeFileName(spec.name)) : null;
    server = await startServer(spec, { config, logDir, log: options.log, keepDir, progress });
  } catch (err) {
    results.append({ type: 'failure', server: spec.name, step: 'start', error: errorText(err) });
    options.log(`FAILED to start ${spec.name}: ${errorText(err)}`);
    return 1;
  }
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs });
  let failures = 0;
  try {
    const info = await describeServer(client, server);
    Object.assign(server, info);
    results.append({ type: 'server', server: server.name, spec: server.spec, kind: server.kind, description: server.description, startedByKit: server.started, ...info });
    options.log(`${server.name}: ${info.product} ${info.version}${info.engine ? ` on ${info.engine}` : ''}`);
    if (options.calibrate !== false && !options.resume) await calibrate({ server, client, options, results, progress, logDir, config });
    for (const scenario of scenarios) {
      const plan = scenarioPlan(scenario, options.size, options.passes, options.overrides);
      try {
        for (const repetition of repetitions(options)) {
          failures += await runScenario({ scenario, server, client, plan, options, results, progress, logDir, config, repetition });
        }
      } catch (err) {
        if (options.isInterrupted?.()) break;
        if (err instanceof ResumeMismatchError) throw err; // the whole resume is refused
        failures += 1;
        results.append({ type: 'failure', scenario: scenario.name, server: server.name, step: 'scenario', error: errorText(err) });
        options.log(`FAILED ${server.name} · ${scenario.name}: ${errorText(err)}`);
      }
    }
  } catch (err) {
    if (err instanceof ResumeMismatchError) throw err;
    failures += 1;
    results.append({ type: 'failure', server: server.name, step: 'server', error: errorText(err) });
    options.log(`FAILED on ${server.name}: ${errorText(err)}`);
  } finally {
    await client.close().catch(() => {});
    await server.stop();
  }
  return failures;
}

/** The run header: what was asked for, and the test bed it ran on. */
function runHeader({ scenarios, specs, options }) {
  return {
    type: 'run',
    runId: options.runId,
    startedAt: new Date().toISOString(),
    params: {
      scenarios: scenarios.map((s) => s.name),
      servers: specs.map((s) => s.spec),
      size: options.size,
      passes: Object.fromEntries(scenarios.map((s) => [s.name, scenarioPlan(s, options.size, options.passes).passes])),
      sizes: Object.fromEntries(scenarios.map((s) => [s.name, scenarioPlan(s, options.size, options.passes, options.overrides).sizes])),
      overrides: options.overrides || {},
      seed: options.seed ?? null,
      workers: options.workers,
      shell: options.shell,
      // the kit's shell's client path: on, its lean path where it covers a call; off, the driver for every call
      lean: options.shell === 'kit' ? options.lean || 'on' : null,
      repeat: options.repeat || 1,
      warmup: (options.repeat || 1) > 1 && options.warmup !== false,
      keepData: Boolean(options.keepData),
    },
    ...describeTestBed({ shell: options.shell }),
  };
}

/** Runs every scenario on every server; returns { failures, resultsFile }. */
async function runBenchmarks({ scenarios, specs, options, config, progress }) {
  fs.mkdirSync(options.out, { recursive: true });
  const logDir = path.join(options.out, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const results = new ResultsLog(path.join(options.out, RESULTS_FILE));
  const state = { interrupted: false };
  options.isInterrupted = () => state.interrupted;
  options.registerInterrupt?.((signal) => {
    state.interrupted = true;
    results.append({ type: 'end', finishedAt: new Date().toISOString(), status: 'interrupted', signal });
    results.close();
  });
  const started = Date.now();
  options.runId = options.runId || `${path.basename(options.out)}-${process.pid}`;
  results.append(options.resume
    ? { type: 'resume', runId: options.runId, startedAt: new Date().toISOString(), ...describeTestBed({ shell: options.shell }) }
    : runHeader({ scenarios, specs, options }));
  let failures = 0;
  for (const spec of specs) {
    if (state.interrupted) break;
    failures += await runOnServer({ spec, scenarios, options, results, progress, logDir, config });
  }
  for (const scenario of scenarios.filter((s) => s.baseline && options.baselines !== false)) {
    if (state.interrupted) break;
    const { sizes } = scenarioPlan(scenario, options.size, options.passes, options.overrides);
    failures += await runBaseline({ scenario, sizes, options, results, progress, logDir, config });
  }
  if (!state.interrupted) {
    results.append({
      type: 'end', finishedAt: new Date().toISOString(), status: failures ? 'failed' : 'ok', failures,
      wallMs: Date.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024,
    });
    results.close();
  }
  return { failures, resultsFile: results.file };
}

module.exports = { runBenchmarks };
