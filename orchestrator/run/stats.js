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

module.exports = { readCollectionStats, readLatencyStats };
