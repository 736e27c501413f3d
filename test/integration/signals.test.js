'use strict';
// Ctrl-C in the middle of a run: results kept and marked, every process the kit started stopped,
// on each kind of server the kit starts with a PostgreSQL behind it (ferretdb2's runs in a root
// file system of its own, through unshare and chroot).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { waitFor } = require('../helpers/wait');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');
const { newTag, processesWithTag } = require('../helpers/processes');

/** The temporary folders the processes name (ferretdb2's PostgreSQL sees its own bound at /mnt). */
const namedFolders = (processes) => processes.flatMap((p) => (/([^\s=]*\/classics-(?:pg|ferretdb2?)-\w+)/.exec(p.cmd) || []).slice(1));

for (const kind of ['ferretdb-pg', 'ferretdb2']) for (const signal of ['SIGINT', 'SIGTERM']) {
  describe(`${signal} during a run on ${kind}`, function () {
    this.timeout(180000);
    let out;
    let result;
    let running;
    let tmp;
    const tag = newTag();

    before(async function () {
      skipUnless(this, kind);
      out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-signal-'));
      // the run's temporary folders go here, so that what it leaves can be listed (ferretdb2's
      // PostgreSQL names its folder only as bound into its root file system)
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-signal-tmp-'));
      fs.chmodSync(tmp, 0o755); // ferretdb-pg's PostgreSQL, run as its own user as root, keeps its data below it
      const results = path.join(out, 'results.jsonl');
      result = await invokeOnFixture(['--server', kind, '--size', 'smoke', '--no-calibrate', '--passes', '20', '--out', out], {
        env: { ...tag, TMPDIR: tmp },
        onSpawn: (child) => {
          waitFor(() => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"step":"pass"'), 150000)
            .then(() => {
              running = processesWithTag(tag);
              child.kill(signal);
            }, () => child.kill('SIGKILL'));
        },
      });
    });

    after(() => { for (const dir of [out, tmp]) if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

    it(`exits with ${signal === 'SIGINT' ? 130 : 143}`, () => {
      assert.equal(result.code, signal === 'SIGINT' ? 130 : 143, result.stderr);
    });

    it('had started a FerretDB and a PostgreSQL, and none of them is left', () => {
      assert.ok(running.some((p) => /ferretdb/.test(p.cmd)), 'FerretDB was running');
      assert.ok(running.some((p) => /postgres/.test(p.cmd)), 'PostgreSQL was running');
      assert.deepEqual(processesWithTag(tag), []);
    });

    it('keeps every measurement taken and marks the run interrupted', () => {
      const run = readRun(out);
      assert.deepEqual(run.problems, []);
      assert.ok(run.measurements.some((m) => m.step === 'pass'));
      assert.equal(run.end.status, 'interrupted');
      assert.equal(run.end.signal, signal);
      assert.deepEqual(run.failures, [], 'the stopped step is not counted as a failure');
    });

    it('still writes the summary of what it measured', () => {
      assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /This run was interrupted/);
    });

    it('removes its temporary folders', () => {
      const leftovers = namedFolders(running);
      assert.ok(leftovers.length > 0, 'the processes named their folders');
      for (const dir of leftovers) assert.ok(!fs.existsSync(dir), `${dir} is gone`);
      assert.deepEqual(fs.readdirSync(tmp), [], 'nothing is left in the run\'s TMPDIR');
    });
  });
}

for (const kind of ['ferretdb-pg', 'ferretdb2']) describe(`two Ctrl-Cs in a row on ${kind}`, function () {
  this.timeout(180000);
  let result;
  let out;
  let running = [];
  const tag = newTag();

  before(async function () {
    skipUnless(this, kind);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-signal2-'));
    const results = path.join(out, 'results.jsonl');
    result = await invokeOnFixture(['--server', kind, '--size', 'smoke', '--no-calibrate', '--passes', '20', '--out', out], {
      env: tag,
      onSpawn: (child) => {
        waitFor(() => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"step":"pass"'), 150000)
          .then(() => { running = processesWithTag(tag); child.kill('SIGINT'); setTimeout(() => child.kill('SIGINT'), 50); }, () => child.kill('SIGKILL'));
      },
    });
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('still exits 130, keeps the results readable and leaves nothing running', async () => {
    assert.equal(result.code, 130, result.stderr);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    assert.deepEqual(readRun(out).problems, []);
    // a PostgreSQL backend may take a moment to notice its postmaster was killed
    await waitFor(() => processesWithTag(tag).length === 0, 10000).catch(() => {});
    assert.deepEqual(processesWithTag(tag), []);
    const folders = namedFolders(running);
    assert.ok(folders.length > 0, 'the processes named their folders');
    for (const dir of folders) assert.ok(!fs.existsSync(dir), `${dir} is gone`);
  });
});
