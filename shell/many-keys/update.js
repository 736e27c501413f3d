// mongo-classics · many-keys · update.js
// Article:  the untitled README of gist jmikola/8048099 (original-update.php and bucket-update.php),
//           December 2013, https://gist.github.com/jmikola/8048099 . MongoDB 2.4 era, MMAPv1, PHP.
// Measures: the article's update test on `original` and on `bucket`, cut into paired rounds
//           (Changes: Rounds): UPDATES updates per schema, each finding one document by appver,
//           deploytype, g, guid and timeslice, $set-ting random and $inc-ing five random counters
//           and stats.events by 5. Two times per block and per schema: the time to send the
//           updates (the article's "Updated N documents in S seconds") and the time until the
//           server has applied them all; the speed-up of bucket over original, per round and in
//           all; the updates applied per second, sampled once a second, as the article's
//           mongostat; and how the server finds each update's document (plan, keys examined).
// Writes:   the article sent its updates with w:0 ("so that update operations can be spammed to
//           MongoDB") and timed the sending; mongostat showed the server applying them for 20 s
//           after. The kit sends them with w:0 where the server takes them (mongod), on one
//           connection of its own per schema, and stops a block's applied clock when a command
//           sent after its last update on that connection returns, once the server has applied
//           them all. A server that answers w:0 writes (FerretDB) gets w:1; the JSON lines say
//           which (writeConcern, unacknowledged) and the send time is then the applied time.
// Faithful: every query and update document built in advance, outside the timed loop, so the
//           loop only sends; update i targets document i % DOCS, so with the article's sizes
//           each of the 2,000 documents is updated 5 times, in 5 sweeps; both schemas get the
//           same updates (same documents, counters and random strings) in the same order; $inc by
//           NumberLong as PHP's 64-bit integers; the article's printed line.
// Changes:  - Runs in its own database (DB_NAME, prefix classics_).
//           - Rounds: the article ran every update on original, then every one on bucket, so a
//             drift of the machine (another process, a cache warming) fell on one side. Here they
//             run in ROUNDS rounds (the paired rounds block), each of one block per schema in an
//             order drawn from SEED, mirrored round by round. Block r of either schema sends
//             updates roundShares(UPDATES, ROUNDS)[r] of the one plan, so when round k runs, both
//             collections have had the same k - 1 shares applied: the same state. Each block is
//             timed alone on both clocks from just before its first update and prints one JSON
//             line; each schema's line and the article's printed line give the sums of its
//             blocks' times (the article timed its loop once, end to end; the sum leaves out what
//             runs between blocks: the other schema's block, a printed line, a counter read).
//             With fewer UPDATES than ROUNDS, there is one round per update, and the script says so.
//           - Warm-up (WARMUP, true unless set false): before round 1, a warm-up round of one block
//             per schema in round 1's order, each sending as many updates as round 1's share,
//             timed and printed like the others with warmup true, and counted in no sum, no sample
//             series and no table: round 1 no longer pays alone for the first touches of the
//             documents, the index and the writes' connection. Its updates are a plan of their
//             own, drawn after the article's (so the article's updates stay those the seed drew),
//             on the same documents, and both schemas get the same ones: the state stays equal,
//             and the read-back counts them (stats.events grows by 5 x their number too).
//           - The targets' identities are read from each collection (sorted by _id) before the
//             timed loop; the article does not say how its update scripts knew them.
//           - The reads of the documents insert.js wrote and this script updated (the targets'
//             identities, the events summed before and after, the read-back) go to the primary
//             (readPref('primary')), whatever read preference the connection has: a secondary
//             may lag them. On a single server (the article's) they read it as before.
//           - The five counters of one update are five distinct keys: with replacement, two equal
//             keys would collapse into one $inc and stats.events would no longer be their sum,
//             which the article says it is.
//           - The plan: before the rounds, the explain command (executionStats, which writes
//             nothing) for the first update says how the server finds the document (insert.js
//             built an index on the five fields) and how many index keys and documents it examines.
//           - Samples: a mongosh script is single-threaded, so the loop looks at the clock after
//             every update and takes a sample once a second has passed, on a second connection
//             of its own (the writes' connection may hold queued w:0 updates): the collection's
//             count of completed writes ($collStats latencyStats writes.ops) where the server
//             keeps one, else serverStatus opcounters.update (the whole server), else the
//             script's count of acknowledged updates (w:1, so applied). A sample is late by up to
//             one update's round trip; the time spent sampling is left out of the send time (the
//             loop stood still), not out of the applied time (the server did not). Its seconds
//             are the schema's own, its blocks' applied times end to end, so each series reads as
//             mongostat's did while that test ran alone; a sample across two blocks counts the
//             end of one and the start of the next. The counter is read at each block's start and
//             end, outside its clocks, and counts the block's own updates alone. A sample that
//             falls due while a barrier waits is taken after it (at the schema's next update), so
//             an interval may hold a block's tail; its rate is over the interval.
//           - Applied: with w:0, a block's applied clock stops when the command that proves its
//             updates applied returns (the barrier, queued behind them on their connection), and
//             that command is never held back by a poll: it goes out at once after the block's
//             last update unless the counter says the server still has more than three times the
//             wait until the next sample to do, at the rate it applied the last second; then the
//             script sleeps until that sample, takes it, and asks again (applyWait). So a long
//             tail is sampled once a second and a short one (tens of ms at the quick size) is
//             timed by the barrier alone, not by a 10 ms poll. A sleep outlives the server's work
//             only if its rate more than tripled; lateByAtMostMs says by how much the time may
//             then be late (per block; the schema's line sums them). The barrier after each block
//             also keeps one schema's queued updates out of the other's block.
//           - Times: new Date() (the wall clock, like PHP's microtime) and performance.now();
//             the printed line uses performance.now(), whose microseconds match microtime's.
//           - VERIFY reads every document back after the last round: each key once (in its md5
//             bucket), each document's counters summing to its stats.events, the total equal to
//             the total before plus 5 x UPDATES, each target's random the last one sent and, when
//             the test started from zeros (the first pass), every counter its planned count.
//           - One JSON line per block, per schema and per sample for the orchestrator; SEED as
//             in insert.js, offset by the pass so passes differ but repeat (the rounds' order is
//             drawn from SEED itself).
// Sizes:    DOCS documents targeted in each collection (2,000; the first DOCS of `bucket` when
//           BUCKET_DOCS > DOCS), KEYS counters per document (20,000, as in insert.js), UPDATES
//           updates per schema (10,000), ROUNDS paired rounds (8; the article ran one), WARMUP
//           (true: a warm-up round first, of round 1's share).

