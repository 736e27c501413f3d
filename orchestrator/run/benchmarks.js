'use strict';
// The main job: for each server in turn, what the shell adds there (calibration), the size each
// scenario runs at (the size asked for, or with --size auto the largest its probes predict to
// fit the budget), then each scenario's steps, every measurement appended to results.jsonl the
// moment it is taken, a scenario's baseline (a SQL store) run beside its steps on each server,
// its blocks interleaved with theirs (run/conductor.js). With --size auto and several servers, a
// scenario runs at one size on all of them (the largest that fits on each), so every server is
// started, calibrated and probed before any scenario runs; --size-per-server, or a named size,
// takes the servers one at a time. Servers a scenario pairs (pairedServers: trade-candles'
// mongod:none and mongod:zstd) run its steps at once, their blocks taking turns (run/pairs.js),
// and a default server that turns out to be a mongod brings the companions a scenario declares,
// paired, once its own scenarios are done. A failure is recorded and the run goes on with the
// next scenario or server; the exit code says whether anything failed.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startServer, describeServer } = require('../servers/start');
const { connectReaching } = require('../servers/reach');
const { ResultsLog } = require('../results/writer');
const { RESULTS_FILE } = require('../results/reader');
const { serverKind } = require('../results/records');
const { describeTestBed, machineKey } = require('./test-bed');
const { Conductor } = require('./conductor');
const { claimDatabase } = require('./ownership');
const { measureCalibration, programAnchor, shellRoundMs } = require('./calibration');
const {
  openProbeStore, probeKey, calibrationKey, checkAgainst, keptWhen, deviationText,
} = require('./probe-store');
const { builtCompiledClient } = require('./compiled-client');
const { probeScenario, probeInputs, pinnedSizes } = require('./probe');
const {
  runScenario, scenarioPlan, repetitions, roundsOf, safeFileName, errorText, deathOf, diedLine, stallLimitMs,
} = require('./steps');
const { otherRuns } = require('../run-state');
const { planScenario, fractionOf, findingsAt, promisedFindings } = require('../sizing/planner');
const {
  serverPairs, serverGroups, companionSpecs, ServerPair, pairSeed, sideProgress,
} = require('./pairs');
const { planLines } = require('../sizing/describe');
const { ResumeMismatchError, DiskWriteError, ServerDiedError } = require('../errors');
const { SHELLS } = require('./shells');
const { bounded } = require('./settle');
const { scriptRoundTrip } = require('./round-trip');
const { unknownTierLine } = require('../servers/atlas');
const { ContentionMeter } = require('./contention');

/** Operations of each type in a kept calibration's check: enough for a mean per operation, a fraction of the calibration's. */
const CALIBRATION_CHECK_OPS = 50;

/** Why nothing kept is read: the store is off, the user asked for fresh figures, or none is kept under this key. */
function notKeptWhy(options, what) {
  if (!options.probeStore) return `no store of kept ${what} (its setting is off)`;
  if (options.reuse === false) return `fresh ${what} asked for (--no-reuse)`;
  return `none kept for this machine, server, kit and inputs`;
}

/**
 * A kept calibration of this machine, server and kit checked by a short one (fewer operations,
 * one round, the run's shell and the driver): its shell's time for one operation of each type
 * against the kept one's. Returns the record to append where it lands within the tolerance, else
 * { check, why } for the fresh calibration's record.
 */
async function checkKeptCalibration({ kept, server, client, options, database, logFile }) {
  const measured = await measureCalibration({
    log: (line) => options.log(line), uri: server.uri, client, ops: CALIBRATION_CHECK_OPS, rounds: 1, server: server.name, shells: [options.shell], lean: options.lean, database, logFile,
  });
  const check = { ops: CALIBRATION_CHECK_OPS, shell: options.shell, ...checkAgainst(shellRoundMs(measured.perOp, options.shell), shellRoundMs(kept.record.perOp, options.shell)) };
  const ms = (x) => (x === null ? 'no time' : `${x.toFixed(2)} ms`);
  const took = `the check's ${options.shell} shell took ${ms(check.ms)} for one operation of each type against ${ms(check.predictedMs)} kept (${deviationText(check.deviation)})`;
  if (!check.within) {
    options.log(`${server.name}: ${took}: calibrating again`);
    return { check, why: `${took}: calibrating again` };
  }
  options.log(`${server.name}: kept calibration from ${keptWhen(kept.savedAt)} reused: ${took}`);
  return { record: { ...kept.record, type: 'calibration', server: server.name, reuse: { reused: true, from: kept.savedAt, check, why: null } } };
}

