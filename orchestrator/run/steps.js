'use strict';
// The main job: for each server in turn, each scenario's steps in order, every measurement
// appended to results.jsonl the moment it is taken. A failure is recorded and the run goes on
// with the next scenario or server; the exit code says whether anything failed.
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { startServer, describeServer } = require('../servers/start');
const { redactUri } = require('../servers/spec');
const { runMongoshScript } = require('./mongosh');
const { readCollectionStats, readLatencyStats } = require('./stats');
const { ResultsLog } = require('../results/log');
const { describeTestBed } = require('./test-bed');
const { runSqlBaseline } = require('./baseline');
const { claimDatabase, markDatabase, dropOwnedDatabase } = require('./ownership');
const { measureHarnessOverhead, CALIBRATION_DB } = require('./calibration');
const { ResumeMismatchError } = require('../errors');

/** The script variables and pass count a scenario runs with at a size. */
function scenarioPlan(scenario, size, passesOverride, overrides = {}) {
  const sizes = { ...scenario.sizes[size] };
  for (const [k, v] of Object.entries(overrides)) if (k in sizes && k !== 'passes') sizes[k] = v;
  // --passes applies where the article itself repeated a pass; elsewhere passes are the size's
  const passes = (scenario.passesOption && passesOverride) || sizes.passes;
  const steps = scenario.steps.map((step) => ({
    ...step,
    // constants pick what a shared script does in this step (log-inserts' LOOP); params are sizes
    vars: { ...(step.constants || {}), ...Object.fromEntries((step.params || []).map((p) => [p, sizes[p]])) },
    passes: step.repeat === 'once' ? [0] : Array.from({ length: passes }, (_, i) => i + 1),
  }));
  return { passes, steps, sizes };
}

