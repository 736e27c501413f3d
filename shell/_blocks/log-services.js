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
