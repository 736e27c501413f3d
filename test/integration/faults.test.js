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
const { skip } = require('../helpers/skips');
const { newTag, processesWithTag, leftAfter } = require('../helpers/processes');
const { waitFor } = require('../helpers/wait');

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
    // of the outputs, only summary.md is read
    result = await invokeOnFixture(['--server', 'ferretdb', '--server', 'ferretdb-pg', '--size', 'smoke', '--no-calibrate', '--passes', '3', '--format', 'summary.md', '--out', out], {
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
    assert.equal(f.error, 'ferretdb died (FerretDB exited, signal 9)');
    assert.equal(run.end.status, 'failed');
  });

  it('keeps what was measured before, intact, and goes on with the next server', () => {
    const run = readRun(out);
    assert.deepEqual(run.problems, []);
    const passesOn = (server) => run.measurements.filter((m) => m.server === server && m.collection === fixture.collections[1]).map((m) => m.pass);
    assert.deepEqual(passesOn('ferretdb'), [0, 1]);
    assert.deepEqual(passesOn('ferretdb-pg'), [0, 1, 2, 3]);
  });

  it('shows the failure in the summary and leaves nothing running', async () => {
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), new RegExp(`## Failures\\n\\n- ferretdb · ${fixture.name} · pass · pass 2: ferretdb died`));
    assert.deepEqual(await leftAfter(tag), []);
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
    result = await invokeOnFixture(['--server', 'ferretdb2', '--size', 'smoke', '--no-calibrate', '--format', 'results.csv', '--out', out], {
      env: { ...tag, TMPDIR: box, CLASSICS_FERRETDB2_BIN: '/bin/false' },
    });
  });

  after(() => { for (const dir of [out, box]) if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

  it('records the failed start in one line, exits 1, and leaves no process and no folder behind', async () => {
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
    const run = readRun(out);
    assert.equal(run.failures.length, 1, JSON.stringify(run.failures));
    assert.deepEqual([run.failures[0].server, run.failures[0].step], ['ferretdb2', 'start']);
    assert.match(run.failures[0].error, /^FerretDB did not answer on port \d+ \(.*\); see \S+ferretdb2-ferretdb\.log$/);
    assert.match(fs.readFileSync(path.join(out, 'logs', 'ferretdb2-postgres.log'), 'utf8'), /database system is ready to accept connections/, 'its PostgreSQL had started');
    assert.deepEqual(await leftAfter(tag), []);
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

// A FerretDB (or ferretdb2's PostgreSQL) killed while a step runs: one line says which server
// died, during what, and why; the server's remaining scenarios are skipped and the run goes on
// with the next server within seconds, never hanging in a shell left reconnecting to a dead port.
const KILLS = [
  { kind: 'ferretdb-pg', during: 'setup', victim: 'FerretDB', match: /ferretdb .*--handler=postgresql/ },
  { kind: 'ferretdb-pg', during: 'pass', victim: 'FerretDB', match: /ferretdb .*--handler=postgresql/ },
  { kind: 'ferretdb2', during: 'setup', victim: 'FerretDB', match: /ferretdb2\/bin\/ferretdb --listen-addr/ },
  { kind: 'ferretdb2', during: 'pass', victim: 'FerretDB', match: /ferretdb2\/bin\/ferretdb --listen-addr/ },
  { kind: 'ferretdb2', during: 'pass', victim: 'PostgreSQL postmaster', match: /^\/usr\/lib\/postgresql\/\d+\/bin\/postgres -D \/mnt\/data/ },
];
/** Passes of each kill run: enough left after pass 1 for a kill during a pass to land in one. */
const PASSES = { setup: 2, pass: 4 };
// @serial: the next server must start within 20 s of the kill, a ceiling on the wall clock: run alone,
// after the pool (test/run.js)
for (const { kind, during, victim, match } of KILLS) describe(`${victim} of ${kind} killed during ${during} @serial`, function () {
  this.timeout(180000);
  let out;
  let result;
  let killedAt = null;
  let movedOnAt = null;
  const tag = newTag();
  // the server run after the killed one: FerretDB on PostgreSQL, whose passes cost half the SQLite
  // one's, except after ferretdb-pg itself, where the SQLite one keeps a path that needs no root
  const next = kind === 'ferretdb-pg' ? 'ferretdb' : 'ferretdb-pg';

  before(async function () {
    skipUnless(this, kind);
    skipUnless(this, next);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-kill-'));
    const results = path.join(out, 'results.jsonl');
    const setupLog = path.join(out, 'logs', `${kind}-${fixture.name}-setup.log`);
    const ready = during === 'setup' ? () => fs.existsSync(setupLog) : () => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"step":"pass"');
    // passes: after pass 1 is recorded, three more on the killed server for the kill to land in
    // (a kill during setup needs none); the next server runs them all. Only results.jsonl is read:
    // no charts or pages are rendered.
    result = await invokeOnFixture(['--server', kind, '--server', next, '--size', 'smoke', '--no-calibrate', '--passes', String(PASSES[during]), '--format', 'results.csv', '--out', out], {
      env: tag,
      onSpawn: (child) => {
        child.stdout.on('data', (d) => { if (killedAt && !movedOnAt && new RegExp(`^${next}: `, 'm').test(String(d))) movedOnAt = Date.now(); });
        waitFor(ready, 150000).then(() => {
          const target = processesWithTag(tag).find((p) => match.test(p.cmd));
          if (!target) return;
          process.kill(target.pid, 'SIGKILL');
          killedAt = Date.now();
        }, () => child.kill('SIGKILL'));
      },
    });
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it(`says in one line that ${kind} died, during what and why`, () => {
    assert.ok(killedAt, `found the ${victim} to kill`);
    const lines = result.stdout.split('\n').filter((l) => l.includes(`${kind} died`));
    assert.equal(lines.length, 1, result.stdout);
    assert.match(lines[0], new RegExp(`^${kind} died during ${fixture.name} ${during === 'setup' ? 'setup' : 'pass \\d'} \\(${victim} exited, signal 9\\); its remaining scenarios are skipped$`));
    assert.doesNotMatch(`${result.stdout}${result.stderr}`, /\.go:\d+|^\s+at /m, 'no raw server error and no stack on the screen');
  });

  it('moves on to the next server within seconds, runs it, and exits 1', async () => {
    assert.ok(movedOnAt && movedOnAt - killedAt < 20000, `the next server started ${movedOnAt ? `${movedOnAt - killedAt} ms` : 'never'} after the kill`);
    assert.equal(result.code, 1, result.stderr);
    const run = readRun(out);
    assert.deepEqual(run.problems, []);
    assert.equal(run.end.status, 'failed');
    assert.deepEqual(run.failures.map((f) => [f.server, f.serverDied]), [[kind, `${victim} exited, signal 9`]]);
    assert.deepEqual(run.measurements.filter((m) => m.server === next && m.collection === 'left').map((m) => m.pass), Array.from({ length: PASSES[during] + 1 }, (_, i) => i));
    assert.deepEqual(await leftAfter(tag), []);
  });
});

// A full disk under --out: one line naming the file, a non-zero exit, results.jsonl still whole
// JSON lines without an end record saying "ok", and no half-written chart.
describe('--out on a disk that fills', function () {
  this.timeout(120000);
  const mounts = [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

  /** A fresh tmpfs of size bytes (root), or null where none can be mounted. */
  function smallDisk(size) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-full-'));
    const mounted = require('node:child_process').spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
    if (mounted.status !== 0) { fs.rmSync(dir, { recursive: true, force: true }); return null; }
    mounts.push(dir);
    return dir;
  }

  after(() => {
    for (const dir of mounts) {
      require('node:child_process').spawnSync('umount', [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  function checkOutcome(result, out, file) {
    assert.equal(result.code, 1, result.stderr);
    // beside the progress display's lines (a finished step each), one line
    const lines = result.stderr.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l) && !/ · \S+ in [\d.]+ s$/.test(l));
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0], new RegExp(`^DiskWriteError: cannot write ${out}/${file}: no space left on device \\(ENOSPC\\)$`));
    const text = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8');
    assert.ok(text.endsWith('\n'));
    const records = text.split('\n').filter(Boolean).map((l) => JSON.parse(l)); // every line whole
    assert.ok(!records.some((r) => r.type === 'end' && r.status === 'ok'), 'no end record says ok');
    for (const png of fs.readdirSync(out).filter((f) => f.endsWith('.png'))) {
      assert.ok(fs.readFileSync(path.join(out, png)).subarray(-8).toString('latin1').startsWith('IEND'), `${png} is whole`);
    }
    assert.deepEqual(fs.readdirSync(out).filter((f) => f.endsWith('.tmp')), [], 'no temporary file is left');
  }

  for (const { size, file, what } of [
    { size: '200k', file: '(summary\\.md|report\\.html|[\\w-]+\\.png)', what: 'the charts and summary' },
    { size: '24k', file: '(results\\.jsonl|logs/[\\w.-]+\\.log)', what: 'the results and logs' },
  ]) {
    it(`of ${size}: ${what} cannot be written`, async function () {
      skipUnless(this, 'ferretdb');
      if (!isRoot) skip(this, 'not root', 'mounting a small tmpfs needs root');
      const disk = smallDisk(size);
      if (!disk) skip(this, 'no tmpfs could be mounted', 'a disk that fills');
      const out = path.join(disk, 'run');
      const tag = newTag();
      const result = await invokeOnFixture(['--server', 'ferretdb', '--size', 'smoke', '--no-calibrate', '--passes', size === '24k' ? '20' : '3', '--out', out], { env: tag });
      checkOutcome(result, out, file);
      assert.deepEqual(await leftAfter(tag), []);
    });
  }
});

/** The CPU time a process has used, ms (/proc/PID/stat's utime and stime, in clock ticks of 10 ms). */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch { return 0; }
}

// A server that stops answering without dying (its FerretDB frozen by SIGSTOP): the step's
// deadline stops its shell and records the step as failed with the reason; the run ends.
// @serial: the run must end within 90 s, a ceiling on the wall clock: run alone, after the pool (test/run.js)
describe('a server that stops answering in the middle of a pass @serial', function () {
  this.timeout(120000);
  let out;
  let result;
  let frozen = null;
  let startedAt;
  const tag = newTag();

  before(async function () {
    skipUnless(this, 'ferretdb-pg');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-frozen-'));
    const results = path.join(out, 'results.jsonl');
    startedAt = Date.now();
    // a pass long enough (several seconds: FerretDB 1.24 reads every document for each update) that
    // the freeze lands in the middle of its operations, where the shell waits on its socket for
    // ever, not while it connects (which times out itself): once FerretDB has spent a quarter of a
    // second of CPU on the pass's updates since the pass's shell began
    result = await invokeOnFixture(['--server', 'ferretdb-pg', '--size', 'smoke', '--no-calibrate', '--passes', '2', '--set', 'UPDATES=3000', '--format', 'results.csv', '--out', out], {
      env: { ...tag, CLASSICS_STEP_STALL_SECONDS: '3' },
      onSpawn: (child) => {
        const pass1 = path.join(out, 'logs', `ferretdb-pg-${fixture.name}-pass-1.log`);
        const ferretdb = () => processesWithTag(tag).find((p) => /ferretdb .*--handler=postgresql/.test(p.cmd));
        let from = null;
        waitFor(() => {
          if (!fs.existsSync(pass1) || !ferretdb()) return false;
          const used = cpuMs(ferretdb().pid);
          from ??= used;
          return used - from >= 250;
        }, 100000).then(() => {
          frozen = ferretdb();
          if (frozen) process.kill(frozen.pid, 'SIGSTOP');
        }, () => child.kill('SIGKILL'));
      },
    });
  });

  after(() => {
    if (frozen) try { process.kill(frozen.pid, 'SIGKILL'); } catch { /* the kit stopped it */ }
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  it('stops the step at its deadline, records why, exits 1 and leaves nothing running', async () => {
    assert.ok(frozen, 'found the FerretDB to freeze');
    assert.equal(result.code, 1, result.stderr);
    assert.ok(Date.now() - startedAt < 90000);
    const run = readRun(out);
    assert.equal(run.failures.length, 1, JSON.stringify(run.failures));
    assert.match(run.failures[0].error, /^test\/fixtures\/shell\/churn\/pass\.js on server 'ferretdb-pg' printed nothing for 3 s, its deadline: its shell was stopped$/);
    assert.equal(run.end.status, 'failed');
    assert.deepEqual(await leftAfter(tag), []);
  });
});

// Two runs of the kit at once disturb each other's timings: each says so in its records (the run
// header's machineLoad, and otherRuns on every step and measurement another run overlapped).
describe('another run of the kit on the machine', function () {
  this.timeout(120000);
  const dirs = [];
  let first;
  let second;
  let firstOut;
  let secondOut;
  const tag = newTag();

  before(async function () {
    skipUnless(this, 'ferretdb');
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-two-state-'));
    firstOut = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-two-a-'));
    secondOut = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-two-b-'));
    dirs.push(stateDir, firstOut, secondOut);
    const env = { ...tag, CLASSICS_STATE_DIR: stateDir };
    let started;
    // of the outputs, only the second run's summary.md is read
    first = invokeOnFixture(['--server', 'ferretdb', '--size', 'smoke', '--no-calibrate', '--passes', '40', '--format', 'results.csv', '--out', firstOut], {
      env,
      onSpawn: (child) => {
        started = waitFor(() => fs.existsSync(path.join(firstOut, 'results.jsonl')) && fs.readFileSync(path.join(firstOut, 'results.jsonl'), 'utf8').includes('"step":"pass"'), 60000)
          .then(() => invokeOnFixture(['--server', 'ferretdb', '--size', 'smoke', '--no-calibrate', '--passes', '1', '--format', 'summary.md', '--out', secondOut], { env }))
          .finally(() => child.kill('SIGINT'));
      },
    });
    await first;
    second = await started;
  });

  after(() => { for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true }); });

  it('records the other run at its start and beside every timed step it overlapped', async () => {
    assert.equal(second.code, 0, second.stderr);
    const run = readRun(secondOut);
    const firstRun = readRun(firstOut);
    assert.deepEqual(run.run.machineLoad.otherRuns.map((r) => r.runId), [firstRun.runId]);
    assert.equal(run.run.machineLoad.loadAvg.length, 3);
    assert.ok(run.steps.length > 0);
    for (const step of run.steps) {
      assert.deepEqual(step.otherRuns.map((r) => r.runId), [firstRun.runId], JSON.stringify(step));
      assert.equal(step.loadAvg.length, 2);
    }
    for (const m of run.measurements) assert.deepEqual(m.otherRuns.map((r) => r.runId), [firstRun.runId]);
    assert.match(fs.readFileSync(path.join(secondOut, 'summary.md'), 'utf8'), /Another run of the kit shared this machine/);
    assert.deepEqual(await leftAfter(tag), []);
  });
});
