'use strict';
// The pure parts of update.js, run in a VM context as mongosh would run them: how the updates are
// cut into paired rounds (both schemas' blocks of a round see the same state), how each schema's
// once-a-second samples run on its own clock across its blocks, and when the barrier goes out
// after a w:0 send (applyWait), played against a simulated server that applies the queued
// updates at a steady rate: the applied clock must stop at the barrier, never behind a sleep,
// unless the server's rate more than tripled during one.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { stampedBlock } = require('../../../scripts/stamp');

const UPDATE = fs.readFileSync(path.join(__dirname, '..', 'update.js'), 'utf8');

/** The text between `// --- name ...` and `// --- end name ---` in a script. */
function block(source, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n([\\s\\S]*?)// --- end ${name} ---`).exec(source);
  assert.ok(m, `no "${name}" block`);
  return m[1];
}

const f = vm.createContext({});
vm.runInContext([
  /var TAIL_MARGIN = \d+;/.exec(UPDATE)[0],
  stampedBlock(UPDATE, 'paired-rounds'), block(UPDATE, 'update blocks'), block(UPDATE, 'sample series'), block(UPDATE, 'apply wait'),
].join('\n'), f);

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

/** A value out of the VM context as a plain one (its arrays and objects have the context's prototypes). */
const plain = (x) => JSON.parse(JSON.stringify(x));
const SCHEMAS = ['original', 'bucket'];

describe('many-keys: the update test cut into paired rounds', () => {
  it('holds one block of each schema per round, both sending the same share of the plan', () => {
    const blocks = plain(f.updateBlocks(SCHEMAS, 100, 8, 42));
    assert.equal(blocks.length, 16);
    for (let round = 1; round <= 8; round++) {
      const of = blocks.filter((b) => b.round === round);
      assert.deepEqual(of.map((b) => b.schema).sort(), ['bucket', 'original'], `round ${round}`);
      assert.deepEqual(of.map((b) => b.position), [1, 2], `round ${round}: positions in the order they run`);
      assert.deepEqual([of[0].from, of[0].to], [of[1].from, of[1].to], `round ${round}: the same share`);
      assert.ok(of.every((b) => b.rounds === 8));
    }
    assert.deepEqual(blocks.map((b) => b.round), blocks.map((b) => b.round).sort((a, b) => a - b), 'rounds run in order');
    for (const schema of SCHEMAS) {
      const own = blocks.filter((b) => b.schema === schema);
      assert.deepEqual(own.map((b) => [b.from, b.to]), [[0, 13], [13, 26], [26, 39], [39, 52], [52, 64], [64, 76], [76, 88], [88, 100]], `${schema}: the plan, cut in order, every update once`);
    }
  });

  it('runs both schemas\' blocks of a round on the same state: the same updates applied before each', () => {
    // update i targets document i % DOCS on both schemas (the same plan): replay the blocks in
    // the order they run and compare what each collection holds when its block of a round starts
    const DOCS = 7;
    for (const seed of [1, 2, 3, 20141105]) {
      const state = { original: new Array(DOCS).fill(0), bucket: new Array(DOCS).fill(0) };
      const before = {};
      for (const b of plain(f.updateBlocks(SCHEMAS, 45, 8, seed))) {
        before[`${b.round}:${b.schema}`] = state[b.schema].slice();
        for (let i = b.from; i < b.to; i++) state[b.schema][i % DOCS] += 1;
      }
      for (let round = 1; round <= 8; round++) assert.deepEqual(before[`${round}:original`], before[`${round}:bucket`], `seed ${seed}, round ${round}`);
      assert.deepEqual(state.original, state.bucket);
    }
  });

  it('mirrors the order round by round, so each schema runs first in half the rounds, and a seed repeats it', () => {
    const firsts = (seed) => plain(f.updateBlocks(SCHEMAS, 80, 8, seed)).filter((b) => b.position === 1).map((b) => b.schema);
    for (const seed of [1, 2, 3, 4, 5]) {
      const first = firsts(seed);
      for (let r = 0; r < 8; r += 2) assert.notEqual(first[r], first[r + 1], `seed ${seed}: round ${r + 2} runs round ${r + 1} backwards`);
      assert.equal(first.filter((s) => s === 'original').length, 4);
      assert.deepEqual(firsts(seed), first, 'the same seed, the same order');
    }
    const opening = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => firsts(seed)[0]));
    assert.equal(opening.size, 2, 'seeds draw either schema first');
  });

  it('with a warm-up, runs round 0 first in round 1\'s order, each schema sending round 1\'s share from the updates past the article\'s', () => {
    const withWarmUp = plain(f.updateBlocks(SCHEMAS, 100, 8, 42, true));
    const without = plain(f.updateBlocks(SCHEMAS, 100, 8, 42));
    assert.deepEqual(withWarmUp.slice(2), without.map((b) => ({ ...b, warmup: false })), 'the rounds are the same as without it');
    const warm = withWarmUp.slice(0, 2);
    assert.deepEqual(warm.map((b) => [b.round, b.warmup, b.from, b.to]), [[0, true, 100, 113], [0, true, 100, 113]]);
    assert.deepEqual(warm.map((b) => b.schema), without.slice(0, 2).map((b) => b.schema), 'in round 1\'s order');
    // both schemas get the same warm-up updates: their state at each round stays equal
    const DOCS = 7;
    const state = { original: new Array(DOCS).fill(0), bucket: new Array(DOCS).fill(0) };
    const before = {};
    for (const b of plain(f.updateBlocks(SCHEMAS, 45, 8, 3, true))) {
      before[`${b.round}:${b.schema}`] = state[b.schema].slice();
      for (let i = b.from; i < b.to; i++) state[b.schema][i % DOCS] += 1;
    }
    for (let round = 1; round <= 8; round++) assert.deepEqual(before[`${round}:original`], before[`${round}:bucket`], `round ${round}`);
  });

  it('with fewer updates than rounds, runs one round per update and no empty block', () => {
    const blocks = plain(f.updateBlocks(SCHEMAS, 5, 8, 1));
    assert.equal(blocks.length, 10);
    assert.ok(blocks.every((b) => b.rounds === 5 && b.to - b.from === 1));
    assert.deepEqual(plain(f.updateBlocks(SCHEMAS, 100, 1, 1)).map((b) => [b.round, b.from, b.to]), [[1, 0, 100], [1, 0, 100]], 'one round: the article\'s test, in a drawn order');
  });

  it('sums up a schema\'s barriers in words, with the bound on how late its applied time may be', () => {
    assert.equal(f.barrierSummary([{ updates: 10, seen: 4, lateByAtMostMs: 0 }, { updates: 10, seen: 9, lateByAtMostMs: 0 }]),
      'in 2 of 2 blocks the barrier went out while the counter still showed updates to apply, so it returned at the block\'s last one');
    assert.equal(f.barrierSummary([{ updates: 10, seen: 4, lateByAtMostMs: 0 }, { updates: 10, seen: 10, lateByAtMostMs: 0.25 }, { updates: 9, seen: 9, lateByAtMostMs: 1 }]),
      'in 1 of 3 blocks the barrier went out while the counter still showed updates to apply, so it returned at the block\'s last one; in 2 all were applied already, so the applied time may be late by up to 1.3 ms in all');
  });
});

