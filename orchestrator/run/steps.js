'use strict';
// One scenario on one server: each step's script run in a shell, each pass in turn, and every
// measurement appended to results.jsonl with the collection stats read after its step. A failed
// step is recorded and ends the scenario on that server (later passes build on it).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runShellScript, combineCalls } = require('./shells');
const { DiskWriteError, ServerDiedError, ScriptError } = require('../errors');
const { otherRuns } = require('../run-state');
const { readCollectionStats, collectionExists, statsReads, checkpointPolicy, settleSizes } = require('./stats');
const { claimDatabase, markDatabase, dropOwnedDatabase } = require('./ownership');
const { resumePoint } = require('./resume');
const { combineWorkerLines } = require('./workers');
const { redactUri } = require('../servers/spec');
const { DEFAULT_ROUNDS } = require('../sizing/planner');
const { readFlowControl, flowControlDuring, flowControlMark } = require('./flow-control');
const { connectMember } = require('../servers/reach');
const { topologyKey } = require('../results/records');

/** The 1-minute load average, as recorded beside each step. */
const loadNow = () => Number(os.loadavg()[0].toFixed(2));

/**
 * The script variables and pass count a scenario runs with at a size: one the descriptor lists
 * (smoke, quick, article) or the sizes --size auto chose ({ VAR: n }).
 */
function scenarioPlan(scenario, size, passesOverride, overrides = {}) {
  const sizes = typeof size === 'object' ? { ...size, passes: scenario.sizes.article.passes } : { ...scenario.sizes[size] };
  for (const [k, v] of Object.entries(overrides)) if (k in sizes && k !== 'passes') sizes[k] = v;
  // --passes applies where the article itself repeated a pass; elsewhere passes are the size's
  const passes = (scenario.passesOption && passesOverride) || sizes.passes;
  const steps = scenario.steps.map((step) => ({
    ...step,
    // constants pick what a script shared by several steps does in this one (a LOOP variable); params are sizes
    vars: { ...(step.constants || {}), ...Object.fromEntries((step.params || []).map((p) => [p, sizes[p]])) },
    passes: step.repeat === 'once' ? [0] : Array.from({ length: passes }, (_, i) => i + 1),
  }));
  return { passes, steps, sizes };
}

