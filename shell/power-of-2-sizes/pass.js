// mongo-classics · power-of-2-sizes · pass.js
// Article:  "MongoDB. Comprobando el rendimiento de usePowerOf2Sizes", charlascylon.com,
//           2014, https://charlascylon.com/post/79152194969/ . MongoDB 2.4 / 2.6-rc era, MMAPv1.
// Measures: one pass of the article's churn on noPowerOf2Sizes and powerOf2Sizes: random
//           updates that grow foo, random removes, then inserts after the highest _id; every
//           operation timed on its own and summed per collection, and the time until the server
//           had applied the pass. The article ran this 21 times and read stats().size after
//           each pass (the orchestrator does that part).
// Writes:   as in setup.js: the 2.4 shell sent update/remove/insert without waiting, so the
//           article's Date sums time the sending. The kit sends them with w:0 where the server
//           takes them (mongod), on one connection of its own, then a command on it that is
//           answered once all are applied (appliedHrMs, both collections, from the first write);
//           on a server that answers w:0 writes (FerretDB 1.24), w:1, said in the JSON lines.
// Faithful: the same operations on both collections in turn; targets drawn with
//           getRandomInt(0, lastElement), lastElement read once from powerOf2Sizes, so updates
//           and removes may hit documents already removed (the article says so); the re-drawn
//           loop bound when building foo; new Date() sums; the printed lines.
// Changes:  - Runs in its own database (DB_NAME, prefix classics_).
//           - $pushAll was removed in MongoDB 3.6 and FerretDB never had it. One update on a
//             missing _id tells whether the server knows it (servers parse the modifier before
//             they look for the document); if not, $push with $each, the equivalent the article
//             itself recommends. The output says which was used.
//           - updateOne/deleteOne/insertOne for the deprecated update/remove/insert: the same
//             single-document writes for these _id filters.
//           - The pass's random draws are made before its loops, in the article's order (each
//             update's target then its array, then the removes' targets, then the inserts'
//             arrays), so the same values are drawn and the timed loops only write. The article
//             drew them between its timed writes, outside its timers.
//           - w:0 writes return no counts, so the documents matched, removed and inserted are
//             worked out from the _ids present before the pass (read untimed); the orchestrator's
//             count after the step then checks that every write was applied.
//           - A performance.now() sum beside the Date sum; one JSON line per collection; SEED as
//             in setup.js.
//           - The server's own time on each collection over the timed loops ($collStats
//             latencyStats, serverMs and serverOps), read just before them and after the
//             barrier: the $pushAll probe (a failed write on powerOf2Sizes), the lastElement
//             read and the tally's finds, all untimed, are not counted (the server time block).
//           - The lastElement read and the tally's finds read the primary (readPref('primary')),
//             whatever read preference the connection has: they must see setup.js's and the
//             earlier passes' writes, which a lagging secondary may not have yet, and the inserts
//             follow lastElement (a stale one reuses _ids: an error under w:1, lost under w:0).
//             On a single server (the article's) they read it as before.
// Sizes:    UPDATES, REMOVES, INSERTS count operations: the article's i<=100000 and d<=20000
//           loops make 100,001 and 20,001; its insert loop makes 20,000.

if (typeof UPDATES === 'undefined') var UPDATES = 100001;
if (typeof REMOVES === 'undefined') var REMOVES = 20001;
if (typeof INSERTS === 'undefined') var INSERTS = 20000;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_power_of_2_sizes';
if (typeof PASS === 'undefined') var PASS = null;
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
// a pass offsets the seed so passes differ but repeat
var random = SEED === null ? Math.random : mulberry32(SEED + 7919 * (PASS || 0));

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

function pushOperator() {
  try {
    db.powerOf2Sizes.updateOne({ _id: -1 }, { $pushAll: { foo: [0] } });
    return '$pushAll';
  } catch (e) {
    return '$push/$each';
  }
}

var operator = pushOperator();
print('push operator ' + operator + (operator === '$pushAll' ? '' : ' ($pushAll is not supported by this server)'));
function pushUpdate(values) {
  return operator === '$pushAll' ? { $pushAll: { foo: values } } : { $push: { foo: { $each: values } } };
}

// The article's foo: its loop bound getRandomInt(1, 10) is drawn again on every iteration.
function drawArray() {
  var values = new Array();
  for (var a = 0; a < getRandomInt(1, 10); a++) {
    values[a] = getRandomInt(1, 10) * getRandomInt(1, 50);
  }
  return values;
}

// --- reads of the pass's own writes: each on the primary, whatever the connection's read preference ---
/**
 * The highest _id a collection holds, and which of some _ids it holds (into `present`): reads of
 * the writes before this pass (setup.js's, the earlier passes'), so on the primary, which has
 * every one of them, never on a secondary that may lag them.
 */
function highestId(collection) {
  return collection.find().sort({ _id: -1 }).limit(1).readPref('primary').toArray()[0]._id;
}
function markPresent(collection, ids, present) {
  collection.find({ _id: { $in: ids } }, { _id: 1 }).readPref('primary').forEach(function (d) { present[d._id] = true; });
}
// --- end reads of the pass's own writes ---