/**
 * Puts what the shell adds per operation on this server into the results, for every report;
 * returns the record. Kept figures of this machine, server and kit (run/probe-store.js) are
 * reused where a short check lands within the tolerance; fresh ones are kept for the next run.
 */
async function calibrate({ server, client, options, results, progress, logDir, config, kind = null }) {
  const ops = options.calibrationOps || 100;
  progress.startStep(`${server.name} · calibration`);
  try {
    await claimDatabase(client, config.databases.calibration, { prefix: config.dbPrefix, runId: options.runId });
  } catch (err) {
    // a user who may not write the calibration database still gets the scenarios' numbers
    progress.endStep('skipped');
    options.log(`${server.name}: no calibration (${errorText(err)})`);
    return null;
  }
  // the compiled client where npm run bench has built it: a C client's cost beside the shells'
  const compiled = builtCompiledClient(config);
  const anchors = compiled ? { compiled: programAnchor('compiled client', compiled) } : {};
  const logFile = path.join(logDir, safeFileName(`${server.name}-calibration.log`));
  const store = options.probeStore;
  const key = store && calibrationKey({
    machine: options.machine, server, kind, inputs: { ops, rounds: 2, shells: SHELLS, anchors: Object.keys(anchors), lean: options.lean || 'on' },
  });
  const kept = store && options.reuse !== false ? store.read('calibration', key) : null;
  const started = new Date().toISOString();
  let reuse = { reused: false, from: started, check: null, why: kept ? null : notKeptWhy(options, 'calibrations') };
  if (store && options.reuse !== false && !kept) options.log(`${server.name}: no calibration kept for this machine, server, kit and inputs: calibrating`);
  if (kept?.record?.perOp) {
    const checked = await checkKeptCalibration({ kept, server, client, options, database: config.databases.calibration, logFile });
    if (checked.record) {
      results.append(checked.record);
      progress.endStep(`kept (the check ${deviationText(checked.record.reuse.check.deviation)})`);
      return checked.record;
    }
    reuse = { ...reuse, check: checked.check, why: checked.why };
  }
  const { perOp, anchors: anchored, calls } = await measureCalibration({
    log: (line) => options.log(line),
    uri: server.uri, client, ops, rounds: 2, server: server.name, shells: SHELLS, anchors, lean: options.lean, database: config.databases.calibration, logFile,
  });
  const record = {
    type: 'calibration', server: server.name, ops, rounds: 2, shell: options.shell, shells: SHELLS, anchors: anchored, perOp,
    ...(calls ? { calls } : {}), reuse,
  };
  results.append(record);
  // an anchor that failed here is left out of what is kept: the next run checks the rest
  if (store) store.write('calibration', key, { server: server.name, record: (({ type, reuse: r, ...rest }) => rest)(record) });
  progress.endStep(Object.entries(perOp).map(([t, o]) => `${t} ×${o.ratio[options.shell].toFixed(2)}`).join(', '));
  return record;
}

/** Passes of a scenario in this run: --passes where the article repeated a pass, else the size's. */
function passesOf(scenario, options) {
  if (options.size !== 'auto') return scenarioPlan(scenario, options.size, options.passes).passes;
  return (scenario.passesOption && options.passes) || scenario.sizes.article.passes;
}

/**
 * A server started, described, recorded and calibrated, ready for its scenarios; null where it
 * would not start. extra: fields its server record carries besides (a companion's).
 */