describe('many-keys: each schema\'s samples on its own clock, its blocks end to end', () => {
  /**
   * update.js's sampling of one schema over blocks of `perBlock` updates, one every `msPerUpdate`,
   * with `gapMs` between its blocks (the other schema's block) that its clock must not see.
   */
  function series({ blocks, perBlock, msPerUpdate, gapMs }) {
    const s = f.newSeries();
    let wall = 0;
    for (let b = 0; b < blocks; b++) {
      const t0 = wall;
      let sent = 0;
      for (let i = 0; i < perBlock; i++) {
        wall += msPerUpdate;
        sent += 1;
        const at = s.activeMs + (wall - t0);
        if (f.sampleDue(s, at)) f.addSample(s, at, s.counted + sent);
      }
      f.endBlock(s, wall - t0, sent);
      if (b === blocks - 1) f.addSample(s, s.activeMs, s.counted, true);
      wall += gapMs;
    }
    f.markPartial(s);
    return plain(s);
  }

  it('counts seconds inside the blocks alone: the gaps between them are not in the series', () => {
    // 8 blocks of 300 ms (30 updates at 10 ms) with 5 s between: 2.4 s of the schema's own time
    const s = series({ blocks: 8, perBlock: 30, msPerUpdate: 10, gapMs: 5000 });
    assert.equal(s.activeMs, 2400);
    assert.deepEqual(s.samples.map((x) => x.second), [0, 1, 2, 2.4]);
    assert.deepEqual(s.samples.map((x) => x.updates), [0, 100, 100, 40], 'a sample across blocks counts the end of one and the start of the next');
    assert.deepEqual(s.samples.map((x) => x.updatesPerSecond), [0, 100, 100, 100], 'a steady rate reads steady across blocks');
    assert.deepEqual(s.samples.map((x) => x.partial), [false, false, false, true]);
    assert.equal(s.samples.at(-1).total, 240);
  });

  it('adds up to every update, with one sample a second of the schema\'s time, whatever the blocks\' sizes', () => {
    for (const [blocks, perBlock, msPerUpdate] of [[8, 13, 17], [8, 125, 20], [3, 1, 1], [16, 700, 3]]) {
      const s = series({ blocks, perBlock, msPerUpdate, gapMs: 777 });
      assert.equal(s.samples.reduce((n, x) => n + x.updates, 0), blocks * perBlock);
      assert.equal(s.samples.at(-1).total, blocks * perBlock);
      assert.ok(s.samples.slice(1, -1).every((x, i) => x.second - s.samples[i].second >= 0.99), `${blocks} × ${perBlock}: one a second`);
      assert.ok(s.samples.at(-1).second <= blocks * perBlock * msPerUpdate / 1000, 'no later than the blocks\' own time');
    }
  });

  it('takes no closing sample where nothing moved since the last', () => {
    const s = f.newSeries();
    f.addSample(s, 1000, 10);
    assert.equal(f.addSample(s, 1200, 10, true), false);
    assert.equal(f.addSample(s, 1200, 12, true), true);
    assert.equal(plain(s).samples.length, 3);
  });
});
