'use strict';
// Collection stats between passes, read through the driver: the article's stats().size and the
// fields that tell engines apart, the moment the sizes stand for, and the server's own time on
// each collection over a step. Where the server refuses a read (a user without the collStats
// privilege), the record goes without it and one line says so; the step stands.
const crypto = require('node:crypto');
const { isRefused, refusalText, MARK_COLLECTION } = require('./ownership');

// The primary, whatever the URI's read preference: the writes, their latency counters (a
// secondary's only count its own users' reads) and the up-to-date files are there.
const PRIMARY = { readPreference: 'primary' };

async function rawStats(db, name) {
  try {
    return await db.command({ collStats: name });
  } catch (err) {
    // collStats is deprecated since MongoDB 6.2; $collStats carries the same storageStats.
    const [doc] = await db.collection(name).aggregate([{ $collStats: { storageStats: {} } }], PRIMARY).toArray();
    if (!doc) throw err;
    return doc.storageStats;
  }
}

function engineFields(raw) {
  const fields = {};
  if (raw.paddingFactor !== undefined) fields.paddingFactor = raw.paddingFactor;
  if (raw.userFlags !== undefined) fields.userFlags = raw.userFlags;
  if (raw.freeStorageSize !== undefined) fields.freeStorageSize = raw.freeStorageSize;
  const wt = raw.wiredTiger;
  if (wt) {
    const reusable = wt['block-manager']?.['file bytes available for reuse'];
    if (reusable !== undefined) fields.reusableBytes = reusable;
    const compressor = /block_compressor=(\w*)/.exec(wt.creationString || '');
    if (compressor) fields.blockCompressor = compressor[1] || 'none';
  }
  return fields;
}

/**
 * What mongod's collStats answers for a collection that does not exist (storage_stats.cpp: size,
 * count, storageSize, totalIndexSize and nindexes 0), given without asking: every read of a
 * missing collection would start the latency counter that the next step's delta counts from.
 */
const MISSING = Object.freeze({ count: 0, size: 0, storageSize: 0, totalIndexSize: 0, nindexes: 0 });

/**
 * A collection's stats and exact count. `exists: false` (from ServerTime.delta) answers without
 * asking the server; `say` gets one line where the server refuses a read.
 */
async function readCollectionStats(db, name, { exists = null, say = () => {} } = {}) {
  if (exists === false) return { ...MISSING };
  let raw = null;
  try {
    raw = await rawStats(db, name);
  } catch (err) {
    if (!isRefused(err)) throw err;
    say(`the server refused collStats (${refusalText(err)}): sizes are not recorded`);
  }
  let count;
  try {
    // stats().count is -1 on FerretDB's PostgreSQL backend until the table is analyzed.
    count = await db.collection(name).countDocuments({}, PRIMARY);
  } catch (err) {
    if (!isRefused(err)) throw err;
    say(`the server refused a count (${refusalText(err)}): counts are not checked`);
  }
  return {
    ...(count === undefined ? {} : { count }),
    ...(raw ? {
      size: raw.size,
      storageSize: raw.storageSize,
      totalIndexSize: raw.totalIndexSize,
      avgObjSize: raw.avgObjSize,
      nindexes: raw.nindexes,
      ...engineFields(raw),
    } : {}),
  };
}

/** The fields readCollectionStats adds to a measurement (the rest of a record is what the script printed). */
const STATS_FIELDS = ['count', 'size', 'storageSize', 'totalIndexSize', 'avgObjSize', 'nindexes', 'paddingFactor', 'userFlags',
  'freeStorageSize', 'reusableBytes', 'blockCompressor', 'sizesAt', 'sizesEstimated', 'serverMs', 'serverOps', 'expectedCount', 'countOk'];