if (typeof DOCS === 'undefined') var DOCS = 2000;
if (typeof KEYS === 'undefined') var KEYS = 20000;
if (typeof UPDATES === 'undefined') var UPDATES = 10000;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_many_keys';
if (typeof PASS === 'undefined') var PASS = null;
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof VERIFY === 'undefined') var VERIFY = true;
if (!(UPDATES >= 1) || UPDATES % 1 !== 0 || !(ROUNDS >= 1) || ROUNDS % 1 !== 0) {
  throw new Error('UPDATES and ROUNDS must be whole numbers of at least 1 (UPDATES ' + UPDATES + ', ROUNDS ' + ROUNDS + ')');
}

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

var crypto = require('crypto');
var PREFIXES = ['baz-baz-baz-baz-baz-baz-', 'foo-foo-foo-foo-foo-foo-', 'bar-bar-bar-bar-bar-bar-'];
var ONE = NumberLong('1');
var FIVE = NumberLong('5');
var INCS_PER_UPDATE = 5;
// The barrier goes out at once unless the server's rest of the work is longer than this many
// times the wait until the next sample (see applyWait).
var TAIL_MARGIN = 3;

function eventName(i) { return PREFIXES[i % PREFIXES.length] + i; }
function bucketOf(name) { return crypto.createHash('md5').update(name).digest('hex').substring(0, 2); }
function toNumber(v) { return typeof v === 'number' ? v : (v && typeof v.toNumber === 'function' ? v.toNumber() : Number(v)); }
function round3(v) { return v === null ? null : Math.round(v * 1000) / 1000; }

// PHP's uniqid(), as in insert.js.
var lastUniqid = '';
function uniqid() {
  var id;
  do {
    var us = Math.floor((performance.timeOrigin + performance.now()) * 1000);
    id = Math.floor(us / 1e6).toString(16).padStart(8, '0') + (us % 1e6).toString(16).padStart(5, '0');
  } while (id === lastUniqid);
  lastUniqid = id;
  return id;
}

