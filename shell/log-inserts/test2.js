// mongo-classics · log-inserts · test2.js
// Article:  Raffaele Rialdi, "Performance di MongoDB usato per eseguire logging molto semplice",
//           UGIdotNET blogs, 16 September 2010, with its update of 17 September 2010,
//           http://blogs.ugidotnet.org/Raffaele/archive/2010/09/16/performance-di-mongodb-usato-per-eseguire-logging-molto-semplice.aspx
//           MongoDB 1.6 era, a C# driver with a Linq provider, SQL Server, a 4-core (8 with
//           Hyper-Threading) machine.
// Measures: test 2, the article's Parallel.For: TEST2_ITERATIONS log records shared among
//           WORKERS shells, one connection each, all writing at once; timed from the first
//           shell's start to the last one's end: save (the article's first version, an upsert)
//           against insert (the article's fix), each into a collection emptied first, in paired
//           rounds (below); beside it, the time until the server had applied every record. With
//           PARALLEL 3, test 3 read as a parallel run: TEST3_ITERATIONS records, insert only, one
//           phase. Pasted into one mongosh, it runs the whole test alone (WORKERS = 1).
// Writes:   as in loop.js: the 2010 C# driver sent writes without waiting unless asked for safe
//           mode, and the article's Stopwatch timed the sending. Each shell sends its records
//           with w:0 where the server takes them (mongod), on one connection of its own, then a
//           command on it that returns once they are applied; the shells share their times, so
//           each prints appliedMs from the first start to the last shell's applied instant. A
//           server that answers w:0 writes (FerretDB 1.24) gets w:1, said in the JSON lines.
// Faithful: the article's LogInfo record (a random Guid _id, LogDate = now, Source "Test",
//           Category "This is a category", the fixed ~800-character "Sed ut perspiciatis"
//           Message, LogType 0..99); its quirk too: LogType comes from a generator seeded with
//           the clock for every record (new Random((int)LogDate.Ticks).Next(0, 100)), so records
//           made within one clock tick share a LogType. The Stopwatch around the loop, the
//           printed line "<service>: <seconds> (created: <services>)", and emptying the storage
//           before a test ("cancellando i file di MongoDB").
// Changes:  - Runs in its own database (DB_NAME, prefix classics_); save and insert each write
//             their own collection (log_save, log_insert) so the size after each is kept.
//           - Emptying is dropping the collection (with WiredTiger a collection is its own file;
//             the article deleted MongoDB's data files), then creating it again: both before the
//             Stopwatch starts, where the first insert of round 1 used to create it inside its
//             block, a cost no later block paid.
//           - save is replaceOne({_id}, record, {upsert: true}); insert is insertOne. The 2010
//             driver's Save queried before it wrote (the article's update says so); an upsert by
//             _id is today's single-call form of that. After the rounds, shell 0 measures, untimed,
//             save's plan and what an upsert costs in the full collection against an empty one.
//           - Parallel.For's threads, one service (connection) each, are WORKERS mongosh shells
//             (the orchestrator's workers step; default one per core, as .NET's scheduler did).
//             Each takes an equal share of the iterations (Parallel.For balances them as it
//             goes). Shells start before the clock, so opening the connections is not timed
//             where the article's Stopwatch included it.
//           - The article timed save's whole phase, then insert's, and its SQL test at another
//             time: one reading per side, in a fixed order. Test 2 is cut into ROUNDS paired
//             rounds (the paired rounds block): each round writes its share of the records
//             (roundShares; each shell its part of it) by save and by insert, a block each, in
//             the order roundOrders draws from SEED (or, without one, from a seed shell 0 draws
//             and tells the others), and, where the orchestrator pairs the SQL baseline
//             (PARTNER), the SQL block of that round at its place (a turn: shell 0 asks, every
//             shell waits while the kit's conductor runs it). Each collection is emptied once
//             before round 1, so at round k both hold k-1 shares: equal state.
//           - The shells meet before every block (a document each in the rendezvous collection),
//             so no two blocks ever overlap and each starts on every shell at one instant:
//             MEET_MARGIN_MS after the last arrival, the last MEET_SPIN_MS of the wait spun on
//             the clock rather than slept. Shell 0 empties the collections before the first
//             meeting. The shells' starts of a block differ by the skew the orchestrator records
//             (startSkewMs): on a shared 2-core machine, 1 ms in the median and 12 ms at the 90th
//             percentile (docs/measurements/log-inserts-rounds.md), which scenario.json's
//             shortest block span (500 ms) keeps a small part of the span.
//           - A block's time is the span from the first shell's start to the last one's end, on
//             the Date clock (the orchestrator combines the shells' block lines, startedAt and
//             endedAt, per round), and beside it the span to the last shell's applied instant
//             (appliedAt: its barrier returned): with w:0 the first is only the sending, so
//             insert-beats-save is decided on the second, which holds the upserts' cost on the
//             server. The shells tell each other their times at the next meeting, so each prints
//             the same totals: the article's line and each method's JSON line give the sums of
//             its blocks' combined spans, not one span around a phase. Each shell's
//             performance.now() time of its own loop (hrMs) is kept in results.jsonl as a
//             worker line; clocks of separate processes are not combined.
//           - Warm-up (WARMUP, true unless set false): test 2's paired rounds begin with a
//             warm-up round, round 0 in round 1's order, a block of every method (the SQL
//             baseline's too, where paired) writing round 1's share on every shell, met and timed
//             like the others, printed with warmup true and counted in no sum: round 1 no longer
//             pays alone for each collection's first pages and each shell's first writes (in the
//             kept main-job run, round 1's save block took 3,021 ms against a median of 1,513).
//             The shells then meet once more and shell 0 deletes its records (untimed), so round k
//             still finds k-1 shares and the count after the test is the article's.
//           - PARALLEL 3 is the kit's second reading of the article's test 3 (see loop.js): its
//             4,000,000 inserts in 119 s run at test 2's parallel rate.
//           - One JSON line per method and shell, and per block and shell, for the orchestrator;
//             progress lines only between the blocks. SEED draws the rounds' order; nothing else
//             draws from it (the _id is a random UUID, as Guid.NewGuid; LogType is seeded by the clock).
// Sizes:    TEST2_ITERATIONS log records per method, all shells together (the article's test 2
//           wrote 100,000), or TEST3_ITERATIONS with PARALLEL 3 (4,000,000); PROBE_UPSERTS (20).
//           WORKER (0-based), WORKERS and START_AT (epoch ms when every shell begins) come from
//           the orchestrator; pasted alone, the script is shell 0 of 1. To run it by hand in
//           several shells, give each its WORKER, the same WORKERS and START_AT (and the same
//           SEED). ROUNDS (8) paired rounds in test 2 and WARMUP (true: a warm-up round first);
//           PARTNER (null: pasted alone, no round waits).

