'use strict';
// Whether the two sides of a comparison did the same work: what each promised about a write
// (acknowledged or not; flushed per write, per group within an interval, or not at all), the
// store settings that promise was read from, the indexes each had, and whether its timed blocks
// ran on a warm cache ("apples vs apples", Raasveldt et al., Fair Benchmarking Considered
// Difficult, DBTest 2018, Appendix A). Made once here from what the run recorded (each server
// record's `store`, read back from the store: servers/store-settings.js; the baseline's
// sessionSettings, read on the session that ran its timed blocks), carried by the verdict as
// `conditions`, and only rendered by the views.
const { matches } = require('../results/records');

/** Durability, from most to least: each write flushed before it was acknowledged; flushed in groups; never forced. */
const PER_WRITE = 'per-write';
const PER_GROUP = 'per-group';
const NONE = 'none';
const UNKNOWN = 'unknown';

/** A PostgreSQL duration as SHOW prints it ("200ms", "1s", "10min") in ms; null where it is none of those. */
function durationMs(text) {
  const m = /^(\d+(?:\.\d+)?)\s*(us|ms|s|min|h)?$/.exec(String(text ?? '').trim());
  if (!m) return null;
  const scale = { us: 0.001, ms: 1, s: 1000, min: 60000, h: 3600000 }[m[2] || 'ms'];
  return Number(m[1]) * scale;
}

/** Settings as { name: value }: the store's ({ name: { value, source } }) flattened. */
const valuesOf = (settings) => Object.fromEntries(Object.entries(settings || {}).filter(([, v]) => v && typeof v === 'object' && 'value' in v).map(([k, v]) => [k, v.value]));

/**
 * What PostgreSQL promised of a commit, from its settings ("Asynchronous Commit", PostgreSQL
 * manual): fsync off, nothing is forced to disk; synchronous_commit off, a commit returns before
 * its WAL is flushed, which the WAL writer does within three times wal_writer_delay; otherwise
 * (on, local, remote_write, remote_apply) the commit returns once its WAL is flushed.
 */
function postgresDurability(values) {
  if (!values || values.fsync === undefined || values.synchronous_commit === undefined) return { durability: UNKNOWN, groupIntervalMs: null };
  if (values.fsync === 'off') return { durability: NONE, groupIntervalMs: null };
  if (values.synchronous_commit === 'off') {
    const delay = durationMs(values.wal_writer_delay);
    return { durability: PER_GROUP, groupIntervalMs: delay === null ? null : 3 * delay };
  }
  return { durability: PER_WRITE, groupIntervalMs: null };
}

/**
 * What a mongod promised of a write with this write concern ("Journaling" and "Write Concern",
 * MongoDB manual): an in-memory engine keeps nothing; j:true waits for the journal; otherwise the
 * journal is flushed in groups every journalCommitIntervalMs (default 100), or, where the journal
 * is off (a release that took --nojournal), at each checkpoint (syncPeriodSecs).
 */
function mongodDurability(settings, writeConcern) {
  if (!settings) return { durability: UNKNOWN, groupIntervalMs: null };
  if (settings.engine === 'inMemory' || settings.persistent === false) return { durability: NONE, groupIntervalMs: null };
  if (/\bj:\s*true\b/.test(String(writeConcern))) return { durability: PER_WRITE, groupIntervalMs: null };
  const journalOff = settings.commandLine?.journal?.enabled === false;
  if (journalOff) {
    const secs = Number(settings.commandLine?.syncPeriodSecs ?? 60);
    return { durability: PER_GROUP, groupIntervalMs: Number.isFinite(secs) ? secs * 1000 : null };
  }
  return { durability: PER_GROUP, groupIntervalMs: settings.journalCommitIntervalMs ?? null };
}

/**
 * The sides of a check: its two selections (ratio, near; a growth's series and its flat one; a
 * check across two servers, its selection on each, as fromServer), or none.
 */