var names = [];
var buckets = [];
for (var k = 0; k < KEYS; k++) { names.push(eventName(k)); buckets.push(bucketOf(names[k])); }

// The same plan for both schemas: which document, which counters, which new random string;
// then the warm-up round's updates (round 1's share: updateBlocks), drawn after the article's.
var WARMUP_UPDATES = WARMUP ? Math.ceil(UPDATES / Math.max(1, Math.min(ROUNDS, UPDATES))) : 0;
var plans = [];
for (var p = 0; p < UPDATES + WARMUP_UPDATES; p++) {
  var chosen = [];
  while (chosen.length < Math.min(INCS_PER_UPDATE, KEYS)) {
    var key = getRandomInt(0, KEYS - 1);
    if (chosen.indexOf(key) < 0) chosen.push(key);
  }
  plans.push({ doc: p % DOCS, keys: chosen, random: uniqid() });
}
// in the order the server applies them: the warm-up's first
var appliedPlans = plans.slice(UPDATES).concat(plans.slice(0, UPDATES));

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
var sampler = ownConnection();
var samplerDb = sampler.getDB(DB_NAME);
print('write concern w:' + unacknowledged.w + ': ' + unacknowledged.reason);

/**
 * The collection's completed writes ($collStats latencyStats), or null where the server keeps
 * none; through mongos one document per shard that holds the collection, summed. The counters
 * are the answering member's: where the run reads another member than the primary, whose
 * counters hold none of the writes, null (serverStatus opcounters, which the primary answers, count instead).
 */
function collectionWrites(collectionName) {
  if (!readsFromPrimary()) return null;
  try {
    var rows = samplerDb.getCollection(collectionName).aggregate([{ $collStats: { latencyStats: {} } }]).toArray();
    var writes = null;
    rows.forEach(function (row) {
      var stats = row.latencyStats;
      if (stats && stats.writes && stats.writes.ops !== undefined) writes = (writes || 0) + toNumber(stats.writes.ops);
    });
    return writes;
  } catch (e) { /* a server without $collStats latencyStats */ }
  return null;
}

/** Updates the whole server has processed (serverStatus opcounters), or null. */
function opcountersUpdate() {
  try {
    var status = samplerDb.adminCommand({ serverStatus: 1, repl: 0, metrics: 0, locks: 0 });
    if (status.ok && status.opcounters && status.opcounters.update !== undefined) return toNumber(status.opcounters.update);
  } catch (e) { /* a server without serverStatus */ }
  return null;
}

/** Where the per-second samples come from on this server, and a reader of that count. */
function counterFor(collectionName) {
  if (collectionWrites(collectionName) !== null) {
    return { source: '$collStats latencyStats writes.ops (this collection\'s completed writes)', read: function () { return collectionWrites(collectionName); } };
  }
  if (opcountersUpdate() !== null) {
    return { source: 'serverStatus opcounters.update (the whole server: other clients\' updates count too)', read: opcountersUpdate };
  }
  return null;
}

// --- reads of the script's own writes: each on the primary, whatever the connection's read preference ---
/**
 * The events counted so far, the targets' identities, and every document read back: reads of
 * insert.js's documents and of this script's updates, so on the primary, which has every one of
 * them, never on a secondary that may lag them (a short sum, a missing target, a read-back that
 * finds updates not applied).
 */
function sumEvents(collection) {
  var rows = collection.aggregate([{ $group: { _id: null, events: { $sum: '$stats.events' } } }], { readPreference: 'primary' }).toArray();
  return rows.length ? toNumber(rows[0].events) : 0;
}

function identities(collection) {
  return collection.find({}, { appver: 1, deploytype: 1, g: 1, guid: 1, timeslice: 1 }).sort({ _id: 1 }).limit(DOCS).readPref('primary').toArray();
}

function eachDocument(collection, f) {
  collection.find().readPref('primary').forEach(f);
}
// --- end reads of the script's own writes ---

// --- apply wait: pure, so a unit test can check when the barrier goes out ---
/**
 * After a w:0 send, how long to sleep before the next once-a-second sample, or 0 to send the
 * barrier now. p: { now, nextSampleAt (ms), remaining (updates the counter has not seen),
 * ratePerMs (the server's rate over the last sample, or since the first update) }. The barrier
 * returns once the server has applied the rest, so sending it early costs nothing; only a sleep
 * that outlasts the server's work would make the applied time late. So it sleeps only where the
 * rest, at the server's rate, takes longer than TAIL_MARGIN times the sleep.
 */
