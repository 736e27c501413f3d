'use strict';
// What a server's deployment is, beside its version: its topology (a standalone, a replica set,
// which changes how WiredTiger journals a rewritten document and what a write that names no `w`
// waits for, a sharded cluster behind mongos, or Atlas), the write concern a write that names
// none gets, how far the server is (round trip), what a mongod warned of at start-up,
// and the allocator setting the kit starts mongod 8 with. Each is read from the server (or decided
// before the spawn) and recorded, never assumed from a spec's name.
const { versionParts } = require('./versions');
const { SERVER_CODES, serverCode } = require('../errors');

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

const delayed = (member) => Number(member.secondaryDelaySecs ?? member.slaveDelay ?? 0) > 0;

/**
 * The members of a replica set, as many as the server will say: replSetGetConfig lists them all,
 * each with its settings (clusterMonitor may read it); where that is refused, hello lists the
 * electable members (hosts), the other data-bearing ones (passives: priority 0) and the arbiters,
 * and a hidden or delayed member in none of them ("hello", MongoDB manual, replica sets;
 * TopologyCoordinator::fillHelloForReplSet, src/mongo/db/repl/topology_coordinator.cpp, skips
 * a member that isHidden() or has a secondary delay). Returns { count, dataBearing, arbiters,
 * hidden, passive, delayed (hidden and delayed null where not known), from }.
 */
async function replicaSetMembers(admin, hello) {
  try {
    const members = (await admin.command({ replSetGetConfig: 1 }))?.config?.members;
    if (Array.isArray(members) && members.length) {
      const dataBearing = members.filter((m) => !m.arbiterOnly);
      return {
        count: members.length,
        dataBearing: dataBearing.length,
        arbiters: members.length - dataBearing.length,
        hidden: dataBearing.filter((m) => m.hidden).length,
        passive: dataBearing.filter((m) => !m.hidden && !delayed(m) && Number(m.priority) === 0).length,
        delayed: dataBearing.filter(delayed).length,
        from: 'replSetGetConfig',
      };
    }
  } catch { /* not allowed: hello says what it can */ }
  const list = (field) => (Array.isArray(hello?.[field]) ? hello[field].length : 0);
  const listed = Math.max(1, list('hosts') + list('passives'));
  return {
    count: listed + list('arbiters'),
    dataBearing: listed,
    arbiters: list('arbiters'),
    hidden: null,
    passive: list('passives'),
    delayed: null,
    from: 'hello (a hidden or delayed member is listed nowhere in it)',
  };
}

/** "3 members: 1 arbiter, 1 hidden": how many, and those that are not ordinary data-bearing members. */
function membersText(members) {
  const n = members.count;
  const kinds = [
    members.arbiters ? `${members.arbiters} arbiter${members.arbiters === 1 ? '' : 's'}` : null,
    members.hidden ? `${members.hidden} hidden` : null,
    members.passive ? `${members.passive} passive` : null,
    members.delayed ? `${members.delayed} delayed` : null,
  ].filter(Boolean);
  const unknown = members.hidden === null ? '; hidden and delayed ones not counted' : '';
  return `${n} member${n === 1 ? '' : 's'}${kinds.length ? `: ${kinds.join(', ')}` : ''}${unknown}`;
}

/**
 * The topology in words, as summary.md and the server's name say it: "standalone", "replica set
 * (N members...)" (members as replicaSetMembers counted them; without, the hello's hosts),
 * "sharded cluster (mongos)", each after "Atlas <tier>, " on Atlas.
 */
function topologyText(hello, atlas = null, members = null) {
  let shape = 'standalone';
  if (hello?.msg === 'isdbgrid') shape = 'sharded cluster (mongos)';
  else if (hello?.setName) {
    const counted = members ?? { count: Array.isArray(hello.hosts) ? hello.hosts.length : 1, hidden: 0 };
    shape = `replica set (${membersText(counted)})`;
  }
  return atlas ? `Atlas${atlas.tier ? ` ${atlas.tier}` : ''}, ${shape}` : shape;
}

