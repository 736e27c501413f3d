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
//           named pg query, as SqlCommand.Prepare()); its parameters filled from the same LogInfo
//           record as the mongosh scripts build, from the block below, the same line for line (a
//           unit test checks); TRUNCATE, not re-creating the table, as the article emptied its
//           database without re-creating it.
// Changes:  - PostgreSQL for SQL Server, which cannot run here; the article's table script is not
//             in the post: a uuid key and one column per LogInfo field.
//           - newGuid differs from the scripts': a uuid string for a uuid column.
// Sizes:    TEST1_ITERATIONS and TEST2_ITERATIONS from the run's size, as the mongosh scripts get
//           them; workers as test 2's shells.
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');

// The article's table script is not in the post: a Guid key and one column per LogInfo field.
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS log (
  id uuid PRIMARY KEY, log_date timestamptz NOT NULL, source text NOT NULL,
  category text NOT NULL, message text NOT NULL, log_type integer NOT NULL)`;
// Named, so pg parses and plans it once per connection, as SqlCommand.Prepare() did.
const INSERT = {
  name: 'insert-log',
  text: 'INSERT INTO log (id, log_date, source, category, message, log_type) VALUES ($1, $2, $3, $4, $5, $6)',
};

function newGuid() {
  return crypto.randomUUID();
}

// ---- the log record (the article's LogInfo): this block is the same, line for line, in every
// ---- script of shell/log-inserts/ and in its SQL baseline, sql-baseline.js
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

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
// ---- end of the log record

/** The prepared statement's parameters for a LogInfo, in the table's column order. */
function rowOf(info) {
  return [info._id, info.LogDate, info.Source, info.Category, info.Message, info.LogType];
}

/** The article's SqlLogService.Log: fill the prepared statement's parameters and execute it. */
async function logOnce(client) {
  const res = await client.query({ ...INSERT, values: rowOf(newLogInfo()) });
  return res.rowCount;
}

/** Writes `iterations` records on each client at once; each client's span on the Date clock. */
async function writeOnEach(clients, shares) {
  return Promise.all(clients.map(async (client, w) => {
    const startedAt = Date.now();
    let inserted = 0;
    for (let i = 0; i < shares[w]; i++) inserted += await logOnce(client);
    return { inserted, span: [startedAt, Date.now()] };
  }));
}

async function tableState(admin) {
  const { rows: [r] } = await admin.query(`SELECT count(*)::int AS count, pg_table_size('log')::bigint AS table_bytes,
    pg_indexes_size('log')::bigint AS index_bytes, pg_total_relation_size('log')::bigint AS total_bytes FROM log`);
  return { count: r.count, storageSize: Number(r.table_bytes), totalIndexSize: Number(r.index_bytes), totalRelationSize: Number(r.total_bytes) };
}

async function runTest({ connectionString, admin, step, test, iterations, connections, progress, record }) {
  const removed = (await admin.query('SELECT count(*)::int AS n FROM log')).rows[0].n;
  await admin.query('TRUNCATE log');
  progress.startStep(`postgresql · log-inserts · ${step}`);
  // Shares as in test2.js: floor(N / W) each, the first N % W one more.
  const shares = Array.from({ length: connections }, (_, w) => Math.floor(iterations / connections) + (w < iterations % connections ? 1 : 0));
  const clients = Array.from({ length: connections }, () => new Client({ connectionString }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    const started = Date.now(); const t0 = performance.now();
    const outcomes = await writeOnEach(clients, shares);
    const hrMs = performance.now() - t0; const ms = Date.now() - started;
    const inserted = outcomes.reduce((n, o) => n + o.inserted, 0);
    const state = await tableState(admin);
    const spans = outcomes.map((o) => o.span);
    record({
      step, test, method: 'sql', collection: 'log', iterations, ms, hrMs: Math.round(hrMs * 1000) / 1000,
      inserted, removed, ...state, expectedCount: inserted, countOk: state.count === inserted,
      ...(connections > 1 ? {
        workers: connections, workerSpans: spans,
        workersOverlapped: Math.max(...spans.map(([s]) => s)) < Math.min(...spans.map(([, e]) => e)),
      } : {}),
    });
    progress.endStep('done');
  } catch (err) {
    progress.endStep('FAILED');
    throw err;
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
  }
}

/** The orchestrator's baseline hook (orchestrator/baseline.js); seed is unused, as in the scripts. */
async function runLogInsertsSql({ connectionString, sizes, workers, progress, record }) {
  const admin = new Client({ connectionString });
  await admin.connect();
  try {
    await admin.query(CREATE_TABLE);
    await runTest({ connectionString, admin, step: 'test1', test: 'test 1: one loop', iterations: sizes.TEST1_ITERATIONS, connections: 1, progress, record });
    await runTest({ connectionString, admin, step: 'test2', test: 'test 2: parallel', iterations: sizes.TEST2_ITERATIONS, connections: workers, progress, record });
  } finally {
    await admin.end();
  }
}

module.exports = runLogInsertsSql;
module.exports.newLogInfo = newLogInfo;
module.exports.rowOf = rowOf;