function applyWait(p) {
  if (!(p.remaining > 0) || !(p.ratePerMs > 0)) return 0;
  var untilSample = Math.max(0, p.nextSampleAt - p.now);
  return p.remaining / p.ratePerMs > TAIL_MARGIN * untilSample ? untilSample : 0;
}

/** The server's rate, updates per ms: over the last whole sample interval, else since t0. */
function recentRate(samples, done, now, t0) {
  var n = samples.length;
  if (n >= 2) {
    var dt = (samples[n - 1].second - samples[n - 2].second) * 1000;
    if (dt >= 500) return samples[n - 1].updates / dt;
  }
  return now > t0 ? done / (now - t0) : 0;
}
// --- end apply wait ---

// --- update blocks: pure, so a unit test can check the pairing ---
/**
 * The test's blocks in the order they run: [{ round, rounds, position, schema, from, to, warmup }],
 * the block sending updates [from, to) of the plan. Each round holds one block of every schema, in
 * the paired rounds' drawn order, and the same share of the plan for each; with fewer updates
 * than rounds, one round per update (a block of no update would time nothing). With warmup, a
 * warm-up round comes first (round 0, round 1's order), each block sending as many updates as
 * round 1's, from the plan's updates past the article's [updates, updates + that share).
 */
function updateBlocks(schemas, updates, rounds, seed, warmup) {
  var n = Math.max(1, Math.min(rounds, updates));
  var shares = roundShares(updates, n);
  var blocks = [];
  roundsToRun(roundOrders(schemas, n, seed), warmup).forEach(function (run) {
    var share = run.warmup ? [updates, updates + shares[0][1] - shares[0][0]] : shares[run.round - 1];
    run.order.forEach(function (schema, p) {
      blocks.push({ round: run.round, rounds: n, position: p + 1, schema: schema, from: share[0], to: share[1], warmup: run.warmup });
    });
  });
  return blocks;
}

/**
 * What one schema's barriers did, for its line: blocks [{ updates, seen (what the counter had
 * counted of the block when the barrier went out), lateByAtMostMs }]. Sent while the counter
 * still showed updates to apply, a barrier returned at the block's last one; sent after, the
 * block's applied time may be late by up to its lateByAtMostMs.
 */
function barrierSummary(blocks) {
  var early = blocks.filter(function (b) { return b.seen < b.updates; }).length;
  var late = blocks.reduce(function (n, b) { return n + b.lateByAtMostMs; }, 0);
  return 'in ' + early + ' of ' + blocks.length + ' blocks the barrier went out while the counter still showed updates to apply, so it returned at the block\'s last one' +
    (early < blocks.length ? '; in ' + (blocks.length - early) + ' all were applied already, so the applied time may be late by up to ' + late.toFixed(1) + ' ms in all' : '');
}
// --- end update blocks ---

// --- sample series: pure, so a unit test can check the seconds and the counts ---
/**
 * One schema's once-a-second samples on its own clock, the time inside its blocks end to end:
 * activeMs and counted hold what its finished blocks took (applied time) and applied; lastAt and
 * lastValue, that clock and the count at the last sample. The first sample is mongostat's idle
 * line before the run, so the series starts where the article's does.
 */
function newSeries() {
  return { activeMs: 0, counted: 0, lastAt: 0, lastValue: 0, samples: [{ second: 0, updatesPerSecond: 0, updates: 0, total: 0 }] };
}

/** Whether a sample is due at `at` ms of the series' clock: once a second. */
function sampleDue(series, at) {
  return at - series.lastAt >= 1000;
}

/** A sample at `at` ms of the series' clock, the count being `value` (none where onlyIfMoved and nothing moved); whether it took one. */
function addSample(series, at, value, onlyIfMoved) {
  if (onlyIfMoved && value === series.lastValue) return false;
  var dt = at - series.lastAt;
  series.samples.push({
    second: Math.round(at) / 1000, updatesPerSecond: dt > 0 ? Math.round((value - series.lastValue) / dt * 1000 * 10) / 10 : 0,
    updates: value - series.lastValue, total: value
  });
  series.lastAt = at;
  series.lastValue = value;
  return true;
}

/** A finished block: its applied time joins the series' clock, its applied updates the count. */
function endBlock(series, appliedMs, applied) {
  series.activeMs += appliedMs;
  series.counted += applied;
}

