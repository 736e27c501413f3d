'use strict';
// What every scenario's own suite (shell/<name>/test/servers.test.js) shares: its descriptor and
// findings read from its folder; its records in the fixture run of each server kind it declares
// (test/helpers/fixture-runs.js: one smoke run of every scenario per kind, made once per npm test);
// on the parity kind, the same run again in mongosh and in the kit's shell with `--lean off` (every
// call through the driver), with the same seed, and every measurement's non-timing fields compared
// (the two shells' parity, and the two client paths'); and the check that what the scenario
// declares it cannot test on a kind of server comes out so.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('./cli');
const { skipUnless } = require('./servers');
const { newTag } = require('./processes');
const { fixtureRun, prepareFixtures, scenarioView, parityKind, SMOKE_SEED } = require('./fixture-runs');
const { readRun } = require('../../orchestrator/results/reader');
const { withoutTimings, isTimeSample } = require('../../orchestrator/results/records');

/** The kind a scenario's suite checks parity on here: the parity kind, where the scenario declares it. */
function parityKindOf(scenario) {
  const kind = parityKind();
  return kind && scenario.kinds.includes(kind) ? kind : null;
}

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
 * The fixture run's params for a scenario, as the suites read them: { rounds, passes, sizes, seed }.
 * Never a constant of the suite's own: a fixture made with other arguments is read the same way.
 */
function paramsOf(run, name) {
  const { params } = run.run;
  return { rounds: params.rounds[name], passes: params.passes?.[name] ?? params.passes, sizes: params.sizes[name], seed: params.seed, workers: params.workers };
}

/**
 * In a describe(): before its tests, reads the scenario's records in the fixture run of `server`
 * (skipping, with the reason printed, where this machine cannot start that kind); on the parity
 * kind also in the mongosh and --lean off runs, and adds the tests that compare each with the
 * kit's run. Returns an object the tests read once the hook has run:
 * { out, result, run, summary, tag, params, mongoshRun, driverPathRun, whole }, `run` narrowed
 * to the scenario's records (scenarioView) and `whole` the whole fixture run.
 */
function smokeRunOn(scenario, server, { alsoNeeds = [] } = {}) {
  const parity = server === parityKindOf(scenario);
  const state = {};
  before(async function () {
    for (const kind of [server, ...alsoNeeds]) skipUnless(this, kind);
    await prepareFixtures(scenario.kinds); // every kind the suite reads, made or waited for together
    const fixture = await fixtureRun(server);
    Object.assign(state, {
      out: fixture.out,
      result: { code: fixture.code, signal: fixture.signal, stdout: fixture.stdout, stderr: fixture.stderr },
      tag: fixture.tag,
      whole: fixture.run,
      run: scenarioView(fixture.run, scenario.name),
      summary: fixture.summary,
      params: paramsOf(fixture.run, scenario.name),
    });
    if (parity) {
      const mongosh = await fixtureRun(server, 'mongosh');
      const leanOff = await fixtureRun(server, 'lean-off');
      Object.assign(state, {
        mongoshResult: { code: mongosh.code, stderr: mongosh.stderr },
        mongoshRun: scenarioView(mongosh.run, scenario.name),
        driverPathResult: { code: leanOff.code, stderr: leanOff.stderr },
        driverPathRun: scenarioView(leanOff.run, scenario.name),
      });
    }
  });
  it(`ran the fixture run of ${server} to its end, with no failure of ${scenario.name}`, () => {
    assert.ok(state.whole, `no results: ${state.result.stderr}`);
    assert.deepEqual(state.run.failures, [], state.result.stderr);
    assert.equal(state.whole.end?.status, 'ok', state.result.stderr);
    assert.equal(state.result.code, 0, state.result.stderr);
  });
  if (parity) {
    it('measures the same in mongosh: every non-timing field of every measurement line (same seed)', () => {
      assert.equal(state.mongoshResult.code, 0, state.mongoshResult.stderr);
      assert.equal(state.whole.run.params.shell, 'kit');
      assert.equal(state.mongoshRun.run.params.shell, 'mongosh');
      const comparable = (run) => run.measurements.filter((m) => m.server === server && !isTimeSample(m)).map(withoutTimings);
      const kit = comparable(state.run);
      assert.ok(kit.length > 0, 'the kit\'s shell measured something');
      assert.deepEqual(kit, comparable(state.mongoshRun));
    });

    it('measures the same with the kit\'s lean path off (--lean off): every non-timing field of every measurement line (same seed)', () => {
      assert.equal(state.driverPathResult.code, 0, state.driverPathResult.stderr);
      assert.equal(state.whole.run.params.lean, 'on');
      assert.equal(state.driverPathRun.run.params.lean, 'off');
      const onServer = (run) => run.measurements.filter((m) => m.server === server && !isTimeSample(m)).map(withoutTimings);
      const kit = onServer(state.run);
      assert.ok(kit.length > 0, 'the kit\'s shell measured something');
      assert.deepEqual(onServer(state.driverPathRun), kit);
      // each step says which path took its calls: none the lean path's with it off
      const ownSteps = (run) => run.steps.filter((step) => step.server === server);
      assert.ok(ownSteps(state.driverPathRun).length > 0);
      for (const step of ownSteps(state.driverPathRun)) assert.equal(step.calls.path, 'driver', `${step.step} ${step.pass}: ${JSON.stringify(step.calls)}`);
      assert.ok(ownSteps(state.run).every((step) => step.calls && ['lean', 'driver'].includes(step.calls.path)), JSON.stringify(state.run.steps.map((step) => step.calls)));
    });
  }
  return state;
}

