// mongo-classics · embedded-comments · bench.js
// Article:  "Mongodb内嵌文档插入性能评测" (insert performance of embedded documents), marlonyao,
//           iteye.com, 2012 (shared/seeds/001_5d3979a17deed5ea.txt). MongoDB 1.8, Python/pymongo.
// Measures: the time to write TOTAL comments of COMMENT_LEN characters, for 1, 10, 100, 1000,
//           10000 comments per blog (TOTAL/n blogs): embedded (insert each blog, then $push its
//           comments one update at a time) and separate (insert each comment as its own document
//           in blog.comments); first with unacknowledged writes (the article's default), then
//           with acknowledged ones (the article's safe=True). The database is dropped before
//           every cell; each cell is timed from before its loop to after it.
// Faithful: the article's loops, documents ({_id: c, title: 'Mongodb Benchmark'}, {comment:
//           'a' * 1000}), counts (count = TOTAL / n), order (every embedded cell, then every
//           separate cell; the unsafe table, then the safe one), timing points and printed
//           tables. Its quirk too: insert_embbded_comments inserts the blog without safe=, so
//           even the safe run inserts blogs unacknowledged and only the $push is acknowledged.
//           seconds is the article's clock (new Date(), as time.time(); for w:0 that is when
//           the last write was sent).
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), not 'bench'.
//           - w:0 / w:1 write concerns on insertOne/updateOne for pymongo's safe=False/True
//             (getLastError after each write); the same single-document writes.
//           - An unacknowledged cell is not over when its last write is sent: the script polls,
//             from the same shell, the blogs and comments written (sum of array lengths) or the
//             comments counted, every POLL_MS, until they reach what the cell wrote, and reports
//             that time as appliedSeconds beside the article's seconds. Polling, because a
//             "no-op with w:1 on the same connection" cannot be relied on from mongosh: its
//             writes go through a connection pool, so the no-op may take another connection.
//             If nothing more is applied for STALL_MS the cell is recorded as incomplete.
//           - Modern drivers send w:0 writes fire-and-forget (OP_MSG moreToCome). A server that
//             answers them anyway (FerretDB 1.x) makes the driver drop the connection and the
//             writes queued behind are lost. A probe of PROBE_WRITES w:0 inserts on a throwaway
//             connection tells; where it loses writes, the unacknowledged cells are recorded as
//             refused with the evidence, and the safe run's blog inserts are acknowledged (the
//             record says which was used).
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
if (typeof POLL_MS === 'undefined') var POLL_MS = 10;
if (typeof STALL_MS === 'undefined') var STALL_MS = 30000;
if (typeof PROBE_WRITES === 'undefined') var PROBE_WRITES = 64;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_embedded_comments';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;

db = db.getSiblingDB(DB_NAME);

var SCENARIO = 'embedded-comments';
var UNACKNOWLEDGED = { w: 0 };
var ACKNOWLEDGED = { w: 1 };

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

// ---- what the server does with fire-and-forget writes -------------------------------------

// A throwaway connection for w:0 probes: a server that answers fire-and-forget writes leaves
// replies on it that no one asked for, and they must not reach the shell's own connection.
function throwawayDb() {
  try {
    var client = new Mongo(db.getMongo().getURI());
    return { db: client.getDB(DB_NAME), close: function () { try { client.close(); } catch (e) { /* already dropped */ } } };
  } catch (e) {
    return null;
  }
}