function safeFileName(text) {
  return text.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

/** An error in one line for the screen and the records (a server's Go error runs to three): its first. */
function errorText(err) {
  const text = redactUri(err && err.message ? err.message : String(err));
  return text.split('\n').map((l) => l.trim()).find(Boolean) || text;
}

/**
 * How long a step's shell may print nothing before it is stopped: the setting
 * (CLASSICS_STEP_STALL_SECONDS), or three times what the size plan predicted for the whole
 * scenario where that is longer.
 */
function stallLimitMs(config, predictedSeconds) {
  return 1000 * Math.max(config.stepStallSeconds || 300, 3 * (predictedSeconds || 0));
}

/**
 * Why the server is gone, where it is (its process exited, its port refuses), else null: an error
 * of a step on a dead server is that server's death, said once, not the step's.
 */
async function deathOf(server, err) {
  if (err instanceof ServerDiedError) return err.reason;
  return server.health ? server.health().catch(() => null) : null;
}

/** The one line that says a server died, and that the run moves on without it. */
function diedLine(server, scenario, where, reason) {
  return `${server.name} died during ${scenario.name}${where ? ` ${where}` : ''} (${reason}); its remaining scenarios are skipped`;
}

/** Other live runs of the kit seen at either end of a step (each named once). */
function mergeRuns(a, b) {
  return [...new Map([...a, ...b].map((r) => [`${r.pid}`, r])).values()];
}

/** How long a parallel step's shells are given to start before all of them begin (their start is not timed). */
function workersStartMs(workers) {
  return 3000 + 400 * workers;
}

/** The rounds a scenario's comparisons are cut into: --rounds, else its descriptor's `rounds`, else DEFAULT_ROUNDS. */
function roundsOf(scenario, options = {}) {
  return options.rounds ?? scenario.rounds ?? DEFAULT_ROUNDS;
}

/** The variables a step's script gets besides its sizes: where to write, which pass, the seed, whether the kit owns the server. */
function stepVars(step, { scenario, server, options, pass }) {
  return {
    ...step.vars, DB_NAME: scenario.database, PASS: pass || null, PROGRESS: true, SEED: options.seed ?? null,
    // how many paired rounds a comparison is cut into (--rounds, else the scenario's, else 8),
    // after a warm-up round whose blocks are recorded and not counted (--no-warmup-blocks: none)
    ROUNDS: roundsOf(scenario, options),
    WARMUP: options.warmupBlocks !== false,
    // scripts may change server-wide settings (a cache size) only on servers the kit started
    SERVER_OWNED_BY_KIT: Boolean(server.started),
  };
}

/**
 * Runs a step's script once, or, for a step with `workers`, as that many shells at once: each
 * gets WORKER, WORKERS and START_AT (a wall-clock instant all of them wait for, so shell
 * start-up is not timed) and prints its own line with startedAt/endedAt, kept as a worker record
 * before the lines are combined. With a partner (a step's side of run/conductor.js), the shells
 * get PARTNER and their turns are its; it is closed once they are gone. Resolves to
 * { measurements, calls }: `calls`, which client path took the kit's shells' calls (null in mongosh).
 */
async function runStepScript({ scenario, step, server, vars, logFile, progress, options, results, stallMs = null, partner = null, arrivals = null }) {
  const run = (extra, suffix = '') => runShellScript({
    health: server.health || null,
    // a probe's step has no plan yet: the setting alone
    stallMs: stallMs ?? options.stallMs ?? null,
    shell: options.shell,
    lean: options.lean,
    uri: server.uri,
    file: scenario.scriptPath(step),
    vars: { ...vars, ...partner?.vars, ...extra },
    server: server.name,
    logFile: logFile.replace(/\.log$/, `${suffix}.log`),
    onProgress: suffix ? () => {} : (done, total) => progress.update(done, total),
    // when each line reached the kit (a block's ends as its line is printed: run/contention.js),
    // and a partner's turns (run/conductor.js) with the script's blocks that place them in their round
    onMeasurement: (line) => { arrivals?.set(line, Date.now()); partner?.onLine(line); },
    ...(partner ? { onTurn: partner.onTurn } : {}),
  });
  try {
    if (!step.workers) {
      const { measurements, calls } = await run({});
      return { measurements, calls: combineCalls([calls]) };
    }

    const workers = step.workers === 'cores' ? options.workers : step.workers;
    const startAt = Date.now() + workersStartMs(workers);
    const outputs = await Promise.all(Array.from({ length: workers }, (_, i) => run({ WORKER: i, WORKERS: workers, START_AT: startAt }, `-worker${i}`)));
    const lines = outputs.flatMap((o) => o.measurements);
    // a probe (no results) keeps no worker lines: only the run's own measurements are recorded
    if (results) for (const line of lines) results.append({ type: 'worker', ...line, scenario: scenario.name, server: server.name, step: step.name });
    // a paired round's block lines combine per round (the step's other lines name none)
    return { measurements: combineWorkerLines(lines, step.combineBy || ['collection', 'round']), calls: combineCalls(outputs.map((o) => o.calls)) };
  } finally {
    // the partner's total is on disk before the step is: its blocks are done once the shells are
    if (partner) await partner.close();
  }
}

/**
 * The collection stats after a step and what the sizes stand for; a read the server refuses is
 * said once (`say`), and the step stands. The server's own time on a collection is not read
 * here: a delta over the whole step would count the script's untimed reads and probes too, so the
 * scripts read it around their timed loops themselves (their server time block: serverMs,
 * serverOps in their lines).
 */
async function readStepStats({ scenario, client, db, server, say, config = {} }) {
  const policy = checkpointPolicy(server);
  const sizesAt = await settleSizes(client, policy);
  const stats = {};
  // with the run's read preference, as the scripts read (run/stats.js statsReads): on a replica
  // set read elsewhere than the primary, all of them on one member, after it has the step's writes
  const replicaSet = (server.atlas?.shape ?? topologyKey(server)) === 'replicaSet';
  const pin = server.uri ? (host) => connectMember(server.uri, host, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs ?? 30000 }) : null;
  const reads = await statsReads(client, db, { probe: scenario.collections[0], say, pin, replicaSet });
  try {
    for (const collection of scenario.collections) {
      const exists = await collectionExists(reads.db, collection, reads.options);
      stats[collection] = {
        ...(await readCollectionStats(reads.db, collection, { exists, say, reads: reads.options })), ...(sizesAt ? { sizesAt } : {}),
        ...(policy === 'estimate' ? { sizesEstimated: true } : {}),
        // the one member the sizes and counts were read from, where the run reads another than the primary
        ...(reads.member ? { statsMember: reads.member } : {}),
      };
    }
  } finally {
    await reads.end();
  }
  return stats;
}

