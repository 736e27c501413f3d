'use strict';
// mongo-classics · log-inserts · sql-baseline.js (run by the kit only: Node, not mongosh)
// Article:  Raffaele Rialdi, "Performance di MongoDB usato per eseguire logging molto semplice",
//           UGIdotNET blogs, 16 September 2010,
//           http://blogs.ugidotnet.org/Raffaele/archive/2010/09/16/performance-di-mongodb-usato-per-eseguire-logging-molto-semplice.aspx
// Measures: the article's SQL side on PostgreSQL as a stand-in for its SQL Server: the same log
//           records written through a prepared INSERT on connections that stay open, test 1 on
//           one connection and test 2 on `workers` connections at once, the table emptied before
//           each, and the table's size after. The article wrote SQL rows in tests 1 and 2 only, so
//           there is no test 3 here.
// Writes:   SqlCommand.ExecuteNonQuery waited for each insert, and so does each query here: every
//           row is acknowledged before the next is sent (the MongoDB side of 2010 did not wait).
// Faithful: a connection kept open per writer; the statement prepared once per connection (a
//           named pg query, as SqlCommand.Prepare(), before any clock starts: Changes); its
//           parameters filled from the same LogInfo
//           record as the mongosh scripts build, from the block below, the same line for line (all
//           stamped from one source by npm run stamp); TRUNCATE, not re-creating the table, as the article emptied its
//           database without re-creating it.
// Changes:  - PostgreSQL for SQL Server, which cannot run here; the article's table script is not
//             in the post: a uuid key and one column per LogInfo field.
//           - newGuid differs from the scripts': a uuid string for a uuid column.
//           - The article ran its SQL tests at another time than its MongoDB ones. Here each test
//             is cut into the paired rounds of the mongosh script it stands beside (loop.js's
//             test 1, test2.js's test 2): the kit's conductor (orchestrator/run/conductor.js)
//             runs this side's block of round k when the script's turn line asks for it, while
//             the MongoDB server runs too, so a drift of the machine lands on both sides. A block
//             writes the round's share of the test's records (the scripts' roundShares), into a
//             table emptied once before round 1, so both stores hold k-1 shares at round k; the
//             test's time, as the article printed it, is the sum of its blocks' times.
//           - Preparation outside timing: each connection prepares its statement when the step
//             opens (one insert inside a transaction rolled back, which leaves the named statement
//             parsed and planned on that connection and no row behind), where it was prepared by
//             the first insert of round 1's block, which alone paid it: the article's
//             SqlCommand.Prepare() came before its Stopwatch too.
//           - Warm-up: the script's warm-up round (round 0, before round 1, in round 1's order)
//             asks for a block of this side too: round 1's share of records, timed and recorded
//             with warmup true, counted in no sum, then deleted (untimed) so that round k still
//             finds k-1 shares, as the MongoDB collections do. It runs what round 1 would
//             otherwise pay for alone: the table's first pages, the connections' caches, the
//             server's plan cache.
//           - Added, the kit's own question beside the article's (not replacing it): every block
//             of the SQL side runs twice in its turn, on two sets of connections, into two tables
//             alike: `sql` with PostgreSQL's default (synchronous_commit=on: each commit waits
//             for its WAL flush, as SQL Server flushed each row), and `sql-async`, whose
//             connections SET synchronous_commit = off before any clock starts (a commit returns
//             before its WAL is flushed; the WAL writer flushes it within wal_writer_delay, 200 ms
//             by default), which matches w:1 without a journal flush (mongod's w:1 without j, whose
//             journal is flushed in groups) and MongoDB 1.6, which had no journal at all. The two
//             run one after the other in the turn, in an order that alternates by round (each
//             first in half the rounds), so each round pairs them with the script's blocks. Each
//             line says the setting it ran with, read back from its connection (SHOW
//             synchronous_commit), as `synchronousCommit`.
// Sizes:    TEST1_ITERATIONS and TEST2_ITERATIONS from the run's size, as the mongosh scripts get
//           them; workers as test 2's shells; rounds as the scripts' ROUNDS.
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');

// The article's table script is not in the post: a Guid key and one column per LogInfo field.
const createTable = (table) => `CREATE TABLE IF NOT EXISTS ${table} (
  id uuid PRIMARY KEY, log_date timestamptz NOT NULL, source text NOT NULL,
  category text NOT NULL, message text NOT NULL, log_type integer NOT NULL)`;
