'use strict';
// The server-side time of a pass, on a stand-in for mongod's per-collection latency counters (Top,
// src/mongo/db/stats/top.cpp) that behaves as the server's source reads: counters per namespace,
// started by the first operation on a name (a $collStats read of a missing collection too),
// erased when a collection is dropped, lost on a restart; a $collStats read is recorded either
// before it samples (as run_aggregate.cpp releases the collection before it runs such a
// pipeline) or after, and the tests run both ways. What runs against it is the scripts' own
// server time block (shell/_blocks/server-time.js, as stamped into shell/power-of-2-sizes/pass.js
// and setup.js), in a VM context as mongosh runs it: the counters read just before the timed loops and
// after the barrier, so a pass's untimed reads and probes are not its server time.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { checkpointPolicy, settleSizes, readCollectionStats } = require('../../orchestrator/run/stats');
const { stampedBlock } = require('../../scripts/stamp');

const PASS = fs.readFileSync(path.join(__dirname, '..', '..', 'shell', 'power-of-2-sizes', 'pass.js'), 'utf8');
const BLOCK = stampedBlock(PASS, 'server-time');

/** A BSON Long as mongosh hands it over (not promoted to a number). */
const long = (n) => ({ toNumber: () => n });

class FakeMongod {
  constructor({ readsCountThemselves, readCost = () => 40, keepsLatency = true }) {
    this.readsCountThemselves = readsCountThemselves;
    this.readCost = readCost;
    this.keepsLatency = keepsLatency;
    this.top = new Map();
  }

  record(name, micros) {
    const entry = this.top.get(name) || { ops: 0, micros: 0 };
    entry.ops += 1;
    entry.micros += micros;
    this.top.set(name, entry);
  }

  /** A $collStats latencyStats read, as the server answers it. */
  latencyRead(name) {
    if (!this.keepsLatency) throw new Error('$collStats latencyStats is not implemented');
    const cost = this.readCost();
    if (this.readsCountThemselves) this.record(name, cost);
    const entry = this.top.get(name) || { ops: 0, micros: 0 };
    this.top.set(name, entry);
    const seen = { ...entry };
    if (!this.readsCountThemselves) this.record(name, cost);
    return [{ ns: `db.${name}`, latencyStats: { reads: { latency: long(0), ops: long(0) }, writes: { latency: long(seen.micros), ops: long(seen.ops) }, commands: { latency: long(0), ops: long(0) } } }];
  }

  /** What the script's `db` is to the block: getCollection(name).aggregate([...]).toArray(). */
  get db() {
    return {
      getCollection: (name) => ({
        aggregate: (pipeline) => {
          // (the pipeline comes from the script's realm: compared as JSON)
          if (JSON.stringify(pipeline) !== '[{"$collStats":{"latencyStats":{}}}]') throw new Error(`unexpected pipeline ${JSON.stringify(pipeline)}`);
          return { toArray: () => this.latencyRead(name) };
        },
      }),
    };
  }

  ops(name, n, micros = 100) {
    for (let i = 0; i < n; i++) this.record(name, micros);
  }

  restart() {
    this.top.clear();
  }
}

/** The block's functions, in a context of their own. */
function serverTimeBlock() {
  const context = vm.createContext({});
  vm.runInContext(BLOCK, context);
  return context;
}

/** A pass as pass.js runs it: its untimed reads and probes, then the timed loops between the two reads. */
function pass(mongod, f, { updates = 50, removes = 10, inserts = 10 } = {}) {
  // untimed: the $pushAll probe (a failed write on powerOf2Sizes only), lastElement, the tally's finds
  mongod.record('powerOf2Sizes', 35);
  mongod.record('powerOf2Sizes', 80);
  mongod.record('noPowerOf2Sizes', 900);
  mongod.record('powerOf2Sizes', 900);
  const base = f.serverTimeStart(mongod.db, ['noPowerOf2Sizes', 'powerOf2Sizes']);
  for (const name of ['noPowerOf2Sizes', 'powerOf2Sizes']) {
    mongod.ops(name, updates, 120);
    mongod.ops(name, removes, 90);
    mongod.ops(name, inserts, 60);
  }
  const timed = { serverMs: (updates * 120 + removes * 90 + inserts * 60) / 1000, serverOps: updates + removes + inserts };
  return { out: f.serverTimeEnd(base), timed };
}