/**
 * Every step of a scenario on a server, each pass in turn; partner: the scenario's partner there
 * (run/conductor.js), whose blocks the steps that pair with it interleave with their own.
 */
async function runScenario({ scenario, server, client, plan, options, results, progress, logDir, config, repetition = null, partner = null }) {
  const resumed = await resumePoint({ scenario, server, client, resume: options.resume });
  const db = resumed ? client.db(scenario.database) : await claimDatabase(client, scenario.database, { prefix: config.dbPrefix, runId: options.runId });
  const expected = Object.fromEntries(scenario.collections.map((c) => [c, resumed?.counts[c]?.expectedCount ?? 0]));
  const said = new Set();
  const say = (line) => { if (!said.has(line)) { said.add(line); options.log(`${server.name} · ${scenario.name}: ${line}`); } };
  let failures = 0;

  for (const step of plan.steps) {
    for (const pass of step.passes) {
      if (resumed?.steps.has(`${step.name}|${pass}`)) continue;
      const label = `${server.name} · ${scenario.name}${repetition ? (repetition.warmup ? ' · warm-up' : ` · run ${repetition.repeat}/${repetition.of}`) : ''} · ${step.name}${step.repeat === 'passes' ? ` ${pass}/${plan.passes}` : ''}`;
      progress.startStep(label);
      const othersBefore = config.stateDir ? otherRuns(config.stateDir) : [];
      const loadBefore = loadNow();
      // a replica set's flow control before and after the step: whether it throttled the writes
      const flowBefore = await readFlowControl(client, server);
      const stepStarted = Date.now();
      const logFile = path.join(logDir, safeFileName(`${server.name}-${scenario.name}${repetition ? `-r${repetition.repeat}` : ''}-${step.name}${pass ? `-${pass}` : ''}.log`));
      try {
        const vars = stepVars(step, { scenario, server, options, pass });
        const stallMs = stallLimitMs(config, options.predicted?.get(`${server.name}|${scenario.name}`));
        const side = partner ? await partner.openStep(step, { vars, pass, repetition }) : null;
        const arrivals = new WeakMap();
        const { measurements, calls } = await runStepScript({ scenario, step, server, vars, logFile, progress, options, results, stallMs, partner: side, arrivals });
        if (!measurements.length) throw new ScriptError(`${step.script} printed no measurement; see ${logFile}`, { script: step.script, server: server.name });
        await markDatabase(db, options.runId); // a script may have dropped its database between cases
        const scriptMs = Date.now() - stepStarted;
        const flowControl = flowControlDuring(flowBefore, await readFlowControl(client, server));
        const flowMark = flowControlMark(flowControl);
        // a line that names its writes' concern but not whether they were retryable wrote through
        // the shell's own connection, the URI's: the server record says whether it retried them
        const retryable = (m) => (m.writeConcern !== undefined && m.retryableWrites === undefined && typeof server.retryableWrites === 'boolean'
          ? { retryableWrites: server.retryableWrites } : {});
        let stats = {};
        if (step.stats !== false) stats = await readStepStats({ scenario, client, db, server, say, config });
        // another run of the kit on this machine at either end of the timed step: its numbers
        // may be disturbed, and the records say so (otherRuns) for the report to show
        const others = mergeRuns(othersBefore, config.stateDir ? otherRuns(config.stateDir) : []);
        // the 1-minute load average before and after the step
        const share = { loadAvg: [loadBefore, loadNow()], ...(others.length ? { otherRuns: others } : {}) };
        for (const m of measurements) {
          // a line of one round's block (it names its round) is a paired sample, kept apart from
          // the lines the article's tables print; stats and counts belong to the whole step's lines
          if (Number.isInteger(m.round)) {
            results.append({
              type: 'block', ...m, ...retryable(m), scenario: scenario.name, server: server.name, step: step.name, pass,
              ...(others.length ? { otherRuns: others } : {}), ...(repetition ? { repeat: repetition.repeat, ...(repetition.warmup ? { warmup: true } : {}) } : {}),
              ...(flowMark ? { flowControl: flowMark } : {}),
              // how busy the machine was during the block (other processes and steal), or null: not measured
              contention: options.contention?.ofBlock(m, arrivals.get(m)) ?? null,
            });
            continue;
          }
          const record = { type: 'measurement', ...m, ...retryable(m), scenario: scenario.name, server: server.name, step: step.name, pass };
          if (others.length) record.otherRuns = others;
          if (flowMark) record.flowControl = flowMark;
          if (repetition) Object.assign(record, { repeat: repetition.repeat }, repetition.warmup ? { warmup: true } : {});
          // a server that estimates its sizes (ferretdb2: PostgreSQL's statistics) estimates every
          // byte figure a line holds, those the script read from collStats itself included
          if (checkpointPolicy(server) === 'estimate') record.sizesEstimated = true;
          if (m.collection && stats[m.collection]) {
            Object.assign(record, stats[m.collection]);
            if (Number.isInteger(m.inserted) && Number.isInteger(m.removed)) {
              expected[m.collection] += m.inserted - m.removed;
              record.expectedCount = expected[m.collection];
              if (record.count !== undefined) record.countOk = record.count === record.expectedCount;
            }
          }
          results.append(record);
        }
        // written last: a step record says every measurement of the step is on disk; `calls`:
        // which client path (the kit's shell's lean path or the driver) took the script's calls
        results.append({
          type: 'step', scenario: scenario.name, server: server.name, step: step.name, pass, scriptMs, statsMs: Date.now() - stepStarted - scriptMs,
          ...(calls ? { calls } : {}), ...share, ...(flowControl ? { flowControl } : {}), contention: options.contention?.over(stepStarted, stepStarted + scriptMs) ?? null,
          ...(repetition ? { repeat: repetition.repeat, ...(repetition.warmup ? { warmup: true } : {}) } : {}),
        });
        progress.endStep('done');
      } catch (err) {
        if (options.isInterrupted?.()) return failures; // the signal stopped it: not a failure of the step
        if (err instanceof DiskWriteError) throw err; // nothing more can be kept: the run stops
        progress.endStep('FAILED');
        // the whole error (a server's runs to several lines) goes to the step's log, one line to the screen
        try { fs.appendFileSync(logFile, `[kit] ${redactUri(err?.stack || String(err))}\n`); } catch { /* a full disk: said by the results */ }
        const died = await deathOf(server, err);
        // "pass 3" for a step named pass, "update pass 3" for another repeated step, "setup"
        const where = step.repeat === 'passes' ? `${step.name === 'pass' ? '' : `${step.name} `}pass ${pass}` : step.name;
        results.append({ type: 'failure', scenario: scenario.name, server: server.name, step: step.name, pass, error: died ? `${server.name} died (${died})` : errorText(err), ...(died ? { serverDied: died } : {}) });
        if (died) throw new ServerDiedError(diedLine(server, scenario, where, died), { server: server.name, reason: died, recorded: true });
        failures += 1;
        options.log(`FAILED ${label}: ${errorText(err)}`);
        return failures;
      }
    }
  }
  if (!options.keepData) {
    const refused = await dropOwnedDatabase(client, scenario.database, { prefix: config.dbPrefix });
    if (refused) options.log(`${server.name} · ${scenario.name}: ${refused}`);
  }
  return failures;
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

module.exports = {
  runScenario, runStepScript, scenarioPlan, stepVars, roundsOf, DEFAULT_ROUNDS, workersStartMs, repetitions, safeFileName, errorText, deathOf, diedLine, stallLimitMs,
};
