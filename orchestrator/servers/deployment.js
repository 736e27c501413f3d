'use strict';
// What a server's deployment is, beside its version: its topology (a standalone, a replica set,
// which changes how WiredTiger journals a rewritten document and what a write that names no `w`
// waits for, a sharded cluster behind mongos, or Atlas), the write concern a write that names
// none gets, how far the server is (round trip), what a mongod warned of at start-up,
// and the allocator setting the kit starts mongod 8 with. Each is read from the server (or decided
// before the spawn) and recorded, never assumed from a spec's name.
const { versionParts } = require('./versions');

/** The GLIBC_TUNABLES entry MongoDB asks for on glibc 2.35 and later ("TCMalloc Performance Optimization"). */
const RSEQ_OFF = 'glibc.pthread.rseq=0';

/**
 * The environment a mongod is spawned with, and why: mongod 8.x's TCMalloc (tcmalloc-google) keeps
 * its per-CPU caches only where glibc does not hold the thread's restartable sequence itself;
 * glibc 2.35 and later do by default, and then mongod falls back to per-thread caches and warns at
 * start-up. MongoDB's fix is GLIBC_TUNABLES=glibc.pthread.rseq=0 in mongod's environment. Added
 * to any tunables the user already set; a user's own rseq setting is kept as it is.
 * @param glibc         the runtime's glibc version ("2.36"), or null where there is none (musl, macOS)
 * @param mongodVersion the version of the binary about to start
 * @returns { env: {...}|null (null: the kit's own environment, unchanged), tunables, why }
 */
function allocatorEnvironment({ glibc, mongodVersion, env = process.env }) {
  const major = versionParts(mongodVersion)?.[0];
  const g = versionParts(glibc);
  if (!major || major < 8) return { env: null, tunables: null, why: `mongod ${mongodVersion} does not use tcmalloc-google's per-CPU caches` };
  if (!g) return { env: null, tunables: null, why: 'no glibc here' };
  if (g[0] < 2 || (g[0] === 2 && g[1] < 35)) return { env: null, tunables: null, why: `glibc ${glibc} does not take rseq for itself` };
  const current = env.GLIBC_TUNABLES || '';
  if (/(^|:)glibc\.pthread\.rseq=/.test(current)) return { env: null, tunables: current, why: 'GLIBC_TUNABLES already sets glibc.pthread.rseq' };
  const tunables = current ? `${current}:${RSEQ_OFF}` : RSEQ_OFF;
  return { env: { ...env, GLIBC_TUNABLES: tunables }, tunables, why: `glibc ${glibc} (2.35 or later) takes rseq for itself unless told not to` };
}

/** The glibc this Node runs on ("2.36"), or null (the same process spawns mongod). */
function runtimeGlibc() {
  try {
    return process.report.getReport().header.glibcVersionRuntime || null;
  } catch {
    return null;
  }
}

/**
 * A deployment's topology from its hello, as a key the verdicts and the scenarios' notes can
 * use: "standalone", "replicaSet", or "sharded" (a mongos answers msg "isdbgrid"). Atlas is a
 * topology of its own in the record (describeDeployment), whatever its shape.
 */
function topologyOf(hello) {
  if (hello?.msg === 'isdbgrid') return 'sharded';
  if (hello?.setName) return 'replicaSet';
  return 'standalone';
}

/**
 * The topology in words, as summary.md and the server's name say it: "standalone", "replica set
 * (N members)" (N counts the members the hello lists: hosts), "sharded cluster (mongos)", each
 * after "Atlas <tier>, " on Atlas.
 */
function topologyText(hello, atlas = null) {
  let shape = 'standalone';
  if (hello?.msg === 'isdbgrid') shape = 'sharded cluster (mongos)';
  else if (hello?.setName) {
    const members = Array.isArray(hello.hosts) ? hello.hosts.length : 1;
    shape = `replica set (${members} member${members === 1 ? '' : 's'})`;
  }
  return atlas ? `Atlas${atlas.tier ? ` ${atlas.tier}` : ''}, ${shape}` : shape;
}