if (typeof PARALLEL === 'undefined') var PARALLEL = 2;
if (typeof TEST2_ITERATIONS === 'undefined') var TEST2_ITERATIONS = 100000;
if (typeof TEST3_ITERATIONS === 'undefined') var TEST3_ITERATIONS = 4000000;
if (typeof PROBE_UPSERTS === 'undefined') var PROBE_UPSERTS = 20;
if (typeof WORKER === 'undefined') var WORKER = 0;
if (typeof WORKERS === 'undefined') var WORKERS = 1;
if (typeof START_AT === 'undefined') var START_AT = null;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_log_inserts';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;

db = db.getSiblingDB(DB_NAME);

var TEST = PARALLEL === 3 ? 'test 3: parallel' : 'test 2: parallel';
var TOTAL = PARALLEL === 3 ? TEST3_ITERATIONS : TEST2_ITERATIONS;
// The article's test 3 wrote with insert only, after its fix.
var METHOD_NAMES = PARALLEL === 3 ? ['insert'] : ['save', 'insert'];
// How the shells meet before each block (meetAllShells): each polls the meeting every
// MEET_POLL_MS, and all start MEET_MARGIN_MS after the last one arrived, time enough for every
// shell to have seen it (a poll, a find, a scheduler's delay); each sleeps until the last
// MEET_SPIN_MS before that instant and spins on the clock for those, since a sleep wakes late by
// as much as the scheduler pleases and a spin does not.
var MEET_POLL_MS = 10;
var MEET_MARGIN_MS = 50;
var MEET_SPIN_MS = 5;

function newGuid() {
  return UUID();
}

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

