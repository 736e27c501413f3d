'use strict';
// Collection stats between passes, read through the driver: the article's stats().size and the
// fields that tell engines apart, and the moment the sizes stand for. Where the server refuses a
// read (a user without the collStats privilege), the record goes without it and one line says
// so; the step stands. The server's own time on a collection is not read here but by the
// scripts, around their timed loops (their server time block), so it holds those loops alone.
const { isRefused, refusalText } = require('./ownership');

// The run's read preference is its URI's (primary unless the user named another), and the kit's
// reads of a collection take it as the scripts' reads do: its client's, which the driver parsed
// from the same URI. A command names it (a command goes to the primary unless it names one).
const { ReadPreference } = require('mongodb');

/**
 * The options every read of a step's stats takes, the database to read with, and how to end them:
 * { db, options, member, end() }. On the primary, the read preference alone. On another member:
 *
 * - one member for all of them. The driver picks a server for each operation, two at random
 *   among those that suit the read preference and the one with fewer operations in flight
 *   (processWaitQueue, lib/sdam/topology.js, mongodb 7.9), so a count and the sizes after it could
 *   come from two secondaries. On a replica set the member the driver picks for a hello is
 *   reached directly (`pin`: a connection to that host alone) and every read of the stats goes
 *   there; `member` names it. Through mongos (which picks a shard's member itself) or where that
 *   connection cannot be made, the reads take the read preference, and say() says so.
 * - after the member has the step's writes. A causally consistent session whose time is first
 *   the primary's (a read there returns its operationTime, past every write of the step) makes
 *   the member's reads wait until it has applied them (afterClusterTime, which the driver adds to
 *   a read in such a session). The driver adds it to find and aggregate but not to listCollections
 *   or collStats, so one find waits first (the wait), and the existence check and the sizes come
 *   after it, from the same member.
 *
 * Where the server will not take a session (FerretDB), the read preference alone, and say() says so.
 * @param pin async (host) => a client connected to that host alone (servers/reach.js connectMember), or null
 * @param replicaSet whether the server is a replica set (a member can be pinned), not a mongos
 */
async function statsReads(client, db, { probe = 'kit', say = () => {}, pin = null, replicaSet = false } = {}) {
  const readPreference = db.readPreference ?? ReadPreference.primary;
  if (readPreference.mode === ReadPreference.PRIMARY) return { db, options: { readPreference }, member: null, end: () => {} };
  let session = null;
  try {
    session = client.startSession({ causalConsistency: true });
    await db.collection(probe).findOne({}, { session, readPreference: ReadPreference.primary, projection: { _id: 1 } });
  } catch (err) {
    await session?.endSession().catch(() => {});
    say(`the sizes are read with read preference ${readPreference.mode} without waiting for that member to catch up (${err.message.split('\n')[0]})`);
    return { db, options: { readPreference }, member: null, end: () => {} };
  }
  const pinned = replicaSet && pin ? await pinMember(client, db, readPreference, pin, say) : null;
  if (pinned) {
    // the primary's time handed to a session on the member's own client, then the wait there
    const own = pinned.client.startSession({ causalConsistency: true });
    if (session.clusterTime) own.advanceClusterTime(session.clusterTime);
    if (session.operationTime) own.advanceOperationTime(session.operationTime);
    const memberDb = pinned.client.db(db.databaseName);
    const end = async () => {
      await own.endSession().catch(() => {});
      await pinned.client.close().catch(() => {});
    };
    try {
      await memberDb.collection(probe).findOne({}, { session: own, projection: { _id: 1 } });
      await session.endSession().catch(() => {});
      return { db: memberDb, options: { session: own }, member: pinned.member, end };
    } catch (err) {
      await end();
      say(`the sizes are read with read preference ${readPreference.mode}, each read on the member the driver picks for it, not on one member (${pinned.member}: ${String(err?.message || err).split('\n')[0]})`);
    }
  }
  // the wait, on whichever member the read preference reaches; later reads may reach another
  await db.collection(probe).findOne({}, { session, readPreference, projection: { _id: 1 } }).catch(() => {});
  return { db, options: { readPreference, session }, member: null, end: () => session.endSession().catch(() => {}) };
}

/**
 * The member the driver picks for this read preference (a hello there says which: `me`), reached
 * directly: { client, member }, or null where it cannot be, said once.
 */
