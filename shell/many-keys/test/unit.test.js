'use strict';
// The pure part of update.js that decides when the barrier goes out after a w:0 send (applyWait),
// run in a VM context as mongosh would run it, and played against a simulated server that applies
// the queued updates at a steady rate: the applied clock must stop at the barrier, never behind a
// sleep, unless the server's rate more than tripled during one.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const UPDATE = fs.readFileSync(path.join(__dirname, '..', 'update.js'), 'utf8');

/** The text between `// --- name ...` and `// --- end name ---` in a script. */
function block(source, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n([\\s\\S]*?)// --- end ${name} ---`).exec(source);
  assert.ok(m, `no "${name}" block`);
  return m[1];
}

const f = vm.createContext({});
vm.runInContext(`${/var TAIL_MARGIN = \d+;/.exec(UPDATE)[0]}\n${block(UPDATE, 'apply wait')}`, f);

/**
 * update.js's wait after the send, against a server that has applied `applied` of `updates` when
 * the send ends (at `sendEnd` ms after the first update) and then applies `rate(t)` a ms; samples
 * are due once a second from the first update. Returns when the barrier went out, when the server
 * applied its last update, and how many times the script slept for a sample on the way.
 */
function tail({ updates, applied: appliedAtEnd, rate, sendEnd = 600 }) {
  let now = sendEnd;
  let done = appliedAtEnd;
  let finishedAt = done >= updates ? now : null;
  const advance = (to) => {
    for (; now < to; now += 1) {
      done = Math.min(updates, done + rate(now));
      if (done >= updates && finishedAt === null) finishedAt = now + 1;
    }
  };
  const samples = [{ second: 0, updates: 0 }];
  let lastSampleT = 0;
  let sleeps = 0;
  for (;;) {
    const seen = Math.floor(done);
    if (seen >= updates) break;
    const wait = f.applyWait({ now, nextSampleAt: lastSampleT + 1000, remaining: updates - seen, ratePerMs: f.recentRate(samples, seen, now, 0) });
    if (!wait) break;
    advance(now + wait);
    sleeps += 1;
    samples.push({ second: now / 1000, updates: Math.floor(done) - samples.reduce((n, x) => n + x.updates, 0) });
    lastSampleT = now;
  }
  const barrierAt = now;
  while (finishedAt === null) advance(now + 1); // the server goes on with what is queued
  return { barrierAt, finishedAt, sleeps };
}

describe('many-keys: when the applied clock stops after a w:0 send', () => {
  it('sends the barrier at once where nothing is left, or nothing tells the rate', () => {
    assert.equal(f.applyWait({ now: 10, nextSampleAt: 1000, remaining: 0, ratePerMs: 5 }), 0);
    assert.equal(f.applyWait({ now: 10, nextSampleAt: 1000, remaining: 100, ratePerMs: 0 }), 0);
    assert.equal(f.applyWait({ now: 10, nextSampleAt: 1000, remaining: 100, ratePerMs: NaN }), 0);
  });

  it('sends it at once for a short tail (the quick size\'s tens of ms): the barrier alone times it', () => {
    // 2,000 updates a second, 60 left (30 ms of work), the next sample 400 ms away
    assert.equal(f.applyWait({ now: 600, nextSampleAt: 1000, remaining: 60, ratePerMs: 2 }), 0);
    const t = tail({ updates: 1260, applied: 1200, rate: () => 2 });
    assert.equal(t.sleeps, 0);
    assert.ok(t.barrierAt <= t.finishedAt, 'the barrier went out before the server finished, so it returns at its last update');
  });

  it('sleeps until the next sample only where the rest takes over three times that wait', () => {
    assert.equal(f.applyWait({ now: 600, nextSampleAt: 1000, remaining: 2401, ratePerMs: 2 }), 400);
    assert.equal(f.applyWait({ now: 600, nextSampleAt: 1000, remaining: 2400, ratePerMs: 2 }), 0);
  });

  it('samples a long tail once a second (mongostat\'s series) and still sends the barrier before the end', () => {
    // 20 s of applying left at 500 a second, as the article's mongostat showed
    const t = tail({ updates: 10300, applied: 300, rate: () => 0.5 });
    assert.ok(t.sleeps >= 15, `${t.sleeps} samples in the tail`);
    assert.ok(t.barrierAt <= t.finishedAt, `barrier at ${t.barrierAt} ms, server done at ${t.finishedAt} ms`);
  });

  it('can be late only where the server\'s rate more than tripled during a sleep', () => {
    const steady = tail({ updates: 5600, applied: 600, rate: (ms) => (ms < 2500 ? 1 : 2.9) });
    assert.ok(steady.barrierAt <= steady.finishedAt, 'rate up 2.9×: still on time');
    const burst = tail({ updates: 5600, applied: 600, rate: (ms) => (ms < 2500 ? 1 : 10) });
    assert.ok(burst.barrierAt > burst.finishedAt, 'rate up 10×: the sleep outlived the work');
    assert.ok(burst.barrierAt - burst.finishedAt < 1000, 'by less than one sample interval, which the record bounds');
  });

  it('takes the rate over the last whole sample, or since the first update', () => {
    assert.equal(f.recentRate([{ second: 0, updates: 0 }, { second: 1, updates: 300 }], 300, 1100, 0), 0.3);
    assert.equal(f.recentRate([{ second: 0, updates: 0 }], 120, 600, 0), 0.2);
    assert.equal(f.recentRate([{ second: 0, updates: 0 }, { second: 1.2, updates: 1 }, { second: 1.4, updates: 50 }], 400, 2000, 0), 0.2, 'a sample under 0.5 s is too short to trust');
  });
});
