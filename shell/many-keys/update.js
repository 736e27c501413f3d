// mongo-classics · many-keys · update.js
// Article:  the untitled README of gist jmikola/8048099 (original-update.php and bucket-update.php),
//           December 2013 (shared/seeds/002_7d6d17f15fe65dbc.txt). MongoDB 2.4 era, MMAPv1, PHP.
// Measures: the article's update test on `original`, then on `bucket`: UPDATES updates, each
//           finding one document by appver, deploytype, g, guid and timeslice, $set-ting random
//           and $inc-ing five random counters and stats.events by 5. Two times per schema: the
//           time to send the updates (the article's "Updated N documents in S seconds") and the
//           time until the server has applied them all; the speed-up of bucket over original;
//           the updates applied per second, sampled once a second, as the article's mongostat.
// Faithful: every query and update document built in advance, outside the timed loop, so the
//           loop only sends; write concern w:0; update i targets document i % DOCS, so with the
//           article's sizes each of the 2,000 documents is updated 5 times, in 5 rounds; both
//           schemas get the same updates (same documents, counters and random strings); $inc by
//           NumberLong as PHP's 64-bit integers; the article's printed line.
// Changes:  - Runs in its own database (DB_NAME, prefix classics_).
//           - The targets' identities are read from each collection (sorted by _id) before the
//             timed loop; the article does not say how its update scripts knew them.
//           - The five counters of one update are five distinct keys: with replacement, two equal
//             keys would collapse into one $inc and stats.events would no longer be their sum,
//             which the article says it is.
//           - w:0 needs a server that sends no reply to a fire-and-forget write (OP_MSG
//             moreToCome). A second connection sends one such write and a ping: if the ping is
//             answered with the write's reply (FerretDB 1.24 does this), w:0 would desynchronise
//             the shell's connections, so this script uses w:1 there and says so; the send time
//             is then also the applied time.
//           - "Applied": with w:0, the clock stops when serverStatus().opcounters.update has
//             grown by UPDATES (what mongostat read; polled every POLL_MS; the counter moves as an
//             update starts, so the last update's own duration may be missed); without
//             opcounters, when the sum of stats.events reaches its expected total. The sum is
//             checked afterwards in every case.
//           - Samples: a mongosh script is single-threaded, so the loop looks at the clock after
//             every update and takes a sample once a second has passed: opcounters.update where
//             the server has it (a real counter of updates processed, as mongostat), else the
//             script's own count (acknowledged updates with w:1, which are applied ones). A
//             sample is late by up to one update's round trip, and a send that blocks delays it;
//             the time spent sampling (and printing progress) is left out of both send times and
//             reported as samplingMs.
//           - Times: new Date() (the wall clock, like PHP's microtime) and performance.now();
//             the printed line uses performance.now(), whose microseconds match microtime's.
//           - VERIFY reads every document back: each key exactly once (in its md5 bucket), each
//             document's counters summing to its stats.events, the total equal to the total
//             before plus 5 x UPDATES, each target's random the last one sent and, when the test
//             started from zeros (the first pass), every counter equal to its planned count.
//           - One JSON line per schema and one per sample for the orchestrator; SEED as in
//             insert.js, offset by the pass so passes differ but repeat.
// Sizes:    DOCS documents targeted in each collection (2,000; the first DOCS of `bucket` when
//           BUCKET_DOCS > DOCS), KEYS counters per document (20,000, as in insert.js), UPDATES
//           updates per schema (10,000).

if (typeof DOCS === 'undefined') var DOCS = 2000;
if (typeof KEYS === 'undefined') var KEYS = 20000;
if (typeof UPDATES === 'undefined') var UPDATES = 10000;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_many_keys';
if (typeof PASS === 'undefined') var PASS = null;
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof VERIFY === 'undefined') var VERIFY = true;
if (typeof POLL_MS === 'undefined') var POLL_MS = 10;

db = db.getSiblingDB(DB_NAME);

// mulberry32, as in insert.js; a pass offsets the seed so passes differ but repeat.
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

