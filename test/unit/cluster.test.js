'use strict';
// A replica set, a sharded cluster through mongos, Atlas: what the kit reads there. The collection
// stats summed over shards and each shard's kept, the plan reader walking each shard's plan, the
// scripts' private client held to one mongos, and whether the network decided a step. mongos's
// answers are fixtures shaped as the server's source and manual give them (their sources are
// named in test/fixtures/cluster/mongos-answers.js); no mongod runs here.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { readCollectionStats } = require('../../orchestrator/run/stats');
const { withoutTimings } = require('../../orchestrator/results/records');
const { networkShare, networkReason, NETWORK_DECIDES } = require('../../orchestrator/analysis/network');
const { reasonText } = require('../../orchestrator/analysis/reasons');
const mongos = require('../fixtures/cluster/mongos-answers');
const { stampedBlock } = require('../../scripts/stamp');

const SHELL = path.join(__dirname, '..', '..', 'shell');

/** The text of a script's stamped block (scripts/stamp.js's markers). */
function block(file, name) {
  return stampedBlock(fs.readFileSync(path.join(SHELL, file), 'utf8'), name);
}

/** A database that answers collStats with `collStats` (or refuses it) and $collStats with `stage`. */
function answering({ collStats = null, stage = [], count = 0 }) {
  return {
    command: async (command) => {
      assert.ok(command.collStats);
      if (!collStats) throw Object.assign(new Error('no such command: \'collStats\''), { code: 59, codeName: 'CommandNotFound' });
      return collStats;
    },
    collection: () => ({
      aggregate: () => ({ toArray: async () => stage }),
      countDocuments: async () => count,
    }),
  };
}

describe('collection stats through mongos', () => {
  it('keeps an unsharded collection\'s figures, says it is unsharded on its database\'s primary shard, and keeps that shard\'s figures', async () => {
    const stats = await readCollectionStats(answering({ collStats: mongos.collStatsUnsharded, count: 600 }), 'c');
    assert.deepEqual(stats, {
      count: 600, size: 162000, storageSize: 90112, totalIndexSize: 40960, avgObjSize: 270, nindexes: 2,
      freeStorageSize: 16384, reusableBytes: 16384, blockCompressor: 'snappy',
      sharded: false, primaryShard: 'shard01',
      shards: { shard01: { count: 600, size: 162000, storageSize: 90112, totalIndexSize: 40960, freeStorageSize: 16384, avgObjSize: 270, nindexes: 2, reusableBytes: 16384, blockCompressor: 'snappy' } },
    });
  });

  it('sums what mongos leaves unsummed over a sharded collection: free storage and WiredTiger\'s reusable bytes from each shard, not the first', async () => {
    const stats = await readCollectionStats(answering({ collStats: mongos.collStatsSharded, count: 1001 }), 'c');
    assert.equal(stats.size, 270007, 'mongos\'s own sum');
    assert.equal(stats.storageSize, 151552);
    assert.equal(stats.freeStorageSize, 16384 + 4096, 'mongos drops freeStorageSize: summed here');
    assert.equal(stats.reusableBytes, 16384 + 4096, 'mongos copies the first shard\'s wiredTiger: each shard\'s read here');
    assert.equal(stats.sharded, true);
    assert.equal(stats.primaryShard, undefined, 'mongos names a primary shard only for an unsharded collection');
    assert.deepEqual(Object.keys(stats.shards), ['shard01', 'shard02']);
    assert.equal(stats.shards.shard02.storageSize, 61440);
    assert.equal(stats.shards.shard02.reusableBytes, 4096);
  });

  it('sums $collStats\' one document per shard where collStats is refused, as collStats would have, its mean size too', async () => {
    const viaStage = await readCollectionStats(answering({ collStats: null, stage: mongos.collStatsStageSharded, count: 1001 }), 'c');
    const viaCommand = await readCollectionStats(answering({ collStats: mongos.collStatsSharded, count: 1001 }), 'c');
    assert.notEqual(viaCommand.avgObjSize, viaCommand.size / 1001, 'the fixture\'s numbers do not divide evenly: a mean taken as size / count would differ');
    for (const field of ['size', 'storageSize', 'totalIndexSize', 'avgObjSize', 'nindexes', 'freeStorageSize', 'reusableBytes', 'blockCompressor', 'sharded', 'shards']) {
      assert.deepEqual(viaStage[field], viaCommand[field], field);
    }
    // one document through mongos: the collection on one shard, which $collStats does not say is unsharded
    const one = await readCollectionStats(answering({ collStats: null, stage: mongos.collStatsStageSharded.slice(0, 1), count: 600 }), 'c');
    assert.equal(one.size, 162000);
    assert.equal(one.sharded, undefined);
    assert.deepEqual(Object.keys(one.shards), ['shard01']);
  });

  it('reads a mongod\'s collStats as before: no shards, no sharded field', async () => {
    const { shards, ...mongod } = mongos.SHARD01;
    assert.equal(shards, undefined);
    const stats = await readCollectionStats(answering({ collStats: mongod, count: 600 }), 'c');
    assert.deepEqual(Object.keys(stats).sort(), ['avgObjSize', 'blockCompressor', 'count', 'freeStorageSize', 'nindexes', 'reusableBytes', 'size', 'storageSize', 'totalIndexSize']);
  });

  it('leaves a sharded record\'s per-shard bytes out where the record\'s own bytes depend on time (several writers)', () => {
    const record = { collection: 'c', workers: 2, size: 1, shards: { shard01: { size: 1, count: 3 } } };
    assert.deepEqual(withoutTimings(record), { collection: 'c', workers: 2, shards: { shard01: { count: 3 } } });
    assert.deepEqual(withoutTimings([{ a: 1, size: 2 }, { a: 2, size: 3 }]), [{ a: 1, size: 2 }, { a: 2, size: 3 }], 'an array of records is not taken for several writers');
  });
});

