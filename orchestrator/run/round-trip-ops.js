// mongo-classics · the kit's own · round-trip-ops.js
// Measures: the round trip the scenario scripts see, timed as they time their operations (a
//           clock read around each call) in the shell they run in, on a connection like theirs:
//           the kit gives this script the URI the scripts' own connections take (one mongos of a
//           cluster, one connection, retryable writes off: run/round-trip.js). On a mongod, an
//           acknowledged update that matches nothing (w:1): the path and the command a timed
//           write takes, the server's own work about nil. Through mongos, a ping, which mongos
//           answers itself (the client's round trip to mongos), and the same update, which mongos
//           sends on to the database's primary shard and waits for: the update less the ping is
//           the hop inside the cluster (hopMs), which every operation through mongos waits for,
//           w:0 writes included (mongos sends them on as w:1).
// Writes:   none: the update matches no document (DB_NAME.COLLECTION, the kit's lease database).
// Sizes:    PINGS timed calls of each kind (at least 10), after one that is not counted; the
//           median of each.

if (typeof PINGS === 'undefined') var PINGS = 11;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_kit';
if (typeof COLLECTION === 'undefined') var COLLECTION = 'roundTrip';

function median(values) {
  var v = values.slice().sort(function (a, b) { return a - b; });
  var m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** The median time of PINGS calls, after one that is not counted (it may still be settling the connection). */
function timed(call) {
  call();
  var times = [];
  for (var i = 0; i < Math.max(10, PINGS); i++) {
    var t0 = performance.now();
    call();
    times.push(performance.now() - t0);
  }
  return Math.round(median(times) * 1000) / 1000;
}

var hello = db.adminCommand({ hello: 1 });
var viaMongos = hello.msg === 'isdbgrid';
var target = db.getSiblingDB(DB_NAME).getCollection(COLLECTION);
var noOpWrite = function () { target.updateOne({ _id: 'round-trip' }, { $set: { n: 1 } }, { writeConcern: { w: 1 } }); };
var line = { scenario: 'round-trip', viaMongos: viaMongos };
if (viaMongos) {
  line.roundTripMs = timed(function () { db.adminCommand({ ping: 1 }); });
  line.roundTripBy = 'a ping, which mongos answers itself';
  line.noOpWriteMs = timed(noOpWrite);
  line.hopMs = Math.round(Math.max(0, line.noOpWriteMs - line.roundTripMs) * 1000) / 1000;
} else {
  line.roundTripMs = timed(noOpWrite);
  line.roundTripBy = 'an acknowledged update that matches nothing';
}
print(JSON.stringify(line));
