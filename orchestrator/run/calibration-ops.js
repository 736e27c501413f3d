// mongo-classics · calibration · calibration-ops.js
// Article:  none: this script measures the kit itself, not an article.
// Measures: the per-operation time of insert, find, update and remove by _id as the scenario
//           scripts record it (performance.now() around each call in mongosh), so it can be put
//           beside the same operations sent by a plain loop on the Node driver; and the shell
//           process's own CPU time per operation type (process.cpuUsage(), user + system).
// Faithful: times each operation exactly as the scenario scripts do.
// Changes:  none.
// Sizes:    OPS operations of each type after WARMUP untimed ones, in a scratch collection of DB_NAME.

if (typeof OPS === 'undefined') var OPS = 200;
if (typeof WARMUP === 'undefined') var WARMUP = 50;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_calibration';

db = db.getSiblingDB(DB_NAME);
db.ops.drop();
db.createCollection('ops');

// untimed first: the shell's code paths are compiled by the time a scenario's loop is long
for (var w = 0; w < WARMUP; w++) {
  db.ops.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
  db.ops.findOne({ _id: -1 - w });
  db.ops.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
  db.ops.deleteOne({ _id: -1 - w });
}

var t0, c0;
var totals = { insert: 0, find: 0, update: 0, remove: 0 };
var cpuUs = { insert: 0, find: 0, update: 0, remove: 0 };
function cpuNow() { var u = process.cpuUsage(); return u.user + u.system; }
c0 = cpuNow();
for (var i = 0; i < OPS; i++) {
  t0 = performance.now();
  db.ops.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] });
  totals.insert += performance.now() - t0;
}
cpuUs.insert = cpuNow() - c0; c0 = cpuNow();
for (var i = 0; i < OPS; i++) {
  t0 = performance.now();
  db.ops.findOne({ _id: i });
  totals.find += performance.now() - t0;
}
cpuUs.find = cpuNow() - c0; c0 = cpuNow();
for (var i = 0; i < OPS; i++) {
  t0 = performance.now();
  db.ops.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } });
  totals.update += performance.now() - t0;
}
cpuUs.update = cpuNow() - c0; c0 = cpuNow();
for (var i = 0; i < OPS; i++) {
  t0 = performance.now();
  db.ops.deleteOne({ _id: i });
  totals.remove += performance.now() - t0;
}
cpuUs.remove = cpuNow() - c0;
print(JSON.stringify({ scenario: 'harness', ops: OPS, totalMs: totals, cpuUs: cpuUs }));
