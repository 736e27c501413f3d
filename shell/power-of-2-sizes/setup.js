// mongo-classics · power-of-2-sizes · setup.js
// Article:  "MongoDB. Comprobando el rendimiento de usePowerOf2Sizes", charlascylon.com,
//           2014, https://charlascylon.com/post/79152194969/ . MongoDB 2.4 / 2.6-rc era, MMAPv1.
// Measures: the time to insert documents _id 0..DOCS-1 into noPowerOf2Sizes and powerOf2Sizes,
//           one insert at a time, each timed on its own and summed per collection; beside it,
//           the time until the server had applied them all.
// Writes:   the article pasted its loops into the MongoDB 2.4 shell, whose insert() sent the
//           write and returned without waiting for an answer (the 2.4 shell asked getLastError
//           only after a line typed at its prompt, never inside a loop): its Date sums time the
//           sending. The kit sends the same inserts with w:0 where the server takes them
//           (mongod), on one connection of its own as the 2.4 shell had, and after the loop sends
//           a command on that connection, answered only once every insert is applied: appliedHrMs
//           (both collections together, from the first insert). A server that answers w:0
//           writes (FerretDB 1.24) gets w:1 instead; the JSON lines say which (writeConcern,
//           unacknowledged) and the Date sums then time round trips.
// Faithful: getRandomInt; foo built by the article's loop, whose bound getRandomInt(1,10) is
//           re-drawn on every iteration (so short arrays are likelier than 1..10 uniform);
//           the same array goes to both collections; new Date() sums per operation; the
//           article's printed lines "noPowerOf2 <ms>" and "powerOf2 <ms>".
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), not the user's current one,
//             so a paste never writes into a database the kit does not own.
//           - Drops both collections before creating them: the article created them in an
//             empty database, and a second paste must start the same way (createCollection
//             refuses a collection that exists).
//           - collMod usePowerOf2Sizes is tried and its outcome recorded: WiredTiger (MongoDB
//             3.0+) allocates no padding and MongoDB 4.2+ refuses the option; FerretDB has no
//             collMod. No server this shell can reach (MongoDB 4.4 and later) has MMAPv1. The
//             collection is used as it is either way.
//           - insertOne for the shell's deprecated insert(): the same single-document write.
//           - Beside the article's Date sum (whole milliseconds per operation, so sub-ms
//             operations count as 0 or 1), a performance.now() sum of the same operations.
//           - The server's own time on each collection over the loop ($collStats latencyStats,
//             serverMs and serverOps), read just before the loop and after the barrier, so the
//             collMod, the probe and the drops before it are not counted (the server time block).
//           - Prints one JSON line per collection for the orchestrator; SEED swaps Math.random
//             for a seeded generator so two runs send the same operations (default: Math.random).
// Sizes:    DOCS is the number of documents (the article's i<=1000000 loop makes 1,000,001).

if (typeof DOCS === 'undefined') var DOCS = 1000001;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_power_of_2_sizes';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;

db = db.getSiblingDB(DB_NAME);

// <<< block: mulberry32 (stamped by npm run stamp from shell/_blocks/mulberry32.js; edit there)
// mulberry32: a small, fast generator, good enough to make a run repeatable from a seed.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
// >>> block: mulberry32
// not used unless SEED is set
var random = SEED === null ? Math.random : mulberry32(SEED);

function getRandomInt(min, max) {
  return Math.floor(random() * (max - min + 1)) + min;
}