/**
 * The read and write concerns an operation that names none gets (getDefaultRWConcern, 4.4 and
 * later; a mongos answers it for the whole cluster): { defaultWriteConcern, defaultReadConcern },
 * each with its source (implicit, or global where someone set it). On a replica set or a sharded
 * cluster of 5.0 and later the write concern is w:majority (w:1 where arbiters leave too few
 * data-bearing voters), and the read concern "local" ("Default MongoDB Read Concerns/Write
 * Concerns", MongoDB manual). On one member a majority is that member, but a majority write waits
 * for the journal (writeConcernMajorityJournalDefault), which a standalone's w:1 does not. The
 * scripts name the write concern of every write they time, so this default reaches only their
 * untimed writes. A refusal is told apart by its code (concernsRefused), never by its words.
 * @param hello the server's hello: a server without the command (CommandNotFound) is one without
 *   replication only where hello says it is a standalone
 */
async function defaultConcerns(admin, hello = null) {
  try {
    const answer = await admin.command({ getDefaultRWConcern: 1 });
    return {
      defaultWriteConcern: answer?.defaultWriteConcern ? { ...answer.defaultWriteConcern, source: answer.defaultWriteConcernSource || null } : null,
      defaultReadConcern: answer?.defaultReadConcern ? { ...answer.defaultReadConcern, source: answer.defaultReadConcernSource || null } : null,
    };
  } catch (err) {
    return concernsRefused(err, hello);
  }
}

/**
 * What a refused getDefaultRWConcern says of the defaults, by the refusal's code:
 * - 51300, "not supported on standalone nodes": no replication, so a write is acknowledged once
 *   applied (w:1) and a read is local;
 * - CommandNotFound from a server whose hello says it is a standalone (FerretDB, a mongod before
 *   4.4): no replication either;
 * - Unauthorized (13): the command needs the clusterMonitor role (getDefaultRWConcern's action on
 *   the cluster resource: src/mongo/db/auth/role_graph_builtin_roles.cpp), which a user with
 *   readWriteAnyDatabase lacks. Such a user's replica set defaults to w:majority, not w:1: the
 *   defaults are not known, and the record says so (w and level null);
 * - anything else (51301 from a shard's member reached directly, CommandNotFound from a replica
 *   set before 4.4, a network error): not known either, the refusal named.
 */
function concernsRefused(err, hello) {
  const code = serverCode(err);
  // the server's name for the code where it has one (Location51300 names nothing): the words stay out
  const named = err?.codeName && !/^Location\d+$/.test(err.codeName) ? err.codeName : null;
  const said = `getDefaultRWConcern: ${named || (code === null ? String(err?.message || err).split('\n')[0] : `code ${code}`)}`;
  let source = null;
  if (code === SERVER_CODES.standalone) source = `no replication (${said}, a standalone)`;
  else if (code === SERVER_CODES.CommandNotFound && topologyOf(hello) === 'standalone') source = `no replication (${said}, and hello says a standalone)`;
  if (source) return { defaultWriteConcern: { w: 1, source }, defaultReadConcern: { level: 'local', source } };
  source = code === SERVER_CODES.Unauthorized
    ? 'unknown (not permitted: getDefaultRWConcern needs the clusterMonitor role)'
    : `unknown (${said})`;
  return { defaultWriteConcern: { w: null, source }, defaultReadConcern: { level: null, source } };
}

/**
 * What the kit's clients (and the scripts, given the same URI) do that changes what is measured:
 * { retryWrites (the URI's; the driver's default is true), retryableWrites (whether this server
 * takes them: a replica set or a mongos with sessions, as the driver's supportsRetryableWrites
 * asks), readPreference ({ mode, tags, maxStalenessSeconds, source: the URI or the default }) }.
 * An acknowledged retryable write carries a txnNumber, and the server records each in
 * config.transactions; "writes with write concern 0 are not retryable" ("Retryable Writes",
 * MongoDB manual), so only an acknowledged side would pay: the scripts' own connections for their
 * timed writes turn them off (the unacknowledged writes block), and each record says so.
 */
