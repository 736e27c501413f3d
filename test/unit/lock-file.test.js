'use strict';
// The lock the fixture runs and the PostgreSQL template clusters are made under
// (orchestrator/lock-file.js), held and crashed by real child processes.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { tryLock, unlock, waitForLock, processStart } = require('../../orchestrator/lock-file');
const { LockTimeoutError } = require('../../orchestrator/errors');

const LOCK_FILE = require.resolve('../../orchestrator/lock-file');

/** A node child running code with `lock` (the module) and `file` (the lock) in scope; resolves once it prints 'ready'. */
function child(code, file) {
  const proc = spawn(process.execPath, ['-e', `const lock = require(${JSON.stringify(LOCK_FILE)}); const file = ${JSON.stringify(file)};\n${code}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ready = new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => { out += d; if (out.includes('ready')) resolve(out); });
    proc.on('exit', (c, s) => resolve(`${out}exit ${c ?? s}`));
    proc.on('error', reject);
  });
  const exited = new Promise((resolve) => { if (proc.exitCode !== null || proc.signalCode) resolve(); else proc.on('exit', () => resolve()); });
  return { proc, ready, exited };
}

describe('the lock file (orchestrator/lock-file.js)', function () {
  this.timeout(20000);
  let dir;
  let file;
  const children = [];
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-lock-')); file = path.join(dir, 'x.lock'); });
  afterEach(() => {
    for (const c of children.splice(0)) try { c.proc.kill('SIGKILL'); } catch { /* gone */ }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const start = (code) => { const c = child(code, file); children.push(c); return c; };

  it('is taken when free, names its holder by PID and start time, and is released by its holder alone', () => {
    assert.deepEqual(tryLock(file, 'testing'), { mine: true });
    const holder = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(holder.pid, process.pid);
    assert.equal(holder.startTime, processStart(process.pid));
    assert.ok(holder.startTime, 'a start time was read');
    assert.equal(holder.what, 'testing');
    assert.deepEqual(fs.readdirSync(dir), ['x.lock'], 'no temporary file left');
    unlock(file);
    assert.ok(!fs.existsSync(file));
    // a lock another process holds is not released by this one
    fs.writeFileSync(file, JSON.stringify({ pid: process.ppid, startTime: processStart(process.ppid), since: 'then' }));
    unlock(file);
    assert.ok(fs.existsSync(file));
  });

  it('is refused while a live process holds it, and a wait past its deadline names that process', async () => {
    const holder = start('if (!lock.tryLock(file, "making a thing").mine) process.exit(3); console.log("ready"); setInterval(() => {}, 1000);');
    assert.equal(await holder.ready, 'ready\n');
    const got = tryLock(file);
    assert.equal(got.holder.pid, holder.proc.pid);
    assert.equal(got.holder.what, 'making a thing');
    const started = Date.now();
    await assert.rejects(waitForLock(file, { timeoutMs: 400, pollMs: 50 }), (err) => {
      assert.ok(err instanceof LockTimeoutError);
      assert.match(err.message, new RegExp(`^waited 0 s for ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, held by process ${holder.proc.pid} \\(.*node.*\\), making a thing, since \\d{4}-`));
      return true;
    });
    assert.ok(Date.now() - started >= 400);
    // released: the waiter takes it
    holder.proc.kill('SIGTERM');
    await holder.exited;
    await waitForLock(file, { timeoutMs: 5000, pollMs: 50 });
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).pid, process.pid);
  });

  it('is taken over from a holder killed after it took it (a crash after the link)', async () => {
    const holder = start('if (!lock.tryLock(file).mine) process.exit(3); process.kill(process.pid, "SIGKILL");');
    await holder.exited;
    assert.equal(holder.proc.signalCode, 'SIGKILL');
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).pid, holder.proc.pid, 'the dead holder\'s lock is there');
    assert.deepEqual(tryLock(file), { mine: true });
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).pid, process.pid);
  });

  it('is free after a taker killed between writing its file and linking it (a crash between the steps)', async () => {
    const taker = start('const fs = require("node:fs"); fs.linkSync = () => process.kill(process.pid, "SIGKILL"); lock.tryLock(file);');
    await taker.exited;
    assert.equal(taker.proc.signalCode, 'SIGKILL');
    assert.ok(!fs.existsSync(file), 'no lock published');
    assert.equal(fs.readdirSync(dir).length, 1, 'its temporary file is left');
    assert.deepEqual(tryLock(file), { mine: true });
  });

  it('is taken over where its PID is alive but names another process (PID reused: another start time)', async () => {
    const other = start('console.log("ready"); setInterval(() => {}, 1000);');
    await other.ready;
    const real = processStart(other.proc.pid);
    assert.ok(real);
    fs.writeFileSync(file, JSON.stringify({ pid: other.proc.pid, startTime: `${real}0`, since: 'then', what: 'a process long gone' }));
    assert.deepEqual(tryLock(file), { mine: true });
    // with its own start time, the same PID holds it
    fs.writeFileSync(file, JSON.stringify({ pid: other.proc.pid, startTime: real, since: 'then' }));
    assert.equal(tryLock(file).holder.pid, other.proc.pid);
  });

  it('is taken over from a holder that named no start time, or left a folder (an older kit\'s lock)', () => {
    fs.writeFileSync(file, JSON.stringify({ pid: process.ppid }));
    assert.deepEqual(tryLock(file), { mine: true });
    fs.rmSync(file);
    fs.mkdirSync(file);
    fs.writeFileSync(path.join(file, 'pid'), String(process.ppid));
    assert.deepEqual(tryLock(file), { mine: true });
    assert.ok(fs.statSync(file).isFile());
  });

  it('is held by one process of several that try at once', async () => {
    const racers = Array.from({ length: 4 }, () => start('const got = lock.tryLock(file); console.log(got.mine ? "ready mine" : "ready held"); setInterval(() => {}, 1000);'));
    const said = await Promise.all(racers.map((r) => r.ready));
    assert.equal(said.filter((s) => s.includes('mine')).length, 1, said.join(' | '));
  });
});
