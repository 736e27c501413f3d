// mongo-classics · log-inserts · test2.js
// Article:  an Italian .NET blog post, 2010, logging 4 million tasks into MongoDB or SQL Server
//           (shared/seeds/004_9188dff6f6aeece5.txt; the kit's copy keeps neither its title nor its
//           site), with its update of 17 September 2010. MongoDB 1.6 era, a C# driver with a Linq
//           provider, SQL Server, a 4-core (8 with Hyper-Threading) machine.
// Measures: test 2, the article's Parallel.For: TEST2_ITERATIONS log records shared among
//           WORKERS shells, one connection each, all writing at once; timed from the first
//           shell's start to the last one's end: first with save (the article's first version,
//           an upsert), then with insert (the article's fix), each into a collection emptied
//           first. Pasted into one mongosh, it runs the whole test alone (WORKERS = 1).
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
//             the article deleted MongoDB's data files). The drop is before the Stopwatch starts.
//           - save is replaceOne({_id}, record, {upsert: true}); insert is insertOne. The 2010
//             driver's Save queried before it wrote (the article's update says so); an upsert by
//             _id is today's single-call form of that.
//           - LogType: mulberry32 (as in power-of-2-sizes/setup.js) seeded with the record's
//             Date.getTime(), not .NET's Random seeded with Ticks: the values differ, the quirk is
//             kept. JavaScript's clock ticks every millisecond where Windows' DateTime.Now of 2010
//             ticked about every 15.6 ms, so fewer records share a LogType here.
//           - Writes are acknowledged (today's default). The article does not say; C# drivers of
//             2010 did not wait for an acknowledgement unless asked (safe mode), which this kit
//             does not reproduce here.
//           - The article's message text was cut from the post: the full paragraph it starts
//             (865 characters, "about 800").
//           - Parallel.For's threads, one service (connection) each, are WORKERS mongosh shells
//             (the orchestrator's workers step; default one per core, as .NET's scheduler did).
//             Each takes an equal share of the iterations (Parallel.For balances them as it
//             goes). Shells start before the clock, so opening the connections is not timed
//             where the article's Stopwatch included it.
//           - The shells meet between phases (a document each in the rendezvous collection) so
//             save and insert never run at the same time and each phase starts on every shell
//             at one instant; shell 0 empties the collections before the first meeting.
//           - The time is the span from the first shell's start to the last one's end, on the
//             Date clock (the orchestrator combines the shells' startedAt/endedAt). Each shell's
//             performance.now() time of its own loop (hrMs) is kept in results.jsonl as a
//             worker line; clocks of separate processes are not combined.
//           - One JSON line per method and shell for the orchestrator; progress lines only
//             between the loops. SEED is accepted and unused: nothing here draws from a shared
//             generator (the _id is a random UUID, as Guid.NewGuid; LogType is seeded by the clock).
// Sizes:    TEST2_ITERATIONS log records per method, all shells together; the article's test 2
//           wrote 100,000. WORKER (0-based), WORKERS and START_AT (epoch ms when every shell
//           begins) come from the orchestrator; pasted alone, the script is shell 0 of 1. To run
//           it by hand in several shells, give each its WORKER, the same WORKERS and START_AT.

if (typeof TEST2_ITERATIONS === 'undefined') var TEST2_ITERATIONS = 100000;
if (typeof WORKER === 'undefined') var WORKER = 0;
if (typeof WORKERS === 'undefined') var WORKERS = 1;
if (typeof START_AT === 'undefined') var START_AT = null;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_log_inserts';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;

db = db.getSiblingDB(DB_NAME);

var TEST = 'test 2: parallel';
// Shell w takes every share of floor(N / W), and the first N % W shells one more.
var ITERATIONS = Math.floor(TEST2_ITERATIONS / WORKERS) + (WORKER < TEST2_ITERATIONS % WORKERS ? 1 : 0);
// Time for the slowest shell to see that all have met (each polls every 10 ms) before they start.
var MEET_MARGIN_MS = 300;

function newGuid() {
  return UUID();
}

// ---- the log record (the article's LogInfo): this block is the same, line for line, in every
// ---- script of shell/log-inserts/ and in its SQL baseline, sql-baseline.js
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

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
// ---- end of the log record

// The article's two MongoDB services: Log() builds a LogInfo and writes it.
var METHODS = {
  save: function (collection) {
    var info = newLogInfo();
    return collection.replaceOne({ _id: info._id }, info, { upsert: true }).upsertedCount;
  },
  insert: function (collection) {
    return collection.insertOne(newLogInfo()).acknowledged ? 1 : 0;
  }
};

function emptyCollection(name) {
  var before = db.getCollection(name).countDocuments({});
  db.getCollection(name).drop();
  return before;
}

// Every shell writes when it arrived and waits until all have; then each computes the same
// start instant from the arrival times, so no shell is told by another when to go. A meeting is
// named by the run's START_AT, so a later run's shells never meet an earlier run's.
function meetAllShells(phase) {
  if (WORKERS === 1) return;
  var meeting = String(START_AT) + ':' + phase;
  db.rendezvous.insertOne({ _id: meeting + ':' + WORKER, meeting: meeting, at: Date.now() });
  var arrivals;
  while ((arrivals = db.rendezvous.find({ meeting: meeting }).toArray()).length < WORKERS) sleep(10);
  var startAt = Math.max.apply(null, arrivals.map(function (a) { return a.at; })) + MEET_MARGIN_MS;
  if (startAt > Date.now()) sleep(startAt - Date.now());
}

var removed = { save: 0, insert: 0 };
if (WORKER === 0) {
  removed.save = emptyCollection('log_save');
  removed.insert = emptyCollection('log_insert');
}
if (START_AT !== null && START_AT > Date.now()) sleep(START_AT - Date.now());
meetAllShells('emptied');

var results = [];
['save', 'insert'].forEach(function (method, m) {
  if (m > 0) meetAllShells(method);
  var collectionName = 'log_' + method;
  var collection = db.getCollection(collectionName);
  var log = METHODS[method];
  var inserted = 0;

  var startedAt = Date.now(); var t0 = performance.now();
  for (var i = 0; i < ITERATIONS; i++) {
    inserted += log(collection);
  }
  var hrMs = performance.now() - t0; var endedAt = Date.now();

  print('MongoDB ' + method + ' (shell ' + WORKER + ' of ' + WORKERS + '): ' + (endedAt - startedAt) / 1000 + ' (created: 1)');
  results.push({
    scenario: 'log-inserts', test: TEST, method: method, collection: collectionName,
    iterations: TEST2_ITERATIONS, worker: WORKER, startedAt: startedAt, endedAt: endedAt,
    ms: endedAt - startedAt, hrMs: Math.round(hrMs * 1000) / 1000,
    inserted: inserted, removed: removed[method]
  });
  if (PROGRESS) print(JSON.stringify({ progress: m + 1, of: 2 }));
});
print('');
results.forEach(function (r) { print(JSON.stringify(r)); });