async function pinMember(client, db, readPreference, pin, say) {
  let member = null;
  const unpinned = (why) => {
    say(`the sizes are read with read preference ${readPreference.mode}, each read on the member the driver picks for it, not on one member (${member ?? 'no member named'}: ${why})`);
    return null;
  };
  try {
    member = (await client.db('admin').command({ hello: 1 }, { readPreference }))?.me ?? null;
    if (!member) return unpinned('its hello names no member (me)');
    return { client: await pin(member), member };
  } catch (err) {
    return unpinned(String(err?.message || err).split('\n')[0]);
  }
}

/**
 * A collection's storage stats in one shape, whatever answered: { whole (the collection's
 * figures, summed over shards where there are several), shards ({ shardName: that shard's
 * figures }, or null on a server without shards), sharded and primaryShard (where the server
 * says them) }. Through mongos, collStats sums count, size, storageSize and totalIndexSize over
 * the shards but copies wiredTiger from the first shard only and drops freeStorageSize
 * (src/mongo/s/commands/cluster_coll_stats_cmd.cpp), and $collStats answers one document per
 * shard, each naming it, without `sharded` (SERVER-78732): the shards' own figures are kept, and
 * the sums the server did not make are made here.
 */
async function rawStats(db, name, reads = {}) {
  let err;
  try {
    const raw = await db.command({ collStats: name }, reads);
    if (!raw.shards || typeof raw.shards !== 'object') return { whole: raw, shards: null };
    return { whole: raw, shards: raw.shards, sharded: raw.sharded === true, primaryShard: raw.primary ?? null };
  } catch (e) {
    err = e;
  }
  // collStats is deprecated since MongoDB 6.2; $collStats carries the same storageStats.
  const docs = await db.collection(name).aggregate([{ $collStats: { storageStats: {} } }], reads).toArray();
  if (!docs.length) throw err;
  return fromCollStatsStage(docs);
}

/** $collStats' documents in rawStats' shape: one plain document, or one per shard (through mongos). */
function fromCollStatsStage(docs) {
  if (docs.length === 1 && docs[0].shard === undefined) return { whole: docs[0].storageStats, shards: null };
  const shards = Object.fromEntries(docs.map((d, i) => [d.shard ?? `shard ${i + 1}`, d.storageStats || {}]));
  // several documents: the collection is sharded; one, through mongos, does not say which
  return { whole: sumShards(shards), shards, ...(docs.length > 1 ? { sharded: true } : {}) };
}

const SUMMED = ['count', 'size', 'storageSize', 'totalIndexSize', 'freeStorageSize'];

/**
 * The shards' figures as one collection's, as mongos's collStats makes them: counts and bytes
 * summed; the mean size each shard's (an integer: a mongod's avgObjSize is its size divided by
 * its count, rounded down) times its count, over the summed count (cluster_coll_stats_cmd.cpp);
 * nindexes the most any shard has.
 */
function sumShards(shards) {
  const per = Object.values(shards);
  const whole = {};
  for (const field of SUMMED) {
    const values = per.map((s) => s[field]).filter((v) => v !== undefined && v !== null).map(Number);
    if (values.length) whole[field] = values.reduce((a, b) => a + b, 0);
  }
  const counted = per.filter((s) => Number(s.count) > 0);
  if (whole.count > 0 && counted.length && counted.every((s) => Number.isFinite(Number(s.avgObjSize)))) {
    whole.avgObjSize = counted.reduce((n, s) => n + Number(s.avgObjSize) * Number(s.count), 0) / whole.count;
  } else if (whole.count > 0 && Number.isFinite(whole.size)) {
    whole.avgObjSize = whole.size / whole.count;
  }
  const nindexes = per.map((s) => s.nindexes).filter(Number.isFinite);
  if (nindexes.length) whole.nindexes = Math.max(...nindexes);
  const first = per[0] || {};
  for (const field of ['paddingFactor', 'userFlags']) if (first[field] !== undefined) whole[field] = first[field];
  return whole;
}

/** WiredTiger's figures of one collection (or one shard's part of it). */
function wiredTigerFields(wt) {
  const fields = {};
  if (!wt) return fields;
  const reusable = wt['block-manager']?.['file bytes available for reuse'];
  if (reusable !== undefined) fields.reusableBytes = Number(reusable);
  const compressor = /block_compressor=(\w*)/.exec(wt.creationString || '');
  if (compressor) fields.blockCompressor = compressor[1] || 'none';
  return fields;
}

/**
 * The fields that tell engines apart. With shards, each shard's WiredTiger figures are read from
 * that shard (mongos keeps the first shard's only): reusable bytes and free storage summed, the
 * block compressor named once where every shard has the same one, else each shard's.
 */