function selectionsOf(check, across = null) {
  if (across?.length === 2) return across.map((server) => ({ ...(check?.where || {}), fromServer: server }));
  if (check?.num && check?.den) return [check.num, check.den];
  if (check?.grows && check?.flat?.where) return [check.grows, check.flat.where];
  return [];
}

/** A selection's name: its values but the step ("sql", "save", "unsafe embedded"). */
const labelOf = (sel) => Object.entries(sel).filter(([k]) => k !== 'fromServer' && k !== 'step').map(([, v]) => v).join(' ');

/** The records of a side: its server's (a baseline's as paired with this server), of its selection. */
function recordsOfSide(records, sel, server) {
  const { fromServer, ...where } = sel;
  return records.filter((r) => (fromServer ? r.server === fromServer && (!r.forServers || r.forServers.includes(server)) : r.server === server) && matches(r, { where }));
}

/** The one value records agree on, 'mixed' where they differ, null where none says it. */
function agreed(values) {
  const seen = [...new Set(values.filter((v) => v !== undefined && v !== null).map((v) => JSON.stringify(v)))];
  if (!seen.length) return null;
  return seen.length === 1 ? JSON.parse(seen[0]) : 'mixed';
}

/** A store in words: "PostgreSQL 15.18", "WiredTiger", "SQLite". */
function storeWords(store) {
  if (!store?.product) return null;
  const version = /^\d+(\.\d+)*/.exec(String(store.version ?? ''))?.[0];
  return version ? `${store.product} ${version}` : store.product;
}

/**
 * One side's conditions: { name, server, store, acknowledged (true, false, 'mixed', or null: not a
 * write), durability, groupIntervalMs, writeConcern, settings (the values they rest on), indexes
 * (how many the side's table or collection had, null where not recorded), warmCache (a warm-up
 * block of the side ran before its counted ones; null where it ran no blocks), unknown (what was
 * not read, and why) }.
 */
function sideConditions(sel, ctx) {
  const server = sel.fromServer || ctx.server;
  const record = (ctx.serverRecords || []).find((r) => r.server === server) || null;
  const recs = recordsOfSide(ctx.records || [], sel, ctx.server);
  const blocks = recordsOfSide(ctx.blocks || [], sel, ctx.server);
  const store = record?.store || null;
  const label = labelOf(sel);
  const side = { name: label ? `${label} (${server})` : server, server, store: storeWords(store) };
  const unknown = [];
  if (store?.unread) unknown.push(`${server}'s settings not read (${store.unread})`);

  // a SQL baseline's statement returns once committed: every write acknowledged; a server's, its write concern
  const sessions = recs.filter((r) => r.sessionSettings);
  const sql = Boolean(sel.fromServer) && (store?.product === 'PostgreSQL' || record?.product === 'PostgreSQL' || sessions.length > 0);
  const writeConcern = sql ? null : agreed(recs.map((r) => r.writeConcern));
  const writes = sql || writeConcern !== null;
  side.acknowledged = sql ? true : writeConcern === null ? null : writeConcern === 'mixed' ? 'mixed' : !/^w:\s*0\b/.test(writeConcern);
  side.writeConcern = writeConcern;

  let settings = null;
  if (sql) {
    // the timed sessions' own settings (a SET there shows), else the store's as a new session starts with them
    const session = agreed(sessions.map((r) => JSON.stringify(valuesOf(r.sessionSettings))));
    if (session === 'mixed' || sessions.some((r) => r.sessionSettings.differsAcrossConnections)) unknown.push(`${server}'s timed sessions ran under different settings`);
    else if (session) settings = JSON.parse(session);
    else if (store?.settings) settings = valuesOf(store.settings);
  } else if (writes && store?.product === 'PostgreSQL' && store.settings) {
    settings = valuesOf(store.settings);
  } else if (writes && ['WiredTiger', 'inMemory'].includes(store?.product) && !store.unread) {
    settings = { journalCommitIntervalMs: store.settings?.journalCommitIntervalMs ?? null, engine: store.settings?.engine ?? null, j: /\bj:\s*true\b/.test(String(writeConcern)) };
  }
  let durability = { durability: null, groupIntervalMs: null };
  if (writes && settings) durability = settings.synchronous_commit !== undefined || sql ? postgresDurability(settings) : mongodDurability(store.settings, writeConcern);
  else if (writes) durability = { durability: UNKNOWN, groupIntervalMs: null };
  if (writes && !store && !settings && !unknown.length) unknown.push(`${server} recorded no store settings`);
  Object.assign(side, durability, { settings });

  const indexCounts = recs.map((r) => (Array.isArray(r.indexes) ? r.indexes.length : r.nindexes));
  side.indexes = agreed(indexCounts);
  side.warmCache = blocks.length ? blocks.some((b) => b.warmup) : null;
  if (unknown.length) side.unknown = unknown;
  return side;
}