describe('the update plan block walks each shard\'s plan through mongos', () => {
  const context = vm.createContext({});
  vm.runInContext(block('many-keys/update.js', 'update-plan'), context);
  const explaining = (answer) => ({ runCommand: () => answer });

  it('sees a collection scan on the one shard that holds an unsharded collection', () => {
    const plan = context.updatePlan(explaining(mongos.explainUpdateScan), 'c', { guid: 'x' }, { $inc: { n: 1 } }, false);
    assert.equal(plan.scan, true);
    assert.deepEqual([...plan.stages], ['SINGLE_SHARD', 'shard01: UPDATE', 'shard01: COLLSCAN']);
    assert.equal(plan.docsExamined, 600);
    assert.equal(plan.keysExamined, 0);
    assert.match(plan.text, /^SINGLE_SHARD <- shard01: UPDATE <- shard01: COLLSCAN; 0 keys and 600 documents examined$/);
  });

  it('sees a scan on any shard, where another finds the document through its index (the slot-based engine\'s queryPlan too)', () => {
    const plan = context.updatePlan(explaining(mongos.explainUpdateTwoShards), 'c', { guid: 'x' }, { $inc: { n: 1 } }, false);
    assert.deepEqual([...plan.stages], ['SHARD_WRITE', 'shard01: UPDATE', 'shard01: FETCH', 'shard01: IXSCAN guid_1', 'shard02: UPDATE', 'shard02: COLLSCAN']);
    assert.equal(plan.scan, true);
    const indexed = JSON.parse(JSON.stringify(mongos.explainUpdateTwoShards));
    indexed.queryPlanner.winningPlan.shards.pop();
    assert.equal(context.updatePlan(explaining(indexed), 'c', {}, {}, false).scan, false);
  });

  it('is the same text in every script that carries it, so each reads a mongos alike', () => {
    const copies = ['many-keys/update.js', 'log-inserts/loop.js', 'log-inserts/test2.js'].map((f) => block(f, 'update-plan'));
    for (const copy of copies) assert.equal(copy, copies[0]);
  });
});

