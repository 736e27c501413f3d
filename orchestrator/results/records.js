'use strict';
// Helpers every consumer of measurement records shares, so tables, charts, verdicts and compare
// select records the same way.

/** Whether a record belongs to a table, chart or finding: its step, and every field of its `where`. */
function matches(record, spec) {
  if (spec.step && record.step !== spec.step) return false;
  return Object.entries(spec.where || {}).every(([k, v]) => record[k] === v);
}

/** The records of one scenario on one server. */
function recordsOf(records, { scenario, server }) {
  return records.filter((r) => (!scenario || r.scenario === scenario) && (!server || r.server === server));
}

/**
 * The kind of server a server record describes, as scenario descriptors name kinds (ferretdb,
 * ferretdb-pg, ferretdb2, mongod, mongod:zstd...; mongod-rs:zstd is mongod:zstd): FerretDB whatever the spec (a mongod spec whose
 * binary serves FerretDB, as the kit's test stand-in does, is FerretDB), 2.x being ferretdb2 (it
 * runs only on DocumentDB); else from the spec where it names one, else (embedded, or a user's
 * server) from what the server said it is.
 */
function serverKind(server) {
  if (server.product === 'FerretDB') {
    if (Number(/\d+/.exec(server.version || '')?.[0]) >= 2) return 'ferretdb2';
    return /postgres/i.test(server.engine || '') ? 'ferretdb-pg' : 'ferretdb';
  }
  // mongod-rs (a replica set of one member) is a mongod: its topology is recorded apart (topology)
  const spec = String(server.spec || '').replace(/@[^:]*/, '').replace(/^mongod-rs\b/, 'mongod');
  if (/^(ferretdb|ferretdb-pg|mongod)(:\w+)?$/.test(spec)) return spec;
  if (server.product === 'MongoDB') return 'mongod';
  return null;
}

/** The topology keys a server record holds (servers/deployment.js), as a scenario's notes key them. */
const TOPOLOGY_KEYS = ['standalone', 'replicaSet', 'sharded', 'atlas'];

/**
 * A server record's topology as a key (standalone, replicaSet, sharded, atlas), null where it
 * names none. Records written before the keys held the words ("replica set (1 member)",
 * "sharded cluster (mongos)"), which old run folders still hold.
 */
function topologyKey(server) {
  const topology = String(server?.topology ?? '');
  if (TOPOLOGY_KEYS.includes(topology)) return topology;
  if (/^replica set/.test(topology)) return 'replicaSet';
  if (/^sharded/.test(topology)) return 'sharded';
  return topology ? topology : null;
}

/** Whether a server's operations went through mongos: a sharded cluster, or Atlas of that shape. */
function throughMongos(server) {
  return topologyKey(server) === 'sharded' || server?.atlas?.shape === 'sharded';
}

/** The topology in words: the record's own (topologyText), or what an older record held. */
function topologyWords(server) {
  if (server?.topologyText) return String(server.topologyText);
  const topology = server?.topology;
  if (!topology) return null;
  return { replicaSet: 'replica set', sharded: 'sharded cluster (mongos)', atlas: 'Atlas' }[topology] ?? String(topology);
}

/**
 * Fields whose value is a clock's reading or made from one: times (…Ms, …Us, …Seconds, ms,
 * seconds), moments (…At), rates and ratios of times (…Rate, …PerSecond, rate, speedup…, growth),
 * spans and overlaps of parallel workers, prose that quotes them (…Text), and how busy the
 * machine was meanwhile (contention). Everything else a measurement line holds (counts, sizes,
 * plans, outcomes, settings) is fixed by the workload and the server, and must not change with
 * the shell that ran the script.
 */
const TIMING_FIELD = /(Ms|Us|Seconds|PerSecond|Rate|At|Spans|Text)$|^(ms|seconds|rate|speedup\w*|growth|text|workersOverlapped|contention)$/;

/**
 * Records whose number depends on time: the per-second samples of a series (kind "sample"); how
 * many there are depends on how long the work took.
 */
