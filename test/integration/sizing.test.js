'use strict';
// --size auto on real servers: the fixture scenario on FerretDB's two backends at two small
// budgets, each server probed, its plan printed before the run, a size record per scenario and
// server, and the prediction beside the time its steps took. How close the prediction comes is a
// timing, so it is judged by `npm run bench:sizing` (the 0.5-2× bar), never asserted:
// CI machines are shared, and a timed test fails on their noise; what is asserted is that each
// prediction fits its budget, is the largest that does by the model recorded, and is rendered
// beside the time the steps took. The budgets are small, and nothing is calibrated (no assertion
// reads a calibration). The first run gives each server its own size, the second one
// size for both, with one variable pinned (--set), so that compare has sizes that differ to say.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { unavailable, skipUnless } = require('../helpers/servers');
const { readRun, stepTimeOf } = require('../../orchestrator/results/reader');
const { predictMs, sizesAt } = require('../../orchestrator/sizing/planner');

const SERVERS = ['ferretdb', 'ferretdb-pg'];
const PASSES = 3;
// the second run pins INSERTS to a value the first run's own size did not take, whatever this
// machine's speed made that size, so that compare has sizes that differ to say
const pinFor = (first) => ({ INSERTS: first.sizes.find((s) => s.server === 'ferretdb').sizes.INSERTS === 3 ? 4 : 3 });
const RUNS = [
  { budget: '4s', seconds: 4, extra: () => ['--size-per-server'] },
  { budget: '6s', seconds: 6, extra: (done) => Object.entries(pinFor(done[0].data)).flatMap(([k, v]) => ['--set', `${k}=${v}`]) },
];

