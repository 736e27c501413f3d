'use strict';
// --repeat K: a warm-up run recorded but not counted, K counted runs, and reports of medians with
// their range and coefficient of variation.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');
const { inspectPng } = require('../helpers/png');

describe('--repeat 2 on ferretdb-pg', function () {
  this.timeout(300000);
  let out;
  let run;

  before(async function () {
    skipUnless(this, 'ferretdb-pg');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-repeat-'));
    // one pass: the median, range and cv are read on pass 1's cell, which one pass makes
    const { code, stderr } = await invokeOnFixture(['--server', 'ferretdb-pg', '--size', 'smoke', '--passes', '1', '--repeat', '2', '--no-calibrate', '--out', out]);
    assert.equal(code, 0, stderr);
    run = readRun(out);
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('records a warm-up run and two counted runs of every step', () => {
    const passes = (repeat) => run.measurements.filter((m) => m.repeat === repeat && m.collection === fixture.collections[1]).map((m) => m.pass);
    assert.deepEqual(passes(0), [0, 1]);
    assert.ok(run.measurements.filter((m) => m.repeat === 0).every((m) => m.warmup === true));
    assert.deepEqual(passes(1), [0, 1]);
    assert.deepEqual(passes(2), [0, 1]);
    assert.equal(run.run.params.repeat, 2);
    assert.equal(run.run.params.warmup, true);
  });

  it('reports each cell as the median with its range and coefficient of variation', () => {
    const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
    const hr = (repeat) => run.measurements.find((m) => m.repeat === repeat && m.pass === 1 && m.collection === fixture.collections[1]).hrMs;
    const [lo, hi] = [hr(1), hr(2)].sort((a, b) => a - b);
    const fmt = (v) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    assert.ok(summary.includes(`${fmt((lo + hi) / 2)} [${fmt(lo)}–${fmt(hi)}, cv `), 'pass 1 hr ms as median [min–max, cv]');
    assert.match(summary, /each scenario run 2 times per server after a warm-up run that is not counted/);
  });

  it('still draws its charts', async () => {
    const png = await inspectPng(fs.readFileSync(path.join(out, `${fixture.name}-time-per-pass.png`)));
    assert.ok(png.distinctColours > 10);
  });
});