// <<< block: log-record (stamped by npm run stamp from shell/_blocks/log-record.js; edit there)
// The log record (the article's LogInfo): in every script of log-inserts and in its SQL
// baseline, sql-baseline.js (Node), so both sides write the same record.
var LOG_SOURCE = 'Test';
var LOG_CATEGORY = 'This is a category';
var LOG_MESSAGE = 'Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium doloremque ' +
  'laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore veritatis et quasi architecto beatae ' +
  'vitae dicta sunt explicabo. Nemo enim ipsam voluptatem quia voluptas sit aspernatur aut odit aut fugit, ' +
  'sed quia consequuntur magni dolores eos qui ratione voluptatem sequi nesciunt. Neque porro quisquam est, ' +
  'qui dolorem ipsum quia dolor sit amet, consectetur, adipisci velit, sed quia non numquam eius modi tempora ' +
  'incidunt ut labore et dolore magnam aliquam quaerat voluptatem. Ut enim ad minima veniam, quis nostrum ' +
  'exercitationem ullam corporis suscipit laboriosam, nisi ut aliquid ex ea commodi consequatur? Quis autem ' +
  'vel eum iure reprehenderit qui in ea voluptate velit esse quam nihil molestiae consequatur, vel illum qui ' +
  'dolorem eum fugiat quo voluptas nulla pariatur?';

// LogInfo.AssignRandomType: a new generator seeded with the record's clock reading, as
// new Random((int)LogDate.Ticks).Next(0, 100); `a |= 0` keeps the low 32 bits, as (int) does.
function logTypeOf(logDate) {
  return Math.floor(mulberry32(logDate.getTime())() * 100);
}

function newLogInfo() {
  var logDate = new Date();
  return {
    _id: newGuid(), LogDate: logDate, Source: LOG_SOURCE, Category: LOG_CATEGORY,
    Message: LOG_MESSAGE, LogType: logTypeOf(logDate)
  };
}
// >>> block: log-record

// <<< block: log-services (stamped by npm run stamp from shell/_blocks/log-services.js; edit there)
// The article's MongoDB services: in log-inserts' loop.js and test2.js.
// Log() builds a LogInfo and writes it on the shell's own connection, without waiting where the
// server takes that (options: the w:0 or w:1 write concern).
var METHODS = {
  save: function (collection, options) {
    var info = newLogInfo();
    collection.replaceOne({ _id: info._id }, info, Object.assign({ upsert: true }, options));
  },
  insert: function (collection, options) {
    collection.insertOne(newLogInfo(), options);
  }
};

// Emptied by dropping, then created again before any clock starts: the first write into a
// collection that does not exist creates it, which round 1's block alone would time.
function emptyCollection(name) {
  var before = db.getCollection(name).countDocuments({});
  db.getCollection(name).drop();
  db.createCollection(name);
  return before;
}

// The warm-up round's records go again once it is over (untimed), so that round k finds k-1
// shares, as without it; the collection keeps the pages they took.
function removeWarmUp(name) {
  db.getCollection(name).deleteMany({}, { writeConcern: { w: 1 } });
}

/**
 * What save costs on this server, untimed, after its test: the upsert's plan (explain) and the
 * time of PROBE_UPSERTS acknowledged upserts of new records into the collection the test filled
 * (then removed again) against the same into an empty one. MongoDB finds an _id through its
 * index, so the two are alike; a server that reads the whole collection for an upsert pays
 * more the fuller it is.
 */
function upsertCost(client, collectionName) {
  var target = client.getDB(DB_NAME);
  var acknowledged = { writeConcern: { w: 1 } };
  var sample = newLogInfo();
  var plan = updatePlan(target, collectionName, { _id: sample._id }, sample, true);
  var docs = target.getCollection(collectionName).countDocuments({});
  var timeUpserts = function (collection) {
    var ids = [];
    var t0 = performance.now();
    for (var i = 0; i < PROBE_UPSERTS; i++) {
      var info = newLogInfo();
      ids.push(info._id);
      collection.replaceOne({ _id: info._id }, info, Object.assign({ upsert: true }, acknowledged));
    }
    var ms = (performance.now() - t0) / PROBE_UPSERTS;
    collection.deleteMany({ _id: { $in: ids } }, acknowledged);
    return ms;
  };
  var fullMs = timeUpserts(target.getCollection(collectionName));
  var scratch = target.getCollection(collectionName + '_empty');
  scratch.drop();
  var emptyMs = timeUpserts(scratch);
  scratch.drop();
  var r3 = function (x) { return Math.round(x * 1000) / 1000; };
  return {
    plan: plan.text, scan: plan.scan, keysExamined: plan.keysExamined, docsExamined: plan.docsExamined,
    docs: docs, emptyMs: r3(emptyMs), fullMs: r3(fullMs), growth: Math.round(fullMs / emptyMs * 100) / 100,
    text: 'an upsert by _id: ' + plan.text + '; one took ' + r3(emptyMs) + ' ms into an empty collection and ' + r3(fullMs) +
      ' ms into this one of ' + docs + ' documents (' + (fullMs / emptyMs).toFixed(2) + 'x)'
  };
}
// >>> block: log-services

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