// Named, so pg parses and plans it once per connection, as SqlCommand.Prepare() did.
const insertInto = (table) => ({
  name: `insert-${table}`,
  text: `INSERT INTO ${table} (id, log_date, source, category, message, log_type) VALUES ($1, $2, $3, $4, $5, $6)`,
});

/**
 * The SQL side's two variants, each on connections and a table of its own: the article's (the
 * server's default, synchronous_commit=on: every commit waits for its WAL flush) and the kit's
 * durability-matched one (synchronous_commit=off, SET on each of its connections before any
 * clock starts: a commit returns before its flush, as w:1 without a journal flush).
 */
const SIDES = [
  { method: 'sql', table: 'log', synchronousCommit: null },
  { method: 'sql-async', table: 'log_async', synchronousCommit: 'off' },
];

/** The sides in the order round `round` runs them: the article's first in odd rounds, the durability-matched one in even ones (round 0, the warm-up, as round 1). */
function sidesInOrder(round) {
  return Math.max(round, 1) % 2 === 1 ? SIDES : [...SIDES].reverse();
}

function newGuid() {
  return crypto.randomUUID();
}

// <<< block: mulberry32 (stamped by npm run stamp from shell/_blocks/mulberry32.js; edit there)
// mulberry32: a small, fast generator, good enough to make a run repeatable from a seed.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
// >>> block: mulberry32

// <<< block: log-record (stamped by npm run stamp from shell/_blocks/log-record.js; edit there)
// The log record (the article's LogInfo): in every script of log-inserts and in its SQL
// baseline, sql-baseline.js (Node), so both sides write the same record.
var LOG_SOURCE = 'Test';
var LOG_CATEGORY = 'This is a category';
var LOG_MESSAGE = 'Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium doloremque ' +
  'laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore veritatis et quasi architecto beatae ' +
  'vitae dicta sunt explicabo. Nemo enim ipsam voluptatem quia voluptas sit aspernatur aut odit aut fugit, ' +
  'sed quia consequuntur magni dolores eos qui ratione voluptatem sequi nesciunt. Neque porro quisquam est, ' +
  'qui dolorem ipsum quia dolor sit amet, consectetur, adipisci velit, sed quia non numquam eius modi tempora ' +
  'incidunt ut labore et dolore magnam aliquam quaerat voluptatem. Ut enim ad minima veniam, quis nostrum ' +
  'exercitationem ullam corporis suscipit laboriosam, nisi ut aliquid ex ea commodi consequatur? Quis autem ' +
  'vel eum iure reprehenderit qui in ea voluptate velit esse quam nihil molestiae consequatur, vel illum qui ' +
  'dolorem eum fugiat quo voluptas nulla pariatur?';

// LogInfo.AssignRandomType: a new generator seeded with the record's clock reading, as
// new Random((int)LogDate.Ticks).Next(0, 100); `a |= 0` keeps the low 32 bits, as (int) does.
function logTypeOf(logDate) {
  return Math.floor(mulberry32(logDate.getTime())() * 100);
}

function newLogInfo() {
  var logDate = new Date();
  return {
    _id: newGuid(), LogDate: logDate, Source: LOG_SOURCE, Category: LOG_CATEGORY,
    Message: LOG_MESSAGE, LogType: logTypeOf(logDate)
  };
}
// >>> block: log-record

/** The prepared statement's parameters for a LogInfo, in the table's column order. */
function rowOf(info) {
  return [info._id, info.LogDate, info.Source, info.Category, info.Message, info.LogType];
}

/** The article's SqlLogService.Log: fill the prepared statement's parameters and execute it. */
async function logOnce(client, insert) {
  const res = await client.query({ ...insert, values: rowOf(newLogInfo()) });
  return res.rowCount;
}

/**
 * The statement prepared on a connection before any clock starts, as SqlCommand.Prepare() was:
 * one insert in a transaction rolled back. A named statement outlives the transaction it was
 * parsed in (it belongs to the session), and the row does not.
 */
async function prepareInsert(client, insert) {
  await client.query('BEGIN');
  try {
    await logOnce(client, insert);
  } finally {
    await client.query('ROLLBACK');
  }
}

/** The share of n a round writes, as the mongosh scripts' roundShares cuts it: floor(n / rounds), the first n % rounds one more. */
function roundShare(n, rounds, round) {
  return Math.floor(n / rounds) + (round - 1 < n % rounds ? 1 : 0);
}

