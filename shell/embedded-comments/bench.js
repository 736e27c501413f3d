// mongo-classics · embedded-comments · bench.js
// Article:  "Mongodb内嵌文档插入性能评测" (insert performance of embedded documents), marlonyao's
//           blog on iteye.com, 2012 (its own address was not recovered; a repost is at
//           https://aiyiweb.com/sjkjc/53218). MongoDB 1.8, Python/pymongo.
// Measures: the time to write TOTAL comments of COMMENT_LEN characters, for 1, 10, 100, 1000,
//           10000 comments per blog (TOTAL/n blogs): embedded (insert each blog, then $push its
//           comments one update at a time) and separate (insert each comment as its own document
//           in blog.comments); with unacknowledged writes (the article's default) and with
//           acknowledged ones (the article's safe=True). Each cell (mode × layout × comments per
//           blog) is timed in ROUNDS blocks, each from empty collections, from before its loop to
//           after it; a cell's time is the sum of its blocks' times.
// Writes:   pymongo's Connection sent every write without waiting unless safe=True, on one
//           socket, so its writes reached the server in order and its clock (time.time())
//           stopped when the last write was sent; safe=True waited for getLastError after each.
//           The kit gives each block a connection of its own (a pool of one, so a w:0 blog insert
//           cannot race the $push after it on another connection) and sends the unsafe table's
//           writes with w:0 where the server takes them (mongod): seconds is the article's clock,
//           appliedSeconds the time until a command sent after the last write on that connection
//           returned, which is once the server has applied them all. A server that answers w:0
//           writes (FerretDB 1.24) gets w:1 in the unsafe table too, and every JSON line says
//           which (writeConcern, unacknowledged); the safe table is w:1 everywhere.
// Faithful: the article's loops (each block runs them over its share of the blogs), documents
//           ({_id: c, title: 'Mongodb Benchmark'}, {comment: 'a' * 1000}), counts (count =
//           TOTAL / n), timing points and printed tables (the unsafe table, then the safe one;
//           embedded, then separate). Its quirk too: insert_embbded_comments inserts the blog
//           without safe=, so even the safe run inserts blogs unacknowledged and only the $push
//           is acknowledged. seconds is the article's clock (new Date(), as time.time()).
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), not 'bench'.
//           - Paired rounds. The article timed each cell once, in a fixed order (every embedded
//             cell, then every separate one; the unsafe table, then the safe one), so a drift of
//             the machine fell on one side of each comparison. The kit cuts each cell's loop over
//             its blogs into ROUNDS blocks (roundShares) and runs ROUNDS rounds, each holding one
//             block of every cell (mode × layout × per blog) in an order drawn per round
//             (roundOrders, from SEED), and prints one JSON line per block: its round, its
//             position in the round, its cell, what it wrote and its clocks. Every block starts
//             from empty collections, as every cell of the article did, so the blocks of each
//             comparison see the same state whichever round they fall in. A cell's line and the
//             tables add up its blocks: its seconds is the sum of its blocks' seconds, not one
//             Date() around its whole loop.
//           - Warm-up (WARMUP, true unless set false): before round 1, a warm-up round, one block
//             of every cell in round 1's order, writing round 1's share of the cell's blogs from
//             empty collections like any block, timed and printed with warmup true and counted in
//             no cell's sum or table: round 1 no longer pays alone for a cell's first writes on a
//             fresh connection and the server's first touch of each write path (the paired rounds
//             of the first quiet runs found round 1 among the two slowest of its cell more often
//             than chance). Every block starts from empty collections, so the warm-up leaves the
//             rounds' state as it was. A write refused in a warm-up block ends nothing: round 1
//             runs and says so itself.
//           - At least one blog a block: a cell of fewer blogs than ROUNDS writes ROUNDS blogs,
//             one a block, so ROUNDS × n comments instead of TOTAL (with ROUNDS 8, the article's
//             10000-per-blog cells write 80,000 comments into 8 blogs; at TOTAL 1,000 the
//             1000-per-blog cells write 8,000). Its column's label gives the blogs it wrote,
//             10000(x8). Its time per comment compares with the other cells'; its time does not
//             compare with the article's.
//           - The article dropped the database before every cell; the kit drops a block's two
//             collections and creates the one it writes before the block's clock starts: ROUNDS
//             blocks would otherwise pay ROUNDS collection creations inside their clocks (about
//             15 ms each on FerretDB 2.7, a tenth of a small block), where the article's cell
//             paid one. Dropping collections leaves the kit's ownership mark in the database and
//             needs no dropDatabase privilege.
//           - w:0 / w:1 write concerns on insertOne/updateOne for pymongo's safe=False/True
//             (getLastError after each write); the same single-document writes.
//           - A write the server refuses (a blog past the 16 MB limit, or a server's own limit)
//             ends its cell: its blocks in later rounds are not run, and the cell is recorded as
//             {refused: true, reason} instead of a crash.
//           - After each block (untimed) the script counts what it wrote and the largest blog
//             document's size ($bsonSize where the server has it, else the shell's bsonsize());
//             the cell's line adds up its blocks' counts, gives its largest blog, and says when
//             that is over the maxBsonObjectSize the server announces (FerretDB 1.24 on SQLite
//             accepted $push into a 20 MB document).
//           - Beside the Date clock, performance.now() (hrMs, appliedHrMs); one JSON line per
//             block and one per cell for the orchestrator. A block's line also gives the time it
//             spent outside its clocks (overheadMs: emptying and creating its collections,
//             opening and closing its connection, the counts after it).
// Sizes:    TOTAL comments per cell (the article's 10000); PER_BLOG, comments per blog, one cell
//           each (default 1, 10, 100 ... up to TOTAL: the article's (1, 10, 100, 1000, 10000));
//           COMMENT_LEN characters per comment (1000). MODES ['unsafe', 'safe'] runs both tables.
//           ROUNDS, the paired rounds each cell is cut into (8); SEED fixes their order; WARMUP
//           (true: a warm-up round first).