// <<< block: unacknowledged-writes (stamped by npm run stamp from shell/_blocks/unacknowledged-writes.js; edit there)
// Unacknowledged writes: in every script that replays an article's w:0 writes.
// The articles' shells and drivers sent their writes without waiting for an answer (w:0). A
// server handles one connection's requests one after another (mongod: "A SessionWorkflow can
// only have one WorkItem in progress at a time", src/mongo/transport/README.md), so a command
// sent on the same connection after w:0 writes is answered only once they are applied: the
// barrier below. mongosh's own `db` draws from a pool, where two writes may take two
// connections; the timed writes go on a client of their own whose pool holds one connection.
// Behind several mongos the driver picks a mongos for each operation (a pool of one connection
// per mongos), so the writes and the barrier could reach two: that client is held to one mongos.
// A mongos runs a write before it reads the next request on the connection (its write command
// waits for the shards' answers: src/mongo/s/commands/cluster_write_cmd.cpp), so the barrier
// holds there as on a mongod; the probe below checks it on each server. But a mongos sends a w:0
// write on to the shard as w:1 ("Mongos needs to send to the shard with w > 0 so it will be able
// to see the writeErrors": upgradeWriteConcern, src/mongo/s/write_ops/batch_write_op.cpp), so
// through mongos each w:0 write waits for the hop from mongos to the shard: the probe says so.
// The articles' clients had no retryable writes: an acknowledged retryable write carries a
// txnNumber that the server records in config.transactions, and "writes with write concern 0
// are not retryable" ("Retryable Writes", MongoDB manual), so only the acknowledged side would
// pay; the client of the timed writes turns them off (retryWrites=false), both sides alike.
// A check of what the writes did reads nothing: it writes (an acknowledged update counts what it
// matched) on the writes' own connection, where no read preference moves it to another member.

/** Why the timed writes could not be held to one mongos, once that was tried and failed. */
var notPinned = null;
/** Whether the shell reached a mongos, once asked (throughMongos). */
var viaMongos = null;

/** Whether the shell reached a mongos (its hello says "isdbgrid"). */
function throughMongos() {
  if (viaMongos !== null) return viaMongos;
  var hello = null;
  try {
    hello = db.adminCommand({ hello: 1 });
  } catch (e) { /* a server before 4.4.2 knows only isMaster */ }
  if (!hello || !hello.ok) {
    try { hello = db.adminCommand({ isMaster: 1 }); } catch (e) { hello = null; }
  }
  viaMongos = Boolean(hello && hello.msg === 'isdbgrid');
  return viaMongos;
}

/**
 * Whether the shell's reads go to the primary, where the writes are: the run's read preference
 * (the URI's) is primary or primaryPreferred. A figure of the writes read elsewhere (a
 * secondary's $collStats counts no client write) is not read at all.
 */
function readsFromPrimary() {
  var mongo = db.getMongo();
  var mode = typeof mongo.getReadPrefMode === 'function' ? mongo.getReadPrefMode() : 'primary';
  return !mode || mode === 'primary' || mode === 'primaryPreferred';
}

/**
 * The URI held to one mongos: mongodb+srv keeps one of the hosts DNS lists (srvMaxHosts=1, which
 * the driver and mongosh's resolver both honour), a host list its first host. A load balancer's
 * URI names one host and keeps each connection on one mongos already.
 */
function oneMongos(uri) {
  if (/^mongodb\+srv:/i.test(uri)) {
    var srv = uri.replace(/([?&])srvMaxHosts=[^&]*(&|$)/i, '$1').replace(/[?&]$/, '');
    return /[?&]loadBalanced=true/i.test(srv) ? srv : srv + (srv.indexOf('?') < 0 ? '?' : '&') + 'srvMaxHosts=1';
  }
  var parts = /^(mongodb:\/\/(?:[^@\/?]*@)?)([^\/?]*)(.*)$/.exec(uri);
  return parts ? parts[1] + parts[2].split(',')[0] + parts[3] : uri;
}

/** The URI with an option of its own set, any value it had for that option replaced. */
function withOption(uri, name, value) {
  var rest = uri.replace(new RegExp('([?&])' + name + '=[^&]*(&|$)', 'i'), '$1').replace(/[?&]$/, '');
  return rest + (rest.indexOf('?') < 0 ? '?' : '&') + name + '=' + value;
}

/**
 * A client with a pool of one connection to one server, retryable writes off, connected before
 * any clock starts. Where it cannot be held to one mongos, it is the shell's own URI's, and
 * notPinned says why: the probe then refuses w:0, and acknowledged writes need no barrier.
 */
