'use strict';
// db.coll.stats() as mongosh computes it (shell-api collection.js: stats,
// _getAggregatedCollStats, _aggregateAndScaleCollStats): a $collStats aggregation summed over
// shards and scaled, falling back to the collStats command where the server refuses the stage
// the way old servers do, then trimmed of index details unless asked for. A port, line for line
// in what it computes, so the figures a script reads are mongosh's figures.
const { MongoshInvalidInputError, MongoshRuntimeError, CommonErrors } = require('./errors');

const ONLY_SHARDED_COLLECTIONS = { dropped: { $ne: true }, unsplittable: { $ne: true } };

function coerceToJSNumber(n) {
  if (typeof n === 'number') return n;
  return 'toNumber' in n ? n.toNumber() : n.valueOf();
}

function scaleIndividualShardStatistics(shardStats, scale) {
  const scaled = {};
  for (const field of Object.keys(shardStats)) {
    if (['size', 'maxSize', 'storageSize', 'totalIndexSize', 'totalSize'].includes(field)) {
      scaled[field] = coerceToJSNumber(shardStats[field]) / scale;
    } else if (field === 'scaleFactor') {
      scaled[field] = scale;
    } else if (field === 'indexSizes') {
      const sizes = {};
      for (const key of Object.keys(shardStats[field])) sizes[key] = coerceToJSNumber(shardStats[field][key]) / scale;
      scaled[field] = sizes;
    } else {
      scaled[field] = shardStats[field];
    }
  }
  return scaled;
}

/** The $collStats results of all shards as one stats document (mongosh's field by field rules). */
async function aggregateAndScale(collection, collStats, scale) {
  const result = { ok: 1 };
  const shardStats = {};
  const counts = {};
  const indexSizes = {};
  const clusterTimeseriesStats = {};
  let maxSize = 0;
  let unscaledCollSize = 0;
  let nindexes = 0;
  let timeseriesHasStats = false;
  let timeseriesBucketsNs;
  let timeseriesTotalBucketSize = 0;
  for (const shardResult of collStats) {
    const storage = shardResult.storageStats;
    const shardObjCount = typeof storage.count !== 'undefined' ? storage.count : 0;
    for (const field of Object.keys(storage)) {
      if (['ns', 'ok', 'lastExtentSize', 'paddingFactor'].includes(field)) continue;
      if (['userFlags', 'capped', 'max', 'paddingFactorNote', 'indexDetails', 'wiredTiger'].includes(field)) {
        result[field] ??= storage[field];
      } else if (field === 'timeseries') {
        timeseriesHasStats = true;
        const ts = storage[field];
        if (typeof ts.bucketsNs === 'string') timeseriesBucketsNs ??= ts.bucketsNs;
        for (const [name, stat] of Object.entries(ts)) {
          if (typeof stat === 'string') continue;
          if (name === 'avgBucketSize') {
            timeseriesTotalBucketSize += coerceToJSNumber(ts.bucketCount) * coerceToJSNumber(stat);
          } else {
            if (clusterTimeseriesStats[name] === undefined) clusterTimeseriesStats[name] = 0;
            clusterTimeseriesStats[name] += coerceToJSNumber(stat);
          }
        }
      } else if (['count', 'size', 'storageSize', 'totalIndexSize', 'totalSize', 'numOrphanDocs'].includes(field)) {
        if (counts[field] === undefined) counts[field] = 0;
        counts[field] += coerceToJSNumber(storage[field]);
      } else if (field === 'avgObjSize') {
        unscaledCollSize += coerceToJSNumber(storage[field]) * shardObjCount;
      } else if (field === 'maxSize') {
        maxSize = Math.max(maxSize, coerceToJSNumber(storage[field]));
      } else if (field === 'indexSizes') {
        for (const name of Object.keys(storage[field])) {
          if (indexSizes[name] === undefined) indexSizes[name] = 0;
          indexSizes[name] += coerceToJSNumber(storage[field][name]);
        }
      } else if (field === 'nindexes') {
        const shardIndexes = storage[field];
        if (nindexes === 0 || shardIndexes > nindexes) nindexes = shardIndexes;
      }
    }
    if (shardResult.shard) shardStats[shardResult.shard] = scaleIndividualShardStatistics(storage, scale);
  }
  const ns = `${collection._database._name}.${collection._name}`;
  if (collStats[0].shard) result.shards = shardStats;
  try {
    const config = collection._mongo.getDB('config').getCollection('collections');
    result.sharded = !!(await config._findOne({ _id: { $in: [timeseriesBucketsNs, ns].filter(Boolean) }, ...ONLY_SHARDED_COLLECTIONS }));
  } catch (e) {
    result.sharded = collStats.length > 1;
  }
  for (const [field, count] of Object.entries(counts)) {
    result[field] = ['size', 'storageSize', 'totalIndexSize', 'totalSize'].includes(field) ? count / scale : count;
  }
  if ((timeseriesHasStats || timeseriesBucketsNs) && Object.keys(clusterTimeseriesStats).length > 0) {
    result.timeseries = {
      ...clusterTimeseriesStats,
      avgBucketSize: clusterTimeseriesStats.bucketCount ? timeseriesTotalBucketSize / clusterTimeseriesStats.bucketCount : 0,
      bucketsNs: timeseriesBucketsNs,
    };
  }
  result.indexSizes = {};
  for (const [name, size] of Object.entries(indexSizes)) result.indexSizes[name] = size / scale;
  result.avgObjSize = counts.count > 0 ? unscaledCollSize / counts.count : 0;
  if (result.capped) result.maxSize = maxSize / scale;
  result.ns = ns;
  result.nindexes = nindexes;
  if (collStats[0].storageStats.scaleFactor !== undefined) result.scaleFactor = scale;
  result.ok = 1;
  return result;
}