for (const readsCountThemselves of [true, false]) {
  describe(`the scripts' server time (a latency read recorded ${readsCountThemselves ? 'before' : 'after'} it samples)`, () => {
    it('counts the timed loops\' operations exactly, not the probe, lastElement or the tally, alike on both collections', () => {
      const mongod = new FakeMongod({ readsCountThemselves });
      mongod.ops('noPowerOf2Sizes', 1001);
      mongod.ops('powerOf2Sizes', 1001);
      const { out, timed } = pass(mongod, serverTimeBlock());
      assert.deepEqual({ ...out.noPowerOf2Sizes }, timed);
      assert.deepEqual({ ...out.powerOf2Sizes }, timed, 'the probe, a failed write on powerOf2Sizes only, is not counted');
    });

    it('counts from a collection\'s first operation where the pass starts its counters', () => {
      const mongod = new FakeMongod({ readsCountThemselves });
      const { out, timed } = pass(mongod, serverTimeBlock(), { updates: 3, removes: 0, inserts: 0 });
      assert.deepEqual({ ...out.powerOf2Sizes }, timed);
    });

    it('gives none where the counters started again during the loops (a restart), rather than a wrong time', () => {
      const mongod = new FakeMongod({ readsCountThemselves });
      mongod.ops('a', 500);
      const f = serverTimeBlock();
      const base = f.serverTimeStart(mongod.db, ['a']);
      mongod.restart();
      mongod.ops('a', 20);
      assert.equal(f.serverTimeEnd(base).a, null);
    });
  });
}

describe('the scripts\' server time, what stays approximate and what is not there', () => {
  it('is off by the difference between two latency reads\' own costs, no more', () => {
    const costs = [40, 55, 38, 61, 47, 52, 44, 58, 39, 60, 41, 57, 43];
    let i = 0;
    const mongod = new FakeMongod({ readsCountThemselves: true, readCost: () => costs[i++ % costs.length] });
    const f = serverTimeBlock();
    for (let n = 0; n < 5; n++) {
      const { out, timed } = pass(mongod, f);
      for (const c of [out.noPowerOf2Sizes, out.powerOf2Sizes]) {
        assert.equal(c.serverOps, timed.serverOps);
        const offMicros = Math.abs(c.serverMs - timed.serverMs) * 1000;
        assert.ok(offMicros <= Math.max(...costs) - Math.min(...costs) + 1, `${offMicros} µs off`);
      }
    }
  });

  it('has no time to give where the server keeps no latency (FerretDB answers no $collStats latencyStats)', () => {
    const mongod = new FakeMongod({ readsCountThemselves: true, keepsLatency: false });
    const { out } = pass(mongod, serverTimeBlock());
    assert.deepEqual({ ...out }, { noPowerOf2Sizes: null, powerOf2Sizes: null });
  });

  it('is what pass.js and setup.js print: read just before the loops, and after the barrier', () => {
    for (const file of ['pass.js', 'setup.js']) {
      const text = fs.readFileSync(path.join(__dirname, '..', '..', 'shell', 'power-of-2-sizes', file), 'utf8');
      const start = text.indexOf("var serverTimeBase = serverTimeStart(db, ['noPowerOf2Sizes', 'powerOf2Sizes']);");
      const loops = text.indexOf('var loopStart = performance.now();');
      const barrier = text.indexOf('barrier(client);\nvar appliedHrMilliseconds');
      const end = text.indexOf('var serverTime = serverTimeEnd(serverTimeBase);');
      assert.ok(start > 0 && start < loops && loops < barrier && barrier < end, `${file}: start, loops, barrier, end in that order`);
      assert.ok(text.indexOf('lastElement') < 0 || text.lastIndexOf('expectedTally(') < start, `${file}: the tally's finds come before the counters are read`);
      assert.match(text, /serverMs: serverTime\[c\[0\]\] \? serverTime\[c\[0\]\]\.serverMs : undefined, serverOps: serverTime\[c\[0\]\] \? serverTime\[c\[0\]\]\.serverOps : undefined/);
    }
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
    const db = { command: async () => { throw new Error('connection closed'); }, collection: () => ({ aggregate: () => ({ toArray: async () => [] }), countDocuments: async () => 1 }) };
    await assert.rejects(readCollectionStats(db, 'c'), /connection closed/);
  });
});