if (typeof TOTAL === 'undefined') var TOTAL = 10000;
if (typeof COMMENT_LEN === 'undefined') var COMMENT_LEN = 1000;
if (typeof PER_BLOG === 'undefined') var PER_BLOG = null;
if (typeof MODES === 'undefined') var MODES = ['unsafe', 'safe'];
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_embedded_comments';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;

db = db.getSiblingDB(DB_NAME);

var SCENARIO = 'embedded-comments';
var COLLECTIONS = ['blog', 'blog.comments'];

function powersOfTenUpTo(n) {
  var list = [];
  for (var p = 1; p <= n; p *= 10) list.push(p);
  return list;
}
var perBlogList = PER_BLOG || powersOfTenUpTo(TOTAL);
perBlogList.forEach(function (n) {
  if (!(n >= 1) || TOTAL % n !== 0) throw new Error('PER_BLOG ' + n + ' does not divide TOTAL ' + TOTAL + ': every cell writes TOTAL comments');
});
MODES.forEach(function (name) {
  if (name !== 'unsafe' && name !== 'safe') throw new Error('MODES holds ' + name + ': only unsafe and safe');
});
if (!(ROUNDS >= 1) || ROUNDS % 1 !== 0) throw new Error('ROUNDS is ' + ROUNDS + ': a whole number of rounds, 1 or more');

function pad(text, width) {
  text = String(text);
  while (text.length < width) text = ' ' + text;
  return text;
}

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

// --- embedded-comments cells: the pure part, run by test/unit.test.js ---
// A cell is one mode × layout × comments per blog; a block, one round's share of its blogs.

/** Every cell, in the article's order: each mode's table, its embedded row then its separate one. */
function cellsOf(modes, perBlogs) {
  var cells = [];
  modes.forEach(function (mode) {
    ['embedded', 'separate'].forEach(function (layout) {
      perBlogs.forEach(function (n) { cells.push({ mode: mode, layout: layout, perBlog: n }); });
    });
  });
  return cells;
}

function cellKey(cell) {
  return cell.mode + ' ' + cell.layout + ' ' + cell.perBlog;
}

/**
 * A cell's blogs in all: the article's TOTAL / n, or one a round where that is fewer than the
 * rounds (a round without a block of every cell pairs nothing).
 */
function blogsInAll(total, perBlog, rounds) {
  return Math.max(total / perBlog, rounds);
}

/** Each round's blogs of a cell, [from, to) of the article's blog numbers (its _id c), none empty. */
function blockShares(total, perBlog, rounds) {
  return roundShares(blogsInAll(total, perBlog, rounds), rounds);
}

/** Sums of times printed to the ms (the Date clock) or to the µs (hrMs), without float dust. */
function sumTo(values, places) {
  var scale = Math.pow(10, places);
  return Math.round(values.reduce(function (n, v) { return n + v; }, 0) * scale) / scale;
}

/**
 * A cell's figures from its blocks' lines: blogs, comments, clocks and counts summed; refused
 * where a block was (its clocks then null), complete where every block was, its largest blog.
 */
