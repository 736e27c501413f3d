'use strict';
// How busy the machine was during a block (orchestrator/run/contention.js): the arithmetic on
// /proc/stat's counters and a block's span, and the meter itself against a real busy process.
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { ContentionMeter, blockWindow, shareBetween, valueAt, readMachine, MIN_WINDOW_MS } = require('../../orchestrator/run/contention');
const { treeCpuTicks } = require('../../orchestrator/process-table');
const { skip } = require('../helpers/skips');

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * A process that spins on one core outside this process's tree (a child would be the "run's own"
 * work to the meter): started by a shell that exits at once, so it is handed to init. Its PID.
 */
function spinOutsideTree() {
  return new Promise((resolve, reject) => {
    const sh = spawn('/bin/sh', ['-c', `"${process.execPath}" -e "for (;;) {}" >/dev/null 2>&1 </dev/null & echo $!`], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    sh.stdout.on('data', (d) => { out += d; });
    sh.on('error', reject);
    sh.on('close', () => resolve(Number(out.trim())));
  });
}

describe('contention: how busy the machine was during a block', () => {
  it('takes the busy time that was not the run\'s own, steal included, as a share of the machine\'s', () => {
    // 2 CPUs over 1 s: 200 ticks; 120 busy, of which 50 the run's own and 10 stolen
    const a = { at: 0, total: 1000, idle: 500, steal: 5, own: 300 };
    const b = { at: 1000, total: 1200, idle: 580, steal: 15, own: 350 };
    assert.deepEqual(shareBetween(a, b), { otherShare: 0.35, stealShare: 0.05, cpus: undefined, sampledMs: 1000 });
    // the tree's counters read a moment apart from the machine's: never below the steal (a stolen
    // tick is never the tree's), never above 1
    assert.deepEqual(shareBetween(a, { ...b, own: 500 }), { otherShare: 0.05, stealShare: 0.05, cpus: undefined, sampledMs: 1000 });
    assert.equal(shareBetween(a, { ...b, steal: 5, own: 500 }).otherShare, 0);
    // a host that steals 30%: the others' share holds it, as a block's on this machine once did not (0.299 against 0.301)
    const stolen = shareBetween(a, { ...b, idle: 560, steal: 65, own: 390 });
    assert.ok(stolen.otherShare >= stolen.stealShare, JSON.stringify(stolen));
    assert.equal(shareBetween(a, { ...a, at: 5 }), null, 'no tick between two readings: nothing measured');
  });

  it('interpolates the counters between the samples around an instant', () => {
    const samples = [{ at: 0, total: 0, idle: 0, steal: 0, own: 0, cpus: 2 }, { at: 100, total: 20, idle: 10, steal: 0, own: 4, cpus: 2 }];
    assert.deepEqual(valueAt(samples, 50), { at: 50, total: 10, idle: 5, steal: 0, own: 2, cpus: 2 });
    assert.equal(valueAt(samples, -5), samples[0]);
    assert.equal(valueAt(samples, 500), samples[1]);
  });

  it('reads a block\'s span from its line: its own instants, its shells\' spans, else its longest clock ending when the line arrived', () => {
    assert.deepEqual(blockWindow({ startedAt: 1000, endedAt: 1400, appliedAt: 1450 }), { from: 1000, to: 1450 });
    assert.deepEqual(blockWindow({ workerSpans: [[1010, 1300], [1000, 1350]], ms: 350, appliedMs: 400 }), { from: 1000, to: 1400 });
    assert.deepEqual(blockWindow({ hrMs: 80, appliedHrMs: 120 }, 5000), { from: 4880, to: 5000 });
    assert.deepEqual(blockWindow({ seconds: 0.2, appliedSeconds: null }, 5000), { from: 4800, to: 5000 });
    assert.equal(blockWindow({ hrMs: 80 }), null, 'no instant at all: no span');
  });

  const linux = readMachine() !== null;

  // @serial: a share of the machine, which other tests beside it would take (test/run.js runs it alone)
  it('counts a core another process keeps busy as other work, and the run\'s own work as its own @serial', async function () {
    if (!linux) skip(this, 'not Linux', 'no /proc/stat: nothing is measured, every figure is null');
    this.timeout(20000);
    // the machine is shared: each figure is checked against what that process itself took
    // (its own counters), not against a quiet machine
    const ticks = (pid) => treeCpuTicks(pid);
    const machineTicks = () => readMachine().total;
    const meter = new ContentionMeter({ sampleMs: 100 }).start();
    let busy = null;
    // a spin that got too little of the machine to tell its share from the rest (npm test's other
    // workers, a busy CI host) says nothing of the meter: skipped, saying so, rather than failed
    const tooBusy = (self, what, share) => {
      skip(self, 'the machine was too busy to tell', `${what} had ${(100 * share).toFixed(0)}% of it`);
    };
    try {
      // the run's own work: this process spins for a second
      const ownFrom = Date.now();
      const [ownBefore, totalBefore] = [ticks(process.pid), machineTicks()];
      while (Date.now() - ownFrom < 1000) { /* own work */ }
      const ownShare = (ticks(process.pid) - ownBefore) / (machineTicks() - totalBefore);
      const own = meter.over(ownFrom, Date.now());
      if (ownShare <= 0.2) tooBusy(this, 'this process\'s spin', ownShare);
      assert.ok(own.otherShare <= 1 - 0.8 * ownShare + 0.05, `the run's own spin counted as other work: ${JSON.stringify(own)}, own ${ownShare.toFixed(2)}`);

      // another process, outside the run's tree, spins for 1.5 s
      busy = await spinOutsideTree();
      await sleep(300);
      const from = Date.now();
      const [busyBefore, totalAt] = [ticks(busy), machineTicks()];
      await sleep(1500);
      const busyShare = (ticks(busy) - busyBefore) / (machineTicks() - totalAt);
      const loaded = meter.over(from, Date.now());
      assert.ok(loaded.sampledMs >= 1400 && loaded.cpus >= 1, JSON.stringify(loaded));
      if (busyShare <= 0.15) tooBusy(this, 'the busy process', busyShare);
      assert.ok(loaded.otherShare >= 0.8 * busyShare - 0.03, `beside a busy core (${busyShare.toFixed(2)} of the machine): ${JSON.stringify(loaded)}`);
      assert.ok(meter.over(from, from + 10).sampledMs >= MIN_WINDOW_MS - 1, 'a short span is read over the last 100 ms');
    } finally {
      if (busy) process.kill(busy, 'SIGKILL');
      meter.stop();
    }
  });
});