async function prepareServer({ spec, options, results, progress, logDir, config, extra = {} }) {
  let server;
  try {
    const keepDir = options.keepData && spec.kind !== 'uri' ? path.join(options.out, 'servers', safeFileName(spec.name)) : null;
    server = await startServer(spec, { config, logDir, log: options.log, keepDir, progress });
  } catch (err) {
    results.append({ type: 'failure', server: spec.name, step: 'start', error: errorText(err) });
    options.log(`FAILED to start ${spec.name}: ${errorText(err)}`);
    return null;
  }
  let client;
  try {
    client = await connectReaching(server.uri, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs });
  } catch (err) {
    // a mongodb+srv name that no resolver knows now: said as a start that failed
    await server.stop();
    results.append({ type: 'failure', server: spec.name, step: 'start', error: errorText(err) });
    options.log(`FAILED to reach ${spec.name}: ${errorText(err)}`);
    return null;
  }
  const ready = { spec, server, client, calibration: null, stopped: false };
  try {
    const info = await describeServer(client, server, { pings: config.roundTripPings });
    Object.assign(server, info);
    // a user's server: the round trip the scripts see, timed in their shell on their kind of
    // connection (through mongos, one mongos, and the hop inside the cluster)
    if (!server.started) {
      Object.assign(info, await scriptRoundTrip({
        server, shell: options.shell, lean: options.lean, pings: config.roundTripPings, database: config.databases.lease,
        logFile: path.join(logDir, safeFileName(`${server.name}-round-trip.log`)),
      }));
      Object.assign(server, info);
      if (info.roundTripNote) options.log(`${server.name}: ${info.roundTripNote}`);
    }
    const tierLine = unknownTierLine(server.name, info.atlas);
    if (tierLine) options.log(tierLine);
    results.append({ type: 'server', server: server.name, spec: server.spec, kind: server.kind, description: server.description, startedByKit: server.started, ...(server.compressor ? { compressor: server.compressor } : {}), ...info, ...extra });
    options.log(`${server.name}: ${info.product} ${info.version}${info.engine ? ` on ${info.engine}` : ''}`);
    ready.kind = serverKind({ ...info, spec: server.spec });
    if (options.calibrate !== false && !options.resume) ready.calibration = await calibrate({ server, client, options, results, progress, logDir, config, kind: ready.kind });
    else ready.calibration = options.resume?.calibrations?.get(server.name) || null;
  } catch (err) {
    const died = await deathOf(server, err);
    await stopServer(ready);
    if (err instanceof ResumeMismatchError || err instanceof DiskWriteError) throw err;
    results.append({ type: 'failure', server: server.name, step: 'server', error: died ? `${server.name} died (${died})` : errorText(err), ...(died ? { serverDied: died } : {}) });
    options.log(died ? `${server.name} died before its scenarios (${died}); they are skipped` : `FAILED on ${server.name}: ${errorText(err)}`);
    return null;
  }
  return ready;
}

async function stopServer(ready) {
  if (ready.stopped) return;
  ready.stopped = true;
  // the driver's close() waits on a connection to a server that died under it, for ever
  await bounded(ready.client.close(), 5000);
  await ready.server.stop();
}

/**
 * The size record of a scenario on a server at a size the user named: no prediction (nothing was
 * probed), but which of its findings that size can decide there, from the descriptor alone.
 */
function namedSizeRecord(scenario, findings, ready, options, pairedWith = null) {
  const { sizes } = scenarioPlan(scenario, options.size, options.passes, options.overrides);
  const { passes, ...vars } = sizes;
  return {
    type: 'size', scenario: scenario.name, server: ready.server.name, size: options.size, sizes: vars, fraction: fractionOf(scenario, vars),
    ...(pairedWith ? { pairedWith } : {}),
    budgetSeconds: null, predictedSeconds: null, model: null, findings: findingsAt(scenario, findings, ready.kind, vars, { paired: Boolean(pairedWith) }),
  };
}

/** The server a scenario pairs a ready server with in its group (pairedServers), or null. */
function partnerIn(group, scenario, ready) {
  const pair = serverPairs(scenario, group).find((p) => p.includes(ready));
  return pair ? pair.find((r) => r !== ready) : null;
}

/**
 * The size records of the companions a default server brings for a scenario (run/pairs.js
 * companionSpecs), at that server's size: each runs what its host's record predicts, paired
 * with the other, once the host's scenarios are done. Not on a resume that recorded any of them
 * (a companion keeps no data to go on from).
 */
function companionRecords({ scenario, findings, record, ready, specs, options }) {
  const companions = companionSpecs(scenario, ready, specs);
  if (companions.length < 2 || !record) return { specs: [], records: [] };
  if (options.resume && companions.some((c) => options.resume.done?.has(`${c.name}|${scenario.name}`))) {
    options.log(`${scenario.name}: its companions ${companions.map((c) => c.name).join(' and ')} are not run again on a resume (they recorded part of a run and kept no data)`);
    return { specs: [], records: [] };
  }
  const records = companions.map((spec, i) => {
    const kind = spec.name; // a kit-started mongod's kind is its spec (mongod:none)
    const { decidable, tooSmall, tooShort } = promisedFindings(scenario, findings, kind, record.sizes, record.spans || [], { paired: true });
    return {
      ...record, server: spec.name, companionOf: ready.server.name, pairedWith: companions[1 - i].name, probeSeconds: null,
      findings: { decidable, tooSmall: tooSmall.map((t) => ({ ...t, budgetSeconds: (record.findings?.tooSmall || []).find((h) => h.id === t.id)?.budgetSeconds ?? null })), tooShort },
    };
  });
  return { specs: companions, records };
}