function cellSums(blocks) {
  var of = function (field) { return blocks.map(function (b) { return b[field]; }); };
  var refusal = blocks.filter(function (b) { return b.refused; })[0] || null;
  var bytes = of('documentBytes').filter(function (v) { return typeof v === 'number'; });
  return {
    blocks: blocks.length,
    blogs: sumTo(of('blogs'), 0),
    comments: sumTo(of('comments'), 0),
    seconds: refusal ? null : sumTo(of('seconds'), 3),
    hrMs: sumTo(of('hrMs'), 3),
    appliedSeconds: refusal ? null : sumTo(of('appliedSeconds'), 3),
    appliedHrMs: refusal ? null : sumTo(of('appliedHrMs'), 3),
    writtenBlogs: sumTo(of('writtenBlogs'), 0),
    writtenComments: sumTo(of('writtenComments'), 0),
    complete: blocks.length > 0 && blocks.every(function (b) { return b.complete; }),
    refused: Boolean(refusal),
    reason: refusal ? refusal.reason : null,
    documentBytes: bytes.length ? Math.max.apply(null, bytes) : null
  };
}
// --- end embedded-comments cells ---

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
// ---- what was written -----------------------------------------------------------------------

var sizeOperator = null; // whether aggregate knows $size; FerretDB 1.24 does not
function embeddedWritten() {
  var blogs = db.blog.countDocuments({});
  if (sizeOperator !== false) {
    try {
      var r = db.blog.aggregate([{ $group: { _id: null, comments: { $sum: { $size: { $ifNull: ['$comments', []] } } } } }]).toArray();
      sizeOperator = true;
      return { blogs: blogs, comments: r.length ? Number(r[0].comments) : 0 };
    } catch (e) {
      sizeOperator = false;
    }
  }
  var comments = 0;
  db.blog.find({}, { comments: 1 }).forEach(function (b) { comments += (b.comments || []).length; });
  return { blogs: blogs, comments: comments };
}

function separateWritten() {
  return { blogs: 0, comments: db.getCollection('blog.comments').countDocuments({}) };
}

// The limit the server announces (16 MB on MongoDB since 1.8), to tell when it was not enforced.
function announcedMaxDocumentBytes() {
  try { return db.hello().maxBsonObjectSize; } catch (e) { /* servers before 4.4.2 have no hello */ }
  try { return db.isMaster().maxBsonObjectSize; } catch (e) { return 16 * 1024 * 1024; }
}
var maxDocumentBytes = announcedMaxDocumentBytes();

var bsonSizeOperator = null;
function largestBlogBytes() {
  if (bsonSizeOperator !== false) {
    try {
      var r = db.blog.aggregate([{ $project: { bytes: { $bsonSize: '$$ROOT' } } }, { $sort: { bytes: -1 } }, { $limit: 1 }]).toArray();
      bsonSizeOperator = true;
      return r.length ? Number(r[0].bytes) : null;
    } catch (e) {
      bsonSizeOperator = false;
    }
  }
  var largest = null;
  db.blog.find({}).forEach(function (b) { var s = bsonsize(b); if (largest === null || s > largest) largest = s; });
  return largest;
}

// ---- the article's two functions, over one block's blogs, on the block's own connection -----

function insertEmbeddedComments(target, n, commentLen, from, to, mode) {
  var commentText = 'a'.repeat(commentLen);
  var blogOptions = { writeConcern: mode.blogInsertConcern };
  var pushOptions = { writeConcern: mode.concern };
  var blogs = target.getCollection('blog');
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = from; c < to; c++) {
      var blog = { _id: c, title: 'Mongodb Benchmark' };
      blogs.insertOne(blog, blogOptions);
      for (var i = 0; i < n; i++) {
        blogs.updateOne({ _id: c }, { $push: { comments: { comment: commentText } } }, pushOptions);
      }
    }
  } catch (e) {
    refusal = e.message;
  }
  var end = new Date();
  var hrMs = performance.now() - t0;
  return { start: start, t0: t0, seconds: (end - start) / 1000, hrMs: hrMs, refusal: refusal };
}

function insertComments(target, n, commentLen, from, to, mode) {
  var commentText = 'a'.repeat(commentLen);
  var options = { writeConcern: mode.concern };
  var comments = target.getCollection('blog.comments');
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = from; c < to; c++) {
      for (var i = 0; i < n; i++) {
        comments.insertOne({ comment: commentText }, options);
      }
    }
  } catch (e) {
    refusal = e.message;
  }
  var end = new Date();
  var hrMs = performance.now() - t0;
  return { start: start, t0: t0, seconds: (end - start) / 1000, hrMs: hrMs, refusal: refusal };
}

// ---- one block, one cell, one table ---------------------------------------------------------