function isTimeSample(record) {
  return record.kind === 'sample';
}

/**
 * The bytes a collection takes on disk. After a step of several writers at once they depend on
 * the order in which the writes arrived, a matter of time too (FerretDB on PostgreSQL, a parallel
 * step of two shells at smoke size, one shell kind, one seed: 360,448 bytes in one run, 368,640 in
 * the next).
 */
const BYTE_FIELDS = ['size', 'storageSize', 'totalIndexSize', 'avgObjSize', 'freeStorageSize', 'reusableBytes', 'totalRelationSize', 'dataBytes', 'dataPerCache'];

/**
 * What the server's cache did: the pages a read found missing and read from the file depend on
 * what eviction had left there, a matter of time too.
 */
const CACHE_FIELDS = ['cacheReadPages', 'cacheReadBytes', 'cachePagesPerQuery'];

/**
 * What else the machine was doing while a step ran (the other runs of the kit on it, its load, the
 * CPU others took): the machine's state, not the workload's, and different from one run to the next.
 */
const MACHINE_FIELDS = ['otherRuns', 'machineLoad', 'contention'];

/**
 * A measurement without its timing fields, at any depth (and without its byte sizes where
 * several writers wrote at once, or where the server estimates them from statistics it refreshes
 * in its own time: sizesEstimated): what two runs of one workload must agree on, whatever the shell.
 */
function withoutTimings(value) {
  return stripTimings(value, false);
}

function stripTimings(value, bytesDependOnTime) {
  if (Array.isArray(value)) return value.map((v) => stripTimings(v, bytesDependOnTime));
  if (!value || typeof value !== 'object') return value;
  // a record's shards (through mongos) hold its bytes too, and depend on time as the record's do
  const timeDependentBytes = bytesDependOnTime || value.workers > 1 || value.sizesEstimated === true;
  return Object.fromEntries(Object.entries(value)
    .filter(([k]) => !TIMING_FIELD.test(k) && !CACHE_FIELDS.includes(k) && !MACHINE_FIELDS.includes(k) && !(timeDependentBytes && BYTE_FIELDS.includes(k)))
    .map(([k, v]) => [k, stripTimings(v, timeDependentBytes)]));
}

/** A record's value at a dotted path ("lowMemory.outcome"); undefined where any step of it is missing. */
const valueAt = (record, field) => String(field).split('.').reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), record);

/** A server's own words for a scan in a plan it explained (mongod's COLLSCAN, PostgreSQL's Seq Scan, FerretDB's). */
const SCAN = /\b(COLLSCAN|Seq Scan|table scan|reads every document)\b/i;

/**
 * Whether a record's plan fields (a field named plan…, or …Text: what a script recorded of the
 * server's explain output, as the server wrote it) say the server read every document: read here,
 * where the record is read, so that the analysis decides from a flag, never from words.
 */
function planSaysScan(record) {
  return Object.entries(record).some(([k, v]) => /plan|Text$/i.test(k) && [].concat(v).some((x) => typeof x === 'string' && SCAN.test(x)));
}

/**
 * Whether a record says the server read every document to find the one it wanted: a scan flag
 * (planScans, or an object of it with scan: true, as an upsert's explained plan), documents
 * examined with no key (docsExamined > 1, keysExamined 0), or its plan's own words (planSaysScan).
 */
function readsEveryDocument(record) {
  const counted = (o) => Number.isFinite(o.docsExamined) && o.docsExamined > 1 && o.keysExamined === 0;
  return record.planScans === true || counted(record) || planSaysScan(record)
    || Object.values(record).some((v) => v && typeof v === 'object' && !Array.isArray(v) && (v.scan === true || counted(v)));
}

module.exports = {
  valueAt,
  planSaysScan,
  readsEveryDocument,
  matches, recordsOf, serverKind, withoutTimings, isTimeSample, TIMING_FIELD, TOPOLOGY_KEYS, topologyKey, throughMongos, topologyWords,
};
