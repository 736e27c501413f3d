'use strict';
// The run-state file and its reaper, on real processes: what a dead run recorded is stopped only
// where the PID is still the process recorded (same start time), its folders are removed, and
// the reaper says so in one line; a live run is left alone.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { reapDeadRuns, otherRuns, listRuns } = require('../../orchestrator/run-state');
const { startTimeOf, isSameProcess } = require('../../orchestrator/process-table');
const { writeFileAtomic } = require('../../orchestrator/fs-atomic');

function exited(child) {
  return new Promise((resolve) => { if (child.exitCode !== null || child.signalCode !== null) resolve(); else child.once('exit', resolve); });
}

describe('run state: reaping what a dead run left', () => {
  let stateDir;
  let sleeper;
  let folder;
  let deadKit;

  beforeEach(async () => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-state-test-'));
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-pg-test-'));
    fs.writeFileSync(path.join(folder, 'PG_VERSION'), '18');
    sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    // a "kit" that has ended: its PID and start time no longer name a live process
    deadKit = spawn('true');
    await exited(deadKit);
  });

  afterEach(() => {
    try { sleeper.kill('SIGKILL'); } catch { /* gone */ }
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  function record({ kitPid, kitStart, processes }) {
    const base = path.join(stateDir, `${kitPid}-${kitStart}`);
    writeFileAtomic(`${base}.json`, JSON.stringify({
      runId: 'r1', out: '/somewhere', kit: { pid: kitPid, startTime: kitStart }, startedAt: new Date().toISOString(),
      watchdog: null, processes, folders: [folder], mounts: [],
    }));
    return base;
  }

  it('stops the recorded process, removes the folder and the state file, in one line', async () => {
    const base = record({ kitPid: deadKit.pid, kitStart: '1', processes: [{ pid: sleeper.pid, startTime: startTimeOf(sleeper.pid) }] });
    const lines = reapDeadRuns(stateDir);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^run r1 \(pid \d+, results in \/somewhere\) ended without cleaning up \(killed\?\): reaped what it left, 1 process stopped, 1 temporary folder removed$/);
    await exited(sleeper);
    assert.equal(sleeper.signalCode, 'SIGKILL');
    assert.ok(!fs.existsSync(folder));
    assert.ok(!fs.existsSync(`${base}.json`));
    assert.deepEqual(reapDeadRuns(stateDir), [], 'said once');
  });

  it('never signals a PID that is now another process (its start time differs)', () => {
    record({ kitPid: deadKit.pid, kitStart: '1', processes: [{ pid: sleeper.pid, startTime: '12345' }] });
    const [line] = reapDeadRuns(stateDir);
    assert.match(line, /0 processes stopped, 1 temporary folder removed/);
    assert.ok(isSameProcess(sleeper.pid, startTimeOf(sleeper.pid)), 'the sleeper is alive');
  });

  it('removes a state file\'s write a kill cut short, once its run is dead, and only then', () => {
    const dead = `.${deadKit.pid}-1.json.${deadKit.pid}.3.tmp`;
    const live = `.${process.pid}-${startTimeOf(process.pid)}.json.${process.pid}.4.tmp`;
    for (const name of [dead, live]) fs.writeFileSync(path.join(stateDir, name), '{"runId":');
    reapDeadRuns(stateDir);
    assert.deepEqual(fs.readdirSync(stateDir), [live]);
  });

  it('leaves a live run alone and names it among the other runs', () => {
    record({ kitPid: sleeper.pid, kitStart: startTimeOf(sleeper.pid), processes: [] });
    assert.deepEqual(reapDeadRuns(stateDir), []);
    assert.ok(fs.existsSync(folder));
    assert.deepEqual(otherRuns(stateDir), [{ runId: 'r1', pid: sleeper.pid, out: '/somewhere' }]);
    assert.equal(listRuns(stateDir).length, 1);
  });
});

describe('writeFileAtomic', () => {
  it('leaves the old file whole and no temporary file where the write fails, and names the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-atomic-'));
    try {
      const file = path.join(dir, 'chart.png');
      writeFileAtomic(file, 'first');
      fs.mkdirSync(path.join(dir, 'taken.png')); // a folder in the way: the rename fails
      assert.throws(() => writeFileAtomic(path.join(dir, 'taken.png'), 'x'), (err) => err.name === 'DiskWriteError' && err.message.startsWith(`cannot write ${path.join(dir, 'taken.png')}: `));
      assert.equal(fs.readFileSync(file, 'utf8'), 'first');
      assert.deepEqual(fs.readdirSync(dir).sort(), ['chart.png', 'taken.png']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