function ownConnection() {
  var own = db.getMongo().getURI();
  var open = function (uri) {
    var client = new Mongo(withOption(withOption(uri, 'retryWrites', 'false'), 'maxPoolSize', '1'));
    client.getDB('admin').runCommand({ ping: 1 });
    return client;
  };
  var pinned = throughMongos() ? oneMongos(own) : own;
  if (pinned === own) return open(own);
  var client = null;
  try {
    client = open(pinned);
  } catch (e) {
    notPinned = 'the timed writes could not be held to one mongos (' + e.message + '), so a barrier after w:0 writes could reach another';
  }
  return client || open(own);
}

function closeConnection(client) {
  if (!client) return;
  try { client.close(); } catch (e) { /* already closed */ }
}

/** Answered once every write sent before it on this client's one connection is applied. */
function barrier(client) {
  return client.getDB('admin').runCommand({ ping: 1 });
}

/**
 * Whether this server takes w:0 writes as MongoDB does, tried on connections of their own. A
 * server that answers them anyway (FerretDB 1.x) hands the next command the write's reply,
 * which desynchronises the driver; elsewhere 64 w:0 inserts and the barrier must leave all 64
 * applied, counted by an acknowledged update on the same connection. Returns { outcome:
 * 'honoured' (w 0) or 'refused' (w 1), w, reason, viaMongos, retryableWrites (false: the timed
 * writes' client has none) }.
 */
function unacknowledgedWrites(dbName) {
  // a name of its own: the parallel steps' shells probe at the same time
  var probeName = 'unacknowledgedProbe_' + new ObjectId().toHexString();
  var probes = 64;
  var answered = null;
  var counted = null;
  var client = null;
  try {
    client = ownConnection();
    var first = client.getDB(dbName).getCollection(probeName);
    first.drop();
    first.insertOne({ _id: 'reply-check' }, { writeConcern: { w: 0 } });
    sleep(100);
    var reply = barrier(client);
    if (reply.n !== undefined || reply.nModified !== undefined) answered = 'the reply ' + JSON.stringify(reply);
  } catch (e) {
    answered = 'an error (' + e.message + ')';
  }
  closeConnection(client);
  client = null;
  if (answered === null) {
    try {
      client = ownConnection();
      var probe = client.getDB(dbName).getCollection(probeName);
      for (var i = 0; i < probes; i++) probe.insertOne({ _id: i }, { writeConcern: { w: 0 } });
      barrier(client);
      counted = probe.updateMany({ _id: { $type: 'number' } }, { $set: { counted: true } }, { writeConcern: { w: 1 } }).matchedCount;
    } catch (e) {
      counted = 'none (' + e.message + ')';
    }
    closeConnection(client);
  }
  try { db.getCollection(probeName).drop(); } catch (e) { /* nothing to drop */ }
  var said = { viaMongos: throughMongos(), retryableWrites: false };
  if (notPinned !== null) return Object.assign({ outcome: 'refused', w: 1, reason: notPinned + ': the timed writes wait for each answer (w:1)' }, said);
  if (answered !== null) {
    return Object.assign({ outcome: 'refused', w: 1, reason: 'this server answers fire-and-forget (w:0) writes: a command sent after one got ' + answered + ', which desynchronises the driver, so the timed writes wait for each answer (w:1)' }, said);
  }
  if (counted !== probes) {
    return Object.assign({ outcome: 'refused', w: 1, reason: counted + ' of ' + probes + ' w:0 inserts were there when a command sent after them on their connection returned, so the timed writes wait for each answer (w:1)' }, said);
  }
  var sent = said.viaMongos
    ? 'the timed writes are sent to mongos without waiting (w:0), as the article\'s were to their server, and mongos sends each on as w:1 and waits for the shard before it reads the next (w:1 from mongos to the shards)'
    : 'the timed writes are sent without waiting (w:0), as the article\'s were';
  return Object.assign({ outcome: 'honoured', w: 0, reason: sent + '; ' + probes + ' such inserts were all applied when a command sent after them on their connection returned' }, said);
}

/** What a record says of its timed writes: the probe's outcome and why, and whether they went through mongos. */
function writesNote(u) {
  return { outcome: u.outcome, reason: u.reason, viaMongos: u.viaMongos };
}
// >>> block: unacknowledged-writes

