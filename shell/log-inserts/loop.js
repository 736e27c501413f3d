// mongo-classics · log-inserts · loop.js
// Article:  Raffaele Rialdi, "Performance di MongoDB usato per eseguire logging molto semplice",
//           UGIdotNET blogs, 16 September 2010, with its update of 17 September 2010,
//           http://blogs.ugidotnet.org/Raffaele/archive/2010/09/16/performance-di-mongodb-usato-per-eseguire-logging-molto-semplice.aspx
//           MongoDB 1.6 era, a C# driver with a Linq provider, SQL Server, a 4-core (8 with
//           Hyper-Threading) machine.
// Measures: test 1 and, from the article's update, test 3: a plain loop of log records written
//           one at a time, timed from before the loop to after it. Test 1 (LOOP 1, 10,000
//           records, the default) compares save (the article's first version, an upsert) with
//           insert (its fix), each into a collection emptied first, in paired rounds (below);
//           test 3 (LOOP 3, 4,000,000) runs insert only, as the article did, one loop. Beside
//           each time, the time until the server had applied every record, and after the
//           rounds what one upsert costs on this server.
// Writes:   C# drivers of 2010 sent writes without waiting for an answer unless asked for safe
//           mode, and the article asked for none: its Stopwatch timed the sending (SQL Server's
//           ExecuteNonQuery, by contrast, waits for each insert). The kit sends the records with
//           w:0 where the server takes them (mongod), on one connection of its own, and times
//           too until a command sent after the last one on that connection returns, which is
//           once the server has applied them all (appliedMs). A server that answers w:0 writes
//           (FerretDB 1.24) gets w:1; the JSON lines say which (writeConcern, unacknowledged).
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
//             _id is today's single-call form of that.
//           - After the rounds (untimed), save's plan (the explain command) and the time of
//             PROBE_UPSERTS acknowledged upserts into the full collection against an empty one
//             say how this server finds an upsert's _id: MongoDB through its index, FerretDB
//             1.24 by reading the whole collection, so there save slows as the collection grows.
//           - Test 3: the article's "4'000'000 di insert consecutive" in 119 to 140 s is one loop
//             here; its rate (33,600 a second) equals test 2's parallel insert rate (100,000 in
//             2.9 s), so it may have run in parallel. That reading is an interpretation; the kit
//             also runs test 3 in parallel (test2.js with PARALLEL 3) and shows both.
//           - LogType: mulberry32 (as in power-of-2-sizes/setup.js) seeded with the record's
//             Date.getTime(), not .NET's Random seeded with Ticks: the values differ, the quirk is
//             kept. JavaScript's clock ticks every millisecond where Windows' DateTime.Now of 2010
//             ticked about every 15.6 ms, so fewer records share a LogType here.
//           - The article's message text was cut from the post: the full paragraph it starts
//             (865 characters, "about 800").
//           - The article timed save's whole loop, then insert's, and its SQL test at another
//             time: one reading per side, in a fixed order, so a drift of the machine lands on
//             one side. Test 1 is cut into ROUNDS paired rounds (the paired rounds block): each
//             round writes its share of the records (roundShares) by save and by insert, a block
//             each, in the order roundOrders draws from SEED, and, where the orchestrator pairs
//             the SQL baseline (PARTNER), the SQL block of that round at its place in the order
//             (a turn: the script waits while the kit's conductor runs it). Each method's
//             collection is emptied once before round 1, so at round k both hold k-1 shares:
//             equal state, as an upsert's cost grows with its collection on FerretDB 1.24. Each
//             block is timed alone, from before its first write to its last (ms, hrMs) and
//             until its barrier returned (appliedMs, appliedHrMs), and prints a line of its own
//             (round, rounds, position). The article's printed line and each method's JSON line
//             give the sums of its blocks' times, not one Stopwatch around a loop: the rounds'
//             waits between blocks are in neither.
//           - Warm-up (WARMUP, true unless set false): test 1's paired rounds begin with a
//             warm-up round, round 0 in round 1's order, a block of every method (the SQL
//             baseline's too, where paired) writing round 1's share, timed and printed with warmup
//             true and counted in no sum: round 1 no longer pays alone for each collection's first
//             pages, the connection's first writes and the server's caches (in the first kept
//             runs, round 1 was among the two slowest blocks of its series far more often than
//             chance). Its records are deleted once it is over (untimed), so round k still finds
//             k-1 shares and the count after the test is the article's.
//           - Beside the Date clock, performance.now() around the same loop (hrMs); one JSON line
//             per method and per block for the orchestrator; progress lines only between the
//             blocks. SEED draws the rounds' order; nothing else draws from it (the _id is a
//             random UUID, as Guid.NewGuid; LogType is seeded by the clock).
// Sizes:    TEST1_ITERATIONS (test 1: the article's 10,000) or TEST3_ITERATIONS (test 3: the
//           article's 4,000,000) log records per method, as LOOP says; PROBE_UPSERTS (20);
//           ROUNDS (8) paired rounds in test 1 and WARMUP (true: a warm-up round first); PARTNER
//           (null: pasted alone, no round waits).

if (typeof LOOP === 'undefined') var LOOP = 1;
if (typeof TEST1_ITERATIONS === 'undefined') var TEST1_ITERATIONS = 10000;
if (typeof TEST3_ITERATIONS === 'undefined') var TEST3_ITERATIONS = 4000000;
if (typeof PROBE_UPSERTS === 'undefined') var PROBE_UPSERTS = 20;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_log_inserts';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;