function safeFileName(text) {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

/**
 * Runs a step's script once, or, for a step with `workers`, as that many shells at once: each
 * gets WORKER, WORKERS and START_AT (a wall-clock instant all of them wait for, so shell
 * start-up is not timed) and prints its own line with startedAt/endedAt. Lines of one key are
 * combined: ms spans the first start to the last end; counts are summed.
 */
async function runStepScript({ scenario, step, server, vars, logFile, progress, options, results }) {
  const run = (extra, suffix = '') => runMongoshScript({
    uri: server.uri,
    file: scenario.scriptPath(step),
    vars: { ...vars, ...extra },
    server: server.name,
    logFile: logFile.replace(/\.log$/, `${suffix}.log`),
    onProgress: suffix ? () => {} : (done, total) => progress.update(done, total),
  });
  if (!step.workers) return (await run({})).measurements;

  const workers = step.workers === 'cores' ? options.workers : step.workers;
  const startAt = Date.now() + 3000 + 400 * workers;
  const outputs = await Promise.all(Array.from({ length: workers }, (_, i) => run({ WORKER: i, WORKERS: workers, START_AT: startAt }, `-worker${i}`)));
  const lines = outputs.flatMap((o) => o.measurements);
  for (const line of lines) results.append({ type: 'worker', ...line, scenario: scenario.name, server: server.name, step: step.name });
  return combineWorkerLines(lines, step.combineBy || ['collection']);
}

function overlaps(spans) {
  const latestStart = Math.max(...spans.map(([s]) => s));
  const earliestEnd = Math.min(...spans.map(([, e]) => e));
  return latestStart < earliestEnd;
}

function combineWorkerLines(lines, keys) {
  const groups = new Map();
  for (const line of lines) {
    const key = JSON.stringify(keys.map((k) => line[k]));
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(line);
  }
  return [...groups.values()].map((group) => {
    const spans = group.map((l) => [l.startedAt, l.endedAt]);
    const sum = (field) => (group.every((l) => Number.isInteger(l[field])) ? group.reduce((n, l) => n + l[field], 0) : undefined);
    const { worker, startedAt, endedAt, hrMs, ...first } = group[0];
    return {
      ...first,
      workers: group.length,
      ms: Math.max(...spans.map(([, e]) => e)) - Math.min(...spans.map(([s]) => s)),
      inserted: sum('inserted'),
      removed: sum('removed'),
      workerSpans: spans,
      workersOverlapped: group.length > 1 ? overlaps(spans) : null,
    };
  });
}

function errorText(err) {
  return redactUri(err && err.message ? err.message : String(err));
}

/**
 * Where a resumed run left this scenario on this server: the step/passes it recorded and each
 * collection's last recorded count, which the server's data must still match.
 */
async function resumePoint({ scenario, server, client, options }) {
  const done = options.resume?.done?.get(`${server.name}|${scenario.name}`);
  if (!done || !done.steps.size) return null;
  const db = client.db(scenario.database);
  for (const [collection, recorded] of Object.entries(done.counts)) {
    const now = await db.collection(collection).countDocuments({});
    if (now !== recorded.count) {
      throw new ResumeMismatchError(`server '${server.name}' no longer holds the data of ${recorded.step} ${recorded.pass} of ${scenario.name}: ${collection} has ${now} documents, the results recorded ${recorded.count}`);
    }
  }
  return done;
}

/**
 * The runs of each scenario on a server: one, or with --repeat K a warm-up run (recorded,
 * marked, not counted, unless --no-warmup) and K counted runs.
 */
function repetitions(options) {
  const k = options.repeat || 1;
  if (k === 1) return [null];
  const counted = Array.from({ length: k }, (_, i) => ({ repeat: i + 1, warmup: false, of: k }));
  return options.warmup === false ? counted : [{ repeat: 0, warmup: true, of: k }, ...counted];
}

async function runScenario({ scenario, server, client, plan, options, results, progress, logDir, config, repetition = null }) {
  const resumed = await resumePoint({ scenario, server, client, options });
  const db = resumed ? client.db(scenario.database) : await claimDatabase(client, scenario.database, { prefix: config.dbPrefix, runId: options.runId });
  const expected = Object.fromEntries(scenario.collections.map((c) => [c, resumed?.counts[c]?.expectedCount ?? 0]));
  const latency = {}; // the server's cumulative time per collection, to take each step's share
  let failures = 0;

  for (const step of plan.steps) {
    for (const pass of step.passes) {
      if (resumed?.steps.has(`${step.name}|${pass}`)) continue;
      const label = `${server.name} · ${scenario.name}${repetition ? (repetition.warmup ? ' · warm-up' : ` · run ${repetition.repeat}/${repetition.of}`) : ''} · ${step.name}${step.repeat === 'passes' ? ` ${pass}/${plan.passes}` : ''}`;
      progress.startStep(label);
      const stepStarted = Date.now();
      const logFile = path.join(logDir, safeFileName(`${server.name}-${scenario.name}${repetition ? `-r${repetition.repeat}` : ''}-${step.name}${pass ? `-${pass}` : ''}.log`));
      try {
        const vars = {
          ...step.vars, DB_NAME: scenario.database, PASS: pass || null, PROGRESS: true, SEED: options.seed ?? null,
          // scripts may change server-wide settings (a cache size) only on servers the kit started
          SERVER_OWNED_BY_KIT: Boolean(server.started),
        };
        const measurements = await runStepScript({ scenario, step, server, vars, logFile, progress, options, results });
        if (!measurements.length) throw new Error(`${step.script} printed no measurement; see ${logFile}`);
        await markDatabase(db, options.runId); // a script may have dropped its database between cases
        const scriptMs = Date.now() - stepStarted;
        const stats = {};
        if (step.stats !== false) {
          for (const collection of scenario.collections) {
            stats[collection] = await readCollectionStats(db, collection);
            const now = await readLatencyStats(db, collection);
            if (now) {
              const before = latency[collection] || { micros: 0, ops: 0 };
              Object.assign(stats[collection], { serverMs: (now.micros - before.micros) / 1000, serverOps: now.ops - before.ops });
              latency[collection] = now;
            }
          }
        }
        for (const m of measurements) {
          const record = { type: 'measurement', ...m, scenario: scenario.name, server: server.name, step: step.name, pass };
          if (repetition) Object.assign(record, { repeat: repetition.repeat }, repetition.warmup ? { warmup: true } : {});
          if (m.collection && stats[m.collection]) {
            Object.assign(record, stats[m.collection]);
            if (Number.isInteger(m.inserted) && Number.isInteger(m.removed)) {
              expected[m.collection] += m.inserted - m.removed;
              record.expectedCount = expected[m.collection];
              record.countOk = record.count === record.expectedCount;
            }
          }
          results.append(record);
        }
        // written last: a step record says every measurement of the step is on disk
        results.append({ type: 'step', scenario: scenario.name, server: server.name, step: step.name, pass, scriptMs, statsMs: Date.now() - stepStarted - scriptMs });
        progress.endStep('done');
      } catch (err) {
        if (options.isInterrupted?.()) return failures; // the signal stopped it: not a failure of the step
        progress.endStep('FAILED');
        failures += 1;
        results.append({ type: 'failure', scenario: scenario.name, server: server.name, step: step.name, pass, error: errorText(err) });
        options.log(`FAILED ${label}: ${errorText(err)}`);
        return failures; // later passes build on this one: stop this scenario on this server
      }
    }
  }
  if (!options.keepData) await dropOwnedDatabase(client, scenario.database, { prefix: config.dbPrefix });
  return failures;
}

/** Puts what the harness adds per operation on this server into the results, for every report. */
async function calibrate({ server, client, options, results, progress, logDir, config }) {
  const ops = options.calibrationOps || 100;
  progress.startStep(`${server.name} · harness overhead`);
  await claimDatabase(client, CALIBRATION_DB, { prefix: config.dbPrefix, runId: options.runId });
  const perOp = await measureHarnessOverhead({
    uri: server.uri, client, ops, rounds: 2, server: server.name, logFile: path.join(logDir, safeFileName(`${server.name}-calibration.log`)),
  });
  results.append({ type: 'overhead', server: server.name, ops, rounds: 2, perOp });
  progress.endStep(Object.entries(perOp).map(([t, o]) => `${t} ×${o.ratio.toFixed(2)}`).join(', '));
}

async function runOnServer({ spec, scenarios, options, results, progress, logDir, config }) {
  let server;
  try {
    const keepDir = options.keepData && spec.kind !== 'uri' ? path.join(options.out, 'servers', safeFileName(spec.name)) : null;
    server = await startServer(spec, { config, logDir, log: options.log, keepDir });
  } catch (err) {
    results.append({ type: 'failure', server: spec.name, step: 'start', error: errorText(err) });
    options.log(`FAILED to start ${spec.name}: ${errorText(err)}`);
    return 1;
  }
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs });
  let failures = 0;
  try {
    const info = await describeServer(client, server);
    results.append({ type: 'server', server: server.name, spec: server.spec, description: server.description, startedByKit: server.started, ...info });
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

/** Runs every scenario on every server; returns { failures, resultsFile }. */
async function runBenchmarks({ scenarios, specs, options, config, progress }) {
  fs.mkdirSync(options.out, { recursive: true });
  const logDir = path.join(options.out, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const results = new ResultsLog(path.join(options.out, 'results.jsonl'));
  const state = { results, interrupted: false };
  options.isInterrupted = () => state.interrupted;
  options.registerInterrupt?.((signal) => {
    state.interrupted = true;
    results.append({ type: 'end', finishedAt: new Date().toISOString(), status: 'interrupted', signal });
    results.close();
  });
  const started = Date.now();
  options.runId = options.runId || `${path.basename(options.out)}-${process.pid}`;
  if (options.resume) {
    results.append({ type: 'resume', runId: options.runId, startedAt: new Date().toISOString(), ...describeTestBed() });
  } else results.append({
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
      repeat: options.repeat || 1,
      warmup: (options.repeat || 1) > 1 && options.warmup !== false,
      keepData: Boolean(options.keepData),
    },
    ...describeTestBed(),
  });
  let failures = 0;
  for (const spec of specs) {
    if (state.interrupted) break;
    failures += await runOnServer({ spec, scenarios, options, results, progress, logDir, config });
  }
  for (const scenario of scenarios.filter((s) => s.baseline && options.baselines !== false)) {
    if (state.interrupted) break;
    const { sizes } = scenarioPlan(scenario, options.size, options.passes, options.overrides);
    failures += await runSqlBaseline({ scenario, sizes, options, results, progress, logDir, config });
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

module.exports = { runBenchmarks, scenarioPlan, combineWorkerLines, repetitions };