/** A side's durability in words: "flushed each write (synchronous_commit on, fsync on)". */
function durabilityWords(side) {
  const s = side.settings || {};
  const pg = s.synchronous_commit !== undefined ? ` (synchronous_commit ${s.synchronous_commit}, fsync ${s.fsync})` : '';
  const j = s.journalCommitIntervalMs !== undefined ? ` (j:${s.j ? 'true' : 'false'}, journal every ${s.journalCommitIntervalMs ?? '?'} ms)` : '';
  switch (side.durability) {
    case PER_WRITE: return `flushed each write${pg}${j}`;
    case PER_GROUP: return `flushed writes in groups${side.groupIntervalMs ? `, within ${side.groupIntervalMs} ms` : ''}${pg}${j}`;
    case NONE: return `forced no write to disk${pg}`;
    default: return 'durability unknown';
  }
}

const ackWords = (side) => (side.acknowledged === true ? `acknowledged each write${side.writeConcern ? ` (${side.writeConcern})` : ''}`
  : side.acknowledged === false ? `did not wait for its writes (${side.writeConcern})` : 'mixed its write concerns');

/** What two sides that did the same work both promised, in words: ": both acknowledged each write and flushed each", or nothing for reads. */
function alikeWords([a, b]) {
  if (a.durability === null || a.durability === undefined) return '';
  const ack = a.acknowledged === true ? 'acknowledged each write' : a.acknowledged === false ? 'sent writes unacknowledged' : null;
  const within = a.groupIntervalMs === b.groupIntervalMs
    ? (a.groupIntervalMs ? ` within ${a.groupIntervalMs} ms` : '')
    : ` (${a.name} within ${a.groupIntervalMs ?? '?'} ms, ${b.name} within ${b.groupIntervalMs ?? '?'} ms)`;
  const flushed = { [PER_WRITE]: 'flushed each before acknowledging it', [PER_GROUP]: `flushed writes in groups${within}`, [NONE]: 'forced no write to disk' }[a.durability];
  return `: both ${[ack, flushed].filter(Boolean).join(' and ')}`;
}

/**
 * How the sides differ, each in words: [{ field, text }]: acknowledgement, durability (and its
 * interval), indexes, a warm cache. Fields a side does not say are left to `unknown`.
 */
function differencesOf(sides) {
  const [a, b] = sides;
  const out = [];
  const both = (f) => a[f] !== null && a[f] !== undefined && b[f] !== null && b[f] !== undefined;
  if (both('acknowledged') && a.acknowledged !== b.acknowledged) out.push({ field: 'acknowledged', text: `${a.name} ${ackWords(a)}, ${b.name} ${ackWords(b)}` });
  // flushed in groups on both sides is one promise (neither waited for the disk), whatever each group's interval: the words say both
  if (both('durability') && a.durability !== UNKNOWN && b.durability !== UNKNOWN && a.durability !== b.durability) {
    out.push({ field: 'durability', text: `${a.name} ${durabilityWords(a)}, ${b.name} ${durabilityWords(b)}` });
  }
  if (both('indexes') && a.indexes !== b.indexes) out.push({ field: 'indexes', text: `${a.name} had ${a.indexes} index${a.indexes === 1 ? '' : 'es'}, ${b.name} ${b.indexes}` });
  if (both('warmCache') && a.warmCache !== b.warmCache) {
    const [warm, cold] = a.warmCache ? [a, b] : [b, a];
    out.push({ field: 'warmCache', text: `${warm.name} ran a warm-up block first, ${cold.name} did not` });
  }
  return out;
}

