'use strict';
// --resume DIR: a run kept with --keep-data goes on where it stopped, on the same data. The plan
// comes from the run's own results; each scenario's starting point is checked against what the
// server still holds, so a resume never builds on data that are no longer the recorded ones.
const { UsageError, ResumeMismatchError } = require('../errors');
const { readRun } = require('../results/reader');
const { parseServerSpec, parseServerSpecs } = require('../servers/spec');

/**
 * The run's own parameters from its results.jsonl, what each server and scenario already
 * recorded, and the servers to reach again (kept by --keep-data, or given anew for a URI whose
 * password the results do not hold).
 */
function planResume(dir, opts) {
  const { run, measurements, runId, servers, sizes, calibrations, records, steps } = readRun(dir);
  const p = run.params;
  if ((p.repeat || 1) > 1) throw new UsageError('--resume: runs with --repeat cannot be resumed; run them again');
  const given = new Map(parseServerSpecs(opts.server.length ? opts.server : []).map((s) => [s.name, s]));
  const specs = p.servers.map((text) => {
    const recorded = parseServerSpec(text);
    if (recorded.kind === 'uri') {
      const again = given.get(recorded.name);
      if (again) return again;
      if (text.includes('****')) throw new UsageError(`--resume: give server '${recorded.name}' again with --server ${recorded.name}=URI (the results do not keep its password)`);
      return recorded;
    }
    if (!p.keepData) {
      throw new UsageError(`--resume: server '${recorded.name}' was started by the kit without --keep-data, so its data is gone; only runs with --keep-data or URI servers can be resumed`);
    }
    // a kept dbPath is started again by the mongod version that wrote it, not by whatever is at hand now
    const ran = servers.find((s) => s.server === recorded.name);
    if (recorded.kind === 'mongod' && !recorded.version && ran?.product === 'MongoDB' && ran.version) return { ...recorded, version: ran.version };
    return recorded;
  });
  const done = new Map();
  for (const m of measurements) {
    const key = `${m.server}|${m.scenario}`;
    if (!done.has(key)) done.set(key, { steps: new Set(), counts: {} });
    const entry = done.get(key);
    entry.steps.add(`${m.step}|${m.pass}`);
    if (m.collection && Number.isInteger(m.count)) entry.counts[m.collection] = { count: m.count, expectedCount: m.expectedCount, step: m.step, pass: m.pass };
  }
  return {
    scenarioNames: p.scenarios,
    specs,
    opts: {
      ...opts, size: p.size, passes: Object.values(p.passes)[0], seed: p.seed ?? undefined, keepData: p.keepData,
      set: p.overrides || {}, workers: p.workers || opts.workers, shell: p.shell || opts.shell, lean: p.lean || opts.lean,
      budget: p.budgetSeconds ?? opts.budget, sizePerServer: p.sizePerServer ?? false,
    },
    done,
    // each scenario goes on at the size the run recorded for it on each server, without probing again
    sizes: new Map(sizes.map((r) => [`${r.server}|${r.scenario}`, r])),
    calibrations: new Map(calibrations.map((c) => [c.server, c])),
    runId,
    from: resumedFrom(records, steps),
  };
}

/**
 * Where the run being resumed had stopped, for its resume record and the summary: its last
 * finished step, and how it ended (interrupted by a signal, failed, or no end at all: killed).
 */
function resumedFrom(records, steps) {
  const last = steps.at(-1);
  const tail = records.filter((r) => ['end', 'resume', 'run'].includes(r.type)).at(-1);
  const ended = tail?.type === 'end' ? (tail.signal ? `interrupted by ${tail.signal}` : tail.status) : 'no end recorded (killed, or its disk was full)';
  return {
    afterStep: last ? { server: last.server, scenario: last.scenario, step: last.step, pass: last.pass ?? null } : null,
    ended,
  };
}

/**
 * Where a resumed run left this scenario on this server: the step/passes it recorded and each
 * collection's last recorded count, which the server's data must still match.
 */
async function resumePoint({ scenario, server, client, resume }) {
  const done = resume?.done?.get(`${server.name}|${scenario.name}`);
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

module.exports = { planResume, resumePoint };