/** The last sample, taken when the series ends, usually covers less than a second: it says so. */
function markPartial(series) {
  var s = series.samples;
  s.forEach(function (x, i) { x.partial = i > 0 && i === s.length - 1 && x.second - s[i - 1].second < 0.999; });
}
// --- end sample series ---

function updateFor(plan, bucketed) {
  var inc = {};
  plan.keys.forEach(function (k) {
    inc['stats.eventnames.' + (bucketed ? buckets[k] + '.' : '') + names[k]] = ONE;
  });
  inc['stats.events'] = FIVE;
  return { $set: { random: plan.random }, $inc: inc };
}

/**
 * One schema's side of the test, made before any clock starts: its targets, every query and
 * update of the plan, the update's plan (explain), the counter its samples read, its writes'
 * connection and its sample series.
 */
function prepareSide(collectionName, bucketed) {
  var collection = db.getCollection(collectionName);
  var targets = identities(collection);
  if (!targets.length) throw new Error(collectionName + ' holds no document: run insert.js first');
  var queries = [];
  var newObjs = [];
  plans.forEach(function (plan) {
    var t = targets[plan.doc % targets.length];
    queries.push({ appver: t.appver, deploytype: t.deploytype, g: t.g, guid: t.guid, timeslice: t.timeslice });
    newObjs.push(updateFor(plan, bucketed));
  });
  var counter = unacknowledged.w === 0 ? counterFor(collectionName) : null;
  var writer = ownConnection();
  return {
    collection: collectionName, bucketed: bucketed, targets: targets, queries: queries, newObjs: newObjs,
    plan: updatePlan(db, collectionName, queries[0], newObjs[0], false),
    eventsBefore: sumEvents(collection),
    counter: counter,
    source: counter ? counter.source
      : unacknowledged.w === 1 ? 'the script\'s count of acknowledged updates (w:1, so applied)' : 'the script\'s count of updates sent (w:0, no counter on this server)',
    writer: writer, writes: writer.getDB(DB_NAME).getCollection(collectionName),
    series: newSeries(), blocks: []
  };
}

var sides = {};

/** The progress bar's line: the updates both schemas have applied so far. */
function printProgress() {
  if (!PROGRESS) return;
  var done = 0;
  Object.keys(sides).forEach(function (name) { done += Math.max(sides[name].series.counted, sides[name].series.lastValue); });
  print(JSON.stringify({ progress: Math.min(done, 2 * UPDATES), of: 2 * UPDATES }));
}

/**
 * One block: updates [from, to) of the plan on one schema, timed alone on both clocks from just
 * before its first update (send: until the last was sent, less the time spent sampling; applied:
 * until the barrier after it returned), sampled on the schema's own clock. `last`: the schema's
 * last block, which ends its series.
 */