// Two checks: whether the server answers a w:0 write (a ping after it, on the same connection,
// then gets the insert's reply {n: 1}), and whether PROBE_WRITES w:0 inserts are all applied.
function probeUnacknowledgedWrites() {
  var probe = db.getCollection('unacknowledgedProbe');
  probe.drop();
  var first = throwawayDb();
  var second = throwawayDb();
  if (!first || !second) return { outcome: 'refused', reason: 'no second connection to probe w:0 writes on (new Mongo() failed)' };
  var answered = null;
  var applied = 0;
  var sent = 0;
  try {
    first.db.getCollection('unacknowledgedProbe').insertOne({ _id: 'reply-check' }, { writeConcern: UNACKNOWLEDGED });
    sleep(100);
    var reply = first.db.runCommand({ ping: 1 });
    if (reply.n !== undefined) answered = JSON.stringify(reply);
  } catch (e) {
    answered = e.message;
  }
  try {
    for (var i = 0; i < PROBE_WRITES; i++) {
      second.db.getCollection('unacknowledgedProbe').insertOne({ _id: i }, { writeConcern: UNACKNOWLEDGED });
      sent++;
    }
  } catch (e) { /* counted below */ }
  first.close();
  try {
    applied = waitForApplied(function () { return probe.countDocuments({ _id: { $type: 'number' } }); }, PROBE_WRITES, Math.min(STALL_MS, 3000)).value;
  } catch (e) { /* a count that fails is no evidence that the writes were applied */ }
  second.close();
  probe.drop();
  var counted = applied + ' of ' + PROBE_WRITES + ' probe w:0 inserts applied';
  if (answered === null && applied === PROBE_WRITES) return { outcome: 'measured', reason: counted };
  return {
    outcome: 'refused',
    reason: (answered === null ? '' : 'the server answers fire-and-forget (OP_MSG moreToCome) writes: a ping after a w:0 insert got ' + answered + '; ') +
      counted + '. The driver reads such replies out of step or drops the connection, and the writes queued behind are lost'
  };
}

// Polls progress() until it reaches target; gives up when it has not moved for stallMs.
function waitForApplied(progress, target, stallMs) {
  var value = progress();
  var lastChange = performance.now();
  while (value < target) {
    sleep(POLL_MS);
    var next = progress();
    if (next !== value) { value = next; lastChange = performance.now(); } else if (performance.now() - lastChange > stallMs) break;
  }
  return { value: value, complete: value >= target };
}

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

// The total of both, so a poll sees any progress at all.
function embeddedProgress() {
  var w = embeddedWritten();
  return w.blogs + w.comments;
}

function separateWritten() {
  return { blogs: 0, comments: db.getCollection('blog.comments').countDocuments({}) };
}

// The limit the server announces (16 MB on MongoDB since 1.8), to tell when it was not enforced.
var maxDocumentBytes = (function () {
  try { return db.hello().maxBsonObjectSize; } catch (e) { /* servers before 4.4.2 have no hello */ }
  try { return db.isMaster().maxBsonObjectSize; } catch (e) { return 16 * 1024 * 1024; }
})();

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

// ---- the article's two functions ------------------------------------------------------------

function insertEmbeddedComments(n, commentLen, count, mode) {
  var commentText = 'a'.repeat(commentLen);
  var pushConcern = mode.safe ? ACKNOWLEDGED : UNACKNOWLEDGED;
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = 0; c < count; c++) {
      var blog = { _id: c, title: 'Mongodb Benchmark' };
      db.blog.insertOne(blog, { writeConcern: mode.blogInsertConcern });
      for (var i = 0; i < n; i++) {
        db.blog.updateOne({ _id: c }, { $push: { comments: { comment: commentText } } }, { writeConcern: pushConcern });
      }
    }
  } catch (e) {
    refusal = e.message;
  }
  var end = new Date();
  var hrMs = performance.now() - t0;
  return { start: start, t0: t0, seconds: (end - start) / 1000, hrMs: hrMs, refusal: refusal };
}