var lastElement = highestId(db.powerOf2Sizes);
var updates = [];
for (var u = 0; u < UPDATES; u++) {
  var updateTarget = getRandomInt(0, lastElement);
  updates.push({ target: updateTarget, values: drawArray() });
}
var removes = [];
for (var r = 0; r < REMOVES; r++) removes.push(getRandomInt(0, lastElement));
var insertArrays = [];
for (var n = 0; n < INSERTS; n++) insertArrays.push(drawArray());

/** What the pass must do to a collection, from the _ids it holds before the pass. */
function expectedTally(collectionName) {
  var targets = {};
  updates.forEach(function (x) { targets[x.target] = true; });
  removes.forEach(function (x) { targets[x] = true; });
  var ids = Object.keys(targets).map(Number);
  var present = {};
  for (var k = 0; k < ids.length; k += 50000) {
    markPresent(db.getCollection(collectionName), ids.slice(k, k + 50000), present);
  }
  var matched = updates.filter(function (x) { return present[x.target]; }).length;
  var removed = 0;
  removes.forEach(function (x) { if (present[x]) { removed++; present[x] = false; } });
  return { matched: matched, removed: removed, inserted: INSERTS };
}
var tally = { noPowerOf2Sizes: expectedTally('noPowerOf2Sizes'), powerOf2Sizes: expectedTally('powerOf2Sizes') };

var unacknowledged = unacknowledgedWrites(DB_NAME);
var writeOptions = { writeConcern: { w: unacknowledged.w } };
print('writes w:' + unacknowledged.w + ': ' + unacknowledged.reason);
var client = ownConnection();
var noPowerOf2Sizes = client.getDB(DB_NAME).getCollection('noPowerOf2Sizes');
var powerOf2Sizes = client.getDB(DB_NAME).getCollection('powerOf2Sizes');

var startDate;
var t0;
var noPowerOf2Milliseconds = 0;
var powerOf2Milliseconds = 0;
var noPowerOf2HrMilliseconds = 0;
var powerOf2HrMilliseconds = 0;
var totalOps = UPDATES + REMOVES + INSERTS;
var progressEvery = Math.max(1, Math.floor(totalOps / 100));
function progress(done) {
  if (PROGRESS && done % progressEvery === 0) print(JSON.stringify({ progress: done, of: totalOps }));
}

// the server's counters from here: the untimed reads and probes above are not the loops'
var serverTimeBase = serverTimeStart(db, ['noPowerOf2Sizes', 'powerOf2Sizes']);
var loopStart = performance.now();
for (var i = 0; i < UPDATES; i++) {
  var update = pushUpdate(updates[i].values);

  startDate = new Date(); t0 = performance.now();
  noPowerOf2Sizes.updateOne({ _id: updates[i].target }, update, writeOptions);
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);

  startDate = new Date(); t0 = performance.now();
  powerOf2Sizes.updateOne({ _id: updates[i].target }, update, writeOptions);
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);

  progress(i + 1);
}

for (var d = 0; d < REMOVES; d++) {
  startDate = new Date(); t0 = performance.now();
  noPowerOf2Sizes.deleteOne({ _id: removes[d] }, writeOptions);
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);

  startDate = new Date(); t0 = performance.now();
  powerOf2Sizes.deleteOne({ _id: removes[d] }, writeOptions);
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);

  progress(UPDATES + d + 1);
}

for (var j = lastElement + 1; j <= lastElement + INSERTS; j++) {
  var myArray = insertArrays[j - lastElement - 1];

  startDate = new Date(); t0 = performance.now();
  noPowerOf2Sizes.insertOne({ _id: j, foo: myArray }, writeOptions);
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);

  startDate = new Date(); t0 = performance.now();
  powerOf2Sizes.insertOne({ _id: j, foo: myArray }, writeOptions);
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);

  progress(UPDATES + REMOVES + (j - lastElement));
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
print('applied after ' + Math.round(appliedHrMilliseconds) + ' ms (both collections, w:' + unacknowledged.w + '; the last ' + Math.round(barrierHrMilliseconds) + ' ms after the last write was sent)');

[['noPowerOf2Sizes', noPowerOf2Milliseconds, noPowerOf2HrMilliseconds],
 ['powerOf2Sizes', powerOf2Milliseconds, powerOf2HrMilliseconds]].forEach(function (c) {
  var t = tally[c[0]];
  print(JSON.stringify({
    scenario: 'power-of-2-sizes', step: 'pass', pass: PASS, collection: c[0],
    ms: c[1], hrMs: Math.round(c[2] * 1000) / 1000,
    appliedHrMs: Math.round(appliedHrMilliseconds * 1000) / 1000, barrierHrMs: Math.round(barrierHrMilliseconds * 1000) / 1000,
    writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged),
    ops: { updates: UPDATES, removes: REMOVES, inserts: INSERTS },
    matched: t.matched, removed: t.removed, inserted: t.inserted, pushOperator: operator,
    // the server's own time over the timed loops (left out where it keeps none)
    serverMs: serverTime[c[0]] ? serverTime[c[0]].serverMs : undefined, serverOps: serverTime[c[0]] ? serverTime[c[0]].serverOps : undefined
  }));
});
