// mongo-classics · many-keys · insert.js
// Article:  the untitled README of gist jmikola/8048099 (original-insert.php and bucket-insert.php),
//           December 2013, https://gist.github.com/jmikola/8048099 . MongoDB 2.4 era, MMAPv1, PHP.
// Measures: the time to insert the documents of both schemas, one insertOne at a time:
//           `original` holds KEYS counters side by side in stats.eventnames; `bucket` holds the
//           same counters under stats.eventnames.<first two hex digits of md5(key)>.
// Writes:   the article says w:0 only of its update scripts; PHP's MongoClient (driver 1.3 and
//           later, 2013) acknowledged writes by default, so the inserts here are acknowledged
//           (w:1), as the insert scripts' were unless they said otherwise. update.js replays
//           the w:0 updates.
// Faithful: the article's document shape and types: appver and g NumberLong(123456) (the
//           article's example values), deploytype "production", a v5-shaped guid, timeslice
//           {y,mo,d,h,m} of the insert time in local time with a two-digit year, random from
//           PHP's uniqid(), NumberLong counters starting at 0 and their sum in stats.events;
//           keys are one of three long common prefixes plus a number, key 0 being the article's
//           "baz-baz-baz-baz-baz-baz-0", which md5 puts in bucket "15" as in its bucket example;
//           documents built on demand, inside the timed loop, as the PHP scripts did.
// Changes:  - Runs in its own database (DB_NAME, prefix classics_), collections `original` and
//             `bucket`, where the article used one collection per script in `test`.
//           - One script inserts both schemas (the article had two); identities (guid) are drawn
//             in advance so document i of both collections is the same document.
//           - mongosh has no hex_md5: md5 comes from require('crypto').createHash('md5'). The
//             key list and each key's bucket are computed once before the timed loops; the PHP
//             scripts may have hashed inside them, which the article does not say.
//           - JavaScript orders integer-like keys ("15", "42") before the others, so bucket
//             order inside stats.eventnames differs from PHP's insertion order; the keys inside
//             each bucket keep theirs.
//           - The article published no insert time. This script sums, per document, building it
//             and insertOne (new Date() and performance.now()), and insertOne alone; progress
//             lines are printed outside those sums.
//           - After the inserts every document is read back (VERIFY) and checked: its identity,
//             every key exactly once (in its md5 bucket), every counter 0, stats.events 0. The
//             outcome goes into the JSON line; reading back costs time at the article's size.
//           - Both collections are dropped first, so a second paste starts as the first did.
//           - An index on the fields the update test finds its document by, { appver,
//             deploytype, g, guid, timeslice }, exists before the inserts. The article does not
//             say whether it had one, but its figures need it: without it every update scans all
//             2,000 documents (about 1.5 GB at ~770 KB each), yet its bucketed run applied up to
//             4,210 updates a second (0.24 ms each, finding the document included) and its
//             original one 1.8 ms per update, the cost it puts down to walking 20,000 keys. On
//             today's servers such a scan would swamp that cost (WiredTiger hands each 770 KB
//             document to the matcher; FerretDB decodes each one), so the kit indexes them and
//             update.js records the update's plan and keys examined.
//           - Each insertOne names its write concern, { w: 1 }: a write that names none gets
//             the server's default, w:majority on a replica set of 5.0 and later and on Atlas,
//             which waits for a majority of members and the journal, where PHP's w:1 did not.
//           - One JSON line per collection for the orchestrator; SEED swaps Math.random for a
//             seeded generator (default: Math.random).
// Sizes:    DOCS documents in `original` (2,000); BUCKET_DOCS in `bucket`: the article's text
//           says bucket-insert.php "creates 20,000 documents", but its update test finds "each
//           of the 2,000 documents" five times and 20,000 is its key count, so we read 20,000 as
//           a slip and default to 2,000 (set BUCKET_DOCS = 20000 for the literal reading; the
//           update test then touches the first DOCS of them). KEYS counters per document (20,000).

if (typeof DOCS === 'undefined') var DOCS = 2000;
if (typeof BUCKET_DOCS === 'undefined') var BUCKET_DOCS = 2000;
if (typeof KEYS === 'undefined') var KEYS = 20000;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_many_keys';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof VERIFY === 'undefined') var VERIFY = true;

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
// not used unless SEED is set
var random = SEED === null ? Math.random : mulberry32(SEED);