/** What a side left unknown, in words: its own notes, and each field it could not say. */
function unknownsOf(sides) {
  return sides.flatMap((s) => [
    ...(s.unknown || []),
    ...(s.durability === UNKNOWN ? [`${s.name}: durability not known`] : []),
  ]);
}

/**
 * A FerretDB that stores into PostgreSQL, compared with a PostgreSQL baseline: the comparison
 * measures FerretDB's layer over PostgreSQL, against PostgreSQL without it. Said with both
 * versions, and whether it is the very PostgreSQL (the same version) the baseline runs.
 */
function ownLayerOf(sides, ctx) {
  const recordOf = (s) => (ctx.serverRecords || []).find((r) => r.server === s.server);
  const baseline = sides.find((s) => recordOf(s)?.baselineFor && recordOf(s)?.store?.product === 'PostgreSQL');
  const server = sides.find((s) => s !== baseline && recordOf(s)?.product === 'FerretDB' && recordOf(s)?.store?.product === 'PostgreSQL');
  if (!baseline || !server) return null;
  const ours = storeWords(recordOf(server).store);
  const theirs = storeWords(recordOf(baseline).store);
  const same = ours === theirs;
  return {
    same,
    text: same
      ? `${server.server} stores into ${ours}, the PostgreSQL the baseline runs: this measures FerretDB's own layer over PostgreSQL, not MongoDB against a SQL store`
      : `${server.server} stores into ${ours}, the baseline runs ${theirs}: this measures FerretDB's layer over PostgreSQL (and another PostgreSQL), not MongoDB against a SQL store`,
  };
}

/**
 * A comparison's conditions: { sides: [two sideConditions], same (true: nothing differs and
 * nothing is unknown; false: something differs; null: nothing known differs, something is not
 * known), differences: [{ field, text }], unknown: [text], ownLayer ({ same, text } or null),
 * text: the one line the report shows }. Null where the check has no two sides (a crossing, the
 * article's own figure), where a side measured nothing, or where the run recorded no store
 * settings (a run from before they were recorded: the views then say nothing).
 * ctx: { server, records (aggregated measurements, every server's), blocks, serverRecords };
 * across: the two servers a check across servers set against each other (the verdict's servers).
 */
function conditionsOf(check, ctx, { across = null } = {}) {
  const sels = selectionsOf(check, across);
  if (sels.length !== 2) return null;
  const servers = sels.map((sel) => sel.fromServer || ctx.server);
  const records = servers.map((s) => (ctx.serverRecords || []).find((r) => r.server === s));
  if (!records.some((r) => r && 'store' in r)) return null;
  // a side that measured nothing did no work to compare
  if (sels.some((sel) => !recordsOfSide(ctx.records || [], sel, ctx.server).length && !recordsOfSide(ctx.blocks || [], sel, ctx.server).length)) return null;
  const sides = sels.map((sel) => sideConditions(sel, ctx));
  const differences = differencesOf(sides);
  const unknown = unknownsOf(sides);
  const ownLayer = ownLayerOf(sides, ctx);
  const same = differences.length ? false : unknown.length ? null : true;
  const head = same === true ? `same work${alikeWords(sides)}` : same === false ? `differs: ${differences.map((d) => d.text).join('; ')}` : `partly unknown: ${unknown.join('; ')}`;
  return { sides, same, differences, unknown, ownLayer, text: ownLayer ? `${head}; ${ownLayer.text}` : head };
}

module.exports = { conditionsOf, sideConditions, postgresDurability, mongodDurability, durationMs, PER_WRITE, PER_GROUP, NONE, UNKNOWN };
