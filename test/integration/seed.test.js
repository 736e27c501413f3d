'use strict';
// --seed N: two runs with one seed send the same operations, so every tally matches.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');

describe('--seed on ferretdb', function () {
  this.timeout(300000);
  const outs = [];
  const runs = [];

  before(async function () {
    skipUnless(this, 'ferretdb');
    // only results.jsonl is read: no charts or pages are rendered
    for (const seed of ['42', '42', '7']) {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-seed-'));
      outs.push(out);
      const { code, stderr } = await invokeOnFixture(['--server', 'ferretdb', '--size', 'smoke', '--passes', '2', '--seed', seed, '--no-calibrate', '--format', 'results.csv', '--out', out]);
      assert.equal(code, 0, stderr);
      runs.push(readRun(out));
    }
  });

  after(() => outs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  const tallies = (run) => run.measurements.map((m) => [m.collection, m.pass, m.matched, m.removed, m.inserted, m.count, m.size]);

  it('records the seed', () => assert.equal(runs[0].run.params.seed, 42));
  it('sends the same operations with the same seed', () => assert.deepEqual(tallies(runs[0]), tallies(runs[1])));
  it('sends other operations with another seed', () => assert.notDeepEqual(tallies(runs[0]), tallies(runs[2])));
});
