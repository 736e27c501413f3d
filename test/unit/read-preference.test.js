'use strict';
// One read preference for a run: the URI's, primary unless the user named another. The scripts'
// reads take their connection's (the URI's) and name no other; the commands that read a figure
// beside the timed reads (trade-candles' cache counters) name it, since a command goes to the
// primary unless it names one; a figure of the writes (the server's time on the written
// collections, the w:0 probe's count) is never read from another member than the primary: the
// server time is not read there, and the probe counts with an acknowledged write on the writes'
// own connection. The kit's stats (run/stats.js) read with the same read preference, its
// client's, parsed from the same URI; on another member than the primary in a causal session
// that first takes the primary's time, so a lagging member's count waits for the step's writes.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { MongoClient, ReadPreference } = require('mongodb');
const { readCollectionStats, collectionExists, statsReads } = require('../../orchestrator/run/stats');
const { resolveConfig } = require('../../orchestrator/config');
const { stampedBlock } = require('../../scripts/stamp');

const { shellDir } = resolveConfig();

/** Every mongosh script of every scenario (the SQL baseline is Node, not a script). */
const scripts = fs.readdirSync(shellDir, { withFileTypes: true }).filter((e) => e.isDirectory())
  .flatMap((e) => fs.readdirSync(path.join(shellDir, e.name)).filter((f) => f.endsWith('.js') && f !== 'sql-baseline.js').map((f) => path.join(e.name, f)));
const text = (script) => fs.readFileSync(path.join(shellDir, script), 'utf8');

/** The text of a script's marked block, `// --- name` … `// --- end name ---`. */
function block(script, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n([\\s\\S]*?)// --- end ${name} ---`).exec(text(script));
  assert.ok(m, `no "${name}" block in ${script}`);
  return m[1];
}

const secondary = ReadPreference.fromOptions({ readPreference: 'secondary' });