// <<< block: update-plan (stamped by npm run stamp from shell/_blocks/update-plan.js; edit there)
// Update plan: in every script that records how the server finds a write's document.
/**
 * What the server does to find the document of an update (the explain command at
 * executionStats, which plans and runs the search but writes nothing): { text, stages,
 * keysExamined, docsExamined, scan }. scan is true where every document is read to find it.
 * A server that does not explain updates (FerretDB 2: NotImplemented) is asked for the plan of
 * the find that selects the same document (the update's filter, limit 1), and the text says so.
 */
function updatePlan(dbHandle, collectionName, q, u, upsert) {
  var explain = function (command) {
    // the answer is held before it is returned: a rejected call returned as it is would pass by
    // the catch in mongosh, whose rewriter awaits the call only where its value is used
    var answer;
    try {
      answer = dbHandle.runCommand({ explain: command, verbosity: 'executionStats' });
    } catch (e) {
      answer = { ok: 0, errmsg: e.message };
    }
    return answer;
  };
  var res = explain({ update: collectionName, updates: [{ q: q, u: u, upsert: Boolean(upsert) }] });
  var of = '';
  if (!res.ok) {
    var refused = res.errmsg;
    res = explain({ find: collectionName, filter: q, limit: 1 });
    if (!res.ok) return { text: 'explain refused: ' + refused, stages: null, keysExamined: null, docsExamined: null, scan: null };
    of = 'the equivalent find\'s plan (this server does not explain an update: ' + refused + '): ';
  }
  var planner = res.queryPlanner || {};
  if (planner.winningPlan) {
    // through mongos the plan is the router's (SINGLE_SHARD, SHARD_WRITE, SHARD_MERGE) with each
    // shard's own plan in its shards[] (src/mongo/s/cluster_explain.cpp): every shard's plan is
    // walked, named by its shard, so that a scan on any shard is seen
    var stages = [];
    var walk = function (plan, shard) {
      var node = plan.queryPlan || plan;
      while (node && node.stage) {
        stages.push(shard + node.stage + (node.indexName ? ' ' + node.indexName : ''));
        if (Array.isArray(node.shards)) {
          node.shards.forEach(function (s) { walk(s.winningPlan || {}, (s.shardName || 'a shard') + ': '); });
          return;
        }
        node = node.inputStage || (node.inputStages ? node.inputStages[0] : null);
      }
    };
    walk(planner.winningPlan, '');
    var stats = res.executionStats || {};
    var keys = stats.totalKeysExamined === undefined ? null : Number(stats.totalKeysExamined);
    var docs = stats.totalDocsExamined === undefined ? null : Number(stats.totalDocsExamined);
    return {
      text: of + stages.join(' <- ') + (keys === null ? '' : '; ' + keys + ' keys and ' + docs + ' documents examined'),
      stages: stages, keysExamined: keys, docsExamined: docs,
      scan: stages.some(function (s) { return /COLLSCAN/.test(s); })
    };
  }
  if (planner.Plan) {
    // FerretDB: its backend's plan for the rows it reads (PostgreSQL's EXPLAIN, its nodes from the
    // top down, or SQLite's EXPLAIN QUERY PLAN lines). FerretDB 1.x says whether the filter went
    // with it; FerretDB 2 runs every filter in PostgreSQL (DocumentDB) and has no such field.
    var pushdown = res.filterPushdown;
    var nodes = [];
    var visit = function (n) {
      nodes.push(n['Node Type'] + (n['Index Name'] ? ' on ' + n['Index Name'] : ''));
      (n.Plans || []).forEach(visit);
    };
    if (!Array.isArray(planner.Plan)) visit(planner.Plan);
    var backend = Array.isArray(planner.Plan)
      ? 'SQLite ' + planner.Plan.map(function (line) { return String(line).replace(/^.*detail=/, ''); }).join('; ')
      : 'PostgreSQL ' + nodes.join(' <- ');
    return {
      text: of + 'FerretDB: ' + backend + (pushdown === undefined ? ''
        : pushdown === true ? ', the filter pushed down to the backend' : ', the filter not pushed down: FerretDB reads every document of the collection and matches it itself'),
      stages: [backend], keysExamined: null, docsExamined: null,
      scan: pushdown === false || /Seq Scan|SCAN /.test(backend)
    };
  }
  return { text: of + 'explain gave no plan the script can read: ' + JSON.stringify(planner).slice(0, 200), stages: null, keysExamined: null, docsExamined: null, scan: null };
}
// >>> block: update-plan