var crypto = require('crypto');
var PREFIXES = ['baz-baz-baz-baz-baz-baz-', 'foo-foo-foo-foo-foo-foo-', 'bar-bar-bar-bar-bar-bar-'];
var ONE = NumberLong('1');
var FIVE = NumberLong('5');
var INCS_PER_UPDATE = 5;
// Without progress a w:0 test that loses updates would wait for ever.
var STALL_MS = 120000;

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

// The same plan for both schemas: which document, which counters, which new random string.
var plans = [];
for (var p = 0; p < UPDATES; p++) {
  var chosen = [];
  while (chosen.length < Math.min(INCS_PER_UPDATE, KEYS)) {
    var key = getRandomInt(0, KEYS - 1);
    if (chosen.indexOf(key) < 0) chosen.push(key);
  }
  plans.push({ doc: p % DOCS, keys: chosen, random: uniqid() });
}

function writeConcernFor() {
  var probe = null;
  try {
    probe = new Mongo(db.getMongo().getURI());
    var probeDb = probe.getDB(DB_NAME);
    probeDb.getCollection('original').updateOne({ _id: -1 }, { $set: { probe: 1 } }, { writeConcern: { w: 0 } });
    var reply = probeDb.runCommand({ ping: 1 });
    if (reply.n !== undefined || reply.nModified !== undefined) {
      return { outcome: 'w:1', w: 1, reason: 'the server answers fire-and-forget (w:0) writes, which would desynchronise the shell\'s connections' };
    }
    return { outcome: 'w:0', w: 0, reason: null };
  } catch (e) {
    return { outcome: 'w:1', w: 1, reason: 'fire-and-forget writes could not be tested on a second connection: ' + e.message };
  } finally {
    if (probe) try { probe.close(); } catch (e) { /* already closed */ }
  }
}

function opcountersUpdate() {
  try {
    var status = db.adminCommand({ serverStatus: 1, repl: 0, metrics: 0, locks: 0 });
    if (status.ok && status.opcounters && status.opcounters.update !== undefined) return toNumber(status.opcounters.update);
  } catch (e) { /* a server without serverStatus */ }
  return null;
}

function sumEvents(collection) {
  var rows = collection.aggregate([{ $group: { _id: null, events: { $sum: '$stats.events' } } }]).toArray();
  return rows.length ? toNumber(rows[0].events) : 0;
}

function identities(collection) {
  return collection.find({}, { appver: 1, deploytype: 1, g: 1, guid: 1, timeslice: 1 }).sort({ _id: 1 }).limit(DOCS).toArray();
}

function updateFor(plan, bucketed) {
  var inc = {};
  plan.keys.forEach(function (k) {
    inc['stats.eventnames.' + (bucketed ? buckets[k] + '.' : '') + names[k]] = ONE;
  });
  inc['stats.events'] = FIVE;
  return { $set: { random: plan.random }, $inc: inc };
}

var writeConcern = writeConcernFor();
var useOpcounters = opcountersUpdate() !== null;
print('write concern ' + writeConcern.outcome + (writeConcern.reason ? ' (' + writeConcern.reason + ')' : ''));

