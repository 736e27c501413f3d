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
const { newTag, processesWithTag, leftAfter } = require('../helpers/processes');

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

    it('had started a FerretDB and a PostgreSQL, and none of them is left', async () => {
      assert.ok(running.some((p) => /ferretdb/.test(p.cmd)), 'FerretDB was running');
      assert.ok(running.some((p) => /postgres/.test(p.cmd)), 'PostgreSQL was running');
      assert.deepEqual(await leftAfter(tag), []);
    });

    it('keeps every measurement taken and marks the run interrupted', () => {
      const run = readRun(out);
      assert.deepEqual(run.problems, []);
      assert.ok(run.measurements.some((m) => m.step === 'pass'));
      assert.equal(run.end.status, 'interrupted');
      assert.equal(run.end.signal, signal);
      assert.deepEqual(run.failures, [], 'the stopped step is not counted as a failure');
    });

    it('shows as done only passes that are in results.jsonl, and nothing after its last line', () => {
      const recorded = new Set(readRun(out).steps.map((st) => st.pass));
      const shown = [...result.stderr.matchAll(/ · pass (\d+)\/20 · done in /g)].map((m) => Number(m[1]));
      assert.ok(shown.length > 0, result.stderr);
      for (const pass of shown) assert.ok(recorded.has(pass), `pass ${pass} shown as done is recorded`);
      const afterSignal = result.stderr.slice(result.stderr.indexOf(`${signal}: stopping`));
      assert.doesNotMatch(afterSignal, / · \S+ in [\d.]+ s$/m, 'no step line after the signal');
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
    assert.deepEqual(await leftAfter(tag), []);
    const folders = namedFolders(running);
    assert.ok(folders.length > 0, 'the processes named their folders');
    for (const dir of folders) assert.ok(!fs.existsSync(dir), `${dir} is gone`);
  });
});

/**
 * Mount points of this machine's own mount namespace that lie in the root file system this run's
 * ferretdb2 runs in (this checkout's, as the mount table names it): another checkout's, or what an
 * earlier setup left elsewhere, is not this run's to answer for.
 */
function documentdbMounts() {
  const { documentdbRoot } = require('../../orchestrator/config').resolveConfig();
  const root = fs.realpathSync(documentdbRoot);
  return fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4])
    .filter((m) => m && (m === root || m.startsWith(`${root}/`)));
}

// SIGKILL, which no handler of the kit's sees: the kernel's parent-death signal and the run's
// watchdog stop what it started; the next run, or `orchestrate clean`, removes what is left and
// says so in one line.
for (const alsoWatchdog of [false, true]) describe(`SIGKILL of the kit${alsoWatchdog ? ' and its watchdog' : ''} during a run on ferretdb2`, function () {
  this.timeout(180000);
  let out;
  let tmp;
  let stateDir;
  let running = [];
  let left;
  const tag = newTag();
  const env = () => ({ ...tag, TMPDIR: tmp, CLASSICS_STATE_DIR: stateDir });

  before(async function () {
    skipUnless(this, 'ferretdb2');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sigkill-'));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sigkill-tmp-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sigkill-state-'));
    const results = path.join(out, 'results.jsonl');
    await invokeOnFixture(['--server', 'ferretdb2', '--size', 'smoke', '--no-calibrate', '--passes', '30', '--out', out], {
      env: env(),
      onSpawn: (child) => {
        waitFor(() => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"step":"pass"'), 150000)
          .then(() => {
            running = processesWithTag(tag);
            if (alsoWatchdog) for (const p of running.filter((r) => /orchestrator\/watchdog\.js/.test(r.cmd))) process.kill(p.pid, 'SIGKILL');
            child.kill('SIGKILL');
          }, () => child.kill('SIGKILL'));
      },
    });
    // what the kernel and the watchdog do takes a moment: a second at most
    await waitFor(() => processesWithTag(tag).length === 0, 10000).catch(() => {});
    left = processesWithTag(tag);
  });

  after(() => { for (const dir of [out, tmp, stateDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  it('had a PostgreSQL and a FerretDB running, and none of them outlives the kit', () => {
    assert.ok(running.some((p) => /ferretdb2\/bin\/ferretdb/.test(p.cmd)), 'FerretDB 2 was running');
    assert.ok(running.some((p) => /postgres/.test(p.cmd)), 'PostgreSQL was running');
    assert.deepEqual(left, [], 'nothing of the run is left running');
    assert.deepEqual(documentdbMounts(), [], 'no mount is left in the root file system');
  });

  it(alsoWatchdog ? 'a second run removes the folders left and says so in one line' : 'its watchdog removed the folders, and `orchestrate clean` says so in one line', async () => {
    let result;
    if (alsoWatchdog) {
      const second = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sigkill-second-'));
      fs.rmSync(second, { recursive: true });
      // what it says on starting is read, not what it writes: no charts or pages are rendered
      result = await invokeOnFixture(['--server', 'ferretdb', '--size', 'smoke', '--no-calibrate', '--passes', '1', '--format', 'results.csv', '--out', second], { env: env() });
      fs.rmSync(second, { recursive: true, force: true });
      assert.equal(result.code, 0, result.stderr);
    } else {
      assert.deepEqual(fs.readdirSync(tmp), [], 'the watchdog removed the run\'s temporary folders');
      result = await invokeOrchestrate(['clean'], { env: env() });
      assert.equal(result.code, 0, result.stderr);
    }
    const said = result.stdout.split('\n').filter((l) => /^run \S+ \(pid \d+, results in /.test(l));
    assert.equal(said.length, 1, result.stdout);
    assert.match(said[0], alsoWatchdog
      ? /ended without cleaning up \(killed\?\): reaped what it left, \d+ process(es)? stopped, [1-9]\d* temporary folders? removed$/
      : /was killed; its watchdog reaped what it left, \d+ process(es)? stopped, [1-9]\d* temporary folders? removed$/);
    assert.deepEqual(fs.readdirSync(tmp), [], 'no folder of the killed run is left');
    assert.deepEqual(fs.readdirSync(stateDir), [], 'nothing more to reap');
    assert.deepEqual(await leftAfter(tag), []);
  });

  it('keeps every record written before the kill whole', () => {
    const run = readRun(out);
    assert.deepEqual(run.problems, []);
    assert.equal(run.end, null, 'a killed run has no end record');
  });
});