async function aggregatedCollStats(collection, scale) {
  try {
    const collStats = await collection._aggregateToArray([{ $collStats: { storageStats: { scale: 1 } } }]);
    if (!collStats || collStats[0] === undefined) {
      throw new MongoshRuntimeError(`Error running $collStats aggregation stage on ${collection._fullName()}`, CommonErrors.CommandFailed);
    }
    return await aggregateAndScale(collection, collStats, scale);
  } catch (e) {
    if (e?.codeName === 'StaleConfig' || e?.code === 13388 || e?.codeName === 'FailedToParse') {
      try {
        const legacy = await collection._database._runCommand({ collStats: collection._name, scale: scale || 1 });
        if (!legacy) throw new MongoshRuntimeError(`Error running collStats command on ${collection._fullName()}`, CommonErrors.CommandFailed);
        return legacy;
      } catch (legacyError) {
        throw e;
      }
    }
    throw e;
  }
}

/** mongosh's Collection.stats(scaleOrOptions). */
async function collectionStats(collection, originalOptions = {}) {
  const options = typeof originalOptions === 'number' ? { scale: originalOptions } : originalOptions;
  if (options.indexDetailsKey && options.indexDetailsName) {
    throw new MongoshInvalidInputError('Cannot filter indexDetails on both indexDetailsKey and indexDetailsName', CommonErrors.InvalidArgument);
  }
  if (options.indexDetailsKey && typeof options.indexDetailsKey !== 'object') {
    throw new MongoshInvalidInputError(`Expected options.indexDetailsKey to be a document, got ${typeof options.indexDetailsKey}`, CommonErrors.InvalidArgument);
  }
  if (options.indexDetailsName && typeof options.indexDetailsName !== 'string') {
    throw new MongoshInvalidInputError(`Expected options.indexDetailsName to be a string, got ${typeof options.indexDetailsName}`, CommonErrors.InvalidArgument);
  }
  options.scale = options.scale || 1;
  options.indexDetails = options.indexDetails || false;
  const result = await aggregatedCollStats(collection, options.scale);
  let filterIndexName = options.indexDetailsName;
  if (!filterIndexName && options.indexDetailsKey) {
    for (const spec of await collection._listIndexes()) {
      if (JSON.stringify(spec.key) === JSON.stringify(options.indexDetailsKey)) filterIndexName = spec.name;
    }
  }
  const updateStats = (stats) => {
    if (!stats.indexDetails) return;
    if (!options.indexDetails) { delete stats.indexDetails; return; }
    if (!filterIndexName) return;
    for (const key of Object.keys(stats.indexDetails)) if (key !== filterIndexName) delete stats.indexDetails[key];
  };
  updateStats(result);
  for (const shard of Object.keys(result.shards ?? {})) updateStats(result.shards[shard]);
  return result;
}

module.exports = { collectionStats, coerceToJSNumber };