// <<< block: paired-rounds (stamped by npm run stamp from shell/_blocks/paired-rounds.js; edit there)
// Paired rounds: in every script that cuts an article's loop into paired blocks.
// One reading per side decides nothing on a machine that drifts (another process, a cache
// warming, a checkpoint): each comparison is timed in ROUNDS rounds, each holding one block of
// every variant compared, an equal share of the article's loop, in an order drawn per round
// (Abedi and Brecht's randomized multiple interleaved trials, ICPE 2017). Rounds come in mirrored
// twos, a drawn order and then the same order backwards, so each variant runs first and last
// equally often and the order cancels out of the paired ratios. SEED fixes the draw; without it
// each run draws its own. With PARTNER set (the orchestrator's conductor sets it: the SQL
// baseline, or the same script on another server), a round also holds the partner's block: the
// script prints a turn line where the partner's block falls and waits until the conductor has
// marked it done in this database's `turns` collection. Pasted alone, PARTNER is null and no
// round waits.

/** Numbers in [0, 1): mulberry32 from an integer seed, or Math.random without one. */
function roundsRandom(seed) {
  if (seed === null || seed === undefined) return Math.random;
  var a = seed | 0;
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order of the variants in each of `rounds` rounds, round 1 first: [[variant, ...], ...].
 * An odd round (1, 3, ...) is a shuffle drawn from the seed; the round after it runs the same
 * order backwards; an odd count's last round is a draw of its own.
 */
function roundOrders(variants, rounds, seed) {
  var random = roundsRandom(seed === null || seed === undefined ? null : seed + 7919);
  var orders = [];
  for (var r = 0; r < rounds; r++) {
    if (r % 2 === 1) { orders.push(orders[r - 1].slice().reverse()); continue; }
    var order = variants.slice();
    for (var i = order.length - 1; i > 0; i--) {
      var j = Math.floor(random() * (i + 1));
      var swap = order[i]; order[i] = order[j]; order[j] = swap;
    }
    orders.push(order);
  }
  return orders;
}

/**
 * The rounds a script runs, in order: [{ round, order, warmup }]. With warmup, a warm-up round
 * comes first, round 0 in round 1's order: a block of every variant, run and timed like the
 * others and printed with warmup true, counted in no sum (criterion.rs and JMH run warm-up
 * iterations they do not count), so that round 1 does not pay alone for what warms up (a
 * connection's first calls, the server's caches, a collection's first pages). Each script says
 * what its warm-up blocks write and how it keeps them out of the rounds' state.
 */
function roundsToRun(orders, warmup) {
  var list = warmup ? [{ round: 0, order: orders[0], warmup: true }] : [];
  orders.forEach(function (order, r) { list.push({ round: r + 1, order: order, warmup: false }); });
  return list;
}

/** n items cut into `rounds` shares as even as can be, the first n % rounds one larger: [[from, to), ...]. */
function roundShares(n, rounds) {
  var shares = [];
  var from = 0;
  for (var r = 0; r < rounds; r++) {
    var size = Math.floor(n / rounds) + (r < n % rounds ? 1 : 0);
    shares.push([from, from + size]);
    from += size;
  }
  return shares;
}

/**
 * The partner's block of a round: with announce, a turn line the conductor acts on; then a wait,
 * polling every 20 ms (a poll a block's time cannot feel), until the conductor has put the
 * block's mark in this database's turns collection. Returns false at once without a partner.
 */
function partnerTurn(round, variant, announce) {
  if (!PARTNER) return false;
  var id = round + ':' + variant;
  if (announce) print(JSON.stringify({ turn: { round: round, variant: variant, id: id } }));
  var turns = db.getSiblingDB(DB_NAME).getCollection('turns');
  while (!turns.findOne({ _id: id })) sleep(20);
  return true;
}
// >>> block: paired-rounds

// Every shell writes when it arrived (and what it has to tell) and waits until all have; then
// each computes the same start instant from the arrival times, so no shell is told by another
// when to go. A meeting is named by the run's START_AT, so a later run's shells never meet an
// earlier run's. Returns every shell's arrival ({ worker, at, note }), in shell order.
function meetAllShells(phase, note) {
  if (WORKERS === 1) return [{ worker: WORKER, note: note === undefined ? null : note }];
  var meeting = String(START_AT) + ':' + phase;
  db.rendezvous.insertOne({ _id: meeting + ':' + WORKER, meeting: meeting, worker: WORKER, at: Date.now(), note: note === undefined ? null : note });
  var arrivals;
  while ((arrivals = db.rendezvous.find({ meeting: meeting }).toArray()).length < WORKERS) sleep(MEET_POLL_MS);
  var startAt = Math.max.apply(null, arrivals.map(function (a) { return a.at; })) + MEET_MARGIN_MS;
  if (startAt - Date.now() > MEET_SPIN_MS) sleep(startAt - Date.now() - MEET_SPIN_MS);
  while (Date.now() < startAt) { /* the last few ms on the clock itself */ }
  return arrivals.sort(function (a, b) { return a.worker - b.worker; });
}

var unacknowledged = unacknowledgedWrites(DB_NAME);
var writeOptions = { writeConcern: { w: unacknowledged.w } };
if (WORKER === 0) print('writes w:' + unacknowledged.w + ': ' + unacknowledged.reason);

// Test 2 compares save with insert (and, beside the orchestrator, with the SQL baseline): its
// phases are cut into ROUNDS paired rounds. Test 3 read as a parallel run compares nothing: its
// one phase stays whole.
var PAIRED = METHOD_NAMES.length > 1;
var rounds = PAIRED ? ROUNDS : 1;
var variants = METHOD_NAMES.concat(PAIRED && PARTNER ? ['sql'] : []);
var shares = roundShares(TOTAL, rounds);
/** This shell's part of a block of n records: floor(n / W) each, the first n % W shells one more. */
function mineOf(n) {
  return Math.floor(n / WORKERS) + (WORKER < n % WORKERS ? 1 : 0);
}

var removed = { save: 0, insert: 0 };
if (WORKER === 0) {
  METHOD_NAMES.forEach(function (method) { removed[method] = emptyCollection('log_' + method); });
}
if (START_AT !== null && START_AT > Date.now()) sleep(START_AT - Date.now());
// every shell draws the rounds' order from one seed: SEED, or without it one shell 0 draws
var seeds = meetAllShells('emptied', WORKER === 0 ? { seed: SEED !== null ? SEED : Math.floor(Math.random() * 4294967296) } : null);
var orders = roundOrders(variants, rounds, WORKERS === 1 ? SEED : seeds[0].note.seed);
// test 3's one phase has nothing to pair, and no warm-up
var runs = roundsToRun(orders, PAIRED && WARMUP);

// each method's own connection, opened before any clock starts and kept for every round
var sides = {};
METHOD_NAMES.forEach(function (method) {
  var client = ownConnection();
  sides[method] = {
    collectionName: 'log_' + method, client: client, collection: client.getDB(DB_NAME).getCollection('log_' + method),
    ms: 0, hrMs: 0, appliedMs: 0, inserted: 0, overlapped: true
  };
});

// What every shell said of each block at the meeting after it, so each sums the same combined
// times: a block's span runs from the first shell's start to the last one's end (ms), and to the
// last one's applied instant (appliedMs).
function addNotes(arrivals) {
  var notes = arrivals.map(function (a) { return a.note; }).filter(function (n) { return n && n.method; });
  // a warm-up block's spans join no sum
  if (notes.length < WORKERS || notes[0].warmup) return;
  var side = sides[notes[0].method];
  var firstStart = Math.min.apply(null, notes.map(function (n) { return n.startedAt; }));
  side.ms += Math.max.apply(null, notes.map(function (n) { return n.endedAt; })) - firstStart;
  side.appliedMs += Math.max.apply(null, notes.map(function (n) { return n.appliedAt; })) - firstStart;
  // the shells truly wrote at once: the last start came before the first end
  if (WORKERS > 1) side.overlapped = side.overlapped && Math.max.apply(null, notes.map(function (n) { return n.startedAt; })) < Math.min.apply(null, notes.map(function (n) { return n.endedAt; }));
}

var note = null;
var blocksDone = 0;
var blocksAll = runs.length * variants.length;
runs.forEach(function (run) {
  var r = Math.max(0, run.round - 1);
  run.order.forEach(function (variant, p) {
    // every shell has finished the block before (its barrier returned) when all have met
    addNotes(meetAllShells('r' + run.round + ':' + variant, note));
    note = null;
    if (variant === 'sql') {
      // shell 0 asks the conductor for the SQL block; every shell waits until it is done
      partnerTurn(run.round, 'sql', WORKER === 0);
    } else {
      var side = sides[variant];
      var log = METHODS[variant];
      var n = shares[r][1] - shares[r][0];
      var mine = mineOf(n);
      var startedAt = Date.now(); var t0 = performance.now();
      for (var i = 0; i < mine; i++) {
        log(side.collection, writeOptions);
      }
      var hrMs = performance.now() - t0; var endedAt = Date.now();
      barrier(side.client);
      var appliedAt = Date.now();
      if (!run.warmup) { side.hrMs += hrMs; side.inserted += mine; }
      note = { method: variant, startedAt: startedAt, endedAt: endedAt, appliedAt: appliedAt, warmup: run.warmup };
      // this shell's line of the block, the moment it ends: the orchestrator combines the
      // shells' lines of a round (first start to last end, and to the last applied instant)
      if (PAIRED) {
        print(JSON.stringify({
          scenario: 'log-inserts', test: TEST, method: variant, collection: side.collectionName,
          round: run.round, rounds: rounds, position: p + 1, warmup: run.warmup || undefined, iterations: n, worker: WORKER,
          startedAt: startedAt, endedAt: endedAt, ms: endedAt - startedAt, hrMs: Math.round(hrMs * 1000) / 1000,
          appliedAt: appliedAt, appliedMs: appliedAt - startedAt,
          writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged),
          inserted: mine
        }));
      }
    }
    blocksDone += 1;
    if (PROGRESS) print(JSON.stringify({ progress: blocksDone, of: blocksAll }));
  });
  if (run.warmup) {
    // every shell is done with the warm-up when all have met; then shell 0 deletes its records
    meetAllShells('warmed', note);
    note = null;
    if (WORKER === 0) METHOD_NAMES.forEach(function (method) { removeWarmUp('log_' + method); });
  }
});
addNotes(meetAllShells('done', note));

