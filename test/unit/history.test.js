'use strict';
// The history: the store over run folders (results/history.js), each finding per machine and
// server with its change points (analysis/history.js), a verdict decided across the comparable
// runs (analysis/across-runs.js), machine fingerprints (results/machine.js), compare's first line
// across machines, and `orchestrate history` itself. On copies of a kept example's many-keys
// records, each copy's blocks of one side scaled to move buckets-faster by a known factor.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openHistory } = require('../../orchestrator/results/history');
const { fingerprintOf, fingerprintFrom, machineId } = require('../../orchestrator/results/machine');
const { machineFingerprint } = require('../../orchestrator/run/test-bed');
const { runHistory, findingHistories, compareVersions } = require('../../orchestrator/analysis/history');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { buildComparison } = require('../../orchestrator/analysis/comparison');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { recordProblem, verdictsSchemaProblems } = require('../../orchestrator/schemas');
const { verdictsJson } = require('../../orchestrator/export/verdicts-json');
const { historyHtml, historyLines } = require('../../orchestrator/report/history');
const { invokeOrchestrate } = require('../helpers/cli');
const { main } = require('../../orchestrator/cli');

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLE = path.join(ROOT, 'reports/examples/main-job-intel');
const SCENARIOS = discoverScenarios(path.join(ROOT, 'shell')).filter((s) => s.name === 'many-keys');
const TIMED = ['ms', 'hrMs', 'seconds', 'appliedMs', 'appliedHrMs', 'appliedSeconds'];

/**
 * A copy of the example's many-keys records in dir: its original schema's blocks' times × factor
 * (buckets-faster × factor), its start at `startedAt`, its header and server record edited.
 */