function clientSettings(client, hello) {
  const retryWrites = client?.options?.retryWrites !== false;
  const rp = client?.readPreference;
  const tags = (rp?.tags || []).filter((t) => t && Object.keys(t).length).map((t) => ({ ...t }));
  const named = /[?&]readPreference=/i.test(String(client?.s?.url ?? ''));
  return {
    retryWrites,
    retryableWrites: retryWrites && topologyOf(hello) !== 'standalone' && hello?.logicalSessionTimeoutMinutes != null,
    readPreference: {
      mode: rp?.mode || 'primary',
      ...(tags.length ? { tags } : {}),
      ...(Number.isFinite(rp?.maxStalenessSeconds) && rp.maxStalenessSeconds > 0 ? { maxStalenessSeconds: rp.maxStalenessSeconds } : {}),
      source: named ? 'the URI' : 'the default',
    },
    ...uriConcerns(client),
  };
}

/**
 * The read and write concerns the URI names (readConcernLevel, w, journal, wtimeoutMS: null where
 * it names none), as the driver parsed them, and what the operations the scripts time take:
 * { uriConcerns, timedConcerns }. Every write they time names its own write concern, w:0 or w:1
 * without j, and the driver then takes that one whole, none of the URI's (resolveOptions,
 * src/utils.ts, mongodb 7.9: WriteConcern.fromOptions(options) ?? parent.writeConcern; the kit's
 * lean path alike), so the URI's w and journal reach only their untimed writes. No read they time
 * names a read concern: each takes the URI's readConcernLevel (ReadConcern.fromOptions(options) ??
 * parent.readConcern), else the server's default read concern (the record's defaultReadConcern).
 * A majority or linearizable level makes every timed read wait for the majority, and the
 * verdicts resting on reads say so (analysis/members.js).
 */
function uriConcerns(client) {
  const rc = client?.readConcern;
  const wc = client?.writeConcern;
  const or = (v) => (v === undefined ? null : v);
  const level = or(rc?.level);
  return {
    uriConcerns: { readConcernLevel: level, w: or(wc?.w), journal: or(wc?.journal), wtimeoutMS: or(wc?.wtimeoutMS) },
    timedConcerns: {
      writeConcern: { from: 'each timed write names its own, w:0 or w:1 without j (its record\'s writeConcern)', uriReaches: false },
      readConcern: { level, from: level ? 'the URI (readConcernLevel)' : 'none named: the server\'s default read concern' },
    },
  };
}

/**
 * How far the server is through the orchestrator's driver client: the median time of `pings`
 * pings (at least 10), in ms, after one that is not counted (it may still be settling the
 * connection). A server the kit started is on this machine's loopback, and this is its record's
 * roundTripMs; a user's server has its round trip timed again as the scripts see it (in their
 * shell, on their kind of connection: run/round-trip.js), and this stays beside it
 * (driverRoundTripMs): a ping through the driver pays the driver's cost per call, may reach
 * another mongos than the scripts', and through mongos holds no hop to a shard (mongos answers a
 * ping itself). null where a ping fails.
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
 * same in words); a replica set's members, hidden, passive and arbiters counted; the default
 * read and write concerns; on a mongos, that the kit shards none of its collections (they live
 * whole on their database's primary shard, as the articles' single servers held them); the
 * allocator setting the kit started mongod with (server.allocator, from the launcher).
 * @param atlas what describeAtlas said (servers/atlas.js), or null where the server is not Atlas
 */
async function describeDeployment(admin, hello, server = {}, atlas = null) {
  const shape = topologyOf(hello);
  const members = shape === 'replicaSet' ? await replicaSetMembers(admin, hello) : null;
  const facts = { topology: atlas ? 'atlas' : shape, topologyText: topologyText(hello, atlas, members) };
  if (atlas) facts.atlas = { ...atlas, shape };
  if (hello?.setName) facts.replicaSet = hello.setName;
  if (members) facts.members = members;
  const concerns = await defaultConcerns(admin, hello);
  if (concerns.defaultWriteConcern) facts.defaultWriteConcern = concerns.defaultWriteConcern;
  if (concerns.defaultReadConcern) facts.defaultReadConcern = concerns.defaultReadConcern;
  if (shape === 'sharded') facts.collectionsSharded = false;
  if (server.allocator) facts.allocator = server.allocator;
  return facts;
}

module.exports = {
  RSEQ_OFF, allocatorEnvironment, runtimeGlibc, topologyOf, topologyText, replicaSetMembers, membersText, defaultConcerns, concernsRefused,
  clientSettings, uriConcerns, measureRoundTrip, warningText, mongodStartupWarnings, describeDeployment,
};