/**
 * The write concern a write that names none gets (getDefaultRWConcern, 4.4 and later; a mongos
 * answers it for the whole cluster): on a replica set or a sharded cluster of 5.0 and later,
 * w:majority unless someone set another (`source`: implicit or global). On one member a majority
 * is that member, but a majority write waits for the journal (writeConcernMajorityJournalDefault),
 * which a standalone's w:1 does not. null where the server does not say (a standalone refuses
 * the command: no default other than w:1 there). The scripts name the write concern of every
 * write they time, so this default reaches only their untimed writes.
 */
async function defaultWriteConcern(admin) {
  try {
    const answer = await admin.command({ getDefaultRWConcern: 1 });
    if (!answer?.defaultWriteConcern) return null;
    return { ...answer.defaultWriteConcern, source: answer.defaultWriteConcernSource || null };
  } catch {
    return null;
  }
}

/**
 * How far the server is: the median time of `pings` pings (at least 10), in ms, after one that
 * is not counted (it may still be settling the connection). Every acknowledged operation a
 * script times carries one of these; where it is most of an operation's time, the network, not
 * the server, decided the figure (orchestrator/analysis/network.js). null where a ping fails.
 */
async function measureRoundTrip(admin, pings = 11) {
  const n = Math.max(10, pings);
  const times = [];
  try {
    await admin.command({ ping: 1 });
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await admin.command({ ping: 1 });
      times.push(performance.now() - t0);
    }
  } catch {
    return null;
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
  return Math.round(median * 1000) / 1000;
}

/** One startup warning of mongod's structured log as one line: its message and its attributes. */
function warningText(line) {
  let entry;
  try { entry = typeof line === 'string' ? JSON.parse(line) : line; } catch { return String(line); }
  if (!entry || typeof entry.msg !== 'string') return String(line);
  const attr = Object.entries(entry.attr || {}).map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return attr.length ? `${entry.msg} (${attr.join(', ')})` : entry.msg;
}

/**
 * What mongod warned of at start-up (getLog startupWarnings: its allocator, transparent huge
 * pages, vm.max_map_count, access control...), one line each; [] where it warned of nothing or
 * keeps no such log.
 */
async function mongodStartupWarnings(admin) {
  try {
    const lines = (await admin.command({ getLog: 'startupWarnings' })).log || [];
    return lines.map(warningText);
  } catch {
    return [];
  }
}

/**
 * The deployment facts of a server for its record: `topology` (a key: standalone, replicaSet,
 * sharded, or atlas with `atlas`: its tier where the server says it) and `topologyText` (the
 * same in words); where a replica set or a mongos makes it mean something, the default write
 * concern; on a mongos, that the kit shards none of its collections (they live whole on their
 * database's primary shard, as the articles' single servers held them); the allocator setting
 * the kit started mongod with (server.allocator, from the launcher).
 * @param atlas what describeAtlas said (servers/atlas.js), or null where the server is not Atlas
 */
async function describeDeployment(admin, hello, server = {}, atlas = null) {
  const shape = topologyOf(hello);
  const facts = { topology: atlas ? 'atlas' : shape, topologyText: topologyText(hello, atlas) };
  if (atlas) facts.atlas = { ...atlas, shape };
  if (hello?.setName) facts.replicaSet = hello.setName;
  if (shape !== 'standalone') {
    const wc = await defaultWriteConcern(admin);
    if (wc) facts.defaultWriteConcern = wc;
  }
  if (shape === 'sharded') facts.collectionsSharded = false;
  if (server.allocator) facts.allocator = server.allocator;
  return facts;
}

module.exports = {
  RSEQ_OFF, allocatorEnvironment, runtimeGlibc, topologyOf, topologyText, defaultWriteConcern, measureRoundTrip, warningText, mongodStartupWarnings, describeDeployment,
};