/**
 * The size of every scenario on every server of a group, as size records (appended, and their
 * plan printed, before any scenario runs): a named size as it is; with --size auto, each server
 * probed and the planner's choice, or on --resume the size the run recorded. Returns
 * { sizes: Map(`server|scenario` → vars), failures }.
 */
async function sizeScenarios({ group, scenarios, options, results, progress, logDir, config, conductor }) {
  const sizes = new Map();
  let failures = 0;
  for (const scenario of scenarios) {
    if (options.isInterrupted?.()) break;
    const passes = passesOf(scenario, options);
    const findings = scenario.loadPublished().findings || [];
    const records = [];
    const toPlan = [];
    for (const ready of group) {
      const recorded = options.resume?.sizes?.get(`${ready.server.name}|${scenario.name}`);
      if (recorded?.predictedSeconds) options.predicted?.set(`${ready.server.name}|${scenario.name}`, recorded.predictedSeconds);
      if (recorded) sizes.set(`${ready.server.name}|${scenario.name}`, recorded.sizes);
      else if (options.size !== 'auto') records.push(namedSizeRecord(scenario, findings, ready, options, partnerIn(group, scenario, ready)?.server.name));
      else toPlan.push(ready);
    }
    const probed = [];
    for (const ready of toPlan) {
      if (options.isInterrupted?.()) break;
      if (ready.dead) continue; // said once, when it died
      // the probes pair with the scenario's baseline as its run will, so its blocks are in the size
      const partner = await conductor.open({ scenario, ready, record: false });
      try {
        // probes of this machine, server, kit and inputs kept by an earlier run: checked, then reused or probed again
        const store = options.probeStore;
        const key = store && probeKey({ machine: options.machine, server: ready.server, kind: ready.kind, scenario, inputs: probeInputs(scenario, ready.server, options, partner) });
        const kept = store && options.reuse !== false ? store.read('probes', key) : null;
        if (store && options.reuse !== false && !kept) options.log(`${scenario.name} on ${ready.server.name}: no probes kept for this machine, server, kit and inputs: probing`);
        const probe = await probeScenario({
          scenario, server: ready.server, client: ready.client, options, config, progress, logDir, budgetSeconds: options.budgetSeconds, partner,
          kept, missing: kept ? null : notKeptWhy(options, 'probes'),
        });
        if (store && probe.added && !options.isInterrupted?.()) store.write('probes', key, { server: ready.server.name, fixedMs: probe.fixedMs, probes: probe.probes });
        const pairedWith = partnerIn(group, scenario, ready)?.server.name;
        probed.push({ server: ready.server.name, kind: ready.kind, probe, calibration: ready.calibration, ...(pairedWith ? { paired: pairedWith } : {}) });
      } catch (err) {
        if (options.isInterrupted?.()) break;
        if (err instanceof DiskWriteError) throw err;
        failures += 1;
        ready.dead = await deathOf(ready.server, err);
        results.append({
          type: 'failure', scenario: scenario.name, server: ready.server.name, step: 'probe',
          error: ready.dead ? `${ready.server.name} died (${ready.dead})` : errorText(err), ...(ready.dead ? { serverDied: ready.dead } : {}),
        });
        options.log(ready.dead ? diedLine(ready.server, scenario, 'probe', ready.dead) : `FAILED ${ready.server.name} · ${scenario.name} · probe: ${errorText(err)}; the scenario does not run there`);
      } finally {
        await partner?.stop();
      }
    }
    if (probed.length) {
      const plans = planScenario({
        descriptor: scenario, findings, budgetSeconds: options.budgetSeconds, passes,
        pinned: pinnedSizes(scenario, options.overrides), servers: probed, perServer: Boolean(options.sizePerServer), shell: options.shell,
        rounds: roundsOf(scenario, options), together: serverPairs(scenario, group).map((pair) => pair.map((r) => r.server.name)),
      });
      for (const plan of plans) {
        // whether its probes were this run's or kept ones, and from when
        const reuse = probed.find((p) => p.server === plan.server)?.probe.reuse;
        records.push({ type: 'size', scenario: scenario.name, size: 'auto', perServer: Boolean(options.sizePerServer), ...plan, ...(reuse ? { reuse } : {}) });
      }
    }
    // a default server that turned out to be a mongod brings the scenario's companions, at its size
    for (const ready of group) {
      const record = records.find((r) => r.server === ready.server.name) || options.resume?.sizes?.get(`${ready.server.name}|${scenario.name}`);
      const companions = companionRecords({ scenario, findings, record, ready, specs: options.specs || group.map((r) => r.spec), options });
      if (companions.specs.length) (ready.companions ??= []).push({ scenario, specs: companions.specs });
      for (const c of companions.records) {
        if (options.resume?.sizes?.has(`${c.server}|${scenario.name}`)) sizes.set(`${c.server}|${scenario.name}`, c.sizes);
        else records.push(c);
      }
    }
    for (const record of records) {
      if (record.predictedSeconds) options.predicted?.set(`${record.server}|${scenario.name}`, record.predictedSeconds);
      results.append(record);
      sizes.set(`${record.server}|${scenario.name}`, record.sizes);
    }
    planLines(scenario, records, { passes: scenario.passesOption ? passes : null }).forEach((line) => options.log(line));
  }
  return { sizes, failures };
}

