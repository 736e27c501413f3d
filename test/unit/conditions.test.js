'use strict';
// Each comparison's conditions (analysis/conditions.js): what each side promised about a write,
// read back from its store (servers/store-settings.js) on answers shaped as the servers give them
// (test/fixtures/stores/answers.js names their sources), carried by the verdict as `conditions`,
// in verdicts.json (held to its schema) and on report.html's evidence line.
const assert = require('node:assert/strict');
const answers = require('../fixtures/stores/answers');
const { mongodStoreOf, storeOf } = require('../../orchestrator/servers/store-settings');
const { conditionsOf, postgresDurability, durationMs } = require('../../orchestrator/analysis/conditions');
const { analyseScenario } = require('../../orchestrator/analysis/analyse');
const { verdictsJson } = require('../../orchestrator/export/verdicts-json');
const { verdictsSchemaProblems } = require('../../orchestrator/schemas');
const { findingOfScenarios } = require('../../orchestrator/analysis/run-model');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { withBlocks } = require('../helpers/blocks');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { buildReportModel } = require('../../orchestrator/report/model');
const { reportHtml } = require('../../orchestrator/report/html');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const logInserts = scenarios.find((s) => s.name === 'log-inserts');
const check = (id) => logInserts.loadPublished().findings.find((f) => f.id === id).check;

const PG = '15.18 (Debian 15.18-0+deb12u1)';
const baselineRecord = (settings = answers.postgresDefaults) => ({
  type: 'server', server: 'postgresql', product: 'PostgreSQL', version: PG, baselineFor: 'log-inserts',
  store: { product: 'PostgreSQL', version: PG, settings, from: 'a new session on the baseline\'s database' },
});
const ferretdbPg = (version = PG) => ({
  type: 'server', server: 'ferretdb-pg', product: 'FerretDB', version: 'v1.24.0', startedByKit: true,
  store: { product: 'PostgreSQL', version, settings: answers.postgresDefaults, from: 'a new session as FerretDB\'s user on its database' },
});

/** log-inserts' test 1 as a run records it: the baseline's step line and the server's saves, each cut into rounds after a warm-up. */
function testOne(server, { writeConcern = 'w:1', sessionSettings = answers.postgresDefaults } = {}) {
  const records = [
    {
      scenario: 'log-inserts', server: 'postgresql', forServers: [server], baselineFor: 'log-inserts', step: 'test1', method: 'sql', iterations: 10000, ms: 20000,
      indexes: [{ name: 'log_pkey', definition: 'CREATE UNIQUE INDEX log_pkey ON public.log USING btree (id)' }], ...(sessionSettings ? { sessionSettings } : {}),
    },
    { scenario: 'log-inserts', server, step: 'test1', method: 'save', iterations: 10000, ms: 900, appliedMs: 1000, writeConcern, nindexes: 1 },
  ];
  return withBlocks(records, { counts: ['iterations'], warmup: 1 });
}