function runBlock(side, block, last) {
  // a warm-up block's samples go to a series of its own, which nothing prints
  var series = block.warmup ? newSeries() : side.series;
  var counter = side.counter;
  var size = block.to - block.from;
  var options = { writeConcern: { w: unacknowledged.w } };
  // read before the clocks start: the count then is the block's zero
  var base = counter ? counter.read() : 0;
  var sent = 0;
  var samplingHrMs = 0;
  var samplingDateMs = 0;
  var t0;
  function appliedSoFar() { return counter ? counter.read() - base : sent; }
  function clockAt(now) { return series.activeMs + (now - t0); }
  function sample(now) {
    addSample(series, clockAt(now), series.counted + appliedSoFar());
    printProgress();
  }

  var startDate = new Date();
  t0 = performance.now();
  for (var i = block.from; i < block.to; i++) {
    side.writes.updateOne(side.queries[i], side.newObjs[i], options);
    sent++;
    var now = performance.now();
    if (sampleDue(series, clockAt(now))) {
      var pauseDate = new Date();
      sample(now);
      samplingHrMs += performance.now() - now;
      samplingDateMs += new Date() - pauseDate;
    }
  }
  var sendEnd = performance.now();
  var sendHrMs = sendEnd - t0 - samplingHrMs;
  var sendMs = Math.abs(new Date() - startDate) - samplingDateMs;

  // The applied clock stops when the barrier returns (sent after the block's last update on its
  // connection, so answered once the server has applied them all); while the server has far
  // more to do than the wait until the next sample, the tail is sampled once a second first.
  var seen = null;
  var lateByAtMostMs = 0;
  if (unacknowledged.w === 0 && counter) {
    var done = appliedSoFar();
    // the last moment the counter still showed work to do: the server finished after it
    var lastBusyT = done < size ? performance.now() : sendEnd;
    while (done < size) {
      var nowWait = performance.now();
      var wait = applyWait({
        now: clockAt(nowWait), nextSampleAt: series.lastAt + 1000, remaining: size - done,
        ratePerMs: recentRate(series.samples, series.counted + done, clockAt(nowWait), 0)
      });
      if (!wait) break;
      sleep(wait);
      sample(performance.now());
      done = series.lastValue - series.counted;
      if (done < size) lastBusyT = performance.now();
    }
    seen = done;
    // sent while the counter showed work to do, the barrier returns at the server's last update;
    // otherwise the server finished somewhere since lastBusyT
    if (done >= size) lateByAtMostMs = performance.now() - lastBusyT;
  }
  barrier(side.writer);
  var appliedT = performance.now();
  var appliedHrMs = appliedT - t0;
  var appliedMs = Math.abs(new Date() - startDate);

  // after the clocks: the block's updates, all applied now, join the series
  endBlock(series, appliedHrMs, appliedSoFar());
  if (last) addSample(series, series.activeMs, series.counted, true);
  printProgress();
  var result = {
    round: block.round, rounds: block.rounds, position: block.position, updates: size,
    ms: sendMs, hrMs: sendHrMs, appliedMs: appliedMs, appliedHrMs: appliedHrMs,
    samplingMs: samplingHrMs, seen: seen, lateByAtMostMs: lateByAtMostMs
  };
  if (!block.warmup) side.blocks.push(result);
  return result;
}

/** Seconds from ms, to the microsecond. */
function secondsOf(ms) { return Math.round(ms * 1000) / 1e6; }

/** A sum over a side's blocks. */
function sumOf(side, field) { return side.blocks.reduce(function (n, b) { return n + b[field]; }, 0); }

var SCHEMAS = ['original', 'bucket'];
// in a statement that has no value: an assignment at a mongosh prompt prints what it assigned (a side holds its connection)
SCHEMAS.forEach(function (name) { sides[name] = prepareSide(name, name === 'bucket'); });
var blocks = updateBlocks(SCHEMAS, UPDATES, ROUNDS, SEED, WARMUP);
var rounds = blocks[0].rounds;
if (rounds !== ROUNDS) print('ROUNDS ' + ROUNDS + ' but only ' + UPDATES + ' updates: ' + rounds + ' rounds of one update per schema');

blocks.forEach(function (block) {
  var side = sides[block.schema];
  var b = runBlock(side, block, block.round === rounds);
  print(JSON.stringify({
    scenario: 'many-keys', step: 'update', pass: PASS, round: b.round, rounds: b.rounds, position: b.position, warmup: block.warmup || undefined,
    collection: side.collection, schema: side.collection, kind: 'update', updates: b.updates, docs: side.targets.length,
    ms: b.ms, hrMs: round3(b.hrMs), seconds: secondsOf(b.hrMs),
    appliedMs: b.appliedMs, appliedHrMs: round3(b.appliedHrMs), appliedSeconds: secondsOf(b.appliedHrMs),
    lateByAtMostMs: round3(b.lateByAtMostMs), samplingMs: round3(b.samplingMs), writeConcern: 'w:' + unacknowledged.w, retryableWrites: false
  }));
});

var results = SCHEMAS.map(function (name) {
  var side = sides[name];
  closeConnection(side.writer);
  markPartial(side.series);
  var eventsAfter = sumEvents(db.getCollection(name));
  var appliedBy;
  var barrierText = null; // when the barriers went out: depends on time, so a Text field
  if (unacknowledged.w === 1) {
    appliedBy = 'each update acknowledged (w:1)';
  } else {
    appliedBy = 'after each block, a command sent after its last update on its connection returned' + (side.counter ? ' (the tail sampled from ' + side.counter.source.split(' (')[0] + ')' : '');
    if (side.counter) barrierText = barrierSummary(side.blocks);
  }
  return {
    collection: name, bucketed: side.bucketed, targets: side.targets, plan: side.plan, rounds: rounds,
    ms: sumOf(side, 'ms'), hrMs: sumOf(side, 'hrMs'), appliedMs: sumOf(side, 'appliedMs'), appliedHrMs: sumOf(side, 'appliedHrMs'),
    appliedBy: appliedBy, barrierText: barrierText, lateByAtMostMs: sumOf(side, 'lateByAtMostMs'),
    samplingMs: sumOf(side, 'samplingMs'), source: side.source, samples: side.series.samples, blocks: side.blocks,
    eventsBefore: side.eventsBefore, eventsAfter: eventsAfter, eventsExpected: side.eventsBefore + INCS_PER_UPDATE * (UPDATES + WARMUP_UPDATES)
  };
});
closeConnection(sampler);