function runTest(collectionName, bucketed, progressBase) {
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
  var options = { writeConcern: { w: writeConcern.w } };
  var eventsBefore = sumEvents(collection);
  var source = useOpcounters ? 'opcounters.update'
    : writeConcern.w === 1 ? 'script progress (acknowledged updates)' : 'script progress (updates sent, unacknowledged)';
  var opcountersBase = useOpcounters ? opcountersUpdate() : 0;
  var sent = 0;
  var samples = [];
  var samplingHrMs = 0;
  var samplingDateMs = 0;

  var t0;
  var lastSampleT;
  var lastSampleValue = 0;
  function countSoFar() { return useOpcounters ? opcountersUpdate() - opcountersBase : sent; }
  function takeSample(now, onlyIfMoved) {
    var value = countSoFar();
    if (onlyIfMoved && value === lastSampleValue) return;
    var dt = now - lastSampleT;
    samples.push({ second: Math.round(now - t0) / 1000, updatesPerSecond: Math.round((value - lastSampleValue) / dt * 1000 * 10) / 10, updates: value - lastSampleValue, total: value });
    lastSampleT = now;
    lastSampleValue = value;
    if (PROGRESS) print(JSON.stringify({ progress: progressBase + Math.min(value, UPDATES), of: 2 * UPDATES }));
  }

  var startDate = new Date();
  t0 = performance.now();
  lastSampleT = t0;
  // mongostat's idle line before the run, so the series starts where the article's does.
  samples.push({ second: 0, updatesPerSecond: 0, updates: 0, total: 0 });
  for (var i = 0; i < UPDATES; i++) {
    collection.updateOne(queries[i], newObjs[i], options);
    sent++;
    var now = performance.now();
    if (now - lastSampleT >= 1000) {
      var pauseDate = new Date();
      takeSample(now);
      samplingHrMs += performance.now() - now;
      samplingDateMs += new Date() - pauseDate;
    }
  }
  var sendEnd = performance.now();
  var sendHrMs = sendEnd - t0 - samplingHrMs;
  var sendMs = Math.abs(new Date() - startDate) - samplingDateMs;

  // Wait until the server has applied what was sent.
  var appliedHrMs = null;
  var appliedMs = null;
  var appliedBy;
  var expected = eventsBefore + INCS_PER_UPDATE * UPDATES;
  var eventsAfter;
  var lastProgressT = performance.now();
  if (writeConcern.w === 1) {
    appliedBy = 'acknowledged writes (w:1)';
    appliedHrMs = sendHrMs;
    appliedMs = sendMs;
    takeSample(sendEnd, true);
    eventsAfter = sumEvents(collection);
  } else {
    appliedBy = useOpcounters ? 'opcounters.update' : 'sum of stats.events';
    var done = useOpcounters ? countSoFar() : sumEvents(collection);
    var target = useOpcounters ? UPDATES : expected;
    var lastDone = done;
    while (done < target && performance.now() - lastProgressT < STALL_MS) {
      sleep(POLL_MS);
      var nowWait = performance.now();
      if (nowWait - lastSampleT >= 1000) takeSample(nowWait);
      done = useOpcounters ? countSoFar() : sumEvents(collection);
      if (done !== lastDone) { lastDone = done; lastProgressT = performance.now(); }
    }
    var appliedT = performance.now();
    if (done >= target) {
      appliedHrMs = appliedT - t0 - samplingHrMs;
      appliedMs = Math.abs(new Date() - startDate) - samplingDateMs;
    }
    takeSample(appliedT, true);
    eventsAfter = useOpcounters ? sumEvents(collection) : done;
    // Opcounters move when an update starts: let the last one finish before checking the sum.
    var settle = performance.now();
    while (eventsAfter < expected && performance.now() - settle < STALL_MS) { sleep(POLL_MS); eventsAfter = sumEvents(collection); }
  }
  // The last sample, taken when the test ends, usually covers less than a second.
  samples.forEach(function (s, i) { s.partial = i > 0 && i === samples.length - 1 && s.second - samples[i - 1].second < 0.999; });

  print('Updated ' + UPDATES + ' documents in ' + (sendHrMs / 1000).toFixed(6) + ' seconds (avg: ' +
    (sendHrMs / 1000 / UPDATES).toFixed(6) + '/document)');
  print('  ' + collectionName + ': applied after ' + (appliedHrMs === null ? 'NOT ALL APPLIED' : (appliedHrMs / 1000).toFixed(6) + ' seconds') +
    ' (' + appliedBy + '); stats.events ' + eventsBefore + ' -> ' + eventsAfter + ', expected ' + expected);
  print('  second   updates since the line before (' + source + ')');
  samples.forEach(function (s) { print('  ' + String(s.second.toFixed(3)).padStart(7) + '   ' + String(s.updates).padStart(6) + (s.partial ? '  (partial second)' : '')); });

  return {
    collection: collectionName, bucketed: bucketed, targets: targets,
    ms: sendMs, hrMs: sendHrMs, appliedMs: appliedMs, appliedHrMs: appliedHrMs, appliedBy: appliedBy,
    samplingMs: samplingHrMs, source: source, samples: samples,
    eventsBefore: eventsBefore, eventsAfter: eventsAfter, eventsExpected: expected
  };
}