var crypto = require('crypto');
var PREFIXES = ['baz-baz-baz-baz-baz-baz-', 'foo-foo-foo-foo-foo-foo-', 'bar-bar-bar-bar-bar-bar-'];
// One Long instance per value: BSON writes the value, and 20,000 NumberLong() calls per
// document would time the shell, not the server.
var ZERO = NumberLong('0');
var APPVER = NumberLong('123456');
var G = NumberLong('123456');

function eventName(i) { return PREFIXES[i % PREFIXES.length] + i; }
function bucketOf(name) { return crypto.createHash('md5').update(name).digest('hex').substring(0, 2); }

function hex(digits) {
  var s = '';
  for (var i = 0; i < digits; i++) s += Math.floor(random() * 16).toString(16);
  return s;
}

// The article's guid is a version-5 UUID; only its shape matters to the benchmark.
function guid() {
  return hex(8) + '-' + hex(4) + '-5' + hex(3) + '-' + '89ab'[Math.floor(random() * 4)] + hex(3) + '-' + hex(12);
}

// PHP's uniqid(): eight hex digits of Unix seconds, five of microseconds.
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

function timeslice(date) {
  return {
    y: NumberLong(String(date.getFullYear() % 100)), mo: NumberLong(String(date.getMonth() + 1)),
    d: NumberLong(String(date.getDate())), h: NumberLong(String(date.getHours())), m: NumberLong(String(date.getMinutes()))
  };
}

var names = [];
var buckets = [];
for (var k = 0; k < KEYS; k++) { names.push(eventName(k)); buckets.push(bucketOf(names[k])); }
var guids = [];
for (var n = 0; n < Math.max(DOCS, BUCKET_DOCS); n++) guids.push(guid());

function originalEventnames() {
  var eventnames = {};
  for (var i = 0; i < KEYS; i++) eventnames[names[i]] = ZERO;
  return eventnames;
}

function bucketEventnames() {
  var eventnames = {};
  for (var i = 0; i < KEYS; i++) {
    if (!eventnames[buckets[i]]) eventnames[buckets[i]] = {};
    eventnames[buckets[i]][names[i]] = ZERO;
  }
  return eventnames;
}

function makeDocument(i, eventnames) {
  return {
    appver: APPVER, deploytype: 'production', g: G, guid: guids[i], timeslice: timeslice(new Date()),
    random: uniqid(), stats: { eventnames: eventnames(), events: ZERO }
  };
}

// PHP's MongoClient acknowledged each insert (w:1): named here, so that a cluster whose default
// is w:majority (a replica set of 5.0 and later, Atlas) times the same acknowledgement
var ACKNOWLEDGED = { writeConcern: { w: 1 } };
var totalDocs = DOCS + BUCKET_DOCS;
var progressEvery = Math.max(1, Math.floor(totalDocs / 100));

function insertAll(collectionName, count, eventnames, done) {
  var collection = db.getCollection(collectionName);
  var milliseconds = 0;
  var hrMilliseconds = 0;
  var insertHrMilliseconds = 0;
  var firstBsonSize = null;
  for (var i = 0; i < count; i++) {
    var startDate = new Date();
    var t0 = performance.now();
    var doc = makeDocument(i, eventnames);
    var t1 = performance.now();
    collection.insertOne(doc, ACKNOWLEDGED);
    var t2 = performance.now();
    milliseconds += Math.abs(new Date() - startDate);
    hrMilliseconds += t2 - t0;
    insertHrMilliseconds += t2 - t1;
    if (i === 0) firstBsonSize = bsonsize(doc);
    if (PROGRESS && (done + i + 1) % progressEvery === 0) print(JSON.stringify({ progress: done + i + 1, of: totalDocs }));
  }
  return { ms: milliseconds, hrMs: hrMilliseconds, insertHrMs: insertHrMilliseconds, bsonSize: firstBsonSize };
}

function isLong(value, expected) {
  return value instanceof Long && value.toString() === expected;
}