/** A block's records among `connections` writers as test2.js shares them among its shells: floor(N / W) each, the first N % W one more. */
function writerShares(n, connections) {
  return Array.from({ length: connections }, (_, w) => Math.floor(n / connections) + (w < n % connections ? 1 : 0));
}

/** Writes each client's share at once; each client's span on the Date clock. */
async function writeOnEach(clients, shares, insert) {
  return Promise.all(clients.map(async (client, w) => {
    const startedAt = Date.now();
    let inserted = 0;
    for (let i = 0; i < shares[w]; i++) inserted += await logOnce(client, insert);
    return { inserted, span: [startedAt, Date.now()] };
  }));
}

async function tableState(admin, table) {
  const { rows: [r] } = await admin.query(`SELECT count(*)::int AS count, pg_table_size('${table}')::bigint AS table_bytes,
    pg_indexes_size('${table}')::bigint AS index_bytes, pg_total_relation_size('${table}')::bigint AS total_bytes FROM ${table}`);
  return { count: r.count, storageSize: Number(r.table_bytes), totalIndexSize: Number(r.index_bytes), totalRelationSize: Number(r.total_bytes) };
}

/** The table's indexes, as the server defines them: [{ name, definition }] (the primary key's among them). */
async function tableIndexes(admin, table) {
  const { rows } = await admin.query('SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = $1 ORDER BY indexname', [table]);
  return rows;
}

/**
 * The settings each timed connection ran under, read on it after its blocks: the first
 * connection's, with differsAcrossConnections where another's differ (each is one session: a SET
 * on it shows on it alone).
 */
async function sessionSettings(clients, readSettings) {
  const each = await Promise.all(clients.map((c) => readSettings(c)));
  const differs = each.some((s) => JSON.stringify(s) !== JSON.stringify(each[0]));
  return { ...each[0], ...(differs ? { differsAcrossConnections: true } : {}) };
}

/** Whether every writer's span overlapped every other's: they all wrote at once. */
function overlapped(spans) {
  return Math.max(...spans.map(([s]) => s)) < Math.min(...spans.map(([, e]) => e));
}

/**
 * The article's SQL tests, by the step of the mongosh scripts each is paired with: test 1 on one
 * connection, test 2 on as many as test 2 has shells. The article wrote no SQL rows in test 3.
 */
const STEPS = {
  test1: { test: 'test 1: one loop', size: 'TEST1_ITERATIONS', connections: () => 1 },
  test2: { test: 'test 2: parallel', size: 'TEST2_ITERATIONS', connections: (workers) => workers },
};

/** One variant's connections opened, its setting SET and read back, its statement prepared on each. */
async function openSide(spec, { connectionString, connections }) {
  const clients = Array.from({ length: connections }, () => new Client({ connectionString }));
  // an idle connection the server ends (it stopped, or an administrator ended it) says so in an
  // event, which would otherwise end the process: the next query on it fails, and says why
  for (const c of clients) c.on('error', () => {});
  const insert = insertInto(spec.table);
  try {
    await Promise.all(clients.map((c) => c.connect()));
    // in the session every timed insert runs in, before any clock starts
    if (spec.synchronousCommit) await Promise.all(clients.map((c) => c.query(`SET synchronous_commit = ${spec.synchronousCommit}`)));
    const said = await Promise.all(clients.map(async (c) => (await c.query('SHOW synchronous_commit')).rows[0].synchronous_commit));
    if (new Set(said).size !== 1) throw new Error(`its connections read back different synchronous_commit settings: ${said.join(', ')}`);
    await Promise.all(clients.map((c) => prepareInsert(c, insert)));
    return { ...spec, clients, insert, synchronousCommit: said[0], blocks: [] };
  } catch (err) {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
    throw err;
  }
}

/**
 * The SQL side of one step, cut into the same paired rounds as the mongosh script beside it:
 * opened once (each variant's table emptied, as the article emptied its database before a test,
 * its connections opened, its setting SET and its statement prepared before any clock starts),
 * then block(round) once per round, each writing that round's share of the step's records into
 * each variant's table in turn (so at round k each holds k-1 shares, as each MongoDB collection
 * does), each variant's block timed alone: [a line for `sql`, one for `sql-async`], in the
 * round's order; after block(0) where the script warms up (round 1's share, recorded as a
 * warm-up and deleted after its clock). total() sums each variant's counted blocks into the
 * step's line as the article printed it, with its table's size: [one line per variant]. Null
 * for a step the article wrote no SQL rows in.
 */