function round3(x) { return Math.round(x * 1000) / 1000; }

function dropCellCollections() {
  COLLECTIONS.forEach(function (name) { db.getCollection(name).drop(); });
}

function collectionOf(layout) { return layout === 'embedded' ? 'blog' : 'blog.comments'; }

/**
 * Round `round`'s block of a cell, from empty collections: the one it writes is created before
 * its clock starts, so no block times a collection's creation. Round 0, the warm-up, writes
 * round 1's share. Returns its JSON line.
 */
function runBlock(cell, round, position) {
  var mode = modes[cell.mode];
  var n = cell.perBlog;
  var share = blockShares(TOTAL, n, ROUNDS)[Math.max(0, round - 1)];
  var blogs = share[1] - share[0];
  var line = {
    scenario: SCENARIO, step: 'bench', round: round, rounds: ROUNDS, position: position, warmup: round === 0 || undefined,
    mode: mode.name, layout: cell.layout, perBlog: n, writeConcern: 'w:' + mode.concern.w, retryableWrites: false,
    blogs: blogs, comments: blogs * n
  };
  var began = performance.now();
  dropCellCollections();
  db.createCollection(collectionOf(cell.layout));
  var client = ownConnection();
  var target = client.getDB(DB_NAME);
  var run;
  var appliedHrMs;
  var appliedSeconds;
  try {
    run = cell.layout === 'embedded' ? insertEmbeddedComments(target, n, COMMENT_LEN, share[0], share[1], mode) : insertComments(target, n, COMMENT_LEN, share[0], share[1], mode);
    // the block is over when the server has applied its writes: answered after them on their connection
    barrier(client);
    appliedHrMs = performance.now() - run.t0;
    appliedSeconds = (new Date() - run.start) / 1000;
  } finally {
    closeConnection(client);
  }

  var written = cell.layout === 'embedded' ? embeddedWritten() : separateWritten();
  Object.assign(line, {
    seconds: run.refusal ? null : run.seconds,
    hrMs: round3(run.hrMs),
    appliedSeconds: run.refusal ? null : appliedSeconds,
    appliedHrMs: run.refusal ? null : round3(appliedHrMs),
    writtenBlogs: written.blogs, writtenComments: written.comments,
    complete: written.comments === line.comments && written.blogs === (cell.layout === 'embedded' ? blogs : 0),
    refused: Boolean(run.refusal), reason: run.refusal || null
  });
  if (cell.layout === 'embedded') line.documentBytes = largestBlogBytes();
  line.overheadMs = round3(performance.now() - began - appliedHrMs);
  return line;
}

function columnLabel(n) { return n + '(x' + blogsInAll(TOTAL, n, ROUNDS) + ')'; }

/** A cell's JSON line, as one reading of the article's table: its blocks added up. */
function cellRecord(cell) {
  var mode = modes[cell.mode];
  var n = cell.perBlog;
  var blocks = blocksOf[cellKey(cell)];
  var sums = cellSums(blocks);
  var blogs = blogsInAll(TOTAL, n, ROUNDS);
  var record = {
    scenario: SCENARIO, step: 'bench', mode: mode.name, writeConcern: 'w:' + mode.concern.w, retryableWrites: false,
    layout: cell.layout, collection: collectionOf(cell.layout),
    perBlog: n, blogs: blogs, column: columnLabel(n), comments: blogs * n, commentLength: COMMENT_LEN, blocks: sums.blocks,
    unacknowledged: writesNote(unacknowledged)
  };
  if (cell.layout === 'embedded') record.blogInsert = mode.blogInsertNote;
  Object.assign(record, {
    seconds: sums.seconds, hrMs: sums.hrMs, appliedSeconds: sums.appliedSeconds, appliedHrMs: sums.appliedHrMs,
    writtenBlogs: sums.writtenBlogs, writtenComments: sums.writtenComments, complete: sums.complete,
    refused: sums.refused, reason: sums.reason
  });
  if (record.refused && sums.blocks < ROUNDS) record.reason += ' (its blocks in the ' + (ROUNDS - sums.blocks) + ' rounds after were not run)';
  if (cell.layout === 'embedded') {
    var bytes = sums.documentBytes;
    record.documentBytes = bytes;
    record.documentSize = n + ' per blog: ' + (bytes === null ? 'none' : bytes.toLocaleString('en-US') + ' bytes') + ' (' + (bsonSizeOperator ? '$bsonSize' : 'bsonsize() in the shell') + ')' +
      (bytes > maxDocumentBytes ? ', over the server\'s maxBsonObjectSize of ' + maxDocumentBytes.toLocaleString('en-US') + ' bytes, which its updates did not enforce' : '');
  }
  if (record.refused) record.refusal = record.writeConcern + ': ' + record.reason;
  record.writeCheck = record.complete ? 'every cell wrote what it meant to' :
    mode.name + ' ' + cell.layout + ' ' + n + ' per blog: ' + record.writtenComments + ' of ' + record.comments + ' comments' +
    (cell.layout === 'embedded' ? ', ' + record.writtenBlogs + ' of ' + blogs + ' blogs' : '') + ' written';
  return record;
}