function copyRun(dir, { factor = 1, startedAt, header = (h) => h, server = (s) => s }) {
  fs.mkdirSync(dir, { recursive: true });
  const out = [];
  for (const line of fs.readFileSync(path.join(EXAMPLE, 'results.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r = JSON.parse(line);
    if (r.scenario && r.scenario !== 'many-keys') continue;
    if (r.type === 'run') r = header({ ...r, startedAt, runId: path.basename(dir), params: { ...r.params, scenarios: ['many-keys'] } });
    if (r.type === 'server') r = server(r);
    if (r.type === 'block' && r.schema === 'original') for (const f of TIMED) if (Number.isFinite(r[f])) r[f] *= factor;
    out.push(JSON.stringify(r));
  }
  fs.writeFileSync(path.join(dir, 'results.jsonl'), `${out.join('\n')}\n`);
  return dir;
}

describe('history: machine fingerprints', () => {
  it('records CPU, cores, memory, kernel and Node with a short id, which the header schema takes', () => {
    const fp = machineFingerprint();
    assert.match(fp.id, /^[0-9a-f]{10}$/);
    assert.equal(fp.id, machineId(fp));
    assert.equal(fp.node, process.version);
    assert.deepEqual(fp.canary, { record: 'calibration', field: 'perOp.<type>.driverMs' });
    assert.equal(recordProblem({ type: 'run', params: { scenarios: [] }, fingerprint: fp }), null);
    assert.ok(recordProblem({ type: 'run', params: { scenarios: [] }, fingerprint: { ...fp, id: 'not hex' } }));
  });

  it('derives the fingerprint of a run from before from its header\'s machine: a kernel or CPU makes another machine, a few pages of memory do not', () => {
    const header = JSON.parse(fs.readFileSync(path.join(EXAMPLE, 'results.jsonl'), 'utf8').split('\n')[0]);
    const fp = fingerprintOf(header);
    assert.equal(fp.derived, true);
    assert.equal(fp.kernel, 'Linux 6.18.44-fc-v669');
    assert.equal(fp.id, fingerprintFrom({ ...header.machine, memoryBytes: header.machine.memoryBytes + 8192 }).id);
    assert.notEqual(fp.id, fingerprintFrom({ ...header.machine, platform: 'Linux 6.18.44-fc-v782 x64' }).id);
    assert.notEqual(fp.id, fingerprintFrom({ ...header.machine, cpu: 'AMD EPYC' }).id);
    assert.equal(fingerprintOf({ ...header, fingerprint: fp }).derived, false);
  });
});

describe('history: the store, each finding\'s runs, and verdicts across runs', function () {
  this.timeout(60000);
  let dir;
  let runs;
  let added;
  const otherMachine = (h) => ({ ...h, machine: { ...h.machine, cpu: 'AMD EPYC' } });
  const newerServer = (s) => ({ ...s, version: 'v2.8.0' });
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-history-'));
    runs = path.join(dir, 'runs');
    added = path.join(dir, 'elsewhere');
    copyRun(path.join(runs, 'r1'), { startedAt: '2026-11-28T10:00:00.000Z', factor: 1 });
    copyRun(path.join(runs, 'r2'), { startedAt: '2026-11-28T11:00:00.000Z', factor: 1.005 });
    copyRun(path.join(runs, 'r3'), { startedAt: '2026-11-28T12:00:00.000Z', factor: 0.995 });
    // a newer version of the server, where buckets-faster fell to half
    copyRun(path.join(runs, 'r4'), { startedAt: '2026-11-28T09:00:00.000Z', factor: 0.5, server: newerServer });
    // a run copied from another machine
    copyRun(path.join(added, 'x1'), { startedAt: '2026-11-28T13:00:00.000Z', header: otherMachine });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads every run folder and the folders added, one machine apart from the other, and refuses a folder with no run in one line', () => {
    const store = openHistory({ runsDir: runs, added: [added] });
    assert.deepEqual(store.runs.map((r) => r.name), ['r4', 'r1', 'r2', 'r3', 'x1']);
    assert.deepEqual(store.runs.map((r) => r.added), [false, false, false, false, true]);
    assert.equal(new Set(store.runs.map((r) => r.machine.id)).size, 2);
    assert.throws(() => openHistory({ runsDir: runs, added: [path.join(dir, 'nothing')] }), /holds no run/);
  });

  it('groups each finding by machine and server, versions in order then time, and marks the change between versions by compare\'s test', () => {
    const store = openHistory({ runsDir: runs, added: [added] });
    const [h] = findingHistories(runHistory(store, SCENARIOS).entries({ findings: ['buckets-faster'] }));
    assert.equal(h.machines.length, 2, 'two machines, never one series');
    const [here] = h.machines;
    assert.deepEqual(here.servers.map((s) => s.entries.map((e) => e.run.name)), [['r1', 'r2', 'r3'], ['r4']], 'v1 ... before v2.8, each by time');
    assert.match(here.servers[1].server.key, /FerretDB 2\.8/);
    const [between] = here.changes;
    assert.equal(between.kind, 'between versions');
    assert.equal(between.changed, true);
    assert.ok(Math.abs(between.factor - 0.5) < 0.05, `${between.factor}`);
    assert.deepEqual(here.servers[0].changes.filter((c) => c.changed), [], 'no change over time within ±0.5%');
    const lines = historyLines([h]);
    assert.match(lines[0], /^These runs come from 2 different machines/);
    assert.ok(lines.some((l) => /CHANGE between versions/.test(l)));
    assert.ok(compareVersions('v1.24.0', 'v2.7.0') < 0 && compareVersions('8.0.1', '7.0.12') > 0);
  });

  it('marks nothing between two runs that tested nothing, and a status that moved without a ratio', () => {
    const entry = (name, at, status, ratio = null) => ({
      finding: 'f', scenario: 's', run: { name, startedAt: at }, machine: { id: 'm' }, server: { key: 'S 1.0', product: 'S', version: '1.0' },
      sizesKey: '[]', status, ratio, lo: null, hi: null, se: null, df: null, n: ratio ? 1 : 0,
    });
    const [h] = findingHistories([entry('a', '1', 'cannot be tested here'), entry('b', '2', 'cannot be tested here'), entry('c', '3', 'inconclusive', 1.2)]);
    const marks = h.machines[0].servers[0].changes;
    assert.equal(marks.length, 1);
    assert.deepEqual([marks[0].from, marks[0].to, marks[0].statusMoved], ['b', 'c', true]);
  });

  it('decides a verdict across 3 comparable quiet runs, and says within-run where there are fewer or none is given', () => {
    const store = openHistory({ runsDir: runs });
    const alone = readRunModel(path.join(runs, 'r3'), SCENARIOS).verdicts.find((v) => v.finding === 'buckets-faster');
    assert.equal(alone.estimate.scope, 'within-run');
    const v = readRunModel(path.join(runs, 'r3'), SCENARIOS, store).verdicts.find((x) => x.finding === 'buckets-faster');
    assert.equal(v.estimate.scope, 'across-runs');
    const across = v.estimate.acrossRuns;
    assert.equal(across.runs, 3, 'r1, r2 and r3: r4 is another version');
    assert.deepEqual(across.from.map((r) => r.run).sort(), ['r1', 'r2', 'r3']);
    assert.ok(across.lo < across.ratio && across.ratio < across.hi && across.df > 0);
    assert.ok(v.reasons.some((r) => r.code === 'across-runs'));
    // verdicts.json carries it, and holds to its schema
    const model = readRunModel(path.join(runs, 'r3'), SCENARIOS, store);
    const json = JSON.parse(verdictsJson([{ label: 'r3', verdicts: model.verdicts }], model.findingOf));
    assert.deepEqual(verdictsSchemaProblems(json), []);
    assert.equal(json.find((x) => x.finding === 'buckets-faster').estimate.acrossRuns.runs, 3);
    // the other machine's run has no comparable run: within-run
    const x = readRunModel(path.join(added, 'x1'), SCENARIOS, openHistory({ runsDir: runs, added: [added] })).verdicts.find((y) => y.finding === 'buckets-faster');
    assert.equal(x.estimate.scope, 'within-run');
  });

  it('widens the interval by the spread between runs, and decides the status on it', () => {
    const spread = path.join(dir, 'spread');
    copyRun(path.join(spread, 's1'), { startedAt: '2026-11-27T10:00:00.000Z', factor: 1.35 });
    copyRun(path.join(spread, 's2'), { startedAt: '2026-11-27T11:00:00.000Z', factor: 0.7 });
    copyRun(path.join(spread, 's3'), { startedAt: '2026-11-27T12:00:00.000Z', factor: 1 });
    const alone = readRunModel(path.join(spread, 's3'), SCENARIOS).verdicts.find((x) => x.finding === 'buckets-faster');
    const v = readRunModel(path.join(spread, 's3'), SCENARIOS, openHistory({ runsDir: spread })).verdicts.find((x) => x.finding === 'buckets-faster');
    assert.equal(alone.status, 'does not hold', 'alone, 0.88× (0.85–0.91×) is well under the failing threshold 1.1×');
    const across = v.estimate.acrossRuns;
    assert.ok(across.hi / across.lo > 2 * (alone.hi / alone.lo), `${across.lo}–${across.hi} against ${alone.lo}–${alone.hi}`);
    assert.ok(across.hi > 1.1, 'the runs\' spread reaches past the failing threshold');
    assert.equal(v.status, 'inconclusive');
    const reason = v.reasons.find((r) => r.code === 'across-runs');
    assert.deepEqual([reason.runs, reason.within.status], [3, 'does not hold']);
    assert.ok(v.reasons.some((r) => r.code === 'straddles'), 'the rule\'s reason made again from the interval across runs');
  });

  it('compare says first that two runs come from different machines, with a fingerprint edited in a copy of a run', () => {
    const c = buildComparison({ a: readRunModel(path.join(runs, 'r1'), SCENARIOS), b: readRunModel(path.join(added, 'x1'), SCENARIOS), scenarios: SCENARIOS });
    assert.match(c.machines.line, /^A and B ran on different machines \(CPU Intel Xeon against AMD EPYC\): compare the shapes/);
    assert.equal(buildComparison({ a: readRunModel(path.join(runs, 'r1'), SCENARIOS), b: readRunModel(path.join(runs, 'r2'), SCENARIOS), scenarios: SCENARIOS }).machines.line, null);
    // a recorded fingerprint, edited
    const edited = copyRun(path.join(dir, 'edited'), { startedAt: '2026-11-28T14:00:00.000Z', header: (h) => ({ ...h, fingerprint: { ...fingerprintOf(h), derived: undefined, kernel: 'Linux 7.0', id: '0123456789' } }) });
    assert.match(buildComparison({ a: readRunModel(path.join(runs, 'r1'), SCENARIOS), b: readRunModel(edited, SCENARIOS), scenarios: SCENARIOS }).machines.line, /kernel Linux 6\.18\.44-fc-v669 against Linux 7\.0/);
  });

  it('orchestrate compare prints it as its first line, and compare.md under its title', async () => {
    const lines = [];
    const out = path.join(dir, 'compare');
    const code = await main(['node', 'orchestrate', 'compare', path.join(runs, 'r1'), path.join(added, 'x1'), '--out', out], { env: { ...process.env, CLASSICS_SHELL_DIR: '' }, log: (l) => lines.push(l) });
    assert.equal(code, 0);
    assert.match(lines[0], /^A and B ran on different machines/);
    assert.match(fs.readFileSync(path.join(out, 'compare.md'), 'utf8').split('\n')[2], /^\*\*A and B ran on different machines/);
  });

  it('history.html renders a run folder\'s name as text, never as markup', () => {
    const store = openHistory({ runsDir: runs });
    const [h] = findingHistories(runHistory(store, SCENARIOS).entries({ findings: ['buckets-faster'] }));
    const evil = { ...h, machines: h.machines.map((m) => ({ ...m, servers: m.servers.map((s) => ({ ...s, server: { ...s.server, key: '<img src=x onerror=alert(1)>' }, entries: s.entries.map((e) => ({ ...e, run: { ...e.run, name: '<script>x</script>' } })) })) })) };
    const html = historyHtml([evil]);
    assert.ok(!html.includes('<img src=x') && !html.includes('<script>x'));
    assert.ok(html.includes('&lt;img src=x'));
  });

  it('orchestrate history prints each finding\'s runs and writes history.html and history.png; a finding it does not know is one line and exit 2', async () => {
    const out = path.join(dir, 'page');
    const env = { CLASSICS_RUNS_DIR: runs };
    const r = await invokeOrchestrate(['history', 'buckets-faster', '--runs', added, '--out', out], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout.split('\n')[0], /^These runs come from 2 different machines/);
    assert.match(r.stdout, /r1 .*\n.*r2 .*\n.*r3 /);
    assert.ok(fs.statSync(path.join(out, 'history.html')).size > 1000 && fs.statSync(path.join(out, 'history.png')).size > 1000);
    const json = await invokeOrchestrate(['history', 'buckets-faster', '--json', '--out', out], { env });
    const parsed = JSON.parse(json.stdout);
    assert.deepEqual(parsed.findings[0].machines[0].servers[0].runs.map((x) => x.run), ['r1', 'r2', 'r3']);
    const bad = await invokeOrchestrate(['history', 'no-such-finding', '--out', out], { env });
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  });
});