/**
 * What the sizes of a server stand for. WiredTiger writes a table's blocks at checkpoints (every
 * 60 s) and when it evicts them; storageSize and totalIndexSize are the files' sizes on disk and
 * freeStorageSize the blocks its block manager holds free for reuse, so just after a short step
 * they are what the last checkpoint left. 'force': a WiredTiger mongod the kit started, where an
 * fsync forces a checkpoint first. 'lag': a MongoDB the kit did not start (the fsync privilege is
 * the owner's, and a checkpoint costs the owner's disk). 'none': no checkpoints to wait for
 * (FerretDB's backends, an in-memory engine). 'estimate': FerretDB 2 on DocumentDB, whose collStats
 * takes a collection's count and average document size from PostgreSQL's statistics once they say
 * it is past a threshold (pg_documentdb's coll_stats.c), so its sizes move when autovacuum analyzes
 * the table, whatever the workload. An engine not known (a user without serverStatus)
 * is taken for WiredTiger, MongoDB's only one since 4.2 outside Enterprise's in-memory engine.
 */
function checkpointPolicy(server) {
  if (server.product !== 'MongoDB') return /DocumentDB/.test(`${server.engine} ${server.backendVersion}`) ? 'estimate' : 'none';
  if (server.engine && server.engine !== 'wiredTiger') return 'none';
  return server.started ? 'force' : 'lag';
}

/**
 * Makes the sizes read next stand for the step where that is the kit's to do, and resolves to
 * what they stand for (the record's sizesAt), or null where there is nothing to say. fsync without
 * lock takes only an intent-shared global lock and has WiredTiger checkpoint every table
 * (commands/fsync.cpp; a standalone has no stable timestamp, so the checkpoint holds everything).
 */
async function settleSizes(client, policy) {
  if (policy === 'none') return null;
  if (policy === 'estimate') return 'PostgreSQL\'s statistics (DocumentDB estimates size from them past a count threshold; autovacuum refreshes them in its own time)';
  if (policy !== 'force') return 'the last checkpoint (may lag the step by up to 60 s)';
  try {
    await client.db('admin').command({ fsync: 1 });
    return 'a checkpoint the kit forced (fsync)';
  } catch (err) {
    return `the last checkpoint (fsync refused: ${err.codeName || err.message})`;
  }
}

/** The sum over a $collStats answer's documents (one per shard on a sharded cluster), or null. */
function latencyTotal(docs) {
  let found = false;
  const total = { micros: 0, ops: 0 };
  for (const doc of docs) {
    const l = doc && doc.latencyStats;
    if (!l || !l.writes) continue;
    found = true;
    for (const kind of ['reads', 'writes', 'commands']) {
      total.micros += Number(l[kind]?.latency || 0);
      total.ops += Number(l[kind]?.ops || 0);
    }
  }
  return found ? total : null;
}

/**
 * The server's own cumulative time on a collection ($collStats latencyStats, MongoDB 3.2+):
 * microseconds and operations, reads, writes and commands together, or null where the server
 * keeps none (FerretDB 1.24) or refuses it (`onRefused` hears why).
 */
async function readLatencyStats(db, name, { onRefused = () => {} } = {}) {
  try {
    return latencyTotal(await db.collection(name).aggregate([{ $collStats: { latencyStats: {} } }], PRIMARY).toArray());
  } catch (err) {
    if (isRefused(err)) onRefused(err);
    return null;
  }
}

