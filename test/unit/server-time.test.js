'use strict';
// The server-side time per step, on a stand-in for mongod's per-collection latency counters (Top,
// src/mongo/db/stats/top.cpp) that behaves as the server's source reads: counters per namespace,
// started by the first operation on a name (a $collStats read of a missing collection too), erased
// when an existing collection is dropped (a drop of a missing one erases nothing), lost on a
// restart; a $collStats read is recorded either before it samples (as run_aggregate.cpp releases
// the collection before it runs such a pipeline) or after, and the tests run both ways.
const assert = require('node:assert/strict');
const { ServerTime, latencyTotal, checkpointPolicy, settleSizes, readCollectionStats } = require('../../orchestrator/run/stats');

class FakeMongod {
  constructor({ readsCountThemselves, readCost = () => 40 }) {
    this.readsCountThemselves = readsCountThemselves;
    this.readCost = readCost;
    this.top = new Map();
    this.uuids = new Map();
    this.nextUuid = 1;
    this.script = new Map(); // what the script did since the kit last asked: the answer a delta should give
    const latency = async (name) => {
      const cost = this.readCost();
      if (this.readsCountThemselves) this.record(name, cost);
      const entry = this.top.get(name) || { ops: 0, micros: 0 };
      this.top.set(name, entry);
      const seen = { ...entry };
      if (!this.readsCountThemselves) this.record(name, cost);
      return seen;
    };
    this.probe = {
      collection: async (name) => ({ exists: this.uuids.has(name), uuid: this.uuids.get(name) ?? null }),
      latency,
      selfCounted: async () => (await latency(`never-used-${Math.random()}`)).ops > 0,
    };
  }

  record(name, micros) {
    const entry = this.top.get(name) || { ops: 0, micros: 0 };
    entry.ops += 1;
    entry.micros += micros;
    this.top.set(name, entry);
  }

  // ---- what a script does
  op(name, micros) {
    if (!this.uuids.has(name)) this.uuids.set(name, `uuid-${this.nextUuid++}`);
    this.record(name, micros);
    const s = this.script.get(name) || { ops: 0, micros: 0 };
    this.script.set(name, { ops: s.ops + 1, micros: s.micros + micros });
  }

  ops(name, n, micros = 100) {
    for (let i = 0; i < n; i++) this.op(name, micros);
  }

  drop(name) {
    if (!this.uuids.has(name)) return;
    this.uuids.delete(name);
    this.top.delete(name);
    this.script.delete(name); // what it did before the drop is gone with the counters
  }

  restart() {
    this.top.clear();
    this.script.clear();
  }

  // ---- what the kit does after a step, as steps.js readStepStats does it
  async afterStep(time, names) {
    const out = {};
    for (const name of names) {
      const { exists, time: t } = await time.delta(name);
      if (exists !== false) {
        this.record(name, 300); // collStats
        this.record(name, 900); // countDocuments
      }
      out[name] = t;
    }
    for (const name of names) await time.rebase(name);
    const expected = Object.fromEntries(names.map((n) => {
      const s = this.script.get(n) || { ops: 0, micros: 0 };
      return [n, { serverMs: s.micros / 1000, serverOps: s.ops }];
    }));
    this.script.clear();
    return { out, expected };
  }
}

