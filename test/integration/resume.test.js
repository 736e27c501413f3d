'use strict';
// --resume: a run kept with --keep-data and stopped goes on where it stopped, on the same data;
// it refuses where the data no longer match, or where nothing was kept.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { skipUnless } = require('../helpers/servers');

// ferretdb2 keeps its PostgreSQL's data in the run's folder too (bound into its root file system)
for (const kind of ['ferretdb-pg', 'ferretdb2']) describe(`--resume on ${kind}`, function () {
  this.timeout(300000);
  let out;

  before(async function () {
    skipUnless(this, kind);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-'));
    fs.chmodSync(out, 0o755); // PostgreSQL, run as its own user, keeps its data below it
    const results = path.join(out, 'results.jsonl');
    // in mongosh, whose start takes over a second, so that a stop as pass 1 is recorded lands
    // before pass 2 writes anything (the kit's shell starts in a fifth of that: a stop there would
    // race its first writes, which the resume rightly refuses); the resume keeps the run's shell
    // at the size --size auto chose, which the resume must read back rather than probe again.
    // --size auto on ferretdb-pg only: its probes (in mongosh) cost more than the rest of the suite,
    // and the kit reads back a recorded size the same way on every server; ferretdb2 runs at the
    // smoke size, whose size record the resume must keep as well.
    // 2 passes: the stop lands after pass 1, so the resume has one pass left to run (a budget of 3 s
    // keeps each pass about as long as the 4 s of 3 passes did)
    const size = kind === 'ferretdb-pg' ? ['--budget', '3s'] : ['--size', 'smoke'];
    const first = await invokeOnFixture(['--server', kind, ...size, '--passes', '2', '--keep-data', '--no-calibrate', '--shell', 'mongosh', '--out', out], {
      onSpawn: (child) => {
        // stop it as pass 1 is recorded: pass 2's shell is still starting, so nothing of it is written
        const timer = setInterval(() => {
          if (fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes(`"type":"step","scenario":"${fixture.name}","server":"${kind}","step":"pass","pass":1`)) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 50);
      },
    });
    assert.equal(first.code, 130, first.stderr + first.stdout);
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('goes on from the next pass, over the kept data, and ends with every pass once', async () => {
    const { code, stderr } = await invokeOnFixture(['--resume', out]);
    assert.equal(code, 0, stderr);
    const run = readRun(out);
    for (const collection of [...fixture.collections]) {
      const ms = run.measurements.filter((m) => m.collection === collection);
      assert.deepEqual(ms.map((m) => m.pass), [0, 1, 2]);
      assert.ok(ms.every((m) => m.countOk), 'counts follow on across the resume');
    }
    assert.equal(run.records.filter((r) => r.type === 'resume').length, 1);
    assert.equal(run.run.params.shell, 'mongosh', 'the resumed passes timed in the run\'s shell');
    const sizes = run.records.filter((r) => r.type === 'size');
    assert.equal(sizes.length, 1, 'the resume kept the size it recorded, without probing again (a new plan would be a new record)');
    const passes = run.measurements.filter((m) => m.step === 'pass');
    assert.ok(passes.length && passes.every((m) => m.inserted === sizes[0].sizes.INSERTS), 'every pass, before and after the resume, at the recorded size');

  });

  it('refuses where the server\'s data no longer match the last recorded pass', async () => {
    const file = path.join(out, 'results.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const i = lines.findLastIndex((l) => l.includes('"type":"measurement"'));
    const m = JSON.parse(lines[i]);
    m.count += 7;
    lines[i] = JSON.stringify(m);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const { code, stderr } = await invokeOnFixture(['--resume', out]);
    assert.equal(code, 2, stderr);
    assert.match(stderr.trim(), new RegExp(`^ResumeMismatchError: server '${kind}' no longer holds the data of pass 2 of ${fixture.name}: ${m.collection} has ${m.count - 7} documents, the results recorded ${m.count}$`));
  });
});

// once, not per kind: the refusal reads only the run's header, and starts no server
describe('--resume of a run whose servers kept no data', () => {
  it('refuses it', async function () {
    this.timeout(60000);
    const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-plain-'));
    try {
      fs.writeFileSync(path.join(plain, 'results.jsonl'), `${JSON.stringify({ type: 'run', runId: 'x', params: { scenarios: [fixture.name], servers: ['ferretdb'], size: 'smoke', passes: { [fixture.name]: 3 }, keepData: false } })}\n`);
      const { code, stderr } = await invokeOnFixture(['--resume', plain]);
      assert.equal(code, 2);
      assert.match(stderr.trim(), /^UsageError: --resume: server 'ferretdb' was started by the kit without --keep-data, so its data is gone/);
    } finally {
      fs.rmSync(plain, { recursive: true, force: true });
    }
  });
});

// A run kept with --keep-data and killed by SIGKILL (its watchdog too) leaves PostgreSQL's lock
// file in the kept cluster. A resume names a process that still holds it and starts nothing; once
// none does, it takes the stale lock away, goes on, and says in its summary that it was resumed
// and from where.
describe('--resume on ferretdb2 after a SIGKILL', function () {
  this.timeout(300000);
  let out;
  let stateDir;
  let holder = null;
  let env;
  const { spawn } = require('node:child_process');
  const { newTag, processesWithTag, leftAfter } = require('../helpers/processes');
  const tag = newTag();
  const lockFile = () => path.join(out, 'servers', 'ferretdb2', 'postgres', 'data', 'postmaster.pid');

  before(async function () {
    skipUnless(this, 'ferretdb2');
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-kill-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-resume-kill-state-'));
    env = { ...tag, CLASSICS_STATE_DIR: stateDir };
    const results = path.join(out, 'results.jsonl');
    await invokeOnFixture(['--server', 'ferretdb2', '--size', 'smoke', '--passes', '2', '--keep-data', '--no-calibrate', '--shell', 'mongosh', '--out', out], {
      env,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes(`"type":"step","scenario":"${fixture.name}","server":"ferretdb2","step":"pass","pass":1`)) {
            clearInterval(timer);
            for (const p of processesWithTag(tag).filter((r) => /orchestrator\/watchdog\.js/.test(r.cmd))) process.kill(p.pid, 'SIGKILL');
            child.kill('SIGKILL');
          }
        }, 50);
      },
    });
  });

  after(() => {
    if (holder) try { holder.kill('SIGKILL'); } catch { /* gone */ }
    for (const dir of [out, stateDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('left the kept cluster\'s lock file behind', () => {
    assert.ok(fs.existsSync(lockFile()));
  });

  it('names a process that still holds the lock, and starts nothing over it', async () => {
    // a process that is not the kit's, named like PostgreSQL, holding the lock
    holder = spawn('bash', ['-c', 'exec -a postgres sleep 300'], { stdio: 'ignore' });
    await new Promise((r) => { setTimeout(r, 300); });
    const lines = fs.readFileSync(lockFile(), 'utf8').split('\n');
    fs.writeFileSync(lockFile(), [String(holder.pid), ...lines.slice(1)].join('\n'));
    const result = await invokeOrchestrate(['--resume', out], { env: { ...env, CLASSICS_SHELL_DIR: require('../helpers/fixture').FIXTURE_SHELL_DIR } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, new RegExp(`^run \\S+ \\(pid \\d+, results in ${out}\\) ended without cleaning up \\(killed\\?\\): reaped what it left`, 'm'));
    assert.match(result.stdout, new RegExp(`^FAILED to start ferretdb2: the kept PostgreSQL data in \\S+ is locked by process ${holder.pid} \\(postgres 300\\), which is not this run's`, 'm'));
    assert.equal(holder.exitCode, null, 'a process not the kit\'s is never signalled');
  });

  it('once none holds it, takes the stale lock away, goes on, and says it was resumed and from where', async () => {
    holder.kill('SIGKILL');
    await new Promise((r) => { holder.once('exit', r); });
    holder = null;
    const result = await invokeOrchestrate(['--resume', out], { env: { ...env, CLASSICS_SHELL_DIR: require('../helpers/fixture').FIXTURE_SHELL_DIR } });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const run = readRun(out);
    assert.deepEqual(run.problems, []);
    assert.equal(run.end.status, 'ok');
    assert.deepEqual(run.measurements.filter((m) => m.collection === fixture.collections[0]).map((m) => m.pass), [0, 1, 2]);
    const [firstResume] = run.resumes;
    assert.deepEqual(firstResume.from.afterStep, { server: 'ferretdb2', scenario: fixture.name, step: 'pass', pass: 1 });
    assert.match(firstResume.from.ended, /^no end recorded/);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), new RegExp(`\\*\\*Resumed\\*\\* after ferretdb2 · ${fixture.name} · pass · pass 1 \\(it had ended: no end recorded`));
    assert.deepEqual(await leftAfter(tag), []);
  });
});