/**
 * A scenario's runs on one server (each --repeat), its baseline beside it; returns { failures,
 * dead }. partnerOf(repetition): the server's side of a pair for that run (run/pairs.js), else
 * the scenario's baseline is its partner. A server that dies is said once and marked dead.
 */
async function runOnServer({ ready, scenario, plan, options, results, progress, logDir, config, conductor, partnerOf = null }) {
  const { server, client } = ready;
  let failures = 0;
  // its baseline, started for its steps here and stopped when they end, fail or are interrupted
  const baseline = partnerOf ? null : await conductor.open({ scenario, ready });
  try {
    for (const repetition of repetitions(options)) {
      const partner = partnerOf ? partnerOf(repetition) : baseline;
      try {
        failures += await runScenario({ scenario, server, client, plan, options, results, progress: partner?.progress || progress, logDir, config, repetition, partner });
      } finally {
        partner?.leave?.();
      }
    }
  } catch (err) {
    if (options.isInterrupted?.()) return { failures, dead: false };
    if (err instanceof ResumeMismatchError || err instanceof DiskWriteError) throw err; // the whole resume is refused; nothing more can be kept
    failures += 1;
    const died = await deathOf(server, err);
    if (died) {
      // one line, and the server's other scenarios are not tried on a dead server
      if (!err.recorded) results.append({ type: 'failure', scenario: scenario.name, server: server.name, step: 'scenario', error: `${server.name} died (${died})`, serverDied: died });
      options.log(err instanceof ServerDiedError ? err.message : diedLine(server, scenario, '', died));
      ready.dead = died;
      return { failures, dead: true };
    }
    results.append({ type: 'failure', scenario: scenario.name, server: server.name, step: 'scenario', error: errorText(err) });
    options.log(`FAILED ${server.name} · ${scenario.name}: ${errorText(err)}`);
  } finally {
    await baseline?.stop();
  }
  return { failures, dead: false };
}

/**
 * A scenario on two servers at once (a pair: run/pairs.js), each at the same size, their blocks
 * taking turns; both sides' failures. A side that fails or dies leaves the other to go on alone.
 */
async function runPaired({ servers, scenario, plan, options, results, progress, logDir, config, conductor }) {
  const names = servers.map((r) => r.server.name);
  const seed = pairSeed(options);
  options.log(`${scenario.name}: ${names.join(' and ')} run its steps at once, their blocks taking turns (seed ${seed})`);
  const pairs = new Map();
  const pairFor = (repetition) => {
    const key = repetition ? repetition.repeat : 0;
    if (!pairs.has(key)) pairs.set(key, new ServerPair({ scenario, servers, plan, seed, options }));
    return pairs.get(key);
  };
  const outcomes = await Promise.all(servers.map((ready, i) => runOnServer({
    ready, scenario, plan, options, results, progress, logDir, config, conductor,
    partnerOf: (repetition) => Object.assign(pairFor(repetition).sides[i], { progress: sideProgress(progress, names, i) }),
  })));
  return outcomes.reduce((n, o) => n + o.failures, 0);
}