var results = [];
METHOD_NAMES.forEach(function (method) {
  var side = sides[method];
  var cost = method === 'save' && WORKER === 0 ? upsertCost(side.client, side.collectionName) : null;
  closeConnection(side.client);
  print('MongoDB ' + method + ' (shell ' + WORKER + ' of ' + WORKERS + '): ' + side.ms / 1000 + ' (created: 1)');
  print('  applied, all shells: ' + side.appliedMs / 1000 + ' s (w:' + unacknowledged.w + ')');
  if (cost) print('  ' + cost.text);
  results.push({
    scenario: 'log-inserts', test: TEST, method: method, collection: side.collectionName,
    iterations: TOTAL, rounds: rounds, worker: WORKER,
    // the blocks' combined spans, summed: every shell prints the same
    ms: side.ms, hrMs: Math.round(side.hrMs * 1000) / 1000, appliedMs: side.appliedMs,
    workersOverlapped: WORKERS > 1 ? side.overlapped : null,
    writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged),
    upsertCost: cost || undefined, upsertCostText: cost ? cost.text : undefined,
    // every record has a new _id, so each save inserts one; the count after the step checks it
    inserted: side.inserted, removed: removed[method]
  });
});
print('');
results.forEach(function (r) { print(JSON.stringify(r)); });
