'use strict';
// --size auto on real servers: the fixture scenario on FerretDB's two backends at two small
// budgets, each server probed, its plan printed before the run, a size record per scenario and
// server, and the prediction beside the time its steps took. How close the prediction comes is a
// timing, so it is printed here and judged by `npm run bench:sizing` (the 0.5-2× bar),
// never asserted: CI machines are shared, and a timed test fails on their noise. The budgets are
// kept small to keep CI short. The first run gives each server its own size, the second one size
// for both; compare says where two runs' sizes differ.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { skipUnless } = require('../helpers/servers');
const { readRun, stepTimeOf } = require('../../orchestrator/results/reader');

const SERVERS = ['ferretdb', 'ferretdb-pg'];
const RUNS = [
  { budget: '15s', seconds: 15, extra: ['--size-per-server'] },
  { budget: '30s', seconds: 30, extra: [] },
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
      const result = await invokeOnFixture([...servers, '--budget', run.budget, '--passes', '3', ...run.extra, '--out', out]);
      assert.equal(result.code, 0, result.stderr);
      done.push({ ...run, out, result, data: readRun(out) });
    }
  });

  after(() => { if (root) fs.rmSync(root, { recursive: true, force: true }); });

  it('prints each server\'s plan before the scenario runs', () => {
    for (const { result, budget, extra } of done) {
      const text = result.stdout;
      const head = extra.length ? 'each server its own size (--size-per-server)' : 'one size on every server, the largest that fits on each';
      assert.match(text, new RegExp(`${fixture.name}: ${head.replace(/[()]/g, '\\$&')} predicted to fit the ${budget} budget`));
      for (const server of SERVERS) assert.match(text, new RegExp(`\\n  ${server} +DOCS=[\\d,]+ UPDATES=[\\d,]+ REMOVES=[\\d,]+ INSERTS=[\\d,]+, 3 passes +[\\d.]+% +[\\d.]+ s`));
      assert.ok(text.indexOf('predicted to fit') < text.indexOf('wrote '), 'the plan comes before the report');
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

  it('records a prediction and the time the steps took for each server (printed; judged by bench:sizing)', () => {
    const table = [];
    for (const { data, budget } of done) {
      for (const s of data.sizes) {
        const actual = stepTimeOf(data, s.scenario, s.server).ms / 1000;
        assert.ok(Number.isFinite(s.predictedSeconds) && s.predictedSeconds > 0, `${budget} on ${s.server}: no prediction`);
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
      for (const server of SERVERS) assert.match(summary, new RegExp(`\\| ${fixture.name} \\| ${server} \\| DOCS=[\\d,]+ [^|]+\\| [\\d.]+% \\| [\\d.]+ s \\| [\\d.]+ s \\| ×[\\d.]+ \\|`));
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

  it('compare says where two runs\' sizes differ', async () => {
    const [a, b] = done;
    const out = path.join(root, 'compare');
    const { code, stderr } = await invokeOnFixture(['compare', a.out, b.out, '--server-a', 'ferretdb', '--server-b', 'ferretdb', '--out', out]);
    assert.equal(code, 0, stderr);
    const text = fs.readFileSync(path.join(out, 'compare.md'), 'utf8');
    const same = JSON.stringify(a.data.sizes.find((s) => s.server === 'ferretdb').sizes) === JSON.stringify(b.data.sizes.find((s) => s.server === 'ferretdb').sizes);
    if (same) assert.doesNotMatch(text, /The sizes differ/);
    else assert.match(text, /\*\*The sizes differ\*\* \(A: DOCS=\d+ .*; B: DOCS=\d+ /);
  });
});
