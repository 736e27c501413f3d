// mongo-classics · embedded-comments · bench.js
// Article:  "Mongodb内嵌文档插入性能评测" (insert performance of embedded documents), marlonyao's
//           blog on iteye.com, 2012 (its own address was not recovered; a repost is at
//           https://aiyiweb.com/sjkjc/53218). MongoDB 1.8, Python/pymongo.
// Measures: the time to write TOTAL comments of COMMENT_LEN characters, for 1, 10, 100, 1000,
//           10000 comments per blog (TOTAL/n blogs): embedded (insert each blog, then $push its
//           comments one update at a time) and separate (insert each comment as its own document
//           in blog.comments); first with unacknowledged writes (the article's default), then
//           with acknowledged ones (the article's safe=True). Each cell starts from empty
//           collections and is timed from before its loop to after it.
// Writes:   pymongo's Connection sent every write without waiting unless safe=True, on one
//           socket, so its writes reached the server in order and its clock (time.time())
//           stopped when the last write was sent; safe=True waited for getLastError after each.
//           The kit gives each cell a connection of its own (a pool of one, so a w:0 blog insert
//           cannot race the $push after it on another connection) and sends the unsafe table's
//           writes with w:0 where the server takes them (mongod): seconds is the article's clock,
//           appliedSeconds the time until a command sent after the last write on that connection
//           returned, which is once the server has applied them all. A server that answers w:0
//           writes (FerretDB 1.24) gets w:1 in the unsafe table too, and every JSON line says
//           which (writeConcern, unacknowledged); the safe table is w:1 everywhere.
// Faithful: the article's loops, documents ({_id: c, title: 'Mongodb Benchmark'}, {comment:
//           'a' * 1000}), counts (count = TOTAL / n), order (every embedded cell, then every
//           separate cell; the unsafe table, then the safe one), timing points and printed
//           tables. Its quirk too: insert_embbded_comments inserts the blog without safe=, so
//           even the safe run inserts blogs unacknowledged and only the $push is acknowledged.
//           seconds is the article's clock (new Date(), as time.time()).
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), not 'bench'.
//           - The article dropped the database before every cell; the kit drops the cell's two
//             collections, which leaves the kit's ownership mark in the database and needs no
//             dropDatabase privilege.
//           - w:0 / w:1 write concerns on insertOne/updateOne for pymongo's safe=False/True
//             (getLastError after each write); the same single-document writes.
//           - A write the server refuses (a blog past the 16 MB limit, or a server's own limit)
//             ends its cell, recorded as {refused: true, reason} instead of a crash.
//           - After each cell (untimed) the script counts what was written and the largest blog
//             document's size ($bsonSize where the server has it, else the shell's bsonsize()),
//             and says when that is over the maxBsonObjectSize the server announces (FerretDB
//             1.24 on SQLite accepted $push into a 20 MB document).
//           - Beside the Date clock, performance.now() (hrMs, appliedHrMs); one JSON line per
//             cell for the orchestrator. SEED is accepted and unused: the article draws nothing
//             at random.
// Sizes:    TOTAL comments per cell (the article's 10000); PER_BLOG, comments per blog, one cell
//           each (default 1, 10, 100 ... up to TOTAL: the article's (1, 10, 100, 1000, 10000));
//           COMMENT_LEN characters per comment (1000). MODES ['unsafe', 'safe'] runs both tables.

if (typeof TOTAL === 'undefined') var TOTAL = 10000;
if (typeof COMMENT_LEN === 'undefined') var COMMENT_LEN = 1000;
if (typeof PER_BLOG === 'undefined') var PER_BLOG = null;
if (typeof MODES === 'undefined') var MODES = ['unsafe', 'safe'];
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_embedded_comments';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;

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
function columnLabel(n) { return n + '(x' + (TOTAL / n) + ')'; }

function pad(text, width) {
  text = String(text);
  while (text.length < width) text = ' ' + text;
  return text;
}

// --- unacknowledged writes: the same text in every script that replays an article's w:0 writes (a test holds the copies equal) ---
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
// holds there as on a mongod; the probe below checks it on each server.

/** Why the timed writes could not be held to one mongos, once that was tried and failed. */
var notPinned = null;

