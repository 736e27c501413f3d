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
const { skipUnless } = require('../helpers/servers');
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
        // the planner's promise: the size chosen is predicted to fit the budget, by the model it
        // recorded, and is the largest that does: a tenth more of the article is predicted past
        // the budget on this server, or on one of the servers sharing its size. The budgets are
        // this machine's seconds, so what is asserted is the planner's arithmetic, not a speed.
        const pinned = extra.includes('--set') ? pinFor(done[0].data) : {};
        const predicted = (x, sizes) => predictMs(fixture, x.model.steps, sizes, PASSES) / 1000;
        assert.ok(s.predictedSeconds > 0 && s.predictedSeconds <= seconds * 1.001, `${budget} on ${s.server}: predicted ${s.predictedSeconds} s`);
        assert.ok(Math.abs(predicted(s, s.sizes) - s.predictedSeconds) < 1e-6, `${budget} on ${s.server}: the recorded model gives the recorded prediction`);
        if (s.fraction < 1) {
          const larger = sizesAt(fixture, Math.min(1, s.fraction * 1.1 + 1 / fixture.sizes.article.DOCS), pinned);
          const group = s.perServer ? [s] : data.sizes;
          assert.ok(Math.max(...group.map((x) => predicted(x, larger))) > seconds, `${budget} on ${s.server}: DOCS=${larger.DOCS} is predicted to fit too, so DOCS=${s.sizes.DOCS} is not the largest`);
        }
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
        assert.match(line, new RegExp(`\\| ${s.predictedSeconds.toFixed(1)} s \\| ${actual.toFixed(1)} s \\| ×${(actual / s.predictedSeconds).toFixed(2)} \\|$`));
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