// Reads every document back; counts each way it differs from what insertAll meant to write.
function verify(collectionName, count, bucketed) {
  var problems = { documents: 0, identity: 0, keysMissing: 0, keysDuplicated: 0, keysExtra: 0, keysMisplaced: 0, nonZero: 0, events: 0 };
  var bucketOfName = {};
  for (var i = 0; i < KEYS; i++) bucketOfName[names[i]] = buckets[i];
  var guidSeen = {};
  for (var j = 0; j < count; j++) guidSeen[guids[j]] = 0;
  db.getCollection(collectionName).find().forEach(function (doc) {
    problems.documents++;
    var identityOk = isLong(doc.appver, '123456') && isLong(doc.g, '123456') && doc.deploytype === 'production' &&
      guidSeen[doc.guid] === 0 && typeof doc.random === 'string' && doc.random.length === 13 &&
      ['y', 'mo', 'd', 'h', 'm'].every(function (f) { return doc.timeslice && doc.timeslice[f] instanceof Long; });
    if (!identityOk) problems.identity++;
    if (guidSeen[doc.guid] === 0) guidSeen[doc.guid] = 1;
    var seen = {};
    var distinct = 0;
    var check = function (name, value, bucket) {
      if (!(name in bucketOfName)) { problems.keysExtra++; return; }
      if (seen[name]) { problems.keysDuplicated++; return; }
      seen[name] = true;
      distinct++;
      if (bucketed && bucketOfName[name] !== bucket) problems.keysMisplaced++;
      if (!isLong(value, '0')) problems.nonZero++;
    };
    var eventnames = doc.stats.eventnames;
    Object.keys(eventnames).forEach(function (key) {
      if (bucketed) Object.keys(eventnames[key]).forEach(function (name) { check(name, eventnames[key][name], key); });
      else check(key, eventnames[key], null);
    });
    problems.keysMissing += KEYS - distinct;
    if (!isLong(doc.stats.events, '0')) problems.events++;
  });
  var ok = problems.documents === count && Object.keys(problems).every(function (p) { return p === 'documents' || problems[p] === 0; });
  return { ok: ok, expectedDocuments: count, problems: problems };
}

function readBackText(c) {
  if (!c.verification) return c.collection + ' after insert: not read back (VERIFY false)';
  var p = c.verification.problems;
  var found = Object.keys(p).filter(function (k) { return k !== 'documents' && p[k]; }).map(function (k) { return k + ' ' + p[k]; });
  if (p.documents !== c.docs) found.unshift(p.documents + ' documents, ' + c.docs + ' expected');
  return c.collection + ' after insert: ' + (found.length ? 'DIFFERS (' + found.join(', ') + ')' : 'all ' + c.docs + ' documents as written, ' + KEYS + ' keys each');
}

// The fields the update test finds a document by (see Changes).
var IDENTITY_INDEX = { appver: 1, deploytype: 1, g: 1, guid: 1, timeslice: 1 };
['original', 'bucket'].forEach(function (name) {
  db.getCollection(name).drop();
  db.createCollection(name);
  db.getCollection(name).createIndex(IDENTITY_INDEX);
});

var cases = [
  { collection: 'original', docs: DOCS, eventnames: originalEventnames, bucketed: false },
  { collection: 'bucket', docs: BUCKET_DOCS, eventnames: bucketEventnames, bucketed: true }
];
var done = 0;
cases.forEach(function (c) {
  c.result = insertAll(c.collection, c.docs, c.eventnames, done);
  done += c.docs;
  print('Inserted ' + c.docs + ' documents into ' + c.collection + ' in ' + (c.result.hrMs / 1000).toFixed(6) +
    ' seconds (avg: ' + (c.result.hrMs / 1000 / c.docs).toFixed(6) + '/document, ' + c.result.bsonSize + ' bytes each)');
});

cases.forEach(function (c) {
  c.verification = VERIFY ? verify(c.collection, c.docs, c.bucketed) : null;
  if (c.verification) print(c.collection + ' read back: ' + (c.verification.ok ? 'as written' : 'DIFFERS ' + JSON.stringify(c.verification.problems)));
});
print('');

cases.forEach(function (c) {
  print(JSON.stringify({
    scenario: 'many-keys', step: 'insert', collection: c.collection, schema: c.collection, kind: 'insert',
    ms: c.result.ms, hrMs: Math.round(c.result.hrMs * 1000) / 1000,
    insertHrMs: Math.round(c.result.insertHrMs * 1000) / 1000,
    docs: c.docs, keys: KEYS, bsonSize: c.result.bsonSize, writeConcern: 'w:1',
    identityIndex: 'index ' + JSON.stringify(IDENTITY_INDEX) + ', built before the inserts',
    inserted: c.docs, removed: 0, verification: c.verification, readBack: readBackText(c)
  }));
});
