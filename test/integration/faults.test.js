'use strict';
// A server that dies in the middle of a pass: the run records which scenario, server and pass
// failed and why, keeps everything measured before, goes on with the next server, and exits 1.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');
const { newTag, processesWithTag } = require('../helpers/processes');

describe('a server killed in the middle of a run', function () {
  this.timeout(300000);
  let out;
  let result;
  let killed = null;
  const tag = newTag();

  before(async function () {
    skipUnless(this, 'ferretdb');
    skipUnless(this, 'ferretdb-pg');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-fault-'));
    const results = path.join(out, 'results.jsonl');
    result = await invokeOnFixture(['--server', 'ferretdb', '--server', 'ferretdb-pg', '--size', 'smoke', '--no-calibrate', '--passes', '3', '--out', out], {
      env: tag,
      onSpawn: () => {
        const timer = setInterval(() => {
          const text = fs.existsSync(results) ? fs.readFileSync(results, 'utf8') : '';
          if (!text.includes('"pass":1,')) return; // pass 2 is under way once pass 1 is recorded
          const ferretdb = processesWithTag(tag).find((p) => /ferretdb .*--handler=sqlite/.test(p.cmd));
          if (ferretdb) { killed = ferretdb; process.kill(ferretdb.pid, 'SIGKILL'); }
          clearInterval(timer);
        }, 100);
      },
    });
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('killed the SQLite FerretDB during pass 2', () => assert.ok(killed, 'found the FerretDB process to kill'));

  it('exits 1 and records the failed scenario, server and pass with the reason', () => {
    assert.equal(result.code, 1, result.stderr);
    const run = readRun(out);
    assert.equal(run.failures.length, 1, JSON.stringify(run.failures));
    const [f] = run.failures;
    assert.deepEqual([f.server, f.scenario, f.step, f.pass], ['ferretdb', fixture.name, 'pass', 2]);
    assert.match(f.error, /pass\.js on server 'ferretdb' exited with code 1: Mongo\w*Error/);
    assert.equal(run.end.status, 'failed');
  });

  it('keeps what was measured before, intact, and goes on with the next server', () => {
    const run = readRun(out);
    assert.deepEqual(run.problems, []);
    const passesOn = (server) => run.measurements.filter((m) => m.server === server && m.collection === fixture.collections[1]).map((m) => m.pass);
    assert.deepEqual(passesOn('ferretdb'), [0, 1]);
    assert.deepEqual(passesOn('ferretdb-pg'), [0, 1, 2, 3]);
  });

  it('shows the failure in the summary and leaves nothing running', () => {
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), new RegExp(`## Failures\\n\\n- ferretdb · ${fixture.name} · pass · pass 2: `));
    assert.deepEqual(processesWithTag(tag), []);
  });
});
