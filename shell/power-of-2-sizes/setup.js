// mongo-classics · power-of-2-sizes · setup.js
// Article:  "MongoDB. Comprobando el rendimiento de usePowerOf2Sizes", charlascylon.com, 2014
//           (shared/seeds/000_afd7a680bdde55cf.txt). MongoDB 2.4 / 2.6-rc era, MMAPv1.
// Measures: the time to insert documents _id 0..DOCS-1 into noPowerOf2Sizes and powerOf2Sizes,
//           one insert at a time, each timed on its own and summed per collection.
// Faithful: getRandomInt; foo built by the article's loop, whose bound getRandomInt(1,10) is
//           re-drawn on every iteration (so short arrays are likelier than 1..10 uniform);
//           the same array goes to both collections; new Date() sums per operation; the
//           article's printed lines "noPowerOf2 <ms>" and "powerOf2 <ms>".
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), not the user's current one,
//             so a paste never writes into a database the kit does not own.
//           - collMod usePowerOf2Sizes is tried and its outcome recorded: WiredTiger (MongoDB
//             3.0+) allocates no padding and MongoDB 4.2+ refuses the option; FerretDB has no
//             collMod. The collection is used as it is either way.
//           - insertOne for the shell's deprecated insert(): the same single-document write.
//           - Beside the article's Date sum (whole milliseconds per operation, so sub-ms
//             operations count as 0 or 1), a performance.now() sum of the same operations.
//           - Prints one JSON line per collection for the orchestrator; SEED swaps Math.random
//             for a seeded generator so two runs send the same operations (default: Math.random).
// Sizes:    DOCS is the number of documents (the article's i<=1000000 loop makes 1,000,001).

if (typeof DOCS === 'undefined') var DOCS = 1000001;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_power_of_2_sizes';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;

db = db.getSiblingDB(DB_NAME);

// mulberry32: small, fast and good enough to make a run repeatable; not used unless SEED is set.
var random = SEED === null ? Math.random : (function (a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})(SEED);

function getRandomInt(min, max) {
  return Math.floor(random() * (max - min + 1)) + min;
}

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

db.createCollection('noPowerOf2Sizes');
db.createCollection('powerOf2Sizes');
var powerOf2 = tryUsePowerOf2Sizes('powerOf2Sizes');
print('usePowerOf2Sizes ' + powerOf2.outcome + (powerOf2.reason ? ': ' + powerOf2.reason : ''));

var myArray;
var startDate;
var t0;
var noPowerOf2Milliseconds = 0;
var powerOf2Milliseconds = 0;
var noPowerOf2HrMilliseconds = 0;
var powerOf2HrMilliseconds = 0;
var progressEvery = Math.max(1, Math.floor(DOCS / 100));

for (var i = 0; i < DOCS; i++) {
  myArray = new Array();
  for (var a = 0; a < getRandomInt(1, 10); a++) {
    myArray[a] = getRandomInt(1, 10) * getRandomInt(1, 50);
  }

  startDate = new Date(); t0 = performance.now();
  db.noPowerOf2Sizes.insertOne({ _id: i, foo: myArray });
  noPowerOf2HrMilliseconds += performance.now() - t0;
  noPowerOf2Milliseconds += Math.abs(new Date() - startDate);

  startDate = new Date(); t0 = performance.now();
  db.powerOf2Sizes.insertOne({ _id: i, foo: myArray });
  powerOf2HrMilliseconds += performance.now() - t0;
  powerOf2Milliseconds += Math.abs(new Date() - startDate);

  if (PROGRESS && (i + 1) % progressEvery === 0) print(JSON.stringify({ progress: i + 1, of: DOCS }));
}

print('noPowerOf2 ' + noPowerOf2Milliseconds);
print('powerOf2 ' + powerOf2Milliseconds);
print('');

[['noPowerOf2Sizes', noPowerOf2Milliseconds, noPowerOf2HrMilliseconds],
 ['powerOf2Sizes', powerOf2Milliseconds, powerOf2HrMilliseconds]].forEach(function (c) {
  print(JSON.stringify({
    scenario: 'power-of-2-sizes', step: 'setup', collection: c[0],
    ms: c[1], hrMs: Math.round(c[2] * 1000) / 1000,
    ops: { inserts: DOCS }, inserted: DOCS, removed: 0,
    usePowerOf2Sizes: c[0] === 'powerOf2Sizes' ? powerOf2 : null
  }));
});