function cellText(record) {
  if (record.refused) return 'refused';
  if (!record.complete) return 'incomplete';
  return String(record.seconds);
}

/** One mode's table as the article printed it, then its cells' JSON lines. */
function printTable(mode) {
  print('===== ' + (mode.safe ? 'SAFE ' : '') + 'INSERT ' + TOTAL + ' comments =====' + (mode.note ? ' (' + mode.note + ')' : ''));
  print(pad('', 12) + ' ' + perBlogList.map(function (n) { return pad(columnLabel(n), 15); }).join(' '));
  var records = [];
  [['embedded', 'Embeded'], ['separate', 'Non-embeded']].forEach(function (row) {
    var cells = perBlogList.map(function (n) { return cellRecord({ mode: mode.name, layout: row[0], perBlog: n }); });
    print(pad(row[1], 12) + ' ' + cells.map(function (r) { return pad(cellText(r), 15); }).join(' '));
    if (!mode.safe) {
      print(pad('applied', 12) + ' ' + cells.map(function (r) { return pad(r.appliedSeconds == null ? '–' : String(r.appliedSeconds), 15); }).join(' '));
    }
    records = records.concat(cells);
  });
  // The measurements after the table, so the table reads as the article printed it.
  records.forEach(function (r) { print(JSON.stringify(r)); });
}

var unacknowledged = unacknowledgedWrites(DB_NAME);
print('unacknowledged (w:0) writes ' + unacknowledged.outcome + ': ' + unacknowledged.reason);
var UNSAFE = { w: unacknowledged.w };
var SAFE = { w: 1 };
var blogInsertNote = unacknowledged.w === 0 ? 'w:0 in both tables, as the article (its blog insert() has no safe=)' : 'w:1 in both tables: this server answers w:0 writes (the article inserted blogs unacknowledged)';
var modes = {};
MODES.forEach(function (name) {
  var safe = name === 'safe';
  modes[name] = {
    name: name, safe: safe, concern: safe ? SAFE : UNSAFE, blogInsertConcern: UNSAFE, blogInsertNote: blogInsertNote,
    note: !safe && unacknowledged.w !== 0 ? 'w:1: this server answers w:0 writes' : null
  };
});

// The rounds: each runs one block of every cell, in its drawn order, and prints the block's line.
var cells = cellsOf(MODES, perBlogList);
var blocksOf = {};
cells.forEach(function (cell) { blocksOf[cellKey(cell)] = []; });
var blocksDone = 0;
var runs = roundsToRun(roundOrders(cells, ROUNDS, SEED), WARMUP);
runs.forEach(function (run) {
  run.order.forEach(function (cell, i) {
    var blocks = blocksOf[cellKey(cell)];
    // a refused write ends its cell: a blog too large in one round is as large in the next
    if (!blocks.some(function (b) { return b.refused; })) {
      var line;
      try {
        line = runBlock(cell, run.round, i + 1);
      } catch (e) {
        // The other cells still count; this one says what went wrong.
        var share = blockShares(TOTAL, cell.perBlog, ROUNDS)[Math.max(0, run.round - 1)];
        line = {
          scenario: SCENARIO, step: 'bench', round: run.round, rounds: ROUNDS, position: i + 1, warmup: run.warmup || undefined, mode: cell.mode, layout: cell.layout, perBlog: cell.perBlog,
          writeConcern: 'w:' + modes[cell.mode].concern.w, retryableWrites: false, blogs: share[1] - share[0], comments: (share[1] - share[0]) * cell.perBlog,
          seconds: null, hrMs: null, appliedSeconds: null, appliedHrMs: null, complete: false, refused: true, reason: 'the script failed: ' + e.message
        };
      }
      // the warm-up's blocks are printed and counted in no cell
      if (!run.warmup) blocks.push(line);
      print(JSON.stringify(line));
    }
    blocksDone++;
    if (PROGRESS) print(JSON.stringify({ progress: blocksDone, of: cells.length * runs.length }));
  });
});

MODES.forEach(function (name) { printTable(modes[name]); });
dropCellCollections();