results.forEach(function (r) {
  print('Updated ' + UPDATES + ' documents in ' + (r.hrMs / 1000).toFixed(6) + ' seconds (avg: ' +
    (r.hrMs / 1000 / UPDATES).toFixed(6) + '/document)');
  print('  ' + r.collection + ': the sum of its ' + rounds + ' blocks; applied after ' + (r.appliedHrMs / 1000).toFixed(6) + ' seconds (' + r.appliedBy + (r.barrierText ? '; ' + r.barrierText : '') + '); stats.events ' +
    r.eventsBefore + ' -> ' + r.eventsAfter + ', expected ' + r.eventsExpected);
  print('  plan: ' + r.plan.text);
  print('  second   updates since the line before (' + r.source + '; seconds inside this schema\'s blocks)');
  r.samples.forEach(function (s) { print('  ' + String(s.second.toFixed(3)).padStart(7) + '   ' + String(s.updates).padStart(6) + (s.partial ? '  (partial second)' : '')); });
});
print('round  ' + 'order'.padEnd(17) + 'original applied s'.padStart(20) + 'bucket applied s'.padStart(18) + 'original / bucket'.padStart(19));
for (var r = 0; r < rounds; r++) {
  var o = results[0].blocks[r];
  var bk = results[1].blocks[r];
  var order = o.position === 1 ? 'original, bucket' : 'bucket, original';
  print(String(r + 1).padStart(5) + '  ' + order.padEnd(17) + (o.appliedHrMs / 1000).toFixed(6).padStart(20) + (bk.appliedHrMs / 1000).toFixed(6).padStart(18) + (o.appliedHrMs / bk.appliedHrMs).toFixed(2).padStart(19));
}

// Reads every document back; counts each way it differs from the plans applied to it.
function verify(result) {
  var problems = { documents: 0, keysMissing: 0, keysDuplicated: 0, keysExtra: 0, keysMisplaced: 0, documentSums: 0, counters: 0, random: 0 };
  var fromZero = result.eventsBefore === 0;
  var indexOfName = {};
  for (var i = 0; i < KEYS; i++) indexOfName[names[i]] = i;
  var planned = {};
  result.targets.forEach(function (t) { planned[t.guid] = { counts: {}, random: null }; });
  appliedPlans.forEach(function (plan) {
    var entry = planned[result.targets[plan.doc % result.targets.length].guid];
    plan.keys.forEach(function (k) { entry.counts[k] = (entry.counts[k] || 0) + 1; });
    entry.random = plan.random;
  });
  eachDocument(db.getCollection(result.collection), function (doc) {
    problems.documents++;
    var entry = planned[doc.guid] || { counts: {}, random: null };
    if (entry.random !== null && doc.random !== entry.random) problems.random++;
    var seen = {};
    var distinct = 0;
    var sum = 0;
    var check = function (name, value, bucket) {
      var index = indexOfName[name];
      if (index === undefined) { problems.keysExtra++; return; }
      if (seen[name]) { problems.keysDuplicated++; return; }
      seen[name] = true;
      distinct++;
      if (result.bucketed && buckets[index] !== bucket) problems.keysMisplaced++;
      var v = toNumber(value);
      sum += v;
      if (fromZero && v !== (entry.counts[index] || 0)) problems.counters++;
    };
    var eventnames = doc.stats.eventnames;
    Object.keys(eventnames).forEach(function (key) {
      if (result.bucketed) Object.keys(eventnames[key]).forEach(function (name) { check(name, eventnames[key][name], key); });
      else check(key, eventnames[key], null);
    });
    problems.keysMissing += KEYS - distinct;
    if (sum !== toNumber(doc.stats.events)) problems.documentSums++;
  });
  var ok = Object.keys(problems).every(function (p) { return p === 'documents' || problems[p] === 0; });
  return { ok: ok, countersChecked: fromZero, problems: problems };
}