function insertComments(n, commentLen, count, mode) {
  var commentText = 'a'.repeat(commentLen);
  var concern = mode.safe ? ACKNOWLEDGED : UNACKNOWLEDGED;
  var refusal = null;
  var start = new Date();
  var t0 = performance.now();
  try {
    for (var c = 0; c < count; c++) {
      for (var i = 0; i < n; i++) {
        db.getCollection('blog.comments').insertOne({ comment: commentText }, { writeConcern: concern });
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

function runCell(mode, layout, n) {
  db.dropDatabase();
  var count = TOTAL / n;
  var record = {
    scenario: SCENARIO, step: 'bench', mode: mode.name, writeConcern: mode.safe ? 'w:1' : 'w:0',
    layout: layout, collection: layout === 'embedded' ? 'blog' : 'blog.comments',
    perBlog: n, blogs: count, column: columnLabel(n), comments: TOTAL, commentLength: COMMENT_LEN,
    unacknowledged: unacknowledged
  };
  if (layout === 'embedded') record.blogInsert = mode.blogInsertNote;

  if (!mode.safe && unacknowledged.outcome !== 'measured') {
    return Object.assign(record, { seconds: null, appliedSeconds: null, refused: true, reason: unacknowledged.reason, refusal: 'w:0: every cell, as the probe found (see unacknowledged writes)', complete: null });
  }

  var run = layout === 'embedded' ? insertEmbeddedComments(n, COMMENT_LEN, count, mode) : insertComments(n, COMMENT_LEN, count, mode);
  var appliedHrMs = run.hrMs;
  var appliedSeconds = run.seconds;
  var stalled = false;
  if (!mode.safe && !run.refusal) {
    var target = layout === 'embedded' ? count + TOTAL : TOTAL;
    var progress = layout === 'embedded' ? embeddedProgress : function () { return separateWritten().comments; };
    var wait = waitForApplied(progress, target, STALL_MS);
    appliedHrMs = performance.now() - run.t0;
    appliedSeconds = (new Date() - run.start) / 1000;
    stalled = !wait.complete;
  }

  var written = layout === 'embedded' ? embeddedWritten() : separateWritten();
  var complete = written.comments === TOTAL && written.blogs === (layout === 'embedded' ? count : 0);
  Object.assign(record, {
    seconds: run.refusal ? null : run.seconds,
    hrMs: round3(run.hrMs),
    appliedSeconds: run.refusal || stalled ? null : appliedSeconds,
    appliedHrMs: run.refusal || stalled ? null : round3(appliedHrMs),
    writtenBlogs: written.blogs, writtenComments: written.comments, complete: complete,
    refused: Boolean(run.refusal), reason: run.refusal || (stalled ? 'writes stopped being applied at ' + written.comments + ' of ' + TOTAL + ' comments' : null)
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
  print('===== ' + (mode.safe ? 'SAFE ' : '') + 'INSERT ' + TOTAL + ' comments =====');
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
        record = { scenario: SCENARIO, step: 'bench', mode: mode.name, writeConcern: mode.safe ? 'w:1' : 'w:0', layout: row[0], perBlog: n, blogs: TOTAL / n, column: columnLabel(n), comments: TOTAL, seconds: null, refused: true, reason: 'the script failed: ' + e.message, complete: false };
        record.refusal = record.writeConcern + ': ' + record.reason;
      }
      cells.push(record);
      cellsDone++;
      if (PROGRESS) print(JSON.stringify({ progress: cellsDone, of: cellsInAll }));
    });
    print(pad(row[1], 12) + ' ' + cells.map(function (r) { return pad(cellText(r), 15); }).join(' '));
    if (!mode.safe && cells.some(function (r) { return r.appliedSeconds != null; })) {
      print(pad('applied', 12) + ' ' + cells.map(function (r) { return pad(r.appliedSeconds == null ? '–' : String(r.appliedSeconds), 15); }).join(' '));
    }
    records = records.concat(cells);
  });
  // The measurements after the table, so the table reads as the article printed it.
  records.forEach(function (r) { print(JSON.stringify(r)); });
}

var unacknowledged = probeUnacknowledgedWrites();
print('unacknowledged (w:0) writes: ' + unacknowledged.outcome + ': ' + unacknowledged.reason);
var blogInsertConcern = unacknowledged.outcome === 'measured' ? UNACKNOWLEDGED : ACKNOWLEDGED;
var blogInsertNote = unacknowledged.outcome === 'measured'
  ? 'w:0 in both runs, as the article (its blog insert() has no safe=)'
  : 'w:1 in the safe run: this server loses w:0 writes (the article inserted blogs unacknowledged)';

MODES.forEach(function (name) {
  if (name !== 'unsafe' && name !== 'safe') throw new Error('MODES holds ' + name + ': only unsafe and safe');
  bench({ name: name, safe: name === 'safe', blogInsertConcern: blogInsertConcern, blogInsertNote: blogInsertNote });
});
db.dropDatabase();