for (const readsCountThemselves of [true, false]) {
  describe(`server time per step (a latency read recorded ${readsCountThemselves ? 'before' : 'after'} it samples)`, () => {
    let mongod;
    let time;
    beforeEach(async () => {
      mongod = new FakeMongod({ readsCountThemselves });
      time = new ServerTime(null, { probe: mongod.probe });
      for (const name of ['a', 'b']) await time.rebase(name); // missing at the start, as after claimDatabase
    });

    it('counts the first step from the script\'s first operation, not from the kit\'s baseline reads', async () => {
      mongod.ops('a', 50);
      mongod.ops('b', 7, 250);
      const { out, expected } = await mongod.afterStep(time, ['a', 'b']);
      assert.deepEqual(out, expected);
      assert.equal(out.a.serverOps, 50);
    });

    it('leaves out the kit\'s own count, stats and latency reads between steps', async () => {
      mongod.ops('a', 10);
      await mongod.afterStep(time, ['a']);
      for (let pass = 0; pass < 3; pass++) {
        mongod.ops('a', 20 + pass, 80);
        const { out, expected } = await mongod.afterStep(time, ['a']);
        assert.deepEqual(out, expected);
      }
    });

    it('counts from the drop when a step drops and makes its collection again, with fewer or more operations', async () => {
      mongod.ops('a', 500);
      await mongod.afterStep(time, ['a']);
      mongod.drop('a');
      mongod.ops('a', 30); // fewer than before: the counter went down
      let { out, expected } = await mongod.afterStep(time, ['a']);
      assert.deepEqual(out, expected);
      mongod.drop('a');
      mongod.ops('a', 900); // more than before: only the new UUID tells
      ({ out, expected } = await mongod.afterStep(time, ['a']));
      assert.deepEqual(out, expected);
      assert.equal(out.a.serverOps, 900);
    });

    it('says nothing of a collection missing after a step, and counts it exactly when a later step makes it', async () => {
      mongod.ops('a', 5);
      await mongod.afterStep(time, ['a', 'b']);
      mongod.drop('a');
      let { out } = await mongod.afterStep(time, ['a', 'b']);
      assert.equal(out.a, null);
      assert.equal(out.b, null);
      assert.equal(mongod.top.has('b'), false, 'a missing collection is never read, so its counters never start');
      mongod.ops('b', 12);
      let expected;
      ({ out, expected } = await mongod.afterStep(time, ['a', 'b']));
      assert.deepEqual(out.b, expected.b);
    });

    it('keeps a step without stats out of the next step', async () => {
      mongod.ops('a', 5);
      await mongod.afterStep(time, ['a']);
      mongod.ops('a', 1000); // a step with stats: false: steps.js only rebases
      await time.rebase('a');
      mongod.script.clear();
      mongod.ops('a', 3);
      const { out, expected } = await mongod.afterStep(time, ['a']);
      assert.deepEqual(out, expected);
    });

    it('counts from the restart where the server lost its counters (same collection, fewer operations)', async () => {
      mongod.ops('a', 400);
      await mongod.afterStep(time, ['a']);
      mongod.restart();
      mongod.ops('a', 25);
      const { out, expected } = await mongod.afterStep(time, ['a']);
      assert.deepEqual(out, expected);
    });
  });
}

describe('server time, what stays approximate', () => {
  it('is off by the difference between two latency reads\' own costs, no more', async () => {
    const costs = [40, 55, 38, 61, 47, 52, 44, 58, 39, 60, 41, 57, 43];
    let i = 0;
    const mongod = new FakeMongod({ readsCountThemselves: true, readCost: () => costs[i++ % costs.length] });
    const time = new ServerTime(null, { probe: mongod.probe });
    await time.rebase('a');
    mongod.ops('a', 10);
    await mongod.afterStep(time, ['a']);
    for (let pass = 0; pass < 5; pass++) {
      mongod.ops('a', 100, 120);
      const { out, expected } = await mongod.afterStep(time, ['a']);
      assert.equal(out.a.serverOps, expected.a.serverOps);
      const offMicros = Math.abs(out.a.serverMs - expected.a.serverMs) * 1000;
      assert.ok(offMicros <= Math.max(...costs) - Math.min(...costs), `${offMicros} µs off`);
    }
  });

  it('has no time to give where the server keeps no latency (FerretDB) or no baseline was taken', async () => {
    const none = { collection: async () => ({ exists: true, uuid: null }), latency: async () => null, selfCounted: async () => false };
    const time = new ServerTime(null, { probe: none });
    await time.rebase('a');
    assert.deepEqual(await time.delta('a'), { exists: true, time: null });
    const mongod = new FakeMongod({ readsCountThemselves: true });
    mongod.ops('a', 3);
    assert.equal((await new ServerTime(null, { probe: mongod.probe }).delta('a')).time, null);
  });
});

describe('latency answers', () => {
  it('adds reads, writes and commands, over every shard\'s document, and ignores transactions', () => {
    const doc = (n) => ({ latencyStats: { reads: { latency: n, ops: 1 }, writes: { latency: 2 * n, ops: 2 }, commands: { latency: 3 * n, ops: 3 }, transactions: { latency: 1e9, ops: 9 } } });
    assert.deepEqual(latencyTotal([doc(10)]), { micros: 60, ops: 6 });
    assert.deepEqual(latencyTotal([doc(10), doc(1)]), { micros: 66, ops: 12 });
  });
  it('is null where no document carries latencyStats', () => {
    assert.equal(latencyTotal([]), null);
    assert.equal(latencyTotal([{ ns: 'x.y' }]), null);
  });
});