describe('--size auto on ferretdb and ferretdb-pg', function () {
  this.timeout(600000);
  let root;
  const done = [];

  before(async function () {
    for (const kind of SERVERS) skipUnless(this, kind);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sizing-'));
    fs.chmodSync(root, 0o755); // PostgreSQL, run as its own user, keeps its data below it
    for (const run of RUNS) {
      const out = path.join(root, run.budget);
      const servers = SERVERS.flatMap((s) => ['--server', s]);
      const extra = run.extra(done);
      const result = await invokeOnFixture([...servers, '--budget', run.budget, '--passes', String(PASSES), '--no-calibrate', ...extra, '--out', out]);
      assert.equal(result.code, 0, result.stderr);
      done.push({ ...run, extra, out, result, data: readRun(out) });
    }
  });

  after(() => { if (root) fs.rmSync(root, { recursive: true, force: true }); });

  it('prints each server\'s plan before the scenario runs', () => {
    for (const { result, budget, extra } of done) {
      const text = result.stdout;
      const head = extra.includes('--size-per-server') ? 'each server its own size (--size-per-server)' : 'one size on every server, the largest that fits on each';
      assert.match(text, new RegExp(`${fixture.name}: ${head.replace(/[()]/g, '\\$&')} predicted to fit the ${budget} budget`));
      for (const server of SERVERS) assert.match(text, new RegExp(`\\n  ${server} +DOCS=[\\d,]+ UPDATES=[\\d,]+ REMOVES=[\\d,]+ INSERTS=[\\d,]+, 3 passes +[\\d.]+% +[\\d.]+ s`));
      assert.ok(text.indexOf('predicted to fit') < text.indexOf('\nopen: '), 'the plan comes before the report');
    }
    // the steps' progress goes to stderr, so the order is read where both are kept: results.jsonl
    for (const { out } of done) {
      const records = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      for (const server of SERVERS) {
        const size = records.findIndex((r) => r.type === 'size' && r.server === server);
        const step = records.findIndex((r) => r.type === 'step' && r.server === server);
        assert.ok(size >= 0 && size < step, `${server}: the size is recorded before its first step`);
      }
    }
  });

  it('records one size per scenario and server, with the budget, the prediction and the model', () => {
    for (const { data, seconds } of done) {
      assert.equal(data.run.params.size, 'auto');
      assert.equal(data.run.params.budgetSeconds, seconds);
      assert.deepEqual(data.sizes.map((s) => s.server).sort(), [...SERVERS].sort());
      for (const s of data.sizes) {
        assert.equal(s.scenario, fixture.name);
        assert.deepEqual(Object.keys(s.sizes).sort(), Object.keys(fixture.sizes.article).filter((k) => k !== 'passes').sort());
        assert.ok(s.fraction > 0 && s.fraction <= 1 && s.predictedSeconds > 0 && s.budgetSeconds === seconds);
        assert.ok(s.model.probes.length >= 3, 'a growing step is probed at three sizes at least');
        assert.match(s.model.text, /^setup: linear.*; pass: /);
        // the run's steps ran at the recorded size
        const inserted = data.measurements.find((m) => m.server === s.server && m.step === 'setup').inserted;
        assert.equal(inserted, s.sizes.DOCS);
      }
    }
    const [perServer, shared] = done.map((d) => d.data.sizes);
    assert.deepEqual(shared[0].sizes, shared[1].sizes, 'one size for both servers by default');
    assert.ok(perServer.every((s) => s.perServer) && shared.every((s) => !s.perServer));
  });

  it('predicts each server\'s steps to fit the budget, pins what --set pins, and prints the prediction beside the time the steps took (judged by bench:sizing)', () => {
    const table = [];
    for (const { data, budget, seconds, extra } of done) {
      for (const s of data.sizes) {
        const actual = stepTimeOf(data, s.scenario, s.server).ms / 1000;
        // the size chosen is predicted to fit the budget, and the record holds the model that
        // predicts it; that it is the largest size that fits is the planner's arithmetic, held to a
        // brute-force search over crafted servers in test/unit/sizing.test.js. The budgets are this
        // machine's seconds, so what is asserted here is the records, not a speed.
        const pinned = extra.includes('--set') ? pinFor(done[0].data) : {};
        const predicted = (x, sizes) => predictMs(fixture, x.model.steps, sizes, PASSES) / 1000;
        // where even the smallest size is predicted past the budget (this machine's seconds: a busy
        // machine's probes), the plan is the smallest size, said to be over budget
        if (s.fits) assert.ok(s.predictedSeconds > 0 && s.predictedSeconds <= seconds * 1.001, `${budget} on ${s.server}: predicted ${s.predictedSeconds} s`);
        else assert.deepEqual(s.sizes, sizesAt(fixture, 0, pinned), `${budget} on ${s.server}: predicted ${s.predictedSeconds} s, over budget, and not the smallest size`);
        assert.ok(Math.abs(predicted(s, s.sizes) - s.predictedSeconds) < 1e-6, `${budget} on ${s.server}: the recorded model gives the recorded prediction`);
        for (const [k, v] of Object.entries(pinned)) assert.equal(s.sizes[k], v, 'the pinned variable');
        assert.ok(Number.isFinite(actual) && actual > 0, `${budget} on ${s.server}: no step time`);
        table.push({ budget, server: s.server, predicted: s.predictedSeconds.toFixed(1), actual: actual.toFixed(1), ratio: (actual / s.predictedSeconds).toFixed(2) });
      }
    }
    console.log(table.map((r) => `      ${r.budget} ${r.server}: predicted ${r.predicted} s, took ${r.actual} s (×${r.ratio})`).join('\n'));
  });

  it('puts the predicted time beside the actual one in summary.md and report.html', () => {
    for (const { out } of done) {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, /### Sizes and time/);
      const data = readRun(out);
      for (const server of SERVERS) {
        // the row's figures are the run's own: the size record's prediction and the steps' time
        const s = data.sizes.find((x) => x.server === server);
        const actual = stepTimeOf(data, s.scenario, server).ms / 1000;
        const row = `| ${fixture.name} | ${server} | DOCS=${s.sizes.DOCS.toLocaleString('en-US')} `;
        const line = summary.split('\n').find((l) => l.startsWith(row));
        assert.ok(line, `no row ${row}`);
        assert.match(line, new RegExp(`\\| ${s.predictedSeconds.toFixed(1)} s${s.fits ? '' : ' \\(over budget\\)'} \\| ${actual.toFixed(1)} s \\| ×${(actual / s.predictedSeconds).toFixed(2)} \\|$`));
      }
      assert.match(summary, /The models that predicted them/);
      assert.match(fs.readFileSync(path.join(out, 'report.html'), 'utf8'), /<th[^>]*>predicted<\/th>\s*<th[^>]*>actual<\/th>/);
    }
  });

  it('re-renders the same sizes from results.jsonl alone', async () => {
    const { out } = done[0];
    const before = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
    const { code, stderr } = await invokeOnFixture(['report', out]);
    assert.equal(code, 0, stderr);
    const sizes = (text) => text.slice(text.indexOf('### Sizes and time'), text.indexOf('\n## ', text.indexOf('### Sizes and time')));
    assert.equal(sizes(fs.readFileSync(path.join(out, 'summary.md'), 'utf8')), sizes(before));
  });

  it('compare says where two runs\' sizes differ, and says nothing of sizes where they are the same', async () => {
    const [a, b] = done;
    const compare = async (x, y, name) => {
      const out = path.join(root, name);
      const { code, stderr } = await invokeOnFixture(['compare', x.out, y.out, '--server-a', 'ferretdb', '--server-b', 'ferretdb', '--out', out]);
      assert.equal(code, 0, stderr);
      return fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    };
    // b pinned INSERTS to a value a's auto size did not take
    const { INSERTS } = pinFor(a.data);
    assert.notEqual(a.data.sizes.find((s) => s.server === 'ferretdb').sizes.INSERTS, INSERTS);
    assert.match(await compare(a, b, 'compare-ab'), new RegExp(`\\*\\*The sizes differ\\*\\* \\(A: DOCS=\\d+ .*INSERTS=\\d+.*; B: DOCS=\\d+ .*INSERTS=${INSERTS}`));
    assert.doesNotMatch(await compare(a, a, 'compare-aa'), /The sizes differ/);
  });
});

