'use strict';
// What a store promised about a write, read back from the store itself: PostgreSQL's settings
// that decide when a commit is on disk (the SQL baseline's, and the PostgreSQL FerretDB stores
// into), and mongod's journal settings. A comparison's conditions (analysis/conditions.js) are
// made from these, never from what the kit meant to start: a cluster set up by hand, or a
// session that ran SET synchronous_commit=off, shows as it is.
const { Client } = require('pg');

/** How long reading a store's settings may take before it is recorded as unread. */
const READ_TIMEOUT_MS = 10000;

/**
 * The PostgreSQL settings that decide a commit's durability, and the ones that say how long a
 * deferred one may wait ("Write Ahead Log" and "Asynchronous Commit", PostgreSQL manual):
 * synchronous_commit (off: a commit returns before its WAL is flushed, flushed by the WAL writer
 * within three times wal_writer_delay), fsync (off: nothing is ever forced to disk),
 * wal_sync_method, full_page_writes, commit_delay (a group commit's wait, in µs).
 */
const POSTGRES_SETTINGS = ['synchronous_commit', 'fsync', 'wal_sync_method', 'wal_writer_delay', 'full_page_writes', 'commit_delay'];

/**
 * The settings above as the session on `client` sees them (pg_settings is SHOW's view: a SET in
 * this session shows, and its source says so: default, configuration file, session...):
 * { name: { value, unit, source } }, values as SHOW prints them ("on", "fdatasync", "200ms").
 * Read it on the connection that ran the timed work, after it, so what that session ran under is
 * what is recorded. Throws where the server refuses the query (the caller records why).
 */
async function readPostgresSettings(client) {
  const { rows } = await client.query(
    'SELECT name, current_setting(name) AS value, source FROM pg_settings WHERE name = ANY($1::text[]) ORDER BY name',
    [POSTGRES_SETTINGS],
  );
  return Object.fromEntries(rows.map((r) => [r.name, { value: r.value, source: r.source }]));
}

/**
 * The settings of the PostgreSQL at `url` as a new session there starts with, and its version:
 * { product: 'PostgreSQL', version, settings, from } or { product, unread: why }. For the
 * PostgreSQL FerretDB stores into: what a new session as FerretDB's user on its database starts
 * with, which is what FerretDB's own sessions start with (a SET inside them, were there one,
 * would not show here: the record's `from` says where it was read).
 */
async function postgresStoreOf(url, from) {
  // bounded: a store that does not answer is recorded as unread, never waited on
  const client = new Client({ connectionString: url, connectionTimeoutMillis: READ_TIMEOUT_MS, query_timeout: READ_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows: [{ version }] } = await client.query("SELECT current_setting('server_version') AS version");
    return { product: 'PostgreSQL', version, settings: await readPostgresSettings(client), from };
  } catch (err) {
    return { product: 'PostgreSQL', unread: String(err?.message || err).split('\n')[0] };
  } finally {
    await client.end().catch(() => {});
  }
}

/** An answer's field, or undefined where the command was refused or does not say it. */
async function answerOf(admin, command) {
  try { return await admin.command(command); } catch { return undefined; }
}

/**
 * A mongod's journal settings, as it reports them ("getCmdLineOpts", "getParameter" and
 * "serverStatus", MongoDB manual; "Journaling", storage.journal.commitIntervalMs):
 * - journalCommitIntervalMs: getParameter journalCommitInterval, the interval in ms between
 *   WiredTiger's journal flushes (1 to 500, default 100); a write that waits for the journal
 *   (j: true, or w:majority with writeConcernMajorityJournalDefault) makes the flush come at once;
 * - commandLine: getCmdLineOpts' parsed storage.journal (commitIntervalMs where it was set there,
 *   enabled on a release that still took --nojournal) and storage.syncPeriodSecs (the
 *   checkpoint interval, default 60 s);
 * - engine and persistent: serverStatus().storageEngine (inMemory keeps nothing);
 * - wiredTigerLog: whether serverStatus().wiredTiger reports a log section (the journal), and
 *   its sync count at this moment ("log sync operations").
 * Each is null where the server refused the command (Atlas refuses getCmdLineOpts to most users).
 */
async function mongodStoreOf(admin) {
  const opts = await answerOf(admin, { getCmdLineOpts: 1 });
  const param = await answerOf(admin, { getParameter: 1, journalCommitInterval: 1 });
  const status = await answerOf(admin, { serverStatus: 1 });
  const storage = opts?.parsed?.storage;
  const interval = Number(param?.journalCommitInterval ?? storage?.journal?.commitIntervalMs);
  const log = status?.wiredTiger?.log;
  return {
    // the engine as serverStatus names it (null where refused: not assumed)
    product: { wiredTiger: 'WiredTiger', inMemory: 'inMemory' }[status?.storageEngine?.name] ?? status?.storageEngine?.name ?? null,
    settings: {
      journalCommitIntervalMs: Number.isFinite(interval) && interval > 0 ? interval : null,
      commandLine: opts ? {
        journal: storage?.journal ?? null,
        syncPeriodSecs: storage?.syncPeriodSecs ?? null,
      } : null,
      engine: status?.storageEngine?.name ?? null,
      persistent: status?.storageEngine?.persistent ?? null,
      wiredTigerLog: status?.wiredTiger ? { reported: Boolean(log), syncs: Number.isFinite(Number(log?.['log sync operations'])) ? Number(log['log sync operations']) : null } : null,
    },
    from: [opts ? 'getCmdLineOpts' : null, param ? 'getParameter' : null, status ? 'serverStatus' : null].filter(Boolean).join(', ') || null,
    ...(opts || param || status ? {} : { unread: 'getCmdLineOpts, getParameter and serverStatus were refused' }),
  };
}

/**
 * The store behind a server, for its record: a mongod's journal (mongodStoreOf; through mongos,
 * not read, said); the PostgreSQL
 * a FerretDB the kit started stores into (server.storeUrl: the launcher's, never recorded); for
 * FerretDB on SQLite, or a FerretDB of yours, what cannot be read, said.
 */
async function storeOf(admin, { product, server, hello = null }) {
  // a mongos stores nothing itself: its getCmdLineOpts and serverStatus are its own, not a shard's
  if (product === 'MongoDB' && hello?.msg === 'isdbgrid') return { product: null, unread: 'through mongos: each shard journals on its own settings, which mongos does not report' };
  if (product === 'MongoDB') return mongodStoreOf(admin);
  if (server?.storeUrl) return postgresStoreOf(server.storeUrl, 'a new session as FerretDB\'s user on its database');
  if (/sqlite/i.test(String(server?.backend ?? ''))) return { product: 'SQLite', unread: 'FerretDB sets SQLite\'s pragmas on its own connections, which the kit does not reach' };
  return { product: null, unread: 'FerretDB\'s backend is not reachable from here: the kit did not start it' };
}

module.exports = { POSTGRES_SETTINGS, readPostgresSettings, postgresStoreOf, mongodStoreOf, storeOf };