describe('one read preference for a run', () => {
  it('no script names a read preference of its own, except the primary for the reads of its own writes: each other read takes its connection\'s, the run\'s', () => {
    const own = [];
    for (const script of scripts) {
      // the one block that may name one: the reads that must see the script's own writes, each on the primary
      const ownWrites = /\/\/ --- reads of the [^\n]*own writes[^\n]*\n[\s\S]*?\/\/ --- end reads of the [^\n]*own writes ---/.exec(text(script));
      const lines = text(script).replace(ownWrites?.[0] ?? '\u0000', (block) => block.replace(/[^\n]/g, ' ')).split('\n');
      lines.forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (/\.readPref\(|setReadPref|\$readPreference|readPreference:\s*['"{]|readPreference=/.test(code)) own.push(`${script}:${i + 1}: ${line.trim()}`);
      });
      if (ownWrites) {
        const named = [...ownWrites[0].replace(/\/\/.*$/gm, '').matchAll(/readPref\('(\w+)'\)|readPreference:\s*'(\w+)'/g)].map((m) => m[1] || m[2]);
        assert.ok(named.length && named.every((mode) => mode === 'primary'), `${script}: the reads of its own writes name the primary alone (${named.join(', ')})`);
      }
    }
    assert.deepEqual(own, []);
  });

  describe('the reads that must see the script\'s own writes go to the primary under a secondary read preference', () => {
    // The driver's own cursors, on a client whose URI asks for secondary reads (mongodb 7.9:
    // FindCursor.withReadPreference, AggregationCursor's readPreference from the options; a
    // cursor connects only when read, so none is): each read's cursor says where it would go.
    // The shell's cursor methods are mongosh's (Cursor.readPref calls withReadPreference; a
    // collection's aggregate hands its options, readPreference among them, to the driver).
    const client = new MongoClient('mongodb://rs-a:27017,rs-b:27017/?replicaSet=rs0&readPreference=secondary');
    const driverColl = client.db('classics_x').collection('c');

    /** A shell collection over the driver's: each read records the mode its cursor would read with, and answers `docs`. */
    function shellCollection(docs, reads) {
      const cursorOf = (driverCursor) => {
        const cursor = {
          sort: (spec) => { driverCursor.sort(spec); return cursor; },
          limit: (n) => { driverCursor.limit(n); return cursor; },
          readPref: (mode) => { driverCursor = driverCursor.withReadPreference(mode); return cursor; },
          toArray: () => { reads.push(driverCursor.readPreference.mode); return docs; },
          forEach: (f) => { reads.push(driverCursor.readPreference.mode); docs.forEach(f); },
        };
        return cursor;
      };
      return {
        find: (filter = {}, projection) => cursorOf(driverColl.find(filter, projection ? { projection } : {})),
        aggregate: (pipeline, options) => cursorOf(driverColl.aggregate(pipeline, options)),
      };
    }

    it('power-of-2-sizes/pass.js: the highest _id (lastElement) and the tally\'s _ids present', () => {
      assert.equal(driverColl.find().readPreference.mode, 'secondary', 'a read that names none takes the URI\'s');
      const context = vm.createContext({});
      vm.runInContext(block('power-of-2-sizes/pass.js', 'reads of the pass\'s own writes'), context);
      const reads = [];
      assert.equal(context.highestId(shellCollection([{ _id: 41 }], reads)), 41);
      const present = {};
      context.markPresent(shellCollection([{ _id: 3 }, { _id: 7 }], reads), [3, 5, 7], present);
      assert.deepEqual({ ...present }, { 3: true, 7: true });
      assert.deepEqual(reads, ['primary', 'primary']);
      assert.match(text('power-of-2-sizes/pass.js'), /\nvar lastElement = highestId\(db\.powerOf2Sizes\);/);
      assert.match(text('power-of-2-sizes/pass.js'), /markPresent\(db\.getCollection\(collectionName\)/, 'expectedTally reads through it');
    });

    it('many-keys/update.js: the events summed (sumEvents), the targets\' identities and the read-back', () => {
      const context = vm.createContext({ DOCS: 10, toNumber: Number });
      vm.runInContext(block('many-keys/update.js', 'reads of the script\'s own writes'), context);
      const reads = [];
      assert.equal(context.sumEvents(shellCollection([{ _id: null, events: 25 }], reads)), 25);
      assert.equal(context.identities(shellCollection([{ guid: 'a' }], reads)).length, 1);
      let seen = 0;
      context.eachDocument(shellCollection([{}, {}], reads), () => { seen += 1; });
      assert.equal(seen, 2);
      assert.deepEqual(reads, ['primary', 'primary', 'primary']);
      const script = text('many-keys/update.js');
      assert.equal(script.match(/sumEvents\(/g).length, 3, 'defined once, read before and after the updates through it');
      assert.match(script, /eachDocument\(db\.getCollection\(result\.collection\)/);
    });
  });

  it('the commands that read beside the timed reads (trade-candles\' cache counters) name the connection\'s read preference', () => {
    const asked = [];
    const answer = {
      serverStatus: { ok: 1, wiredTiger: { cache: { 'maximum bytes configured': 1 << 30, 'bytes currently in the cache': 1 } } },
      collStats: { ok: 1, size: 10, totalIndexSize: 5, wiredTiger: { cache: { 'pages read into cache': 7, 'bytes read into cache': 70 } } },
    };
    const database = (name) => ({
      runCommand: (command, options) => { asked.push({ db: name, command: Object.keys(command)[0], mode: options?.readPreference?.mode }); return answer[Object.keys(command)[0]]; },
      adminCommand: (command) => { asked.push({ db: 'admin', command: Object.keys(command)[0], mode: undefined }); return answer[Object.keys(command)[0]] || { ok: 1 }; },
      getSiblingDB: (other) => database(other),
      getMongo: () => ({ getReadPref: () => secondary, getReadPrefMode: () => 'secondary' }),
    });
    const context = vm.createContext({ db: database('classics_trade_candles') });
    vm.runInContext(block('trade-candles/read.js', 'little memory'), context);
    assert.equal(context.wiredTigerCache()['maximum bytes configured'], 1 << 30);
    assert.deepEqual({ ...context.cacheReads() }, { pages: 7, bytes: 70 });
    assert.equal(context.dataBytes(), 15);
    assert.deepEqual(asked, [
      { db: 'admin', command: 'serverStatus', mode: 'secondary' },
      { db: 'classics_trade_candles', command: 'collStats', mode: 'secondary' },
      { db: 'classics_trade_candles', command: 'collStats', mode: 'secondary' },
    ]);
  });

  it('reads no server time where the run reads another member than the primary (a secondary\'s counters hold none of the writes)', () => {
    const context = vm.createContext({});
    vm.runInContext(stampedBlock(text('power-of-2-sizes/pass.js'), 'server-time'), context);
    let read = 0;
    const handle = (mode) => ({
      getMongo: () => ({ getReadPrefMode: () => mode }),
      getCollection: () => ({ aggregate: () => { read += 1; return { toArray: () => [{ latencyStats: { writes: { latency: 10, ops: 1 } } }] }; } }),
    });
    const start = context.serverTimeStart(handle('secondary'), ['a', 'b']);
    assert.deepEqual(JSON.parse(JSON.stringify(context.serverTimeEnd(start))), { a: null, b: null });
    assert.equal(read, 0, 'nothing asked of the secondary');
    context.serverTimeEnd(context.serverTimeStart(handle('primaryPreferred'), ['a']));
    assert.equal(read, 3, 'primaryPreferred reads the primary: read twice before, once after');
  });

  it('the w:0 probe counts what the writes did with an acknowledged write on their own connection, not a read a lagging member could answer', () => {
    const calls = [];
    const probeCollection = {
      drop: () => {},
      insertOne: (doc, options) => calls.push(`insertOne w:${options.writeConcern.w}`),
      updateMany: (filter, update, options) => { calls.push(`updateMany w:${options.writeConcern.w}`); return { matchedCount: 64 }; },
      countDocuments: () => { calls.push('countDocuments'); return 0; },
      find: () => { calls.push('find'); return { toArray: () => [] }; },
    };
    const context = vm.createContext({
      db: {
        getMongo: () => ({ getURI: () => 'mongodb://rs-a:27017/?replicaSet=rs0&readPreference=secondary', getReadPrefMode: () => 'secondary' }),
        adminCommand: () => ({ ok: 1, setName: 'rs0' }),
        getCollection: () => probeCollection,
      },
      Mongo: function Mongo(uri) {
        calls.push(`connect ${uri}`);
        this.getDB = () => ({ runCommand: () => ({ ok: 1 }), getCollection: () => probeCollection });
        this.close = () => {};
      },
      ObjectId: function ObjectId() { this.toHexString = () => 'ab'; },
      sleep: () => {},
    });
    vm.runInContext(stampedBlock(text('power-of-2-sizes/pass.js'), 'unacknowledged-writes'), context);
    const result = context.unacknowledgedWrites('classics_x');
    assert.equal(result.outcome, 'honoured', result.reason);
    assert.equal(result.retryableWrites, false);
    assert.ok(calls.includes('updateMany w:1'));
    assert.ok(!calls.includes('countDocuments') && !calls.includes('find'), calls.join(', '));
    assert.ok(calls.filter((c) => c.startsWith('connect')).every((c) => /retryWrites=false&maxPoolSize=1$/.test(c)), 'the timed writes\' client: retryable writes off, one connection');
    assert.equal(context.readsFromPrimary(), false);
  });

  describe('the kit\'s stats read as the scripts do', () => {
    /** A database that records each read's options: countDocuments, aggregate, listCollections, command. */
    function recording(readPreference) {
      const seen = [];
      const db = {
        readPreference,
        command: async (command, options) => { seen.push(['command', Object.keys(command)[0], options]); return { size: 1, storageSize: 1, totalIndexSize: 1, avgObjSize: 1, nindexes: 1 }; },
        listCollections: (filter, options) => { seen.push(['listCollections', null, options]); return { toArray: async () => [{ name: 'c' }] }; },
        collection: () => ({
          countDocuments: async (filter, options) => { seen.push(['countDocuments', null, options]); return 3; },
          findOne: async (filter, options) => { seen.push(['findOne', null, options]); return null; },
          aggregate: () => ({ toArray: async () => [] }),
        }),
      };
      return { db, seen };
    }

    it('takes the client\'s read preference, which the driver parsed from the URI the scripts are given', async () => {
      const db = new MongoClient('mongodb://rs-a:27017/?replicaSet=rs0&readPreference=secondary').db('classics_x');
      assert.equal(db.readPreference.mode, 'secondary', 'the URI\'s');
      const { db: fake, seen } = recording(db.readPreference);
      await collectionExists(fake, 'c');
      await readCollectionStats(fake, 'c');
      assert.deepEqual(seen.map(([what, name, options]) => [what, name, options.readPreference.mode]),
        [['listCollections', null, 'secondary'], ['countDocuments', null, 'secondary'], ['command', 'collStats', 'secondary']], 'the count first, then the sizes');
      assert.equal(new MongoClient('mongodb://h:27017/').db('x').readPreference.mode, 'primary', 'primary unless the URI names another');
    });

    it('on another member than the primary, reads in a causal session that first takes the primary\'s time', async () => {
      const sessions = [];
      const client = { startSession: (options) => { const s = { options, ended: false, endSession: async () => { s.ended = true; } }; sessions.push(s); return s; } };
      const { db, seen } = recording(secondary);
      const reads = await statsReads(client, db, { probe: 'c' });
      assert.deepEqual(sessions.map((s) => s.options), [{ causalConsistency: true }]);
      assert.equal(seen[0][0], 'findOne');
      assert.equal(seen[0][2].readPreference.mode, 'primary', 'the primary\'s operationTime, past every write of the step');
      assert.equal(seen[0][2].session, sessions[0]);
      await readCollectionStats(db, 'c', { reads: reads.options });
      assert.ok(seen.slice(1).every(([, , options]) => options.session === sessions[0] && options.readPreference.mode === 'secondary'));
      await reads.end();
      assert.equal(sessions[0].ended, true);
      const primary = await statsReads(client, recording(ReadPreference.primary).db);
      assert.equal(primary.options.session, undefined, 'on the primary, no session');
      assert.equal(sessions.length, 1);
    });

    it('on a replica set, reads every figure from one member, reached alone, after it has the step\'s writes: the wait first, listCollections after it', async () => {
      // the primary's times as a causal session holds them after a read (ClientSession.clusterTime,
      // operationTime: mongodb 7.9 lib/sessions.js); the member's session is handed them
      const clusterTime = { clusterTime: { $timestamp: '7412345678901234567' }, signature: { hash: 'AAAA', keyId: 1 } };
      const operationTime = { $timestamp: '7412345678901234567' };
      const order = [];
      const primarySession = { clusterTime, operationTime, endSession: async () => { order.push('end primary session'); } };
      const hello = { ...require('../fixtures/cluster/replica-set-answers').helloFiveMembers, isWritablePrimary: false, secondary: true, me: 'rs-b:27017' };
      const client = {
        startSession: () => primarySession,
        db: (name) => ({ command: async (command, options) => { order.push(`${name} ${Object.keys(command)[0]} ${options.readPreference.mode}`); return hello; } }),
      };
      const { db } = recording(secondary);
      db.databaseName = 'classics_x';
      db.collection = () => ({ findOne: async (filter, options) => { order.push(`findOne ${options.readPreference.mode}`); return null; } });
      const memberSession = { advanced: {}, advanceClusterTime(t) { this.advanced.clusterTime = t; }, advanceOperationTime(t) { this.advanced.operationTime = t; }, endSession: async () => { order.push('end member session'); } };
      const member = recording(undefined);
      member.db.collection = () => ({
        findOne: async (filter, options) => { order.push(`member findOne (waits: ${options.session === memberSession})`); return null; },
        countDocuments: async (filter, options) => { order.push(`member countDocuments ${options.session === memberSession}`); return 3; },
        aggregate: () => ({ toArray: async () => [] }),
      });
      const pinnedClient = { startSession: (options) => { assert.deepEqual(options, { causalConsistency: true }); return memberSession; }, db: (name) => { order.push(`member db ${name}`); return member.db; }, close: async () => { order.push('close member'); } };
      const reads = await statsReads(client, db, { probe: 'c', replicaSet: true, pin: async (host) => { order.push(`pin ${host}`); return pinnedClient; } });
      assert.equal(reads.member, 'rs-b:27017');
      assert.equal(reads.db, member.db);
      assert.deepEqual(memberSession.advanced, { clusterTime, operationTime }, 'the member\'s reads wait for the primary\'s time (afterClusterTime)');
      assert.ok(await collectionExists(reads.db, 'c', reads.options));
      await readCollectionStats(reads.db, 'c', { reads: reads.options });
      assert.ok(member.seen.every(([, , options]) => options.session === memberSession), 'listCollections and collStats on the member, in its session');
      await reads.end();
      assert.deepEqual(order, [
        'findOne primary', 'admin hello secondary', 'pin rs-b:27017', 'member db classics_x',
        'member findOne (waits: true)', 'end primary session', 'member countDocuments true', 'end member session', 'close member',
      ]);
      assert.deepEqual(member.seen.map(([what, name]) => what + (name ? ` ${name}` : '')), ['listCollections', 'command collStats'], 'existence after the wait');
    });

    it('through mongos (no member to pin) or where the member cannot be reached, waits on the read preference\'s member and says the reads are not held to one', async () => {
      const lines = [];
      const session = { endSession: async () => {} };
      const client = { startSession: () => session, db: () => ({ command: async () => ({ me: 'rs-c:27017' }) }) };
      const { db, seen } = recording(secondary);
      const reads = await statsReads(client, db, { probe: 'c', replicaSet: true, say: (l) => lines.push(l), pin: async () => { throw new Error('connect ECONNREFUSED rs-c:27017'); } });
      assert.equal(reads.member, null);
      assert.equal(reads.options.session, session);
      assert.deepEqual(seen.map(([what, , options]) => `${what} ${options.readPreference.mode}`), ['findOne primary', 'findOne secondary'], 'the wait, on the read preference\'s member');
      assert.match(lines[0], /^the sizes are read with read preference secondary, each read on the member the driver picks for it, not on one member \(rs-c:27017: connect ECONNREFUSED/);
      const viaMongos = await statsReads(client, recording(secondary).db, { probe: 'c', replicaSet: false, pin: async () => { throw new Error('never asked'); } });
      assert.equal(viaMongos.member, null);
      // the member reached, but its wait fails: its client closed, said, and the step's stats go on without it
      let closed = false;
      const lost = { startSession: () => ({ advanceClusterTime() {}, advanceOperationTime() {}, endSession: async () => {} }), db: () => ({ collection: () => ({ findOne: async () => { throw new Error('connection reset'); } }) }), close: async () => { closed = true; } };
      const fallback = recording(secondary);
      const after = await statsReads(client, fallback.db, { probe: 'c', replicaSet: true, say: (l) => lines.push(l), pin: async () => lost });
      assert.equal(after.member, null);
      assert.equal(closed, true);
      assert.match(lines.at(-1), /not on one member \(rs-c:27017: connection reset\)$/);
      assert.deepEqual(fallback.seen.map(([what, , options]) => `${what} ${options.readPreference.mode}`), ['findOne primary', 'findOne secondary']);
    });

    it('says so, and reads without waiting, where the server takes no session', async () => {
      const { db } = recording(secondary);
      db.collection = () => ({ findOne: async () => { throw new Error('lsid is not supported'); } });
      const lines = [];
      const reads = await statsReads({ startSession: () => ({ endSession: async () => {} }) }, db, { say: (l) => lines.push(l) });
      assert.equal(reads.options.session, undefined);
      assert.match(lines[0], /^the sizes are read with read preference secondary without waiting for that member to catch up \(lsid is not supported\)$/);
    });
  });
});

describe('what a verdict on reads says of the members and the read concern that answered them', () => {
  const { analyseScenario } = require('../../orchestrator/analysis/analyse');
  const { discoverScenarios } = require('../../orchestrator/scenarios');
  const { withBlocks } = require('../helpers/blocks');
  const { reasonText } = require('../../orchestrator/analysis/reasons');
  const { membersMayDifferReason } = require('../../orchestrator/analysis/members');
  const { root } = resolveConfig();
  const tc = discoverScenarios(shellDir, root).find((s) => s.name === 'trade-candles');
  const { lowMemory } = require('../../shell/trade-candles/test/verdict-cases');
  // a user's replica set (hello's five members, replSetGetConfig's count: test/fixtures/cluster/replica-set-answers.js)
  const replicaSet = { server: 'rs', startedByKit: false, product: 'MongoDB', topology: 'replicaSet', members: { count: 5, dataBearing: 4, arbiters: 1, hidden: 1, passive: 1, delayed: 0, from: 'replSetGetConfig' } };
  const verdictOn = (serverRecord, records = lowMemory(2).map((r) => ({ ...r, server: 'rs' }))) => analyseScenario(tc, {
    ...withBlocks(records.map((r) => ({ scenario: tc.name, ...r }))), servers: [serverRecord], sizesOf: () => tc.sizes.article,
  }).verdicts.find((v) => v.finding === 'little-memory-slower');

  it('says that reads with a secondary read preference may have been answered by different members, naming the one the sizes came from, and keeps the status', () => {
    const onPrimary = verdictOn({ ...replicaSet, readPreference: { mode: 'primary', source: 'the default' } });
    const elsewhere = verdictOn({ ...replicaSet, readPreference: { mode: 'secondary', source: 'the URI' } }, lowMemory(2).map((r) => ({ ...r, server: 'rs', statsMember: 'rs-b:27017' })));
    assert.equal(elsewhere.status, onPrimary.status);
    assert.equal(onPrimary.reasons.some((r) => r.code === 'members-may-differ'), false);
    const reason = elsewhere.reasons.find((r) => r.code === 'members-may-differ');
    assert.deepEqual(reason, { code: 'members-may-differ', mode: 'secondary', viaMongos: false, statsMember: 'rs-b:27017' });
    assert.equal(reasonText(reason), 'read preference secondary: the driver picks a member for each operation, so the timed reads may have been answered by different members, the kit\'s sizes and counts came from one member (rs-b:27017), not necessarily theirs, and the round trip beside them is the primary\'s');
    assert.equal(membersMayDifferReason({ ...replicaSet, readPreference: { mode: 'primaryPreferred' } }), null, 'primaryPreferred reads the primary');
    assert.equal(membersMayDifferReason({ ...replicaSet, members: { dataBearing: 1 }, readPreference: { mode: 'nearest' } }), null, 'one data-bearing member: one can answer');
    assert.equal(membersMayDifferReason({ server: 'f', product: 'FerretDB', topology: 'standalone', readPreference: { mode: 'secondary' } }), null);
    assert.match(reasonText(membersMayDifferReason({ server: 'c', topology: 'sharded', readPreference: { mode: 'nearest' } })), /^read preference nearest: mongos picks a shard's member for each read/);
  });

  it('says that every timed read took the URI\'s majority or linearizable read concern, and nothing for local or a write', () => {
    const local = verdictOn({ ...replicaSet, uriConcerns: { readConcernLevel: 'local', w: null, journal: null, wtimeoutMS: null } });
    assert.equal(local.reasons.some((r) => r.code === 'read-concern'), false);
    const linearizable = verdictOn({ ...replicaSet, uriConcerns: { readConcernLevel: 'linearizable', w: null, journal: null, wtimeoutMS: null } });
    assert.equal(linearizable.status, local.status);
    const reason = linearizable.reasons.find((r) => r.code === 'read-concern');
    assert.deepEqual(reason, { code: 'read-concern', level: 'linearizable' });
    assert.match(reasonText(reason), /^every timed read took the URI's readConcernLevel=linearizable \(none names its own\): each waits for a majority of the members to confirm the primary/);
    // a verdict on timed writes (records that name their write concern) rests on no read
    const many = discoverScenarios(shellDir, root).find((s) => s.name === 'many-keys');
    const { mk } = require('../../shell/many-keys/test/verdict-cases');
    const writes = analyseScenario(many, {
      ...withBlocks(mk(18.35, 1.47).map((r) => ({ scenario: 'many-keys', server: 'rs', ...r })), { counts: ['updates'] }),
      servers: [{ ...replicaSet, readPreference: { mode: 'secondary' }, uriConcerns: { readConcernLevel: 'majority' } }], sizesOf: () => many.sizes.article,
    }).verdicts.find((v) => v.finding === 'buckets-faster');
    assert.deepEqual(writes.reasons.filter((r) => ['read-concern', 'members-may-differ'].includes(r.code)), []);
  });
});