// <<< block: server-time (stamped by npm run stamp from shell/_blocks/server-time.js; edit there)
// Server time: in every script that reads the server's own time around its timed loops.
// The server's own time on each collection over the timed loops alone: mongod keeps it per
// collection in memory (Top, src/mongo/db/stats/top.cpp; $collStats latencyStats: reads, writes
// and commands), from the first operation on a name until the collection is dropped or mongod
// restarts. Read just before the loops and again after the barrier, it counts their writes and
// none of the script's untimed reads and probes. A latency read can count itself (mongod records
// an aggregate as it releases the collection, before $collStats samples: AutoStatsTracker,
// src/mongo/db/db_raii.cpp, and run_aggregate.cpp), so the baseline reads twice: the second
// read's share is what the read after the loops adds, and is left out.

function latencyNumber(v) { return typeof v === 'number' ? v : (v && typeof v.toNumber === 'function' ? v.toNumber() : Number(v)); }

/** A collection's latency counters summed over reads, writes, commands and shards: { micros, ops }, or null. */
function latencyTotal(collection) {
  var docs;
  try {
    docs = collection.aggregate([{ $collStats: { latencyStats: {} } }]).toArray();
  } catch (e) {
    return null; // a server that keeps none (FerretDB), or a user who may not read them
  }
  var total = null;
  docs.forEach(function (doc) {
    var l = doc && doc.latencyStats;
    if (!l || !l.writes) return;
    total = total || { micros: 0, ops: 0 };
    ['reads', 'writes', 'commands'].forEach(function (kind) {
      if (!l[kind]) return;
      total.micros += latencyNumber(l[kind].latency);
      total.ops += latencyNumber(l[kind].ops);
    });
  });
  return total;
}

/**
 * Whether the counters read through dbHandle are the primary's. They count the operations the
 * answering member's clients ran there, and the writes are the primary's: where the run's read
 * preference (the URI's) reads another member, whose counters hold none of them, none are read.
 */
function readsWritesMember(dbHandle) {
  var mongo = typeof dbHandle.getMongo === 'function' ? dbHandle.getMongo() : null;
  var mode = mongo && typeof mongo.getReadPrefMode === 'function' ? mongo.getReadPrefMode() : 'primary';
  return !mode || mode === 'primary' || mode === 'primaryPreferred';
}

/** Just before the timed loops: the counters of each named collection (none where they are not the primary's). */
function serverTimeStart(dbHandle, names) {
  var base = {};
  var primary = readsWritesMember(dbHandle);
  names.forEach(function (name) {
    if (!primary) { base[name] = null; return; }
    var first = latencyTotal(dbHandle.getCollection(name));
    var second = first && latencyTotal(dbHandle.getCollection(name));
    base[name] = second && {
      micros: second.micros, ops: second.ops,
      readMicros: Math.max(0, second.micros - first.micros), readOps: Math.max(0, second.ops - first.ops)
    };
  });
  return { db: dbHandle, base: base };
}

/**
 * After the loops and the barrier (every write applied): { name: { serverMs, serverOps } }, or
 * null for a collection whose server keeps no counters or whose counters started again.
 */
function serverTimeEnd(start) {
  var out = {};
  Object.keys(start.base).forEach(function (name) {
    var base = start.base[name];
    var now = base && latencyTotal(start.db.getCollection(name));
    out[name] = now && now.ops >= base.ops ? {
      serverMs: Math.round(Math.max(0, now.micros - base.micros - base.readMicros)) / 1000,
      serverOps: Math.max(0, now.ops - base.ops - base.readOps)
    } : null;
  });
  return out;
}
// >>> block: server-time

function tryUsePowerOf2Sizes(collectionName) {
  var engine = null;
  try { engine = db.serverStatus().storageEngine.name; } catch (e) { /* FerretDB has no storageEngine */ }
  try {
    var res = db.runCommand({ collMod: collectionName, usePowerOf2Sizes: true });
    if (!res.ok) return { outcome: 'refused', reason: res.errmsg || JSON.stringify(res), engine: engine };
    if (engine && engine !== 'mmapv1') {
      return { outcome: 'ignored', reason: engine + ' allocates no record padding', engine: engine };
    }
    return { outcome: 'applied', reason: null, engine: engine };
  } catch (e) {
    return { outcome: 'refused', reason: e.message, engine: engine };
  }
}

