'use strict';
// The contention a run records (orchestrator/run/contention.js) in a short real run: quiet, and
// beside a process that keeps a core busy. Not a timed assertion: a measured share, bounded
// loosely, and checked against what the busy process itself took (the machine may be shared).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { invokeOrchestrate } = require('../helpers/cli');
const { skipUnless } = require('../helpers/servers');
const { skip } = require('../helpers/skips');
const { newTag } = require('../helpers/processes');
const { readRun } = require('../../orchestrator/results/reader');
const { readMachine } = require('../../orchestrator/run/contention');
const { treeCpuTicks } = require('../../orchestrator/process-table');

const SERVER = 'ferretdb';

/**
 * many-keys at smoke size on SERVER, its documents of 500 counters rather than 2,000 (what a
 * document holds does not change what contention is; on FerretDB 1.24 on SQLite each update
 * rewrites its whole document, so 2,000 made each run 26 s), two steps, 18 blocks, about 12 s in
 * all; its run read back,
 * with `othersSeen`: the share of the machine's CPU time others took while it ran, as this test
 * measures it apart from the kit (the machine's busy time less the kit's process tree's, sampled
 * from outside it every 200 ms). Other tests may run beside this one (mocha's workers), so the
 * shares are held to what was measured, never to a quiet machine.
 */
async function smokeRun(out, tag) {
  let first = null;
  let last = null;
  let timer;
  const sample = (pid) => {
    const machine = readMachine();
    const own = treeCpuTicks(pid);
    if (machine && own !== null) { last = { machine, own }; first ??= last; }
  };
  const { code, stderr } = await invokeOrchestrate(['many-keys', '--server', SERVER, '--size', 'smoke', '--set', 'KEYS=500', '--seed', '7', '--no-calibrate', '--out', out], {
    env: tag,
    onSpawn: (child) => { sample(child.pid); timer = setInterval(() => sample(child.pid), 200); child.on('exit', () => clearInterval(timer)); },
  });
  clearInterval(timer);
  assert.equal(code, 0, stderr);
  const total = last.machine.total - first.machine.total;
  const busy = total - (last.machine.idle - first.machine.idle);
  return { ...readRun(out), othersSeen: Math.max(0, busy - (last.own - first.own)) / total };
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// @serial: CPU shares of the machine, read beside a core kept busy: run alone, after the pool (test/run.js)
describe(`contention recorded during a run (many-keys, smoke size, ${SERVER}) @serial`, function () {
  this.timeout(300000);
  const tag = newTag();
  const dirs = [];
  let quiet;
  let loaded;
  let busyShare;

  before(async function () {
    skipUnless(this, SERVER);
    if (!readMachine()) skip(this, 'not Linux', 'no /proc/stat: every contention is null ("not measured")');
    const dir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-contention-')); dirs.push(d); return d; };
    quiet = await smokeRun(dir(), tag);
    // a core kept busy by a process outside the kit's tree for the whole of the second run
    const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      const [busyBefore, totalBefore] = [treeCpuTicks(busy.pid) ?? 0, readMachine().total];
      loaded = await smokeRun(dir(), tag);
      busyShare = ((treeCpuTicks(busy.pid) ?? 0) - busyBefore) / (readMachine().total - totalBefore);
    } finally {
      busy.kill('SIGKILL');
    }
  });

  after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  it('writes contention on every block, every step and the end, each share within 0..1', () => {
    for (const run of [quiet, loaded]) {
      const records = [...run.blocks, ...run.steps, run.end];
      assert.ok(run.blocks.length >= 18, `${run.blocks.length} blocks`);
      for (const r of records) {
        const c = r.contention;
        assert.ok(c && c.otherShare >= 0 && c.otherShare <= 1 && c.stealShare >= 0 && c.stealShare <= c.otherShare + 1e-9 && c.cpus >= 1 && c.sampledMs >= 99, `${r.type} ${r.step ?? ''} ${r.round ?? ''}: ${JSON.stringify(c)}`);
      }
      // the end covers the whole run, a step its script
      assert.ok(Math.abs(run.end.contention.sampledMs - run.end.wallMs) <= 1000, `${run.end.contention.sampledMs} against ${run.end.wallMs}`);
      for (const s of run.steps) assert.ok(Math.abs(s.contention.sampledMs - s.scriptMs) <= 300, `${s.step}: ${s.contention.sampledMs} against ${s.scriptMs}`);
    }
  });

  it('sees the busy core: the loaded run\'s other share covers what the busy process took, and rises above the quiet run\'s', () => {
    assert.ok(busyShare > 0.15, `the busy process had ${busyShare.toFixed(2)} of the machine`);
    const shares = (run) => run.blocks.filter((b) => !b.warmup).map((b) => b.contention.otherShare);
    const [q, l] = [median(shares(quiet)), median(shares(loaded))];
    // a share of the machine: one core of two kept busy is about half of it, less what the kit took from it
    assert.ok(loaded.end.contention.otherShare >= 0.8 * busyShare - 0.05, `the run: ${JSON.stringify(loaded.end.contention)} beside a process that had ${busyShare.toFixed(2)}`);
    assert.ok(l >= 0.15, `the loaded run's blocks: median other share ${l}`);
    // beside others' work that comes and goes (mocha's other worker), the busy core is the difference
    // the two runs must show, less what the others took in the quiet run beyond the loaded one
    assert.ok(l >= q + 0.1 - Math.max(0, quiet.othersSeen - (loaded.othersSeen - busyShare)), `blocks' median other share: loaded ${l}, quiet ${q}`);
  });

  it('records what others took as measured apart from the kit, and nothing of the kit\'s own as theirs', () => {
    // loosely: the test's samples and the kit's are taken at other instants over a span a little
    // longer than the run's own (its start and its end)
    for (const run of [quiet, loaded]) {
      assert.ok(Math.abs(run.end.contention.otherShare - run.othersSeen) <= 0.12, `${JSON.stringify(run.end.contention)}, others seen apart: ${run.othersSeen.toFixed(3)}`);
    }
  });
});