async function openStep({ connectionString, step, sizes, workers, rounds }) {
  const spec = STEPS[step];
  if (!spec) return null;
  const iterations = sizes[spec.size];
  const connections = spec.connections(workers);
  const admin = new Client({ connectionString });
  admin.on('error', () => {});
  const sides = [];
  const removed = {};
  let closed = null;
  try {
    await admin.connect();
    for (const side of SIDES) {
      await admin.query(createTable(side.table));
      removed[side.method] = (await admin.query(`SELECT count(*)::int AS n FROM ${side.table}`)).rows[0].n;
      await admin.query(`TRUNCATE ${side.table}`);
    }
    for (const side of SIDES) sides.push(await openSide(side, { connectionString, connections }));
  } catch (err) {
    await Promise.all([admin, ...sides.flatMap((d) => d.clients)].map((c) => c.end().catch(() => {})));
    throw err;
  }
  const baseOf = (side) => ({ step, test: spec.test, method: side.method, collection: side.table, synchronousCommit: side.synchronousCommit });
  const byMethod = new Map(sides.map((d) => [d.method, d]));

  /** One variant's block of round `round`: n records on every one of its connections at once. */
  async function blockOf(side, round, n) {
    const warmup = round === 0;
    const started = Date.now(); const t0 = performance.now();
    const outcomes = await writeOnEach(side.clients, writerShares(n, connections), side.insert);
    const hrMs = performance.now() - t0; const ended = Date.now();
    const spans = outcomes.map((o) => o.span);
    const line = {
      ...baseOf(side), round, rounds, iterations: n, ms: ended - started, hrMs: Math.round(hrMs * 1000) / 1000,
      inserted: outcomes.reduce((k, o) => k + o.inserted, 0), startedAt: started, endedAt: ended,
      ...(connections > 1 ? { workers: connections, workerSpans: spans, workersOverlapped: overlapped(spans) } : {}),
      ...(warmup ? { warmup: true } : {}),
    };
    // the warm-up's rows go again, after its clock: round 1 finds the table empty, as the collections
    if (warmup) await admin.query(`DELETE FROM ${side.table}`);
    else side.blocks.push(line);
    return line;
  }

  return {
    /** Round `round` of `rounds`: its share of the records, each variant in turn; round 0, the warm-up: round 1's share, deleted after. */
    async block(round) {
      const n = roundShare(iterations, rounds, round === 0 ? 1 : round);
      const lines = [];
      for (const { method } of sidesInOrder(round)) lines.push(await blockOf(byMethod.get(method), round, n));
      return lines;
    },
    /**
     * The step's lines, one per variant: its blocks' times and counts summed, its table after them,
     * its indexes, and, where the kit hands a reader (readSettings(client): its store settings), the
     * settings its timed connections ran under, read on each of them after its blocks
     * (sessionSettings: a variant's SET synchronous_commit shows there).
     */
    async total({ readSettings = null } = {}) {
      const lines = [];
      for (const side of sides) {
        const sum = (field) => side.blocks.reduce((k, b) => k + b[field], 0);
        const inserted = sum('inserted');
        const state = await tableState(admin, side.table);
        const settings = readSettings ? await sessionSettings(side.clients, readSettings) : null;
        lines.push({
          ...baseOf(side), iterations, rounds: side.blocks.length, ms: sum('ms'), hrMs: Math.round(sum('hrMs') * 1000) / 1000,
          inserted, removed: removed[side.method], ...state, expectedCount: inserted, countOk: state.count === inserted,
          indexes: await tableIndexes(admin, side.table), ...(settings ? { sessionSettings: settings } : {}),
          ...(connections > 1 ? { workers: connections, workersOverlapped: side.blocks.every((b) => b.workersOverlapped) } : {}),
        });
      }
      return lines;
    },
    /** Ends the step's connections (once, however often it is called); a query still running on one fails. */
    close() {
      closed ??= Promise.all([admin, ...sides.flatMap((d) => d.clients)].map((c) => c.end().catch(() => {})));
      return closed;
    },
  };
}

module.exports = { openStep, STEPS, SIDES, sidesInOrder, roundShare, writerShares, newLogInfo, rowOf };