describe('what the sizes stand for', () => {
  it('forces a checkpoint only on a WiredTiger mongod the kit started', () => {
    assert.equal(checkpointPolicy({ product: 'MongoDB', engine: 'wiredTiger', started: true }), 'force');
    assert.equal(checkpointPolicy({ product: 'MongoDB', engine: 'wiredTiger', started: false }), 'lag');
    assert.equal(checkpointPolicy({ product: 'MongoDB', engine: null, started: false }), 'lag', 'a readWrite user cannot read serverStatus: WiredTiger is assumed');
    assert.equal(checkpointPolicy({ product: 'MongoDB', engine: 'inMemory', started: true }), 'none');
    assert.equal(checkpointPolicy({ product: 'FerretDB', engine: 'postgresql', started: true }), 'none');
  });

  it('says where the server estimates its sizes (FerretDB 2 on DocumentDB), and parity then leaves them out', async () => {
    const { withoutTimings } = require('../../orchestrator/results/records');
    assert.equal(checkpointPolicy({ product: 'FerretDB', engine: 'PostgreSQL 18.6 with DocumentDB 1.0-0', started: true }), 'estimate');
    assert.equal(checkpointPolicy({ product: 'FerretDB', engine: null, backendVersion: 'DocumentDB 1.0.0 (PostgreSQL 18.6)', started: false }), 'estimate', 'a user\'s FerretDB 2, known by what it said at start-up');
    assert.match(await settleSizes({}, 'estimate'), /^PostgreSQL's statistics \(DocumentDB estimates size from them/);
    const record = { collection: 'c', count: 10, size: 126940, storageSize: 8192, nindexes: 2, sizesEstimated: true };
    assert.deepEqual(withoutTimings(record), { collection: 'c', count: 10, nindexes: 2, sizesEstimated: true });
    assert.deepEqual(withoutTimings({ ...record, sizesEstimated: undefined }), { ...record, sizesEstimated: undefined });
  });

  it('sends fsync only under the force policy, and says what the sizes are', async () => {
    const sent = [];
    const client = (fail) => ({ db: () => ({ command: async (c) => { sent.push(c); if (fail) throw Object.assign(new Error('no'), { codeName: 'Unauthorized' }); } }) });
    assert.equal(await settleSizes(client(false), 'none'), null);
    assert.match(await settleSizes(client(false), 'lag'), /may lag the step/);
    assert.equal(sent.length, 0);
    assert.equal(await settleSizes(client(false), 'force'), 'a checkpoint the kit forced (fsync)');
    assert.deepEqual(sent, [{ fsync: 1 }]);
    assert.match(await settleSizes(client(true), 'force'), /fsync refused: Unauthorized/);
  });
});

describe('collection stats the server refuses or cannot have', () => {
  const refused = () => Object.assign(new Error('not authorized on x to execute command'), { code: 13, codeName: 'Unauthorized' });

  it('gives a missing collection\'s zeros without touching the server', async () => {
    const untouchable = new Proxy({}, { get: () => { throw new Error('the server was asked'); } });
    assert.deepEqual(await readCollectionStats(untouchable, 'gone', { exists: false }),
      { count: 0, size: 0, storageSize: 0, totalIndexSize: 0, nindexes: 0 });
  });

  it('records the count without sizes, and says it once, where collStats is refused', async () => {
    const db = {
      command: async () => { throw refused(); },
      collection: () => ({
        aggregate: () => ({ toArray: async () => { throw refused(); } }),
        countDocuments: async () => 42,
      }),
    };
    const lines = [];
    assert.deepEqual(await readCollectionStats(db, 'c', { say: (l) => lines.push(l) }), { count: 42 });
    assert.deepEqual(lines, ['the server refused collStats (Unauthorized): sizes are not recorded']);
  });

  it('still fails the step on an error that is not a refusal', async () => {
    const db = { command: async () => { throw new Error('connection closed'); }, collection: () => ({ aggregate: () => ({ toArray: async () => [] }) }) };
    await assert.rejects(readCollectionStats(db, 'c'), /connection closed/);
  });
});