describe('a store\'s write settings read back', () => {
  it('reads a mongod\'s journal interval, engine and command line from getParameter, serverStatus and getCmdLineOpts', async () => {
    const store = await mongodStoreOf(answers.answering(answers.mongod));
    assert.equal(store.product, 'WiredTiger');
    assert.equal(store.settings.journalCommitIntervalMs, 100);
    assert.equal(store.settings.engine, 'wiredTiger');
    assert.equal(store.settings.persistent, true);
    assert.deepEqual(store.settings.commandLine, { journal: null, syncPeriodSecs: null });
    assert.deepEqual(store.settings.wiredTigerLog, { reported: true, syncs: 37 });
    assert.equal(store.from, 'getCmdLineOpts, getParameter, serverStatus');
    const forty = await mongodStoreOf(answers.answering(answers.mongodInterval40));
    assert.equal(forty.settings.journalCommitIntervalMs, 40);
    assert.deepEqual(forty.settings.commandLine.journal, { commitIntervalMs: 40 });
  });

  it('says what it could not read where every command is refused (Unauthorized), never a default', async () => {
    const refused = { getCmdLineOpts: answers.unauthorized, getParameter: answers.unauthorized, serverStatus: answers.unauthorized };
    const store = await mongodStoreOf(answers.answering(refused));
    assert.equal(store.settings.journalCommitIntervalMs, null);
    assert.match(store.unread, /refused/);
    const c = conditionsOf(check('mongo-beats-sql-test1'), {
      server: 'atlas', serverRecords: [baselineRecord(), { server: 'atlas', product: 'MongoDB', store }], ...testOne('atlas'), records: testOne('atlas').measurements,
    });
    assert.equal(c.sides[1].durability, 'unknown');
    assert.equal(c.same, null);
    assert.match(c.text, /^partly unknown: atlas's settings not read/);
  });

  it('names what it cannot reach: FerretDB on SQLite, a FerretDB of yours, the shards behind a mongos', async () => {
    assert.equal((await storeOf(null, { product: 'FerretDB', server: { backend: 'SQLite' } })).product, 'SQLite');
    assert.match((await storeOf(null, { product: 'FerretDB', server: {} })).unread, /not reachable from here: the kit did not start it/);
    assert.match((await storeOf(null, { product: 'MongoDB', server: {}, hello: { msg: 'isdbgrid' } })).unread, /^through mongos/);
  });
});

describe('a comparison\'s conditions', () => {
  it('PostgreSQL\'s durability from its settings: per write, in groups within 3 × wal_writer_delay, or none', () => {
    const values = (s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.value]));
    assert.deepEqual(postgresDurability(values(answers.postgresDefaults)), { durability: 'per-write', groupIntervalMs: null });
    assert.deepEqual(postgresDurability(values(answers.postgresAsync)), { durability: 'per-group', groupIntervalMs: 600 });
    assert.deepEqual(postgresDurability({ ...values(answers.postgresDefaults), fsync: 'off' }), { durability: 'none', groupIntervalMs: null });
    assert.deepEqual(postgresDurability({}), { durability: 'unknown', groupIntervalMs: null });
    assert.equal(durationMs('1s'), 1000);
    assert.equal(durationMs('200ms'), 200);
  });

  it('FerretDB on the baseline\'s own PostgreSQL: the same work, and it says it measures FerretDB\'s layer', () => {
    const run = testOne('ferretdb-pg');
    const c = conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: run.measurements, blocks: run.blocks, serverRecords: [baselineRecord(), ferretdbPg()] });
    assert.equal(c.same, true);
    assert.deepEqual(c.differences, []);
    assert.deepEqual(c.sides.map((s) => [s.name, s.acknowledged, s.durability, s.indexes, s.warmCache]), [
      ['sql (postgresql)', true, 'per-write', 1, true], ['save (ferretdb-pg)', true, 'per-write', 1, true],
    ]);
    assert.equal(c.sides[0].settings.synchronous_commit, 'on');
    assert.equal(c.sides[1].settings.fsync, 'on');
    assert.equal(c.ownLayer.same, true);
    assert.match(c.text, /^same work: both acknowledged each write and flushed each before acknowledging it; ferretdb-pg stores into PostgreSQL 15\.18, the PostgreSQL the baseline runs: this measures FerretDB's own layer/);
    // FerretDB 2 on PostgreSQL 18.6: the layer and another PostgreSQL
    const other = conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: run.measurements, blocks: run.blocks, serverRecords: [baselineRecord(), ferretdbPg('18.6 (Debian 18.6-3)')] });
    assert.equal(other.ownLayer.same, false);
    assert.match(other.text, /stores into PostgreSQL 18\.6, the baseline runs PostgreSQL 15\.18/);
  });

  it('a mongod\'s w:0 against a SQL store flushing each row: differs, in acknowledgement and durability (the journal every 100 ms)', async () => {
    const run = testOne('mongod', { writeConcern: 'w:0' });
    const mongod = { server: 'mongod', product: 'MongoDB', startedByKit: true, store: await mongodStoreOf(answers.answering(answers.mongod)) };
    const c = conditionsOf(check('mongo-beats-sql-test1'), { server: 'mongod', records: run.measurements, blocks: run.blocks, serverRecords: [baselineRecord(), mongod] });
    assert.equal(c.same, false);
    assert.deepEqual(c.differences.map((d) => d.field), ['acknowledged', 'durability']);
    assert.deepEqual([c.sides[1].acknowledged, c.sides[1].durability, c.sides[1].groupIntervalMs, c.sides[1].settings.j], [false, 'per-group', 100, false]);
    assert.equal(c.text, 'differs: sql (postgresql) acknowledged each write, save (mongod) did not wait for its writes (w:0); '
      + 'sql (postgresql) flushed each write (synchronous_commit on, fsync on), save (mongod) flushed writes in groups, within 100 ms (j:false, journal every 100 ms)');
    assert.equal(c.ownLayer, null);
    const inMemory = { ...mongod, store: await mongodStoreOf(answers.answering(answers.mongodInMemory)) };
    assert.equal(conditionsOf(check('mongo-beats-sql-test1'), { server: 'mongod', records: run.measurements, blocks: run.blocks, serverRecords: [baselineRecord(), inMemory] }).sides[1].durability, 'none');
  });

  it('reads the baseline\'s settings from the session that ran its timed blocks: a SET synchronous_commit = off there shows', async () => {
    const run = testOne('ferretdb-pg', { sessionSettings: answers.postgresAsync });
    const c = conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: run.measurements, blocks: run.blocks, serverRecords: [baselineRecord(), ferretdbPg()] });
    assert.deepEqual([c.sides[0].durability, c.sides[0].groupIntervalMs, c.sides[0].settings.synchronous_commit], ['per-group', 600, 'off']);
    assert.deepEqual(c.differences.map((d) => d.field), ['durability']);
    // against a mongod's w:1 without j: both flushed in groups, one promise, each interval said
    const mongod = { server: 'mongod', product: 'MongoDB', startedByKit: true, store: await mongodStoreOf(answers.answering(answers.mongod)) };
    const matched = testOne('mongod', { sessionSettings: answers.postgresAsync });
    const alike = conditionsOf(check('mongo-beats-sql-test1'), { server: 'mongod', records: matched.measurements, blocks: matched.blocks, serverRecords: [baselineRecord(), mongod] });
    assert.equal(alike.same, true);
    assert.equal(alike.text, 'same work: both acknowledged each write and flushed writes in groups (sql (postgresql) within 600 ms, save (mongod) within 100 ms)');
    // connections that ran under different settings: not one durability, said
    const split = testOne('ferretdb-pg', { sessionSettings: { ...answers.postgresAsync, differsAcrossConnections: true } });
    const unsure = conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: split.measurements, blocks: split.blocks, serverRecords: [baselineRecord(), ferretdbPg()] });
    assert.deepEqual([unsure.sides[0].durability, unsure.same], ['unknown', null]);
    assert.match(unsure.text, /postgresql's timed sessions ran under different settings/);
    // a durability-matched side whose server record names no store: its step line's own settings decide
    const own = conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: run.measurements, blocks: run.blocks, serverRecords: [{ ...baselineRecord(), store: undefined }, ferretdbPg()] });
    assert.deepEqual([own.sides[0].acknowledged, own.sides[0].durability], [true, 'per-group']);
  });

  it('a check across two servers (trade-candles\' zstd load against the uncompressed one) takes each server\'s own store', async () => {
    const store = await mongodStoreOf(answers.answering(answers.mongod));
    const load = (server) => ({ scenario: 'trade-candles', server, step: 'load', writeConcern: 'w:1', nindexes: 2, ms: 1000, durableMs: 1100 });
    const run = withBlocks([load('zstd'), load('none')], { warmup: 1 });
    const servers = [{ server: 'zstd', product: 'MongoDB', store }, { server: 'none', product: 'MongoDB', store }];
    const c = conditionsOf({ kind: 'ratio', where: { step: 'load' } }, { server: 'all servers', records: run.measurements, blocks: run.blocks, serverRecords: servers }, { across: ['zstd', 'none'] });
    assert.deepEqual(c.sides.map((x) => [x.name, x.durability, x.groupIntervalMs, x.indexes]), [['zstd', 'per-group', 100, 2], ['none', 'per-group', 100, 2]]);
    assert.equal(c.text, 'same work: both acknowledged each write and flushed writes in groups within 100 ms');
  });

  it('a run from before conditions were recorded has none, nor a check without two sides, nor one whose side measured nothing', () => {
    const run = testOne('ferretdb-pg', { sessionSettings: null });
    const old = [{ ...baselineRecord(), store: undefined }, { ...ferretdbPg(), store: undefined }].map(({ store, ...r }) => r);
    assert.equal(conditionsOf(check('mongo-beats-sql-test1'), { server: 'ferretdb-pg', records: run.measurements, blocks: run.blocks, serverRecords: old }), null);
    assert.equal(conditionsOf({ kind: 'publishedOnly' }, { server: 'x', records: [], serverRecords: [baselineRecord()] }), null);
    const fresh = testOne('ferretdb-pg');
    assert.equal(conditionsOf(check('insert-beats-save'), { server: 'ferretdb-pg', records: fresh.measurements, blocks: fresh.blocks, serverRecords: [baselineRecord(), ferretdbPg()] }), null, 'no insert measured');
  });

  it('reaches the verdict and verdicts.json, held to its schema', () => {
    const run = testOne('ferretdb-pg');
    const { verdicts } = analyseScenario(logInserts, { ...run, sizesOf: () => logInserts.sizes.article, servers: [baselineRecord(), ferretdbPg()] });
    const v = verdicts.find((x) => x.finding === 'mongo-beats-sql-test1' && x.server === 'ferretdb-pg');
    assert.equal(v.conditions.same, true);
    assert.ok(Object.isFrozen(v.conditions.sides[0]));
    const json = JSON.parse(verdictsJson([{ label: 'crafted', verdicts }], findingOfScenarios(scenarios)));
    assert.deepEqual(verdictsSchemaProblems(json), []);
    assert.equal(json.find((x) => x.finding === 'mongo-beats-sql-test1').conditions.sides[1].settings.synchronous_commit, 'on');
  });

  it('is one line under each verdict in report.html, its words as text (a server named with markup is escaped); none for a run from before', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-conditions-'));
    try {
      const name = 'mine<b>';
      const run = testOne(name);
      const header = {
        type: 'run', runId: 'c', startedAt: '2026-11-29T02:46:45.815Z', params: { scenarios: ['log-inserts'], servers: [name], size: 'smoke', passes: { 'log-inserts': 1 }, overrides: {}, workers: 2, shell: 'kit', repeat: 1 },
        kit: { version: '0.1.0', commit: 'abcdef123456' }, machine: { cpu: 'Intel(R) Xeon(R) Processor', cores: 2, memoryBytes: 25 * 2 ** 30, platform: 'Linux' }, node: 'v20', shell: 'kit', mongosh: '2.12.0', driver: '7.9.0',
      };
      const write = (servers) => {
        const lines = [header, ...servers, ...run.measurements.map((r) => ({ type: 'measurement', ...r })), ...run.blocks, { type: 'end', status: 'done' }];
        fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
        const model = buildReportModel([readRunModel(dir, [logInserts])], [logInserts]);
        return reportHtml({ model, title: 't', sectionsOf: () => null, appendixOf: () => [] });
      };
      const html = write([baselineRecord(), { ...ferretdbPg(), server: name, spec: name }]);
      const lines = html.match(/Conditions: [^<]*/g) || [];
      // only test 1's save and SQL side are measured here: the other two verdicts (test 2, insert) rest on nothing, and say nothing of conditions
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.ok(lines.every((l) => l.startsWith('Conditions: same work: both acknowledged each write')), lines.join('\n'));
      assert.match(html, /mine&lt;b&gt; stores into PostgreSQL 15\.18/);
      assert.doesNotMatch(html, /mine<b>/);
      const old = write([{ ...baselineRecord(), store: undefined }, { ...ferretdbPg(), server: name, spec: name, store: undefined }]);
      assert.doesNotMatch(old, /Conditions:/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