/**
 * Every scenario on one server at its planned size; returns the failures. group: the servers up
 * with it, among which a scenario's pairs are found (pairedServers); paired: the scenarios a pair
 * has already run (on the pair's first server to come).
 */
async function runScenarios({ ready, scenarios, sizes, options, results, progress, logDir, config, conductor, group = [ready], paired = new Set() }) {
  const { server } = ready;
  let failures = 0;
  for (const scenario of scenarios) {
    if (options.isInterrupted?.() || ready.dead) break;
    const vars = sizes.get(`${server.name}|${scenario.name}`);
    if (!vars) continue; // its probe failed here, and said so
    const plan = scenarioPlan(scenario, vars, passesOf(scenario, options));
    const other = partnerIn(group, scenario, ready);
    const key = (r) => `${scenario.name}|${r.server.name}`;
    if (paired.has(key(ready))) continue; // run beside its partner already
    const otherVars = other && sizes.get(`${other.server.name}|${scenario.name}`);
    if (other && !other.dead && !other.stopped && otherVars && JSON.stringify(otherVars) === JSON.stringify(vars)) {
      paired.add(key(ready)).add(key(other));
      failures += await runPaired({ servers: [ready, other], scenario, plan, options, results, progress, logDir, config, conductor });
      continue;
    }
    const outcome = await runOnServer({ ready, scenario, plan, options, results, progress, logDir, config, conductor });
    failures += outcome.failures;
    if (outcome.dead) break;
  }
  return failures;
}

/**
 * The companions a default server brought for its scenarios (sizeScenarios found them), once its
 * own scenarios are done and it is stopped: both started (uncalibrated: their sizes are their
 * host's, and their figures are compared with each other), the scenario run on them paired (or
 * on the one that started, alone), both stopped. Returns the failures.
 */
async function runCompanions({ host, sizes, options, results, progress, logDir, config, conductor }) {
  let failures = 0;
  for (const { scenario, specs } of host.companions || []) {
    if (options.isInterrupted?.()) break;
    const readies = [];
    try {
      for (const spec of specs) {
        const ready = await prepareServer({
          spec, options: { ...options, calibrate: false }, results, progress, logDir, config,
          extra: { companionOf: host.server.name, companionFor: scenario.name },
        });
        if (ready) readies.push(ready); else failures += 1;
      }
      if (!readies.length || options.isInterrupted?.()) continue;
      const paired = new Set();
      for (const ready of readies) {
        failures += await runScenarios({ ready, scenarios: [scenario], sizes, options, results, progress, logDir, config, conductor, group: readies, paired });
      }
    } finally {
      for (const ready of readies) await stopServer(ready);
    }
  }
  return failures;
}

/** Servers that share their sizes: started, calibrated and sized together, then run one at a time. */
async function runGroup({ specs, scenarios, options, results, progress, logDir, config, conductor }) {
  const group = [];
  let failures = 0;
  try {
    for (const spec of specs) {
      if (options.isInterrupted?.()) break;
      const ready = await prepareServer({ spec, options, results, progress, logDir, config });
      if (ready) group.push(ready); else failures += 1;
    }
    if (!group.length || options.isInterrupted?.()) return failures;
    const sized = await sizeScenarios({ group, scenarios, options, results, progress, logDir, config, conductor });
    failures += sized.failures;
    const paired = new Set();
    for (const ready of group) {
      if (options.isInterrupted?.()) break;
      try {
        failures += await runScenarios({ ready, scenarios, sizes: sized.sizes, options, results, progress, logDir, config, conductor, group, paired });
      } catch (err) {
        if (err instanceof ResumeMismatchError || err instanceof DiskWriteError) throw err;
        failures += 1;
        results.append({ type: 'failure', server: ready.server.name, step: 'server', error: errorText(err) });
        options.log(`FAILED on ${ready.server.name}: ${errorText(err)}`);
      } finally {
        await stopServer(ready);
      }
      failures += await runCompanions({ host: ready, sizes: sized.sizes, options, results, progress, logDir, config, conductor });
    }
  } finally {
    for (const ready of group) await stopServer(ready);
  }
  return failures;
}