// Reads every document back; counts each way it differs from the plans applied to it.
function verify(result) {
  var problems = { documents: 0, keysMissing: 0, keysDuplicated: 0, keysExtra: 0, keysMisplaced: 0, documentSums: 0, counters: 0, random: 0 };
  var fromZero = result.eventsBefore === 0;
  var indexOfName = {};
  for (var i = 0; i < KEYS; i++) indexOfName[names[i]] = i;
  var planned = {};
  result.targets.forEach(function (t) { planned[t.guid] = { counts: {}, random: null }; });
  plans.forEach(function (plan) {
    var entry = planned[result.targets[plan.doc % result.targets.length].guid];
    plan.keys.forEach(function (k) { entry.counts[k] = (entry.counts[k] || 0) + 1; });
    entry.random = plan.random;
  });
  db.getCollection(result.collection).find().forEach(function (doc) {
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
  var events = 'stats.events ' + r.eventsBefore + ' -> ' + r.eventsAfter + (r.eventsAfter === r.eventsExpected ? ' (+5 x ' + UPDATES + ')' : ', EXPECTED ' + r.eventsExpected);
  if (!r.verification) return r.collection + ' after update: not read back (VERIFY false); ' + events;
  var p = r.verification.problems;
  var found = Object.keys(p).filter(function (k) { return k !== 'documents' && p[k]; }).map(function (k) { return k + ' ' + p[k]; });
  return r.collection + ' after update: ' + (found.length ? 'DIFFERS (' + found.join(', ') + ')' : 'all ' + p.documents + ' documents as planned' +
    (r.verification.countersChecked ? ', every counter checked' : ', counters summed (not from zero)')) + '; ' + events;
}

var results = [runTest('original', false, 0), runTest('bucket', true, UPDATES)];
results.forEach(function (r) {
  r.verification = VERIFY ? verify(r) : null;
  if (r.verification) print(r.collection + ' read back: ' + (r.verification.ok ? 'as planned' : 'DIFFERS ' + JSON.stringify(r.verification.problems)));
});
var speedup = results[0].hrMs / results[1].hrMs;
var speedupApplied = results[0].appliedHrMs !== null && results[1].appliedHrMs !== null ? results[0].appliedHrMs / results[1].appliedHrMs : null;
print('speed-up of bucket over original (original time / bucket time): ' + speedup.toFixed(2) + ' to send, ' +
  (speedupApplied === null ? 'none measured' : speedupApplied.toFixed(2)) + ' to apply');
print('');

results.forEach(function (r) {
  print(JSON.stringify({
    scenario: 'many-keys', step: 'update', pass: PASS, collection: r.collection, schema: r.collection, kind: 'update',
    updates: UPDATES, docs: r.targets.length, keys: KEYS,
    ms: r.ms, hrMs: round3(r.hrMs), seconds: Math.round(r.hrMs) / 1000,
    appliedMs: r.appliedMs, appliedHrMs: round3(r.appliedHrMs), appliedBy: r.appliedBy,
    appliedSeconds: r.appliedHrMs === null ? null : Math.round(r.appliedHrMs) / 1000,
    rate: r.appliedHrMs === null ? null : Math.round(UPDATES / r.appliedHrMs * 1000 * 10) / 10,
    sendRate: Math.round(UPDATES / r.hrMs * 1000 * 10) / 10,
    samplingMs: round3(r.samplingMs), writeConcern: { outcome: writeConcern.outcome, reason: writeConcern.reason },
    samplesFrom: r.source,
    eventsBefore: r.eventsBefore, eventsAfter: r.eventsAfter, eventsExpected: r.eventsExpected,
    eventsOk: r.eventsAfter === r.eventsExpected,
    speedup: r.bucketed ? Math.round(speedup * 100) / 100 : null,
    speedupApplied: r.bucketed && speedupApplied !== null ? Math.round(speedupApplied * 100) / 100 : null,
    inserted: 0, removed: 0, verification: r.verification, readBack: readBackText(r)
  }));
});
// The bar chart's records: one per schema and clock, so send and applied times sit side by side.
results.forEach(function (r) {
  [['send', r.hrMs], ['applied', r.appliedHrMs]].forEach(function (m) {
    print(JSON.stringify({
      scenario: 'many-keys', step: 'update', pass: PASS, schema: r.collection, kind: 'time',
      measure: m[0], seconds: m[1] === null ? null : Math.round(m[1]) / 1000
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