/** What ServerTime asks of the server, through the driver (a test gives it a fake one). */
function driverProbe(db, { say = () => {} } = {}) {
  const onRefused = (err) => say(`the server refused $collStats latencyStats (${refusalText(err)}): server-side times are not recorded`);
  return {
    /** Whether the collection exists (null where it cannot be told) and its UUID. */
    async collection(name) {
      let infos;
      try {
        infos = await db.listCollections({ name }, PRIMARY).toArray();
      } catch {
        return { exists: null, uuid: null };
      }
      const info = infos.find((c) => c.name === name);
      const uuid = info?.info?.uuid;
      return { exists: Boolean(info), uuid: uuid ? uuid.toString('hex') : null };
    },
    latency: (name) => readLatencyStats(db, name, { onRefused }),
    /**
     * Whether a latency read is in its own answer. mongod records an aggregate in the
     * collection's counters when it releases the collection (AutoStatsTracker's destructor,
     * db_raii.cpp), which run_aggregate.cpp does before it runs a pipeline that is not a plain
     * query, such as $collStats: so the read sees itself. Rather than trust that for every
     * version, one read of a name no one has used tells: 1 operation there is the read itself.
     */
    async selfCounted() {
      const unused = `${MARK_COLLECTION}.latency-probe-${crypto.randomBytes(6).toString('hex')}`;
      const first = await readLatencyStats(db, unused);
      return Boolean(first && first.ops > 0);
    },
  };
}

/**
 * The server's own time on each collection over each step, from latencyStats, which mongod keeps
 * per collection in memory (Top, stats/top.cpp), for user connections only, from the first
 * operation on a name until that collection is dropped (a drop erases them) or mongod restarts.
 *
 * After the kit's own reads of a step (its count and stats), rebase() reads the counters twice:
 * the second read is the next step's baseline and the difference is one latency read's own
 * cost, which the next delta() also makes and leaves out; so a delta holds the script's
 * operations only. A collection missing at the baseline is not read at all (a read of it would
 * start its counters), nor after a step. Where the counters started again over the step (a new
 * UUID: dropped and made again; or fewer operations than the baseline: mongod restarted, or a
 * failover on a replica set), the delta counts from zero, less the delta's own read where a read
 * counts itself.
 */
class ServerTime {
  constructor(db, { probe = null, say } = {}) {
    this.probe = probe || driverProbe(db, { say });
    this.base = new Map();
    this.readsCountThemselves = undefined;
  }

  /**
   * After a step: { exists, time }, time being { serverMs, serverOps } or null where the server
   * keeps no latency, the collection is missing, or no baseline was taken.
   */
  async delta(name) {
    const { exists, uuid } = await this.probe.collection(name);
    if (exists === false) return { exists, time: null };
    const now = await this.probe.latency(name);
    const base = this.base.get(name);
    if (!now || !base) return { exists, time: null };
    const restarted = base.absent || base.uuid !== uuid || now.ops < base.ops + base.selfOps;
    let from;
    if (!restarted) {
      from = { micros: base.micros + base.selfMicros, ops: base.ops + base.selfOps };
    } else {
      if (this.readsCountThemselves === undefined) this.readsCountThemselves = await this.probe.selfCounted();
      // a second read costs what this one did: the difference is this read's share of `now`
      const again = this.readsCountThemselves ? await this.probe.latency(name) : null;
      from = again ? { micros: Math.max(0, again.micros - now.micros), ops: again.ops - now.ops } : { micros: 0, ops: 0 };
    }
    return { exists, time: { serverMs: Math.max(0, now.micros - from.micros) / 1000, serverOps: Math.max(0, now.ops - from.ops) } };
  }

  /** Call after the kit's own reads of a step (or a step without stats): the next step's deltas start here. */
  async rebase(name) {
    const { exists, uuid } = await this.probe.collection(name);
    if (exists === false) {
      this.base.set(name, { absent: true, uuid: null, micros: 0, ops: 0, selfMicros: 0, selfOps: 0 });
      return;
    }
    const first = await this.probe.latency(name);
    const second = first && await this.probe.latency(name);
    if (!second) {
      this.base.delete(name);
      return;
    }
    this.base.set(name, {
      absent: false,
      uuid,
      micros: second.micros,
      ops: second.ops,
      selfMicros: Math.max(0, second.micros - first.micros),
      selfOps: Math.max(0, second.ops - first.ops),
    });
  }
}

module.exports = {
  readCollectionStats, readLatencyStats, latencyTotal, checkpointPolicy, settleSizes, ServerTime, driverProbe, STATS_FIELDS,
};