function readBackText(r) {
  var events = 'stats.events ' + r.eventsBefore + ' -> ' + r.eventsAfter + (r.eventsAfter === r.eventsExpected ? ' (+5 x ' + (UPDATES + WARMUP_UPDATES) + (WARMUP_UPDATES ? ', the warm-up\'s ' + WARMUP_UPDATES + ' included' : '') + ')' : ', EXPECTED ' + r.eventsExpected);
  if (!r.verification) return r.collection + ' after update: not read back (VERIFY false); ' + events;
  var p = r.verification.problems;
  var found = Object.keys(p).filter(function (k) { return k !== 'documents' && p[k]; }).map(function (k) { return k + ' ' + p[k]; });
  return r.collection + ' after update: ' + (found.length ? 'DIFFERS (' + found.join(', ') + ')' : 'all ' + p.documents + ' documents as planned' +
    (r.verification.countersChecked ? ', every counter checked' : ', counters summed (not from zero)')) + '; ' + events;
}

results.forEach(function (r) {
  r.verification = VERIFY ? verify(r) : null;
  if (r.verification) print(r.collection + ' read back: ' + (r.verification.ok ? 'as planned' : 'DIFFERS ' + JSON.stringify(r.verification.problems)));
});
var speedup = results[0].hrMs / results[1].hrMs;
var speedupApplied = results[0].appliedHrMs / results[1].appliedHrMs;
print('speed-up of bucket over original (original time / bucket time, the sums of their blocks): ' + speedup.toFixed(2) + ' to send, ' +
  speedupApplied.toFixed(2) + ' to apply');
print('');

results.forEach(function (r) {
  print(JSON.stringify({
    scenario: 'many-keys', step: 'update', pass: PASS, collection: r.collection, schema: r.collection, kind: 'update',
    updates: UPDATES, warmupUpdates: WARMUP_UPDATES, docs: r.targets.length, keys: KEYS, rounds: r.rounds,
    // the sums of the schema's blocks' times (the header: Rounds)
    ms: r.ms, hrMs: round3(r.hrMs), seconds: secondsOf(r.hrMs),
    appliedMs: r.appliedMs, appliedHrMs: round3(r.appliedHrMs), appliedBy: r.appliedBy, barrierText: r.barrierText, lateByAtMostMs: round3(r.lateByAtMostMs),
    appliedSeconds: secondsOf(r.appliedHrMs),
    rate: Math.round(UPDATES / r.appliedHrMs * 1000 * 10) / 10,
    sendRate: Math.round(UPDATES / r.hrMs * 1000 * 10) / 10,
    samplingMs: round3(r.samplingMs), writeConcern: 'w:' + unacknowledged.w, retryableWrites: false,
    unacknowledged: writesNote(unacknowledged),
    plan: r.plan.text, planStages: r.plan.stages, planScans: r.plan.scan, keysExamined: r.plan.keysExamined, docsExamined: r.plan.docsExamined,
    samplesFrom: r.source,
    eventsBefore: r.eventsBefore, eventsAfter: r.eventsAfter, eventsExpected: r.eventsExpected,
    eventsOk: r.eventsAfter === r.eventsExpected,
    speedup: r.bucketed ? Math.round(speedup * 100) / 100 : null,
    speedupApplied: r.bucketed ? Math.round(speedupApplied * 100) / 100 : null,
    inserted: 0, removed: 0, verification: r.verification, readBack: readBackText(r)
  }));
});
// The bar chart's records: one per schema and clock, so send and applied times sit side by side.
results.forEach(function (r) {
  [['send', r.hrMs], ['applied', r.appliedHrMs]].forEach(function (m) {
    print(JSON.stringify({
      scenario: 'many-keys', step: 'update', pass: PASS, schema: r.collection, kind: 'time',
      measure: m[0], seconds: secondsOf(m[1])
    }));
  });
});
results.forEach(function (r) {
  r.samples.forEach(function (s) {
    print(JSON.stringify({
      scenario: 'many-keys', step: 'update', pass: PASS, schema: r.collection, kind: 'sample',
      second: s.second, updatesPerSecond: s.updatesPerSecond, updates: s.updates, total: s.total,
      partial: s.partial, source: r.source
    }));
  });
});