/** Whether the shell reached a mongos (its hello says "isdbgrid"). */
function throughMongos() {
  var hello = null;
  try {
    hello = db.adminCommand({ hello: 1 });
  } catch (e) { /* a server before 4.4.2 knows only isMaster */ }
  if (!hello || !hello.ok) {
    try { hello = db.adminCommand({ isMaster: 1 }); } catch (e) { hello = null; }
  }
  return Boolean(hello && hello.msg === 'isdbgrid');
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

/**
 * A client with a pool of one connection to one server, connected before any clock starts. Where
 * it cannot be held to one mongos, it is the shell's own URI's, and notPinned says why: the probe
 * then refuses w:0, and acknowledged writes need no barrier.
 */
function ownConnection() {
  // the shell's own URI, with any pool size of its own replaced by one connection
  var own = db.getMongo().getURI().replace(/([?&])maxPoolSize=[^&]*(&|$)/i, '$1').replace(/[?&]$/, '');
  var open = function (uri) {
    var client = new Mongo(uri + (uri.indexOf('?') < 0 ? '?' : '&') + 'maxPoolSize=1');
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
 * counted. Returns { outcome: 'honoured' (w 0) or 'refused' (w 1), w, reason }.
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
      counted = probe.countDocuments({ _id: { $type: 'number' } });
    } catch (e) {
      counted = 'none (' + e.message + ')';
    }
    closeConnection(client);
  }
  try { db.getCollection(probeName).drop(); } catch (e) { /* nothing to drop */ }
  if (notPinned !== null) return { outcome: 'refused', w: 1, reason: notPinned + ': the timed writes wait for each answer (w:1)' };
  if (answered !== null) {
    return { outcome: 'refused', w: 1, reason: 'this server answers fire-and-forget (w:0) writes: a command sent after one got ' + answered + ', which desynchronises the driver, so the timed writes wait for each answer (w:1)' };
  }
  if (counted !== probes) {
    return { outcome: 'refused', w: 1, reason: counted + ' of ' + probes + ' w:0 inserts were there when a command sent after them on their connection returned, so the timed writes wait for each answer (w:1)' };
  }
  return { outcome: 'honoured', w: 0, reason: 'the timed writes are sent without waiting (w:0), as the article\'s were; ' + probes + ' such inserts were all applied when a command sent after them on their connection returned' };
}
// --- end unacknowledged writes ---

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
      return { bytes: r.length ? Number(r[0].bytes) : null, method: '$bsonSize' };
    } catch (e) {
      bsonSizeOperator = false;
    }
  }
  var largest = null;
  db.blog.find({}).forEach(function (b) { var s = bsonsize(b); if (largest === null || s > largest) largest = s; });
  return { bytes: largest, method: 'bsonsize() in the shell' };
}

// ---- the article's two functions, on the cell's own connection ------------------------------