/**
 * A run of the suite's own, for what no fixture run holds (two servers paired, a default server's
 * companions): before its tests, runs the scenario at smoke size with `args` (skipping, with the
 * reason printed, where this machine cannot start a kind it needs), and removes its folder after.
 * Returns { out, result, run, tag } once the hook has run.
 */
function ownRunOn(scenario, server, { args = [], alsoNeeds = [] } = {}) {
  const state = { tag: newTag() };
  before(async function () {
    for (const kind of [server, ...alsoNeeds]) skipUnless(this, kind);
    state.out = fs.mkdtempSync(path.join(os.tmpdir(), `classics-${scenario.name}-`));
    state.result = await invokeOrchestrate([scenario.name, '--server', server, '--size', 'smoke', '--seed', SMOKE_SEED, '--no-calibrate', '--out', state.out, ...args], { env: state.tag });
    state.run = readRun(state.out);
  });
  after(() => { if (state.out) fs.rmSync(state.out, { recursive: true, force: true }); });
  return state;
}

/** A run folder's verdicts of one scenario, as verdicts.json holds them: the analysis's fields, not the report's words. */
function verdictsOf(out, scenario = null) {
  const all = JSON.parse(fs.readFileSync(path.join(out, 'verdicts.json'), 'utf8'));
  return scenario ? all.filter((v) => v.scenario === scenario) : all;
}

/** The findings a scenario declares untestable on a kind of server (scenario.json's cannotTest): { id: why }. */
function untestableOn(scenario, kind) {
  const declared = scenario.descriptor.servers[kind] ?? scenario.descriptor.servers[kind.replace(/^mongod-rs/, 'mongod')];
  return declared.cannotTest || {};
}

/**
 * Asserts that every finding the scenario declares untestable on this kind of server is reported
 * so. A kind that declares none fails it: the call would check nothing (call it only where
 * untestableOn() names some).
 */
function assertDeclaredUntestable(scenario, verdicts, kind) {
  const declared = { cannotTest: untestableOn(scenario, kind) };
  const ids = Object.keys(declared.cannotTest);
  assert.ok(ids.length > 0, `${scenario.name} declares no finding untestable on ${kind}: assertDeclaredUntestable would check nothing`);
  for (const id of ids) {
    const verdict = verdicts.find((v) => v.finding === id);
    assert.ok(verdict, `no verdict for ${id}`);
    assert.equal(verdict.status, 'cannot be tested here', `${id} on ${kind} (declared: ${declared.cannotTest[id]}): ${verdict.reason}`);
  }
  return ids.length;
}

module.exports = { scenarioOf, parityKindOf, smokeRunOn, ownRunOn, verdictsOf, untestableOn, assertDeclaredUntestable, paramsOf, SMOKE_SEED };