db.noPowerOf2Sizes.drop();
db.powerOf2Sizes.drop();
db.createCollection('noPowerOf2Sizes');
db.createCollection('powerOf2Sizes');
var powerOf2 = tryUsePowerOf2Sizes('powerOf2Sizes');
print('usePowerOf2Sizes ' + powerOf2.outcome + (powerOf2.reason ? ': ' + powerOf2.reason : ''));

var unacknowledged = unacknowledgedWrites(DB_NAME);
var writeOptions = { writeConcern: { w: unacknowledged.w } };
print('writes w:' + unacknowledged.w + ': ' + unacknowledged.reason);
var client = ownConnection();
var noPowerOf2Sizes = client.getDB(DB_NAME).getCollection('noPowerOf2Sizes');
var powerOf2Sizes = client.getDB(DB_NAME).getCollection('powerOf2Sizes');

var myArray;
var startDate;
var t0;
var noPowerOf2Milliseconds = 0;
var powerOf2Milliseconds = 0;
var noPowerOf2HrMilliseconds = 0;
var powerOf2HrMilliseconds = 0;
var progressEvery = Math.max(1, Math.floor(DOCS / 100));

// the server's counters from here: the untimed reads and probes above are not the loops'
var serverTimeBase = serverTimeStart(db, ['noPowerOf2Sizes', 'powerOf2Sizes']);
var loopStart = performance.now();
for (var i = 0; i < DOCS; i++) {
  myArray = new Array();
  for (var a = 0; a < getRandomInt(1, 10); a++) {
    myArray[a] = getRandomInt(1, 10) * getRandomInt(1, 50);
  }

  startDate = new Date(); t0 = performance.now();
  noPowerOf2Sizes.insertOne({ _id: i, foo: myArray }, writeOptions);
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);

  startDate = new Date(); t0 = performance.now();
  powerOf2Sizes.insertOne({ _id: i, foo: myArray }, writeOptions);
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);

  if (PROGRESS && (i + 1) % progressEvery === 0) print(JSON.stringify({ progress: i + 1, of: DOCS }));
}
var lastSent = performance.now();
barrier(client);
var appliedHrMilliseconds = performance.now() - loopStart;
var barrierHrMilliseconds = performance.now() - lastSent;
closeConnection(client);
var serverTime = serverTimeEnd(serverTimeBase);

print('noPowerOf2 ' + noPowerOf2Milliseconds);
print('powerOf2 ' + powerOf2Milliseconds);
print('');
print('applied after ' + Math.round(appliedHrMilliseconds) + ' ms (both collections, w:' + unacknowledged.w + '; the last ' + Math.round(barrierHrMilliseconds) + ' ms after the last insert was sent)');

[['noPowerOf2Sizes', noPowerOf2Milliseconds, noPowerOf2HrMilliseconds],
 ['powerOf2Sizes', powerOf2Milliseconds, powerOf2HrMilliseconds]].forEach(function (c) {
  print(JSON.stringify({
    scenario: 'power-of-2-sizes', step: 'setup', collection: c[0],
    ms: c[1], hrMs: Math.round(c[2] * 1000) / 1000,
    appliedHrMs: Math.round(appliedHrMilliseconds * 1000) / 1000, barrierHrMs: Math.round(barrierHrMilliseconds * 1000) / 1000,
    writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged),
    ops: { inserts: DOCS }, inserted: DOCS, removed: 0,
    usePowerOf2Sizes: c[0] === 'powerOf2Sizes' ? powerOf2 : null,
    // the server's own time over the timed loop (left out where it keeps none)
    serverMs: serverTime[c[0]] ? serverTime[c[0]].serverMs : undefined, serverOps: serverTime[c[0]] ? serverTime[c[0]].serverOps : undefined
  }));
});
