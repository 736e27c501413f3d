// Server time: in every script that reads the server's own time around its timed loops.
// The server's own time on each collection over the timed loops alone: mongod keeps it per
// collection in memory (Top, src/mongo/db/stats/top.cpp; $collStats latencyStats: reads, writes
// and commands), from the first operation on a name until the collection is dropped or mongod
// restarts. Read just before the loops and again after the barrier, it counts their writes and
// none of the script's untimed reads and probes. A latency read can count itself (mongod records
// an aggregate as it releases the collection, before $collStats samples: AutoStatsTracker,
// src/mongo/db/db_raii.cpp, and run_aggregate.cpp), so the baseline reads twice: the second
// read's share is what the read after the loops adds, and is left out.

function latencyNumber(v) { return typeof v === 'number' ? v : (v && typeof v.toNumber === 'function' ? v.toNumber() : Number(v)); }

/** A collection's latency counters summed over reads, writes, commands and shards: { micros, ops }, or null. */
function latencyTotal(collection) {
  var docs;
  try {
    docs = collection.aggregate([{ $collStats: { latencyStats: {} } }]).toArray();
  } catch (e) {
    return null; // a server that keeps none (FerretDB), or a user who may not read them
  }
  var total = null;
  docs.forEach(function (doc) {
    var l = doc && doc.latencyStats;
    if (!l || !l.writes) return;
    total = total || { micros: 0, ops: 0 };
    ['reads', 'writes', 'commands'].forEach(function (kind) {
      if (!l[kind]) return;
      total.micros += latencyNumber(l[kind].latency);
      total.ops += latencyNumber(l[kind].ops);
    });
  });
  return total;
}

/**
 * Whether the counters read through dbHandle are the primary's. They count the operations the
 * answering member's clients ran there, and the writes are the primary's: where the run's read
 * preference (the URI's) reads another member, whose counters hold none of them, none are read.
 */
function readsWritesMember(dbHandle) {
  var mongo = typeof dbHandle.getMongo === 'function' ? dbHandle.getMongo() : null;
  var mode = mongo && typeof mongo.getReadPrefMode === 'function' ? mongo.getReadPrefMode() : 'primary';
  return !mode || mode === 'primary' || mode === 'primaryPreferred';
}

/** Just before the timed loops: the counters of each named collection (none where they are not the primary's). */
function serverTimeStart(dbHandle, names) {
  var base = {};
  var primary = readsWritesMember(dbHandle);
  names.forEach(function (name) {
    if (!primary) { base[name] = null; return; }
    var first = latencyTotal(dbHandle.getCollection(name));
    var second = first && latencyTotal(dbHandle.getCollection(name));
    base[name] = second && {
      micros: second.micros, ops: second.ops,
      readMicros: Math.max(0, second.micros - first.micros), readOps: Math.max(0, second.ops - first.ops)
    };
  });
  return { db: dbHandle, base: base };
}

/**
 * After the loops and the barrier (every write applied): { name: { serverMs, serverOps } }, or
 * null for a collection whose server keeps no counters or whose counters started again.
 */
function serverTimeEnd(start) {
  var out = {};
  Object.keys(start.base).forEach(function (name) {
    var base = start.base[name];
    var now = base && latencyTotal(start.db.getCollection(name));
    out[name] = now && now.ops >= base.ops ? {
      serverMs: Math.round(Math.max(0, now.micros - base.micros - base.readMicros)) / 1000,
      serverOps: Math.max(0, now.ops - base.ops - base.readOps)
    } : null;
  });
  return out;
}
