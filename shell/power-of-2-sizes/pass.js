// mongo-classics · power-of-2-sizes · pass.js
// Article:  "MongoDB. Comprobando el rendimiento de usePowerOf2Sizes", charlascylon.com, 2014
//           (shared/seeds/000_afd7a680bdde55cf.txt). MongoDB 2.4 / 2.6-rc era, MMAPv1.
// Measures: one pass of the article's churn on noPowerOf2Sizes and powerOf2Sizes: random
//           updates that grow foo, random removes, then inserts after the highest _id; every
//           operation timed on its own and summed per collection. The article ran this 21
//           times and read stats().size after each pass (the orchestrator does that part).
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
//           - A performance.now() sum beside the Date sum; tallies of documents matched,
//             removed and inserted so counts can be checked; one JSON line per collection;
//             SEED as in setup.js.
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

// mulberry32, as in setup.js; a pass offsets the seed so passes differ but repeat.
var random = SEED === null ? Math.random : (function (a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})(SEED + 7919 * (PASS || 0));

function getRandomInt(min, max) {
  return Math.floor(random() * (max - min + 1)) + min;
}

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

var startDate;
var t0;
var res;
var noPowerOf2Milliseconds = 0;
var powerOf2Milliseconds = 0;
var noPowerOf2HrMilliseconds = 0;
var powerOf2HrMilliseconds = 0;
var tally = {
  noPowerOf2Sizes: { matched: 0, removed: 0, inserted: 0 },
  powerOf2Sizes: { matched: 0, removed: 0, inserted: 0 }
};
var myArray;
var totalOps = UPDATES + REMOVES + INSERTS;
var progressEvery = Math.max(1, Math.floor(totalOps / 100));
function progress(done) {
  if (PROGRESS && done % progressEvery === 0) print(JSON.stringify({ progress: done, of: totalOps }));
}
var lastElement = db.powerOf2Sizes.find().sort({ _id: -1 }).limit(1).toArray()[0]._id;

for (var i = 0; i < UPDATES; i++) {
  var objectToUpdate = getRandomInt(0, lastElement);
  myArray = new Array();
  for (var a = 0; a < getRandomInt(1, 10); a++) {
    myArray[a] = getRandomInt(1, 10) * getRandomInt(1, 50);
  }

  startDate = new Date(); t0 = performance.now();
  res = db.noPowerOf2Sizes.updateOne({ _id: objectToUpdate }, pushUpdate(myArray));
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.noPowerOf2Sizes.matched += res.matchedCount;

  startDate = new Date(); t0 = performance.now();
  res = db.powerOf2Sizes.updateOne({ _id: objectToUpdate }, pushUpdate(myArray));
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.powerOf2Sizes.matched += res.matchedCount;

  progress(i + 1);
}

for (var d = 0; d < REMOVES; d++) {
  var objectToRemove = getRandomInt(0, lastElement);

  startDate = new Date(); t0 = performance.now();
  res = db.noPowerOf2Sizes.deleteOne({ _id: objectToRemove });
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.noPowerOf2Sizes.removed += res.deletedCount;

  startDate = new Date(); t0 = performance.now();
  res = db.powerOf2Sizes.deleteOne({ _id: objectToRemove });
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.powerOf2Sizes.removed += res.deletedCount;

  progress(UPDATES + d + 1);
}

for (var j = lastElement + 1; j <= lastElement + INSERTS; j++) {
  myArray = new Array();
  for (var p = 0; p < getRandomInt(1, 10); p++) {
    myArray[p] = getRandomInt(1, 10) * getRandomInt(1, 50);
  }

  startDate = new Date(); t0 = performance.now();
  db.noPowerOf2Sizes.insertOne({ _id: j, foo: myArray });
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.noPowerOf2Sizes.inserted++;

  startDate = new Date(); t0 = performance.now();
  db.powerOf2Sizes.insertOne({ _id: j, foo: myArray });
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);
  tally.powerOf2Sizes.inserted++;

  progress(UPDATES + REMOVES + (j - lastElement));
}

print('noPowerOf2 ' + noPowerOf2Milliseconds);
print('powerOf2 ' + powerOf2Milliseconds);
print('');

[['noPowerOf2Sizes', noPowerOf2Milliseconds, noPowerOf2HrMilliseconds],
 ['powerOf2Sizes', powerOf2Milliseconds, powerOf2HrMilliseconds]].forEach(function (c) {
  var t = tally[c[0]];
  print(JSON.stringify({
    scenario: 'power-of-2-sizes', step: 'pass', pass: PASS, collection: c[0],
    ms: c[1], hrMs: Math.round(c[2] * 1000) / 1000,
    ops: { updates: UPDATES, removes: REMOVES, inserts: INSERTS },
    matched: t.matched, removed: t.removed, inserted: t.inserted, pushOperator: operator
  }));
});