describe('the scripts\' private client held to one mongos', () => {
  const context = vm.createContext({});
  vm.runInContext(block('power-of-2-sizes/pass.js', 'unacknowledged-writes'), context);

  it('keeps one of the hosts a mongodb+srv URI lists (srvMaxHosts=1), replacing any count of its own', () => {
    assert.equal(context.oneMongos('mongodb+srv://u:p@c0.abcde.mongodb.net/?retryWrites=true&appName=mongosh+2.12.0'),
      'mongodb+srv://u:p@c0.abcde.mongodb.net/?retryWrites=true&appName=mongosh+2.12.0&srvMaxHosts=1');
    assert.equal(context.oneMongos('mongodb+srv://c0.abcde.mongodb.net/?srvMaxHosts=3&w=1'), 'mongodb+srv://c0.abcde.mongodb.net/?w=1&srvMaxHosts=1');
    assert.equal(context.oneMongos('mongodb+srv://c0.abcde.mongodb.net/?loadBalanced=true'), 'mongodb+srv://c0.abcde.mongodb.net/?loadBalanced=true',
      'a load balancer keeps each connection on one mongos, and the driver refuses srvMaxHosts beside it');
  });

  it('keeps the first host of a host list, with the credentials, database and options', () => {
    assert.equal(context.oneMongos('mongodb://u:p%40ss@mongos-a:27017,mongos-b:27017,mongos-c:27017/classics?authSource=admin&tls=true'),
      'mongodb://u:p%40ss@mongos-a:27017/classics?authSource=admin&tls=true');
    assert.equal(context.oneMongos('mongodb://127.0.0.1:27017/?directConnection=true'), 'mongodb://127.0.0.1:27017/?directConnection=true');
  });

  it('opens the private client on one mongos behind mongos, on the shell\'s own URI elsewhere; where one cannot be reached, on the own URI, saying why', () => {
    const opened = [];
    const own = 'mongodb://mongos-a:27017,mongos-b:27017/?appName=mongosh';
    const shell = (hello, unreachable = []) => {
      const ctx = vm.createContext({
        db: { getMongo: () => ({ getURI: () => own }), adminCommand: () => hello },
        Mongo: function Mongo(uri) {
          opened.push(uri);
          if (unreachable.some((host) => uri.includes(host))) throw new Error(`connect ECONNREFUSED ${unreachable[0]}`);
          this.uri = uri;
          this.getDB = () => ({ runCommand: () => ({ ok: 1 }) });
        },
      });
      vm.runInContext(block('power-of-2-sizes/pass.js', 'unacknowledged-writes'), ctx);
      return ctx;
    };
    const mongosShell = shell({ ok: 1, msg: 'isdbgrid' });
    assert.equal(mongosShell.ownConnection().uri, 'mongodb://mongos-a:27017/?appName=mongosh&retryWrites=false&maxPoolSize=1');
    assert.equal(mongosShell.notPinned, null);
    assert.equal(shell({ ok: 1, isWritablePrimary: true }).ownConnection().uri, `${own}&retryWrites=false&maxPoolSize=1`, 'a replica set or a standalone: the URI as it is, retryable writes off');
    const down = shell({ ok: 1, msg: 'isdbgrid' }, ['mongos-a:27017/']);
    assert.equal(down.ownConnection().uri, `${own}&retryWrites=false&maxPoolSize=1`);
    assert.match(down.notPinned, /^the timed writes could not be held to one mongos \(connect ECONNREFUSED mongos-a:27017\/\)/);
  });

  it('holds to the same mongos as the kit\'s round trip (servers/reach.js oneMongosUri): one rule, two texts', () => {
    const { oneMongosUri } = require('../../orchestrator/servers/reach');
    const { ConnectionString } = require('mongodb-connection-string-url');
    const same = (uri) => {
      const a = new ConnectionString(context.oneMongos(uri));
      const b = new ConnectionString(oneMongosUri(uri));
      assert.deepEqual(a.hosts, b.hosts, uri);
      assert.deepEqual([...a.searchParams].sort(), [...b.searchParams].sort(), uri);
    };
    same('mongodb://u:p%40ss@mongos-a:27017,mongos-b:27017,mongos-c:27017/classics?authSource=admin&tls=true');
    same('mongodb+srv://u:p@c0.abcde.mongodb.net/?retryWrites=true&appName=mongosh+2.12.0');
    same('mongodb+srv://c0.abcde.mongodb.net/?srvMaxHosts=3&w=1');
    same('mongodb+srv://c0.abcde.mongodb.net/?loadBalanced=true');
    same('mongodb://127.0.0.1:27017/?directConnection=true');
  });

  it('says what mongos does to a w:0 write when the probe honours w:0 through it: w:1 from mongos to the shards', () => {
    const probe = {
      drop: () => {}, insertOne: () => {}, updateMany: () => ({ matchedCount: 64 }),
    };
    const shell = vm.createContext({
      db: { getMongo: () => ({ getURI: () => 'mongodb://mongos-a:27017/' }), adminCommand: () => ({ ok: 1, msg: 'isdbgrid' }), getCollection: () => probe },
      Mongo: function Mongo() { this.getDB = () => ({ runCommand: () => ({ ok: 1 }), getCollection: () => probe }); this.close = () => {}; },
      ObjectId: function ObjectId() { this.toHexString = () => 'ab'; },
      sleep: () => {},
    });
    vm.runInContext(block('power-of-2-sizes/pass.js', 'unacknowledged-writes'), shell);
    const result = shell.unacknowledgedWrites('classics_x');
    assert.equal(result.outcome, 'honoured');
    assert.equal(result.viaMongos, true);
    assert.match(result.reason, /^the timed writes are sent to mongos without waiting \(w:0\), as the article's were to their server, and mongos sends each on as w:1 and waits for the shard before it reads the next \(w:1 from mongos to the shards\); 64 such inserts/);
    assert.deepEqual({ ...shell.writesNote(result) }, { outcome: 'honoured', reason: result.reason, viaMongos: true });
  });

  it('gives the kit\'s round trip the connection the scripts\' timed writes take: one mongos, one connection, retryable writes off', () => {
    const { scriptConnectionUri } = require('../../orchestrator/run/round-trip');
    assert.equal(scriptConnectionUri('mongodb://mongos-a:27017,mongos-b:27017/?appName=x&maxPoolSize=20', { viaMongos: true }), 'mongodb://mongos-a:27017/?appName=x&maxPoolSize=1&retryWrites=false');
    assert.equal(scriptConnectionUri('mongodb://rs-a:27017,rs-b:27017/?replicaSet=rs0', { viaMongos: false }), 'mongodb://rs-a:27017,rs-b:27017/?replicaSet=rs0&maxPoolSize=1&retryWrites=false', 'a replica set: every member, as the driver needs to find the primary');
  });

  it('is a URI the kit\'s driver takes: one host, or srvMaxHosts on a mongodb+srv', () => {
    const { ConnectionString } = require('mongodb-connection-string-url');
    assert.deepEqual(new ConnectionString(context.oneMongos('mongodb://a:1,b:2/?w=1')).hosts, ['a:1']);
    assert.equal(new ConnectionString(context.oneMongos('mongodb+srv://c0.abcde.mongodb.net/')).searchParams.get('srvMaxHosts'), '1');
  });
});

describe('whether the network, not the server, decided a step', () => {
  const far = { server: 'atlas', roundTripMs: 20 };
  const near = { server: 'local', roundTripMs: 0.2 };

  it('says so where one round trip is more than half of the time each operation took', () => {
    const records = [{ step: 'load', hrMs: 30000, batches: 1000 }, { step: 'load', hrMs: 28000, batches: 1000 }];
    const result = networkShare(far, records, { timeField: 'hrMs', opsField: 'batches' });
    assert.equal(result.perOpMs, 29);
    assert.ok(Math.abs(result.share - 20 / 29) < 1e-9);
    assert.equal(result.decided, true);
    assert.deepEqual(networkReason(result), { code: 'network-decided', roundTripMs: 20, share: result.share });
    const local = networkShare(near, records, { timeField: 'hrMs', opsField: 'batches' });
    assert.equal(local.decided, false);
    assert.equal(networkReason(local), null);
  });

  it('takes seconds and a mean latency as their units say, the mean weighted by its queries', () => {
    assert.equal(networkShare(far, [{ seconds: 2.5, ops: 100 }], { timeField: 'seconds', opsField: 'ops' }).perOpMs, 25);
    const reads = networkShare(far, [{ meanUs: 21000, queries: 300 }, { meanUs: 60000, queries: 100 }], { timeField: 'meanUs', opsField: 'queries' });
    assert.ok(Math.abs(reads.perOpMs - (21 * 300 + 60 * 100) / 400) < 1e-9);
    assert.equal(reads.decided, true, `20 ms of ${reads.perOpMs} ms`);
  });

  it('counts one round trip for a record of w:0 writes on a mongod (the barrier after them), whose sends waited for none', () => {
    const unsafe = networkShare(far, [{ appliedHrMs: 5000, ops: 10000, writeConcern: 'w:0' }], { timeField: 'appliedHrMs', opsField: 'ops' });
    assert.equal(unsafe.roundTrips, 1);
    assert.deepEqual(unsafe.hops, [{ between: 'the client and the server', ms: 20, count: 1 }]);
    assert.equal(unsafe.decided, false);
    const safe = networkShare(far, [{ appliedHrMs: 250000, ops: 10000, writeConcern: 'w:1' }], { timeField: 'appliedHrMs', opsField: 'ops' });
    assert.equal(safe.decided, true);
  });

  describe('through mongos', () => {
    // mongos 1 ms from the client, the shard 2 ms from mongos (hopMs): what servers/round-trip.js records
    const cluster = { server: 'cluster', topology: 'sharded', roundTripMs: 1, hopMs: 2 };
    const unsafe = { appliedHrMs: 25000, ops: 10000, writeConcern: 'w:0', unacknowledged: { outcome: 'honoured' } };

    it('counts a w:0 record as two hops: the barrier to mongos once, and mongos to the shard for every write, which mongos sends on as w:1', () => {
      const result = networkShare(cluster, [unsafe], { timeField: 'appliedHrMs', opsField: 'ops' });
      assert.equal(result.viaMongos, true);
      assert.deepEqual(result.hops, [
        { between: 'the client and mongos', ms: 1, count: 1 },
        { between: 'mongos and the shards', ms: 2, count: 10000, upgraded: 10000 },
      ]);
      assert.ok(Math.abs(result.waitedMs - (1 + 10000 * 2) / 10000) < 1e-9);
      assert.ok(Math.abs(result.share - 20001 / 25000) < 1e-9, 'the hop inside the cluster is most of each write');
      assert.equal(result.decided, true, 'a w:0 record on a mongod would be one round trip in all');
      assert.equal(networkShare({ ...cluster, topology: 'standalone' }, [unsafe], { timeField: 'appliedHrMs', opsField: 'ops' }).decided, false);
      const reason = networkReason(result, 'unsafe');
      assert.equal(reason.hopMs, 2);
      assert.match(reasonText(reason), /^the network, not the server, could have made it: the round trip to mongos \(1 ms\) and the hop from mongos to the shards \(2 ms\), which each w:0 write waits for too \(w:1 from mongos to the shards\), are 80% of the time per operation \(unsafe\)$/);
    });

    it('counts an acknowledged write through mongos as the round trip and the hop, and Atlas of that shape alike', () => {
      const safe = networkShare({ server: 'a', topology: 'atlas', atlas: { shape: 'sharded' }, roundTripMs: 1, hopMs: 2 }, [{ hrMs: 40000, ops: 10000, writeConcern: 'w:1' }]);
      assert.deepEqual(safe.hops.map((h) => h.count), [10000, 10000]);
      assert.equal(safe.hops[1].upgraded, 0);
      assert.ok(Math.abs(safe.share - 0.75) < 1e-9);
      assert.doesNotMatch(reasonText(networkReason(safe)), /w:1 from mongos/, 'an acknowledged write was w:1 all the way');
    });

    it('never counts an unmeasured hop as 0 ms: where the round trip alone does not decide, whether the network did cannot be told', () => {
      // the lease database could not be written, so the round-trip script failed: the driver's ping
      // stands and the hop is not measured (run/round-trip.js's roundTripNote says why)
      const why = 'the kit\'s shell could not time it (not authorized on classics_lease to execute command { insert: "lease" }): a ping through the driver stands, and the hop inside the cluster is not measured';
      const server = { server: 'cluster', topology: 'sharded', roundTripMs: 1, roundTripNote: why };
      const result = networkShare(server, [{ hrMs: 40000, ops: 10000, writeConcern: 'w:1' }]);
      assert.equal(result.hopUnmeasured, true);
      assert.equal(result.decided, false, 'a quarter of each write is the round trip alone');
      assert.equal(result.undecidable, true, 'the hop, not measured, could be the rest');
      const reason = networkReason(result, 'update bucket');
      assert.equal(reason.code, 'hop-unmeasured');
      assert.equal(reason.why, why);
      assert.match(reasonText(reason), /^whether the network made it cannot be told: every operation through mongos waited for the hop from mongos to the shards \(10,000 times\), which was not measured \(the kit's shell could not time it/);
      assert.match(reasonText(reason), /the round trip to mongos alone \(1 ms\) is 25% of the time per operation \(update bucket\), and the hop could be the rest$/);
      const measured = networkShare({ ...server, hopMs: 0.1 }, [{ hrMs: 40000, ops: 10000, writeConcern: 'w:1' }]);
      assert.equal(networkReason(measured), null, 'a hop measured small decides nothing');
      assert.equal(networkShare({ ...server, topology: 'replicaSet' }, [{ hrMs: 40000, ops: 10000 }]).undecidable, false, 'no mongos, no hop');
    });

    it('with a mongodb+srv URI, says the round trip may not be through the mongos the timed connections reach (srvMaxHosts=1 draws one at random)', async () => {
      const { mongosOfRoundTrip } = require('../../orchestrator/run/round-trip');
      // what resolve-mongodb-srv makes of an SRV record of three mongos (its TXT record's options added)
      const resolved = 'mongodb://user:pw@mongos-a.example.net:27017,mongos-b.example.net:27017,mongos-c.example.net:27017/?authSource=admin&ssl=true';
      const asked = [];
      const resolve = async (uri) => { asked.push(uri); return resolved; };
      const srv = await mongosOfRoundTrip('mongodb+srv://user:pw@cluster0.example.net/?srvMaxHosts=1', { viaMongos: true }, resolve);
      assert.deepEqual(srv, { same: false, mongos: 3, why: 'a mongodb+srv URI: each connection keeps one of the 3 mongos its SRV record lists, drawn at random (srvMaxHosts=1), so the round trip and each timed connection may reach different mongos' });
      assert.doesNotMatch(asked[0], /srvMaxHosts/, 'every host counted, not the one kept');
      assert.equal(await mongosOfRoundTrip('mongodb://mongos-a:27017,mongos-b:27017/', { viaMongos: true }, resolve), null, 'a host list: its first host, for the round trip and every timed connection');
      assert.equal(await mongosOfRoundTrip('mongodb+srv://cluster0.example.net/?loadBalanced=true', { viaMongos: true }, resolve), null);
      assert.equal(await mongosOfRoundTrip('mongodb+srv://cluster0.example.net/', { viaMongos: false }, resolve), null, 'a replica set: no mongos');
      assert.equal(await mongosOfRoundTrip('mongodb+srv://cluster0.example.net/', { viaMongos: true }, async () => 'mongodb://only:27017/'), null, 'one mongos listed: the same one');
      const unresolved = await mongosOfRoundTrip('mongodb+srv://cluster0.example.net/', { viaMongos: true }, async () => { throw new Error('queryTxt ETIMEOUT'); });
      assert.equal(unresolved.mongos, null);
      const reason = networkReason(networkShare({ server: 'atlas', topology: 'sharded', roundTripMs: 20, hopMs: 1, roundTripMongos: srv }, [{ hrMs: 30000, ops: 1000 }]));
      assert.equal(reason.mongosMayDiffer, srv.why);
      assert.match(reasonText(reason), /; the round trip was timed through one mongos, and with a mongodb\+srv URI each connection keeps one of the 3 mongos its SRV record lists/);
    });

    it('says where the hop was not measured, and counts what it knows', () => {
      const result = networkShare({ server: 'old', topology: 'sharded', roundTripMs: 20 }, [{ hrMs: 30000, ops: 1000 }]);
      assert.equal(result.hopUnmeasured, true);
      assert.equal(result.decided, true);
      assert.match(reasonText(networkReason(result)), /the hop from mongos to the shards \(not measured\)/);
    });
  });

  it('says nothing where the record holds no round trip or the step no timed operation', () => {
    assert.equal(networkShare({ server: 'old' }, [{ hrMs: 1, ops: 1 }]), null, 'a run recorded before roundTripMs');
    assert.equal(networkShare(far, [{ hrMs: 1 }], { opsField: 'ops' }), null);
    assert.equal(networkShare(far, []), null);
    assert.equal(NETWORK_DECIDES, 0.5);
  });

  it('caps the share at the whole operation where the round trip measured apart exceeds it', () => {
    assert.equal(networkShare(far, [{ hrMs: 1800, ops: 100 }]).share, 1);
  });
});

describe('the run\'s description of a cluster', () => {
  const { renderReport } = require('../../orchestrator/report/render');
  const os = require('node:os');

  /** summary.md of a run folder holding one crafted server record (and the scenarios it names, none measured). */
  async function summaryOf(server, scenarios = []) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-describe-'));
    try {
      const lines = [
        { type: 'run', runId: 'r', startedAt: '2026-01-01T00:00:00Z', params: { scenarios: scenarios.map((s) => s.name), servers: [server.server], size: 'smoke', sizes: {}, passes: {}, overrides: {} }, kit: { version: '0.1.0' }, machine: { cores: 2, cpu: 'x', memoryBytes: 1, platform: 'linux' } },
        { type: 'server', spec: `${server.server}=mongodb://h/`, description: 'mongodb://h/', startedByKit: false, product: 'MongoDB', version: '8.0.4', ...server },
        { type: 'end', status: 'ok', failures: 0 },
      ];
      fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      await renderReport([dir], scenarios, { draw: false });
      return fs.readFileSync(path.join(dir, 'summary.md'), 'utf8');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('names a default write concern beside the one every timed write names, with the round trip in the servers\' table', async () => {
    const summary = await summaryOf({ server: 'rs', topology: 'replicaSet', topologyText: 'replica set (3 members)', defaultWriteConcern: { w: 'majority', source: 'implicit' }, roundTripMs: 0.412 });
    assert.match(summary, /^- rs: replica set \(3 members\); a write that names no w gets w:majority \(implicit default\); every write the scripts time names its own w:0 or w:1/m);
    assert.match(summary, /\| rs \|.*\| no \| 0\.412 ms \|/);
  });

  it('says the read preference every read took, retryable writes and the default read concern (the server record\'s), and through mongos the hop', async () => {
    const summary = await summaryOf({
      server: 'rs', topology: 'replicaSet', topologyText: 'replica set (5 members: 1 arbiter, 1 hidden, 1 passive)',
      defaultWriteConcern: { w: 'majority', source: 'implicit' }, defaultReadConcern: { level: 'local', source: 'implicit' },
      retryWrites: true, retryableWrites: true, readPreference: { mode: 'secondary', tags: [{ dc: 'ny' }], source: 'the URI' },
    });
    assert.match(summary, /^- rs: replica set \(5 members: 1 arbiter, 1 hidden, 1 passive\); .*a read that names no read concern reads local; retryable writes on .*; every read with read preference secondary, tags \{dc: ny\} \(the URI\): the timed reads, the kit's sizes and counts.* the server's own time on the written collections is not read/m);
    const cluster = await summaryOf({ server: 'cluster', topology: 'sharded', topologyText: 'sharded cluster (mongos)', collectionsSharded: false, hopMs: 1.25, roundTripMs: 0.4 });
    assert.match(cluster, /every operation through mongos waits for the hop from mongos to the shard, 1\.25 ms, w:0 writes too \(w:1 from mongos to the shards\), which the round trip to mongos does not hold/);
    assert.doesNotMatch(cluster, /mongos.*in the round trip/);
  });

  it('says of a mongos that its collections live whole on one shard', async () => {
    const summary = await summaryOf({ server: 'cluster', topology: 'sharded', topologyText: 'sharded cluster (mongos)', collectionsSharded: false });
    assert.match(summary, /^- cluster: sharded cluster \(mongos\); the kit shards none of its collections/m);
  });

  it('says a default write concern it may not read is unknown (not permitted), never w:1; the URI\'s concerns and what the timed operations took; an SRV URI\'s mongos', async () => {
    const source = 'unknown (not permitted: getDefaultRWConcern needs the clusterMonitor role)';
    const summary = await summaryOf({
      server: 'rs', topology: 'replicaSet', topologyText: 'replica set (3 members)',
      defaultWriteConcern: { w: null, source }, defaultReadConcern: { level: null, source },
      uriConcerns: { readConcernLevel: 'majority', w: 'majority', journal: true, wtimeoutMS: null },
    });
    assert.match(summary, /^- rs: replica set \(3 members\); the write concern a write that names no w gets is unknown \(not permitted: getDefaultRWConcern needs the clusterMonitor role\)/m);
    assert.doesNotMatch(summary, /gets w:|no replication|w:null/);
    assert.match(summary, /the URI names readConcernLevel=majority, w=majority, journal=true: every read the scripts time takes that read concern \(none names its own\), and every write they time names its own w:0 or w:1 without j, so the URI's w and journal reach only their untimed writes/);
    const srv = await summaryOf({
      server: 'atlas', topology: 'sharded', topologyText: 'sharded cluster (mongos)', hopMs: 0.5, roundTripMs: 2,
      roundTripMongos: { same: false, mongos: 3, why: 'a mongodb+srv URI: each connection keeps one of the 3 mongos its SRV record lists, drawn at random (srvMaxHosts=1), so the round trip and each timed connection may reach different mongos' },
    });
    assert.match(srv, /the round trip was timed through one mongos: a mongodb\+srv URI: each connection keeps one of the 3 mongos/);
  });

  it('never calls an old run\'s default writes w:1 (a record from before the scripts named w:1 everywhere)', async () => {
    const summary = await summaryOf({ server: 'old', topology: 'replica set (3 members)', defaultWriteConcern: { w: 'majority', source: 'implicit' } });
    assert.match(summary, /^- old: replica set \(3 members\); a write that names no w gets w:majority \(implicit default\), and so did the writes of this run's scripts that named none/m);
    assert.doesNotMatch(summary, /stay as the articles had them/);
  });

  it('names the acknowledged writes the run\'s scenarios declare (steps[].acknowledgedWrites), and no others', async () => {
    const { discoverScenarios } = require('../../orchestrator/scenarios');
    const all = discoverScenarios(SHELL);
    const declared = all.filter((s) => s.steps.some((step) => step.acknowledgedWrites));
    assert.ok(declared.length > 0, 'no scenario declares acknowledged writes: the words below are never said');
    const named = (s) => s.steps.filter((step) => step.acknowledgedWrites).map((step) => `${s.name}${s.name.endsWith('s') ? "'" : "'s"} ${step.acknowledgedWrites}`).join(', ');
    const old = await summaryOf({ server: 'old', topology: 'replica set (3 members)', defaultWriteConcern: { w: 'majority', source: 'implicit' } }, all);
    assert.match(old, new RegExp(`scripts that named none \\(${declared.map(named).join(', ')}\\), whatever`));
    const retrying = await summaryOf({ server: 'rs', topology: 'replicaSet', topologyText: 'replica set (3 members)', retryWrites: true, retryableWrites: true }, [declared[0]]);
    assert.match(retrying, new RegExp(`the other acknowledged writes \\(${named(declared[0])}\\) carry a transaction number`));
    // a run of none of them says no list at all
    const none = await summaryOf({ server: 'rs', topology: 'replicaSet', topologyText: 'replica set (3 members)', retryWrites: true, retryableWrites: true });
    assert.match(none, /the other acknowledged writes carry a transaction number/);
  });
});
