'use strict';
// The one place a run's records become verdicts: every view (the report, summary.md,
// verdicts.png, verdicts.json, compare) and the tests call analyseRun or analyseScenario, and
// none repeats the aggregate-and-judge wiring.
const path = require('node:path');
const { aggregateRepeats } = require('../results/repeats');
const { sizesOf } = require('../results/reader');
const { judge, checkOf } = require('./judge');
const { ruleOf } = require('./rules');
const { decidesByMeasurement } = require('./checks');
const { runContention } = require('./contention');
const { withAcrossRuns } = require('./across-runs');

/** The servers a finding is held against rather than judged: a scenario's baseline (the SQL store). */
function referenceServers(scenario, finding) {
  return [scenario.baseline?.server, finding.check?.num?.fromServer, finding.check?.den?.fromServer].filter(Boolean);
}

/**
 * Every finding of one scenario on every server that measured it. measurements and blocks are
 * the scenario's records as the run wrote them (warm-up runs are left out of the tables here; a
 * verdict leaves out warm-up and incomplete blocks itself, and says which); sizesOf(server) the
 * sizes that server ran at, where known, and sizeRecordOf(server) the run's size record (what a
 * larger budget would reach); servers the run's server records (their round trip). Returns {
 * records (aggregated: one per cell, the median of the repeats), verdicts }.
 */
function analyseScenario(scenario, { measurements = [], blocks = [], sizesOf: sizesFor = () => null, sizeRecordOf = () => null, servers: serverRecords = [] }) {
  const findings = scenario.loadPublished().findings || [];
  const raw = measurements.filter((m) => !m.warmup);
  // the cells whose repeats printed different numbers of lines: their first run stands alone
  const misaligned = new Set();
  const records = aggregateRepeats(raw, scenario, findings, { onMisaligned: (r) => misaligned.add(r) });
  const servers = [...new Set([...records, ...blocks.filter((b) => !b.warmup)].map((r) => r.server))];
  const verdicts = [];
  for (const finding of findings) {
    const ctx = { scenario: scenario.name, records, blocks, raw, descriptor: scenario, misaligned, serverRecords };
    if (!decidesByMeasurement(finding) || finding.across) {
      // judged once for the run: its verdict's scope says so (all-servers, article), no server does
      verdicts.push(judge(finding, { ...ctx, server: null, sizes: null }));
      continue;
    }
    const refs = referenceServers(scenario, finding);
    for (const server of servers.filter((s) => !refs.includes(s))) {
      const serverRecord = serverRecords.find((r) => r.server === server) || null;
      verdicts.push(judge(finding, { ...ctx, server, serverRecord, sizes: sizesFor(server), sizeRecord: sizeRecordOf(server) }));
    }
  }
  return { records, verdicts };
}

/**
 * Every scenario a run ran, analysed: { scenarios (the descriptors, in the run's order),
 * recordsOf: Map(name → aggregated records), verdicts, contention (how busy the machine was
 * over the run's blocks, or null where it was not measured) }. history (analysis/history.js
 * runHistory, optional): where it holds enough comparable runs, a verdict's interval and status
 * are taken across runs (across-runs.js); without it, every interval is within-run.
 */
function analyseRun(data, scenarios, { history = null } = {}) {
  const ran = data.run.params.scenarios.map((n) => scenarios.find((s) => s.name === n)).filter(Boolean);
  const recordsOf = new Map();
  const verdicts = [];
  for (const scenario of ran) {
    const out = analyseScenario(scenario, {
      measurements: data.measurements.filter((m) => m.scenario === scenario.name),
      blocks: (data.blocks || []).filter((b) => b.scenario === scenario.name),
      sizesOf: (server) => sizesOf(data, scenario.name, server),
      sizeRecordOf: (server) => sizeRecordOf(data, scenario.name, server),
      servers: data.servers,
    });
    recordsOf.set(scenario.name, out.records);
    verdicts.push(...(history ? out.verdicts.map((v) => acrossRunsOf(v, data, history)) : out.verdicts));
  }
  return { scenarios: ran, recordsOf, verdicts, contention: runContention(data.blocks || [], data.end) };
}

/** A verdict with its interval across the comparable runs of the history (across-runs.js), where it holds enough. */
function acrossRunsOf(v, data, history) {
  const others = history.comparableTo(data, v).map((e) => ({ run: e.run.name, startedAt: e.run.startedAt, ratio: e.ratio, lo: e.lo, hi: e.hi, se: e.se, df: e.df, n: e.n }));
  return withAcrossRuns(v, { run: path.basename(data.dir || ''), startedAt: data.run.startedAt ?? null }, others);
}

/**
 * What the run says would reach a larger size of a scenario on a server: its size record (the
 * planner's findings, each too small one with the --budget that would fit it) and the size the
 * run was given (a fixed size names itself), or null.
 */
function sizeRecordOf(data, scenario, server) {
  const { size } = data.run.params;
  const record = (data.sizes || []).find((r) => r.scenario === scenario && r.server === server);
  if (record) return { ...record, size };
  return size && size !== 'auto' ? { size } : null;
}

/**
 * The finding judged on the article's published records, read as one run on the article's
 * clock: a side that names a server of its own (the SQL baseline) is the table's row of that
 * method. Its ratio is what the finding's figure (a field of published.json) must agree with: the
 * unit tests hold each figure to it.
 */
function judgePublished(finding, publishedRecords, upTo = null) {
  const check = checkOf(finding);
  const field = finding.clock?.article ?? check.field;
  const strip = (sel) => (sel ? (({ fromServer, ...where }) => where)(sel) : sel);
  const asRun = {
    ...finding, clock: undefined, requires: undefined,
    check: { ...finding.check, field, num: strip(finding.check.num), den: strip(finding.check.den), ...(finding.check.flat ? { flat: finding.check.flat } : {}) },
  };
  const records = publishedRecords.filter((r) => upTo === null || !Number.isFinite(r[check.x]) || r[check.x] <= upTo).map((r) => ({ ...r, server: 'published' }));
  try {
    return judge(asRun, { scenario: '', server: 'published', records, blocks: [], raw: [], descriptor: null, sizes: null });
  } catch {
    return null; // a check the published table cannot answer: its text says the figure
  }
}

module.exports = { analyseRun, analyseScenario, judgePublished, ruleOf };