db = db.getSiblingDB(DB_NAME);

var ITERATIONS = LOOP === 3 ? TEST3_ITERATIONS : TEST1_ITERATIONS;
var TEST = LOOP === 3 ? 'test 3: one long loop' : 'test 1: one loop';
// The article's test 3 wrote with insert only, after its fix.
var METHOD_NAMES = LOOP === 3 ? ['insert'] : ['save', 'insert'];

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

var unacknowledged = unacknowledgedWrites(DB_NAME);
var writeOptions = { writeConcern: { w: unacknowledged.w } };
print('writes w:' + unacknowledged.w + ': ' + unacknowledged.reason);

// Test 1 compares save with insert (and, beside the orchestrator, with the SQL baseline): its
// loops are cut into ROUNDS paired rounds. Test 3 compares nothing: its one loop stays whole.
var PAIRED = METHOD_NAMES.length > 1;
var rounds = PAIRED ? ROUNDS : 1;
var orders = roundOrders(METHOD_NAMES.concat(PAIRED && PARTNER ? ['sql'] : []), rounds, SEED);
// test 3's one loop has nothing to pair, and no warm-up
var runs = roundsToRun(orders, PAIRED && WARMUP);
var shares = roundShares(ITERATIONS, rounds);

// Every method's collection emptied once, before round 1 (as the article emptied its storage
// before a test), and its own connection opened, before any clock starts.
var sides = {};
METHOD_NAMES.forEach(function (method) {
  var collectionName = 'log_' + method;
  var removed = emptyCollection(collectionName);
  var client = ownConnection();
  sides[method] = {
    collectionName: collectionName, removed: removed, client: client, collection: client.getDB(DB_NAME).getCollection(collectionName),
    ms: 0, hrMs: 0, appliedMs: 0, appliedHrMs: 0, inserted: 0
  };
});

/**
 * One block: the records of one round's share written by one method, timed alone (the article's
 * Stopwatch, then until applied); a warm-up block's times and records join no sum.
 */
function runBlock(method, share, warmup) {
  var side = sides[method];
  var log = METHODS[method];
  var startedAt = Date.now(); var t0 = performance.now();
  for (var i = share[0]; i < share[1]; i++) {
    log(side.collection, writeOptions);
  }
  var hrMs = performance.now() - t0; var endedAt = Date.now();
  barrier(side.client);
  var appliedHrMs = performance.now() - t0; var appliedAt = Date.now();
  var r3 = function (x) { return Math.round(x * 1000) / 1000; };
  var block = {
    iterations: share[1] - share[0], ms: endedAt - startedAt, hrMs: r3(hrMs), appliedMs: appliedAt - startedAt, appliedHrMs: r3(appliedHrMs),
    startedAt: startedAt, endedAt: endedAt, appliedAt: appliedAt
  };
  if (!warmup) { side.ms += block.ms; side.hrMs += hrMs; side.appliedMs += block.appliedMs; side.appliedHrMs += appliedHrMs; side.inserted += block.iterations; }
  return block;
}

var blocksDone = 0;
var blocksAll = runs.reduce(function (n, run) { return n + run.order.length; }, 0);
runs.forEach(function (run) {
  var share = shares[Math.max(0, run.round - 1)];
  run.order.forEach(function (variant, p) {
    if (variant === 'sql') {
      partnerTurn(run.round, 'sql', true);
    } else {
      var block = runBlock(variant, share, run.warmup);
      // a line per block, the moment it ends (the orchestrator keeps it as a paired sample)
      if (PAIRED) {
        print(JSON.stringify(Object.assign({
          scenario: 'log-inserts', test: TEST, method: variant, collection: sides[variant].collectionName,
          round: run.round, rounds: rounds, position: p + 1, warmup: run.warmup || undefined
        }, block, { inserted: block.iterations, writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged) })));
      }
    }
    blocksDone += 1;
    if (PROGRESS) print(JSON.stringify({ progress: blocksDone, of: blocksAll }));
  });
  if (run.warmup) METHOD_NAMES.forEach(function (method) { removeWarmUp(sides[method].collectionName); });
});

var results = [];
METHOD_NAMES.forEach(function (method) {
  var side = sides[method];
  print('MongoDB ' + method + ': ' + side.ms / 1000 + ' (created: 1)');
  print('  applied after ' + side.appliedMs / 1000 + ' s (w:' + unacknowledged.w + ')');
  var cost = method === 'save' ? upsertCost(side.client, side.collectionName) : null;
  if (cost) print('  ' + cost.text);
  closeConnection(side.client);
  results.push({
    scenario: 'log-inserts', test: TEST, method: method, collection: side.collectionName,
    iterations: ITERATIONS, rounds: rounds, ms: side.ms, hrMs: Math.round(side.hrMs * 1000) / 1000,
    appliedMs: side.appliedMs, appliedHrMs: Math.round(side.appliedHrMs * 1000) / 1000,
    writeConcern: 'w:' + unacknowledged.w, retryableWrites: false, unacknowledged: writesNote(unacknowledged),
    upsertCost: cost, upsertCostText: cost ? cost.text : undefined,
    // every record has a new _id, so each save inserts one; the count after the step checks it
    inserted: side.inserted, removed: side.removed
  });
});
print('');
results.forEach(function (r) { print(JSON.stringify(r)); });