function insertEmbeddedComments(target, n, commentLen, count, mode) {
  var commentText = 'a'.repeat(commentLen);
  var blogOptions = { writeConcern: mode.blogInsertConcern };
  var pushOptions = { writeConcern: mode.concern };
  var blogs = target.getCollection('blog');
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = 0; c < count; c++) {
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

function insertComments(target, n, commentLen, count, mode) {
  var commentText = 'a'.repeat(commentLen);
  var options = { writeConcern: mode.concern };
  var comments = target.getCollection('blog.comments');
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = 0; c < count; c++) {
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

// ---- one cell, one table --------------------------------------------------------------------

var cellsDone = 0;
var cellsInAll = MODES.length * 2 * perBlogList.length;

function round3(x) { return Math.round(x * 1000) / 1000; }

function dropCellCollections() {
  COLLECTIONS.forEach(function (name) { db.getCollection(name).drop(); });
}

function runCell(mode, layout, n) {
  dropCellCollections();
  var count = TOTAL / n;
  var record = {
    scenario: SCENARIO, step: 'bench', mode: mode.name, writeConcern: 'w:' + mode.concern.w,
    layout: layout, collection: layout === 'embedded' ? 'blog' : 'blog.comments',
    perBlog: n, blogs: count, column: columnLabel(n), comments: TOTAL, commentLength: COMMENT_LEN,
    unacknowledged: { outcome: unacknowledged.outcome, reason: unacknowledged.reason }
  };
  if (layout === 'embedded') record.blogInsert = mode.blogInsertNote;

  var client = ownConnection();
  var target = client.getDB(DB_NAME);
  var run;
  var appliedHrMs;
  var appliedSeconds;
  try {
    run = layout === 'embedded' ? insertEmbeddedComments(target, n, COMMENT_LEN, count, mode) : insertComments(target, n, COMMENT_LEN, count, mode);
    // the cell is over when the server has applied its writes: answered after them on their connection
    barrier(client);
    appliedHrMs = performance.now() - run.t0;
    appliedSeconds = (new Date() - run.start) / 1000;
  } finally {
    closeConnection(client);
  }

  var written = layout === 'embedded' ? embeddedWritten() : separateWritten();
  var complete = written.comments === TOTAL && written.blogs === (layout === 'embedded' ? count : 0);
  Object.assign(record, {
    seconds: run.refusal ? null : run.seconds,
    hrMs: round3(run.hrMs),
    appliedSeconds: run.refusal ? null : appliedSeconds,
    appliedHrMs: run.refusal ? null : round3(appliedHrMs),
    writtenBlogs: written.blogs, writtenComments: written.comments, complete: complete,
    refused: Boolean(run.refusal), reason: run.refusal || null
  });
  if (layout === 'embedded') {
    var size = largestBlogBytes();
    record.documentBytes = size.bytes;
    record.documentSize = n + ' per blog: ' + (size.bytes === null ? 'none' : size.bytes.toLocaleString('en-US') + ' bytes') + ' (' + size.method + ')' +
      (size.bytes > maxDocumentBytes ? ', over the server\'s maxBsonObjectSize of ' + maxDocumentBytes.toLocaleString('en-US') + ' bytes, which its updates did not enforce' : '');
  }
  if (record.refused) record.refusal = record.writeConcern + ': ' + record.reason;
  record.writeCheck = complete ? 'every cell wrote what it meant to' :
    mode.name + ' ' + layout + ' ' + n + ' per blog: ' + written.comments + ' of ' + TOTAL + ' comments' +
    (layout === 'embedded' ? ', ' + written.blogs + ' of ' + count + ' blogs' : '') + ' written';
  return record;
}

function cellText(record) {
  if (record.refused) return 'refused';
  if (!record.complete) return 'incomplete';
  return String(record.seconds);
}

function bench(mode) {
  print('===== ' + (mode.safe ? 'SAFE ' : '') + 'INSERT ' + TOTAL + ' comments =====' + (mode.note ? ' (' + mode.note + ')' : ''));
  print(pad('', 12) + ' ' + perBlogList.map(function (n) { return pad(columnLabel(n), 15); }).join(' '));
  var records = [];
  [['embedded', 'Embeded'], ['separate', 'Non-embeded']].forEach(function (row) {
    var cells = [];
    perBlogList.forEach(function (n) {
      var record;
      try {
        record = runCell(mode, row[0], n);
      } catch (e) {
        // The other cells still count; this one says what went wrong.
        record = { scenario: SCENARIO, step: 'bench', mode: mode.name, writeConcern: 'w:' + mode.concern.w, layout: row[0], perBlog: n, blogs: TOTAL / n, column: columnLabel(n), comments: TOTAL, seconds: null, refused: true, reason: 'the script failed: ' + e.message, complete: false };
        record.refusal = record.writeConcern + ': ' + record.reason;
      }
      cells.push(record);
      cellsDone++;
      if (PROGRESS) print(JSON.stringify({ progress: cellsDone, of: cellsInAll }));
    });
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

MODES.forEach(function (name) {
  if (name !== 'unsafe' && name !== 'safe') throw new Error('MODES holds ' + name + ': only unsafe and safe');
  var safe = name === 'safe';
  bench({
    name: name, safe: safe, concern: safe ? SAFE : UNSAFE, blogInsertConcern: UNSAFE, blogInsertNote: blogInsertNote,
    note: !safe && unacknowledged.w !== 0 ? 'w:1: this server answers w:0 writes' : null
  });
});
dropCellCollections();