/** The run header: what was asked for, and the test bed it ran on. */
function runHeader({ scenarios, specs, options }) {
  const auto = options.size === 'auto';
  return {
    type: 'run',
    runId: options.runId,
    startedAt: new Date().toISOString(),
    params: {
      scenarios: scenarios.map((s) => s.name),
      servers: specs.map((s) => s.spec),
      size: options.size,
      // with --size auto each scenario's sizes are in its size records, one per server
      ...(auto ? { budgetSeconds: options.budgetSeconds, sizePerServer: Boolean(options.sizePerServer) } : {
        sizes: Object.fromEntries(scenarios.map((s) => [s.name, scenarioPlan(s, options.size, options.passes, options.overrides).sizes])),
      }),
      passes: Object.fromEntries(scenarios.map((s) => [s.name, passesOf(s, options)])),
      overrides: options.overrides || {},
      seed: options.seed ?? null,
      workers: options.workers,
      shell: options.shell,
      // the kit's shell's client path: on, its lean path where it covers a call; off, the driver for every call
      lean: options.shell === 'kit' ? options.lean || 'on' : null,
      repeat: options.repeat || 1,
      // the paired rounds each scenario's comparisons were cut into (--rounds, else its own, else 8)
      rounds: Object.fromEntries(scenarios.map((s) => [s.name, roundsOf(s, options)])),
      warmup: (options.repeat || 1) > 1 && options.warmup !== false,
      // a warm-up round before each comparison's round 1 (its blocks recorded with warmup true, round 0)
      warmupBlocks: options.warmupBlocks !== false,
      keepData: Boolean(options.keepData),
    },
    ...describeTestBed({ shell: options.shell }),
    machineLoad: machineLoad(options),
  };
}

/**
 * What else loads this machine as the run starts: the load averages (1, 5, 15 minutes) and the
 * other runs of the kit (their state files; the lease names those on a user's server).
 */
function machineLoad(options) {
  return { loadAvg: os.loadavg().map((l) => Number(l.toFixed(2))), otherRuns: options.stateDir ? otherRuns(options.stateDir) : [] };
}

/** Runs every scenario on every server; returns { failures, resultsFile }. */
async function runBenchmarks({ scenarios, specs, options, config, progress }) {
  fs.mkdirSync(options.out, { recursive: true });
  const logDir = path.join(options.out, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const results = new ResultsLog(path.join(options.out, RESULTS_FILE));
  const state = { interrupted: false };
  const started = Date.now();
  // how busy the machine is while the run times its blocks (run/contention.js), sampled outside the timed path
  options.contention = new ContentionMeter().start();
  const runContention = () => options.contention.over(started, Date.now());
  options.isInterrupted = () => state.interrupted;
  options.registerInterrupt?.((signal) => {
    state.interrupted = true;
    results.append({ type: 'end', finishedAt: new Date().toISOString(), status: 'interrupted', signal, contention: runContention() });
    results.close();
  });
  options.runId = options.runId || `${path.basename(options.out)}-${process.pid}`;
  options.predicted = new Map();
  options.stateDir = config.stateDir;
  options.stallMs = stallLimitMs(config, 0);
  // the kept calibrations and probes (run/probe-store.js), read under this machine's key
  options.machine = machineKey(describeTestBed({ shell: options.shell }));
  options.probeStore = openProbeStore(config.probeStoreDir, { warn: (line) => options.log(`warning: ${line}`) });
  results.append(options.resume
    ? {
      type: 'resume', runId: options.runId, startedAt: new Date().toISOString(), ...describeTestBed({ shell: options.shell }),
      machineLoad: machineLoad(options), ...(options.resume.from ? { from: options.resume.from } : {}),
    }
    : runHeader({ scenarios, specs, options }));
  let failures = 0;
  const joint = options.size === 'auto' && !options.sizePerServer;
  const conductor = new Conductor({ options, results, config, logDir });
  options.specs = specs;
  try {
    for (const group of serverGroups(specs, scenarios, joint)) {
      if (state.interrupted) break;
      failures += await runGroup({ specs: group, scenarios, options, results, progress, logDir, config, conductor });
    }
    // a baseline's failures (a block, its start) are the run's too
    failures += conductor.failures;
    if (!state.interrupted) {
      results.append({
        type: 'end', finishedAt: new Date().toISOString(), status: failures ? 'failed' : 'ok', failures,
        wallMs: Date.now() - started, maxRssBytes: process.resourceUsage().maxRSS * 1024, contention: runContention(),
      });
      results.close();
    }
  } finally {
    options.contention.stop();
  }
  return { failures, resultsFile: results.file };
}

module.exports = { runBenchmarks };
