'use strict';
// Collection stats between passes, read through the driver: the article's stats().size and the
// fields that tell engines apart.

async function rawStats(db, name) {
  try {
    return await db.command({ collStats: name });
  } catch (err) {
    // collStats is deprecated since MongoDB 6.2; $collStats carries the same storageStats.
    const [doc] = await db.collection(name).aggregate([{ $collStats: { storageStats: {} } }]).toArray();
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

async function readCollectionStats(db, name) {
  const raw = await rawStats(db, name);
  // stats().count is -1 on FerretDB's PostgreSQL backend until the table is analyzed.
  const count = await db.collection(name).countDocuments({});
  return {
    count,
    size: raw.size,
    storageSize: raw.storageSize,
    totalIndexSize: raw.totalIndexSize,
    avgObjSize: raw.avgObjSize,
    nindexes: raw.nindexes,
    ...engineFields(raw),
  };
}

/** The fields readCollectionStats adds to a measurement (the rest of a record is what the script printed). */
const STATS_FIELDS = ['count', 'size', 'storageSize', 'totalIndexSize', 'avgObjSize', 'nindexes', 'paddingFactor', 'userFlags',
  'freeStorageSize', 'reusableBytes', 'blockCompressor', 'sizesAt', 'serverMs', 'serverOps', 'expectedCount', 'countOk'];

/**
 * WiredTiger writes a table's file at checkpoints (every 60 s), so storageSize and the index and
 * free sizes just after a short step are what the last checkpoint wrote. On a server the kit
 * started, fsync forces a checkpoint first; on a user's server (an fsync is the owner's call, and
 * needs a privilege the user may lack) the record says the sizes may lag.
 */
async function settleSizes(client, { forceCheckpoint }) {
  if (!forceCheckpoint) return 'the last checkpoint (may lag the step by up to 60 s)';
  try {
    await client.db('admin').command({ fsync: 1 });
    return 'a checkpoint the kit forced (fsync)';
  } catch (err) {
    return `the last checkpoint (fsync refused: ${err.codeName || err.message})`;
  }
}

/**
 * The server's own cumulative time on a collection ($collStats latencyStats, MongoDB 3.2+), in
 * microseconds and operations, or null where the server keeps none (FerretDB 1.24).
 */
async function readLatencyStats(db, name) {
  try {
    const [doc] = await db.collection(name).aggregate([{ $collStats: { latencyStats: {} } }]).toArray();
    const l = doc && doc.latencyStats;
    if (!l || !l.writes) return null;
    const kinds = ['reads', 'writes', 'commands'];
    return {
      micros: kinds.reduce((n, k) => n + Number(l[k]?.latency || 0), 0),
      ops: kinds.reduce((n, k) => n + Number(l[k]?.ops || 0), 0),
    };
  } catch {
    return null;
  }
}

/** The collection's identity: a dropped and re-created collection has a new UUID. */
async function collectionUuid(db, name) {
  const [info] = await db.listCollections({ name }).toArray().catch(() => []);
  const uuid = info?.info?.uuid;
  return uuid ? uuid.toString('hex') : null;
}

/**
 * The server's own time on each collection over each step, from latencyStats, which count from
 * the collection's creation: where a step dropped and re-created a collection (a new UUID, or a
 * counter that went down), its delta starts from zero. The baseline is taken after the kit's own
 * reads of a step (its count and stats), and what one latency read itself adds is measured and
 * left out, so only the script's operations are counted.
 */
class ServerTime {
  constructor(db) {
    this.db = db;
    this.base = {};
  }

  async delta(name) {
    const now = await readLatencyStats(this.db, name);
    if (!now) return null;
    const uuid = await collectionUuid(this.db, name);
    const base = this.base[name];
    const restarted = !base || base.uuid !== uuid || now.ops < base.ops + base.selfOps;
    const from = restarted ? { micros: 0, ops: 0 } : { micros: base.micros + base.selfMicros, ops: base.ops + base.selfOps };
    return { serverMs: Math.max(0, now.micros - from.micros) / 1000, serverOps: Math.max(0, now.ops - from.ops) };
  }

  /** Call after the kit's own reads of a step: the next step's deltas start here. */
  async rebase(name) {
    const first = await readLatencyStats(this.db, name);
    const second = await readLatencyStats(this.db, name);
    if (!first || !second) return;
    this.base[name] = {
      ...second,
      uuid: await collectionUuid(this.db, name),
      selfMicros: Math.max(0, second.micros - first.micros),
      selfOps: Math.max(0, second.ops - first.ops),
    };
  }
}

module.exports = { readCollectionStats, readLatencyStats, settleSizes, ServerTime, STATS_FIELDS };
