'use strict';
// Collection stats between passes, read through the driver: the article's stats().size and the
// fields that tell engines apart, and the moment the sizes stand for. Where the server refuses a
// read (a user without the collStats privilege), the record goes without it and one line says
// so; the step stands. The server's own time on a collection is not read here but by the
// scripts, around their timed loops (their server time block), so it holds those loops alone.
const { isRefused, refusalText } = require('./ownership');

// The primary, whatever the URI's read preference: the writes and the up-to-date files are there.
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
 * count, storageSize, totalIndexSize and nindexes 0), given without asking.
 */
const MISSING = Object.freeze({ count: 0, size: 0, storageSize: 0, totalIndexSize: 0, nindexes: 0 });

/**
 * A collection's stats and exact count. `exists: false` (from collectionExists) answers without
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
  'freeStorageSize', 'reusableBytes', 'blockCompressor', 'sizesAt', 'sizesEstimated', 'expectedCount', 'countOk'];

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

/**
 * Whether a collection exists (null where the server will not say), so that the stats of one a
 * step dropped are given without asking: FerretDB refuses collStats on a missing collection.
 */
async function collectionExists(db, name) {
  try {
    const infos = await db.listCollections({ name }, { ...PRIMARY, nameOnly: true }).toArray();
    return infos.some((c) => c.name === name);
  } catch {
    return null;
  }
}

module.exports = { readCollectionStats, collectionExists, checkpointPolicy, settleSizes, STATS_FIELDS };
