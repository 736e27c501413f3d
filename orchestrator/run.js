'use strict';
// The main job: for each server in turn, each scenario's steps in order, every measurement
// appended to results.jsonl the moment it is taken. A failure is recorded and the run goes on
// with the next scenario or server; the exit code says whether anything failed.
const fs = require('node:fs');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { startServer, describeServer } = require('./servers/start');
const { redactUri } = require('./servers/spec');
const { runMongoshScript } = require('./mongosh');
const { readCollectionStats } = require('./collectionStats');
const { ResultsLog } = require('./results');
const { describeTestBed } = require('./testBed');

/** The script variables and pass count a scenario runs with at a size. */
function scenarioPlan(scenario, size, passesOverride) {
  const sizes = scenario.sizes[size];
  const passes = passesOverride ?? sizes.passes;
  const steps = scenario.steps.map((step) => ({
    ...step,
    vars: Object.fromEntries((step.params || []).map((p) => [p, sizes[p]])),
    passes: step.repeat === 'once' ? [0] : Array.from({ length: passes }, (_, i) => i + 1),
  }));
  return { passes, steps };
}

function safeFileName(text) {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

function errorText(err) {
  return redactUri(err && err.message ? err.message : String(err));
}

async function runScenario({ scenario, server, client, plan, options, results, progress, logDir }) {
  const db = client.db(scenario.database);
  await db.dropDatabase(); // only the kit's own classics_ database, checked by the descriptor contract
  const expected = Object.fromEntries(scenario.collections.map((c) => [c, 0]));
  let failures = 0;

  for (const step of plan.steps) {
    for (const pass of step.passes) {
      const label = `${server.name} · ${scenario.name} · ${step.name}${step.repeat === 'passes' ? ` ${pass}/${plan.passes}` : ''}`;
      progress.startStep(label);
      const logFile = path.join(logDir, safeFileName(`${server.name}-${scenario.name}-${step.name}${pass ? `-${pass}` : ''}.log`));
      try {
        const { measurements } = await runMongoshScript({
          uri: server.uri,
          file: scenario.scriptPath(step),
          vars: { ...step.vars, DB_NAME: scenario.database, PASS: pass || null, PROGRESS: true, SEED: options.seed ?? null },
          server: server.name,
          logFile,
          onProgress: (done, total) => progress.update(done, total),
        });
        if (!measurements.length) throw new Error(`${step.script} printed no measurement; see ${logFile}`);
        const stats = {};
        if (step.stats !== false) {
          for (const collection of scenario.collections) stats[collection] = await readCollectionStats(db, collection);
        }
        for (const m of measurements) {
          const record = { type: 'measurement', ...m, scenario: scenario.name, server: server.name, step: step.name, pass };
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
  if (!options.keepData) await db.dropDatabase();
  return failures;
}

async function runOnServer({ spec, scenarios, options, results, progress, logDir, config }) {
  let server;
  try {
    server = await startServer(spec, { config, logDir, log: options.log });
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
    for (const scenario of scenarios) {
      const plan = scenarioPlan(scenario, options.size, options.passes);
      failures += await runScenario({ scenario, server, client, plan, options, results, progress, logDir });
    }
  } catch (err) {
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
  results.append({
    type: 'run',
    startedAt: new Date().toISOString(),
    params: {
      scenarios: scenarios.map((s) => s.name),
      servers: specs.map((s) => s.spec),
      size: options.size,
      passes: Object.fromEntries(scenarios.map((s) => [s.name, scenarioPlan(s, options.size, options.passes).passes])),
      sizes: Object.fromEntries(scenarios.map((s) => [s.name, s.sizes[options.size]])),
      seed: options.seed ?? null,
      keepData: Boolean(options.keepData),
    },
    ...describeTestBed(),
  });
  let failures = 0;
  for (const spec of specs) {
    if (state.interrupted) break;
    failures += await runOnServer({ spec, scenarios, options, results, progress, logDir, config });
  }
  if (!state.interrupted) {
    results.append({ type: 'end', finishedAt: new Date().toISOString(), status: failures ? 'failed' : 'ok', failures });
    results.close();
  }
  return { failures, resultsFile: results.file };
}

module.exports = { runBenchmarks, scenarioPlan };
