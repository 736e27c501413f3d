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

describe('ferretdb2 whose FerretDB fails to start after its PostgreSQL did', function () {
  this.timeout(120000);
  let out;
  let box;
  let result;
  const tag = newTag();

  before(async function () {
    skipUnless(this, 'ferretdb2');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-fault2-'));
    // the run's temporary folders go here, so that what it leaves can be listed
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-fault2-tmp-'));
    result = await invokeOnFixture(['--server', 'ferretdb2', '--size', 'smoke', '--no-calibrate', '--out', out], {
      env: { ...tag, TMPDIR: box, CLASSICS_FERRETDB2_BIN: '/bin/false' },
    });
  });

  after(() => { for (const dir of [out, box]) if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  it('records the failed start in one line, exits 1, and leaves no process and no folder behind', () => {
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    const run = readRun(out);
    assert.equal(run.failures.length, 1, JSON.stringify(run.failures));
    assert.deepEqual([run.failures[0].server, run.failures[0].step], ['ferretdb2', 'start']);
    assert.match(run.failures[0].error, /^FerretDB did not answer on port \d+ \(.*\); see \S+ferretdb2-ferretdb\.log$/);
    assert.match(fs.readFileSync(path.join(out, 'logs', 'ferretdb2-postgres.log'), 'utf8'), /database system is ready to accept connections/, 'its PostgreSQL had started');
    assert.deepEqual(processesWithTag(tag), []);
    assert.deepEqual(fs.readdirSync(box), []);
  });
});

describe('ferretdb2 where it is not installed', () => {
  it('is refused before anything starts, in one line naming what is missing', async function () {
    this.timeout(60000);
    const result = await invokeOnFixture(['--server', 'ferretdb2', '--size', 'smoke', '--out', path.join(os.tmpdir(), 'classics-never-written')], {
      env: { CLASSICS_DOCUMENTDB_ROOT: '/nonexistent/documentdb-root' },
    });
    assert.equal(result.code, 2, result.stderr);
    const lines = result.stderr.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], /^UsageError: server 'ferretdb2': (FerretDB 2 is not installed at \S+|DocumentDB's root file system is not installed at \/nonexistent\/documentdb-root) \(npm run setup installs it, as root\)$|^UsageError: server 'ferretdb2': ferretdb2 runs PostgreSQL with DocumentDB through chroot, which needs root$/);
    assert.ok(!fs.existsSync(path.join(os.tmpdir(), 'classics-never-written')));
  });
});