function engineFields(raw, shards = null) {
  const fields = {};
  if (raw.paddingFactor !== undefined) fields.paddingFactor = raw.paddingFactor;
  if (raw.userFlags !== undefined) fields.userFlags = raw.userFlags;
  if (!shards) {
    if (raw.freeStorageSize !== undefined) fields.freeStorageSize = raw.freeStorageSize;
    return { ...fields, ...wiredTigerFields(raw.wiredTiger) };
  }
  const per = Object.values(shards).map((s) => ({ ...wiredTigerFields(s.wiredTiger), freeStorageSize: s.freeStorageSize }));
  for (const field of ['freeStorageSize', 'reusableBytes']) {
    const values = per.map((s) => s[field]).filter((v) => v !== undefined && v !== null).map(Number);
    if (values.length) fields[field] = values.reduce((a, b) => a + b, 0);
  }
  const compressors = [...new Set(per.map((s) => s.blockCompressor).filter(Boolean))];
  if (compressors.length) fields.blockCompressor = compressors.join(', ');
  return fields;
}

/** Each shard's own figures, for the record: { shardName: { count, size, storageSize, ... } }. */
function shardFigures(shards) {
  return Object.fromEntries(Object.entries(shards).map(([name, s]) => {
    const figures = {};
    for (const field of [...SUMMED, 'avgObjSize', 'nindexes']) if (s[field] !== undefined && s[field] !== null) figures[field] = Number(s[field]);
    return [name, { ...figures, ...wiredTigerFields(s.wiredTiger) }];
  }));
}

/**
 * What mongod's collStats answers for a collection that does not exist (storage_stats.cpp: size,
 * count, storageSize, totalIndexSize and nindexes 0), given without asking.
 */
const MISSING = Object.freeze({ count: 0, size: 0, storageSize: 0, totalIndexSize: 0, nindexes: 0 });

/**
 * A collection's stats and exact count, read with the run's read preference (reads: statsReads'
 * options; without, the database's own). `exists: false` (from collectionExists) answers without
 * asking the server; `say` gets one line where the server refuses a read. The count is read first:
 * on a member that lags, a causal session's read waits for it to catch up, and the stats after it
 * are of a member that has the step's writes.
 */
async function readCollectionStats(db, name, { exists = null, say = () => {}, reads = null } = {}) {
  if (exists === false) return { ...MISSING };
  reads ??= { readPreference: db.readPreference };
  let count;
  try {
    // stats().count is -1 on FerretDB's PostgreSQL backend until the table is analyzed.
    count = await db.collection(name).countDocuments({}, reads);
  } catch (err) {
    if (!isRefused(err)) throw err;
    say(`the server refused a count (${refusalText(err)}): counts are not checked`);
  }
  let raw = null;
  try {
    raw = await rawStats(db, name, reads);
  } catch (err) {
    if (!isRefused(err)) throw err;
    say(`the server refused collStats (${refusalText(err)}): sizes are not recorded`);
  }
  const whole = raw?.whole;
  return {
    ...(count === undefined ? {} : { count }),
    ...(whole ? {
      size: whole.size,
      storageSize: whole.storageSize,
      totalIndexSize: whole.totalIndexSize,
      avgObjSize: whole.avgObjSize,
      nindexes: whole.nindexes,
      ...engineFields(whole, raw.shards),
    } : {}),
    // through mongos: whether the collection is sharded, its database's primary shard, and each shard's own figures
    ...(raw?.sharded === undefined ? {} : { sharded: raw.sharded }),
    ...(raw?.primaryShard ? { primaryShard: raw.primaryShard } : {}),
    ...(raw?.shards ? { shards: shardFigures(raw.shards) } : {}),
  };
}

/** The fields readCollectionStats adds to a measurement (the rest of a record is what the script printed). */
const STATS_FIELDS = ['count', 'size', 'storageSize', 'totalIndexSize', 'avgObjSize', 'nindexes', 'paddingFactor', 'userFlags',
  'freeStorageSize', 'reusableBytes', 'blockCompressor', 'sharded', 'primaryShard', 'shards', 'sizesAt', 'sizesEstimated', 'expectedCount', 'countOk', 'statsMember'];

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
async function collectionExists(db, name, reads = null) {
  reads ??= { readPreference: db.readPreference };
  try {
    const infos = await db.listCollections({ name }, { ...reads, nameOnly: true }).toArray();
    return infos.some((c) => c.name === name);
  } catch {
    return null;
  }
}

module.exports = {
  readCollectionStats, collectionExists, statsReads, checkpointPolicy, settleSizes, STATS_FIELDS, rawStats, engineFields, sumShards,
};