/**
 * The kept-probes runs' budget. The probes, the check and the calibration are the same at any
 * budget up to 25 s (the probes aim at 2 s of work below it: planner.js PROBE_TARGET_MS); the
 * steps after them, which no test here reads, fill the budget, so the least of one keeps them short.
 */
const KEPT_BUDGET = '2s';

describe('kept probes and calibration on a second run', function () {
  this.timeout(600000);
  let root;
  let store;
  const runs = {};
  const run = async (name, args) => {
    const out = path.join(root, name);
    // no test here reads a run's report: results.csv alone is rendered (results.jsonl is always written)
    const result = await invokeOnFixture([...args, '--budget', KEPT_BUDGET, '--passes', String(PASSES), '--format', 'results.csv', '--out', out], { env: { CLASSICS_PROBE_STORE: store } });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /warning: .*schema/i, 'the records hold to results.schema.json');
    const records = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    runs[name] = { result, header: records[0], size: records.find((r) => r.type === 'size'), calibration: records.find((r) => r.type === 'calibration') };
    return runs[name];
  };

  before(async function () {
    skipUnless(this, 'ferretdb');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-kept-'));
    fs.chmodSync(root, 0o755);
    store = path.join(root, 'store');
    await run('first', ['--server', 'ferretdb']);
    await run('second', ['--server', 'ferretdb']);
  });

  after(() => { if (root) fs.rmSync(root, { recursive: true, force: true }); });

  it('probes and calibrates the first time, says why, and keeps both in the store\'s folder', () => {
    const { size, calibration } = runs.first;
    assert.equal(size.reuse.reused, false);
    assert.equal(size.reuse.check, null);
    assert.match(size.reuse.why, /^none kept for this machine, server, kit and inputs$/);
    assert.match(runs.first.result.stdout, /ferretdb: no calibration kept for this machine, server, kit and inputs: calibrating/);
    assert.equal(calibration.reuse.reused, false);
    assert.ok(size.probeSeconds > 0);
    assert.deepEqual(fs.readdirSync(store).sort(), ['calibration', 'probes']);
    assert.equal(fs.readdirSync(path.join(store, 'probes')).length, 1);
  });

  it('checks the kept probes with one probe at their first size, and reuses them where it lands within 25%, else probes again and says why', () => {
    const { first, second } = runs;
    const { check } = second.size.reuse;
    const firstProbe = first.size.model.probes[0];
    assert.deepEqual(check.sizes, firstProbe.sizes, 'the check is the kept first probe\'s size, the smallest');
    // its first steps, until they took 2 s in the kept probe (or all of them), against the kept probe's same steps
    const names = fixture.steps.map((s) => s.name);
    assert.deepEqual(check.steps, names.slice(0, check.steps.length));
    const work = (p, steps) => steps.reduce((n, name) => n + p.steps[name].ms, 0);
    assert.equal(check.predictedMs, work(firstProbe, check.steps), 'its prediction is the kept probe at the same size');
    if (check.steps.length < names.length) assert.ok(check.predictedMs >= 2000 && work(firstProbe, check.steps.slice(0, -1)) < 2000);
    assert.equal(check.within, Math.abs(check.ms / check.predictedMs - 1) <= 0.25);
    const text = second.result.stdout;
    if (check.within) {
      assert.equal(second.size.reuse.reused, true);
      const from = Date.parse(second.size.reuse.from);
      assert.ok(from > Date.parse(first.size.reuse.from) && from < Date.parse(second.header.startedAt), 'from when the first run kept them');
      assert.deepEqual(second.size.model.probes, first.size.model.probes, 'the kept probes, at the same budget nothing more');
      // the same probes make the same plan where the calibration (the floor under every operation
      // the planner fits) was kept too; a calibration measured again moves the fit a little
      if (second.calibration.reuse.reused) assert.deepEqual(second.size.sizes, first.size.sizes, 'the same probes and calibration, the same plan');
      assert.ok(second.size.probeSeconds < first.size.probeSeconds, 'one probe against several');
      assert.match(text, /churn on ferretdb: kept probes from \d{4}-\d\d-\d\d \d\d:\d\d UTC reused: the check probe( \([^)]+\))? took [\d.]+ s against [\d.]+ s predicted \([+−±]\d+%\)/);
    } else {
      assert.equal(second.size.reuse.reused, false);
      assert.match(second.size.reuse.why, /^the check probe( \([^)]+\))? took [\d.]+ s against [\d.]+ s predicted \([+−]\d+%\): probing again$/);
      assert.match(text, /churn on ferretdb: the check probe took .*: probing again/);
      assert.deepEqual(second.size.model.probes[0].sizes, check.sizes, 'the check, gone on through every step, is the fresh set\'s first probe');
      assert.deepEqual(Object.keys(second.size.model.probes[0].steps), names);
    }
    console.log(`      the check probe: ${check.ms} ms against ${check.predictedMs} ms kept: ${second.size.reuse.reused ? 'reused' : 'probed again'}`);
  });

  it('checks the kept calibration with a short one, and reuses it where it lands within 25%', () => {
    const { first, second } = runs;
    const { check } = second.calibration.reuse;
    assert.ok(check.ops < first.calibration.ops, 'fewer operations');
    const round = (c) => ['insert', 'find', 'update', 'remove'].reduce((n, t) => n + c.perOp[t].shellMs.kit, 0);
    assert.ok(Math.abs(check.predictedMs - round(first.calibration)) < 0.01, 'against the kept figures');
    assert.equal(second.calibration.reuse.reused, check.within);
    if (check.within) assert.deepEqual(second.calibration.perOp, first.calibration.perOp, 'the kept figures, as they were');
    else assert.match(second.calibration.reuse.why, /calibrating again$/);
  });

  it('probes afresh with --no-reuse, and on another server, and says why', async function () {
    // two runs apart from each other (each its own server, its own key in the store): made at once
    const [fresh, other] = await Promise.all([
      run('no-reuse', ['--server', 'ferretdb', '--no-calibrate', '--no-reuse']),
      unavailable('ferretdb-pg') ? null : run('other-server', ['--server', 'ferretdb-pg', '--no-calibrate']),
    ]);
    assert.equal(fresh.size.reuse.reused, false);
    assert.equal(fresh.size.reuse.check, null);
    assert.equal(fresh.size.reuse.why, 'fresh probes asked for (--no-reuse)');
    assert.ok(fresh.size.model.probes.length >= 3);
    skipUnless(this, 'ferretdb-pg');
    assert.equal(other.size.reuse.reused, false);
    assert.equal(other.size.reuse.check, null, 'nothing kept for it to check');
    assert.match(other.size.reuse.why, /^none kept/);
    assert.match(other.result.stdout, /churn on ferretdb-pg: no probes kept for this machine, server, kit and inputs: probing/);
    assert.equal(fs.readdirSync(path.join(store, 'probes')).length, 2, 'one set of probes per server');
  });
});
