'use strict';
// What every scenario's own suite (shell/<name>/test/servers.test.js) shares: its descriptor and
// findings read from its folder, one smoke run per server kind the scenario declares (run before
// the suite's tests, its folder removed after) in the kit's shell, the same run again in mongosh
// and in the kit's shell with `--lean off` (every call through the driver), with the same seed,
// and every measurement's non-timing fields compared (the two shells' parity, and the two client
// paths'), and the check that what the scenario declares it cannot test on a kind of server
// comes out so.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('./cli');
const { skipUnless, unavailableReason } = require('./servers');
const { newTag } = require('./processes');
const { readRun } = require('../../orchestrator/results/reader');
const { withoutTimings, isTimeSample } = require('../../orchestrator/results/records');

/**
 * Where a scenario's suite checks the shells' parity: on one kind of server, the first this
 * machine can start of these (a user's mongod, then the default here, then the FerretDB kinds).
 * Parity is a property of the shells and the scripts, not of the server; the parity runs cost two
 * smoke runs each, and on every kind they took a quarter of CI (on the 2-core machine, 36 min).
 */
const PARITY_KINDS = ['mongod', 'ferretdb2', 'ferretdb-pg', 'ferretdb'];

/** The kind a scenario's suite checks parity on here: the first of PARITY_KINDS it declares and this machine has. */
function parityKindOf(scenario) {
  return PARITY_KINDS.find((kind) => scenario.kinds.includes(kind) && !unavailableReason(kind)) ?? null;
}

/** The seed of every scenario suite's smoke runs, so that the two shells draw the same numbers. */
const SMOKE_SEED = '20141105';

/** The scenario whose folder holds the suite: { name, descriptor, findings, kinds }. */
function scenarioOf(testDir) {
  const dir = path.resolve(testDir, '..');
  const descriptor = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
  const { findings } = JSON.parse(fs.readFileSync(path.join(dir, descriptor.published), 'utf8'));
  // a scenario that runs on mongod runs on mongod-rs too (a replica set of one member: the same
  // kind for what it declares, another topology)
  const kinds = Object.keys(descriptor.servers);
  return { name: descriptor.name, dir, descriptor, findings, kinds: kinds.includes('mongod') ? [...kinds, 'mongod-rs'] : kinds };
}

/**
 * In a describe(): before its tests, runs the scenario at smoke size on `server` (skipping, with
 * the reason printed, where this machine cannot start that kind), and removes the run's folder
 * after; with parity (by default on the scenario's parity kind only, parityKindOf), runs it again in mongosh and in the kit's shell with --lean
 * off (neither calibrating nor running baselines: the kit's run has them) and adds the tests
 * that compare each with the kit's run. Returns an object the tests read once the hook has run:
 * { out, result, run, tag }.
 */
function smokeRunOn(scenario, server, { args = [], env = {}, alsoNeeds = [], parity = server === parityKindOf(scenario) } = {}) {
  const state = { tag: newTag() };
  before(async function () {
    for (const kind of [server, ...alsoNeeds]) skipUnless(this, kind);
    state.out = fs.mkdtempSync(path.join(os.tmpdir(), `classics-${scenario.name}-`));
    const common = [scenario.name, '--server', server, '--size', 'smoke', '--seed', SMOKE_SEED];
    state.result = await invokeOrchestrate([...common, '--shell', 'kit', '--out', state.out, ...args], { env: { ...state.tag, ...env } });
    state.run = readRun(state.out);
    state.summary = fs.readFileSync(path.join(state.out, 'summary.md'), 'utf8');
    if (parity) {
      const without = ['--no-calibrate', '--no-baseline'];
      const again = async (name, shellArgs) => {
        const out = fs.mkdtempSync(path.join(os.tmpdir(), `classics-${scenario.name}-${name}-`));
        const result = await invokeOrchestrate([...common, ...shellArgs, '--out', out, ...args.filter((a) => !without.includes(a)), ...without], { env: { ...state.tag, ...env } });
        return { out, result, run: readRun(out) };
      };
      ({ out: state.mongoshOut, result: state.mongoshResult, run: state.mongoshRun } = await again('mongosh', ['--shell', 'mongosh']));
      ({ out: state.driverPathOut, result: state.driverPathResult, run: state.driverPathRun } = await again('lean-off', ['--shell', 'kit', '--lean', 'off']));
    }
  });
  after(() => {
    for (const dir of [state.out, state.mongoshOut, state.driverPathOut]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  if (parity) {
    it('measures the same in mongosh: every non-timing field of every measurement line (same seed)', () => {
      assert.equal(state.mongoshResult.code, 0, state.mongoshResult.stderr);
      assert.equal(state.run.run.params.shell, 'kit');
      assert.equal(state.mongoshRun.run.params.shell, 'mongosh');
      const comparable = (run) => run.measurements.filter((m) => m.server === server && !isTimeSample(m)).map(withoutTimings);
      const kit = comparable(state.run);
      assert.ok(kit.length > 0, 'the kit\'s shell measured something');
      assert.deepEqual(kit, comparable(state.mongoshRun));
    });

    it('measures the same with the kit\'s lean path off (--lean off): every non-timing field of every measurement line (same seed)', () => {
      assert.equal(state.driverPathResult.code, 0, state.driverPathResult.stderr);
      assert.equal(state.run.run.params.lean, 'on');
      assert.equal(state.driverPathRun.run.params.lean, 'off');
      const onServer = (run) => run.measurements.filter((m) => m.server === server && !isTimeSample(m)).map(withoutTimings);
      assert.deepEqual(onServer(state.driverPathRun), onServer(state.run));
      // each step says which path took its calls: none the lean path's with it off
      for (const step of state.driverPathRun.steps) assert.equal(step.calls.path, 'driver', `${step.step} ${step.pass}: ${JSON.stringify(step.calls)}`);
      assert.ok(state.run.steps.every((step) => step.calls && ['lean', 'driver'].includes(step.calls.path)), JSON.stringify(state.run.steps.map((step) => step.calls)));
    });
  }
  return state;
}

/** A run folder's verdicts, as verdicts.json holds them: the analysis's fields, not the report's words. */
function verdictsOf(out) {
  return JSON.parse(fs.readFileSync(path.join(out, 'verdicts.json'), 'utf8'));
}

/** Asserts that every finding the scenario declares untestable on this kind of server is reported so. */
function assertDeclaredUntestable(scenario, verdicts, kind) {
  const declared = scenario.descriptor.servers[kind] ?? scenario.descriptor.servers[kind.replace(/^mongod-rs/, 'mongod')];
  for (const [id, reason] of Object.entries(declared.cannotTest || {})) {
    const verdict = verdicts.find((v) => v.finding === id);
    assert.ok(verdict, `no verdict for ${id}`);
    assert.equal(verdict.status, 'cannot be tested here', `${id} on ${kind} (declared: ${reason}): ${verdict.reason}`);
  }
}

module.exports = { scenarioOf, parityKindOf, smokeRunOn, verdictsOf, assertDeclaredUntestable };
