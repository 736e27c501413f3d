'use strict';
// The log-inserts record is built twice, in the mongosh scripts and in the SQL baseline (Node):
// the block that builds it must be the same text in every file and give the same record.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const DIR = path.resolve(__dirname, '..');
const sqlBaseline = require('../sql-baseline');
const { stampedBlock } = require('../../../scripts/stamp');



const SCRIPTS = ['loop.js', 'test2.js'].map((f) => path.join(DIR, f));
const MODULE = path.join(DIR, 'sql-baseline.js');
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function recordBlock(file) {
  return stampedBlock(fs.readFileSync(file, 'utf8'), 'log-record');
}

/** The generator and the record, as a file stamps them: the mulberry32 block, then the log record. */
function generatorText(file) {
  return `${stampedBlock(fs.readFileSync(file, 'utf8'), 'mulberry32')}${recordBlock(file)}`;
}

/** A file's generator, run in a sandbox whose newGuid stands in for mongosh's UUID(). */
function generatorOf(file) {
  const sandbox = { newGuid: () => ({ uuid: '0f8fad5b-d9cb-469f-a165-70867728950e' }) };
  vm.runInNewContext(`${generatorText(file)}; this.newLogInfo = newLogInfo; this.logTypeOf = logTypeOf;`, sandbox);
  return sandbox;
}
const mongoshGenerator = () => generatorOf(SCRIPTS[0]);

describe('log-inserts record', () => {
  it('is built by the same block of text in every script and in the SQL baseline', () => {
    const expected = generatorText(MODULE);
    for (const file of SCRIPTS) assert.equal(generatorText(file), expected, `${path.basename(file)} differs from the SQL baseline's blocks`);
  });

  it('has the same fields, types and fixed strings on both sides', () => {
    const fromShell = mongoshGenerator().newLogInfo();
    const fromNode = sqlBaseline.newLogInfo();
    assert.deepEqual(Object.keys(fromShell), ['_id', 'LogDate', 'Source', 'Category', 'Message', 'LogType']);
    assert.deepEqual(Object.keys(fromNode), Object.keys(fromShell));
    for (const r of [fromShell, fromNode]) {
      assert.equal(Object.prototype.toString.call(r.LogDate), '[object Date]');
      assert.equal(r.Source, 'Test');
      assert.equal(r.Category, 'This is a category');
      assert.match(r.Message, /^Sed ut perspiciatis unde omnis iste natus .* nulla pariatur\?$/);
      assert.ok(r.Message.length >= 750 && r.Message.length <= 900, `message of ${r.Message.length} characters`);
      assert.ok(Number.isInteger(r.LogType) && r.LogType >= 0 && r.LogType < 100);
    }
    assert.equal(fromShell.Message, fromNode.Message);
    assert.match(fromNode._id, UUID_PATTERN, 'a random (version 4) uuid for the uuid column');
  });

  it('gives a new _id to every record', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => sqlBaseline.newLogInfo()._id));
    assert.equal(ids.size, 1000);
  });

  it('draws LogType from the clock: one per millisecond, the same on both sides', () => {
    const { logTypeOf } = mongoshGenerator();
    const nodeLogTypeOf = generatorOf(MODULE).logTypeOf;
    const base = Date.UTC(2010, 8, 16, 21, 0, 0);
    for (let ms = 0; ms < 200; ms++) {
      assert.equal(logTypeOf(new Date(base + ms)), logTypeOf(new Date(base + ms)), 'records made in one tick share a LogType');
      assert.equal(nodeLogTypeOf(new Date(base + ms)), logTypeOf(new Date(base + ms)));
    }
    // spread over 0..99 like Random.Next(0, 100) across ticks
    const seen = new Set(Array.from({ length: 2000 }, (_, ms) => logTypeOf(new Date(base + ms))));
    assert.ok(seen.size > 90, `only ${seen.size} distinct LogTypes over 2,000 ticks`);
  });

  it('fills the prepared INSERT in the table\'s column order (id, log_date, source, category, message, log_type)', () => {
    const info = sqlBaseline.newLogInfo();
    assert.deepEqual(sqlBaseline.rowOf(info), [info._id, info.LogDate, 'Test', 'This is a category', info.Message, info.LogType]);
  });
});

describe('log-inserts scripts', () => {
  it('loop.js and test2.js share the article\'s services (save, insert, the upsert probe)', () => {
    const services = (file) => stampedBlock(fs.readFileSync(file, 'utf8'), 'log-services');
    assert.equal(services(SCRIPTS[0]), services(SCRIPTS[1]));
  });
});

/** A script's stamped block run in a sandbox: its functions, with the globals given. */
function sandboxOf(file, name, globals = {}) {
  const sandbox = { ...globals };
  vm.runInNewContext(stampedBlock(fs.readFileSync(file, 'utf8'), name), sandbox);
  return sandbox;
}
const rounds = () => sandboxOf(SCRIPTS[0], 'paired-rounds');

describe('log-inserts paired rounds', () => {
  const { roundShares, roundOrders } = rounds();

  it('cuts a test into ROUNDS shares that add up to it, the SQL baseline\'s blocks the same shares', () => {
    for (const n of [0, 1, 7, 8, 100, 1001, 10000]) {
      for (const r of [1, 2, 8, 16]) {
        const shares = roundShares(n, r);
        assert.equal(shares.length, r);
        assert.equal(shares[0][0], 0);
        assert.equal(shares.at(-1)[1], n, `${n} in ${r}`);
        shares.forEach(([from, to], k) => {
          if (k > 0) assert.equal(from, shares[k - 1][1], 'each share starts where the one before ends');
          assert.ok(to - from === Math.floor(n / r) || to - from === Math.ceil(n / r), `${n} in ${r}: share ${k + 1} of ${to - from}`);
          assert.equal(sqlBaseline.roundShare(n, r, k + 1), to - from, `the SQL block of round ${k + 1} writes the scripts' share`);
        });
      }
    }
  });

  it('shares a block among test 2\'s shells as the SQL baseline shares it among its connections', () => {
    const text = fs.readFileSync(SCRIPTS[1], 'utf8');
    const mineOf = /\nfunction mineOf\(n\) \{[\s\S]*?\n\}/.exec(text);
    assert.ok(mineOf, 'test2.js has mineOf');
    for (const workers of [1, 2, 3, 8]) {
      for (const n of [0, 1, 5, 13, 125]) {
        const shells = Array.from({ length: workers }, (_, w) => vm.runInNewContext(`${mineOf[0]}; mineOf(${n})`, { WORKER: w, WORKERS: workers }));
        assert.deepEqual(sqlBaseline.writerShares(n, workers), shells, `${n} among ${workers}`);
        assert.equal(shells.reduce((a, b) => a + b, 0), n);
      }
    }
  });

  it('runs every variant once a round, in mirrored twos (each first and last alike), the same orders from one seed', () => {
    const variants = ['save', 'insert', 'sql'];
    const orders = roundOrders(variants, 8, 20141105);
    assert.deepEqual(roundOrders(variants, 8, 20141105), orders, 'a seed draws the same orders');
    assert.equal(orders.length, 8);
    orders.forEach((order, r) => {
      assert.deepEqual([...order].sort(), [...variants].sort(), `round ${r + 1}`);
      if (r % 2 === 1) assert.deepEqual(order, [...orders[r - 1]].reverse(), `round ${r + 1} mirrors round ${r}`);
    });
    for (const v of variants) {
      const first = orders.filter((o) => o[0] === v).length;
      const last = orders.filter((o) => o.at(-1) === v).length;
      assert.equal(first, last, `${v} first ${first} times, last ${last}`);
    }
    // over many seeds, each variant leads a round about as often as the others
    const leads = Object.fromEntries(variants.map((v) => [v, 0]));
    for (let seed = 1; seed <= 300; seed++) roundOrders(variants, 8, seed).forEach((o) => { leads[o[0]] += 1; });
    for (const v of variants) assert.ok(leads[v] > 600 && leads[v] < 1000, JSON.stringify(leads));
  });

  it('runs the SQL side\'s two variants in its turn, mirrored in twos as the rounds are: each first in half the rounds', () => {
    const methods = (round) => sqlBaseline.sidesInOrder(round).map((d) => d.method);
    assert.deepEqual(methods(0), methods(1), 'the warm-up runs round 1\'s order');
    for (let r = 1; r <= 8; r++) {
      assert.deepEqual([...methods(r)].sort(), ['sql', 'sql-async'], `round ${r}: both, once each`);
      if (r % 2 === 0) assert.deepEqual(methods(r), [...methods(r - 1)].reverse(), `round ${r} mirrors round ${r - 1}, as the script's order does`);
    }
    const firsts = Array.from({ length: 8 }, (_, k) => methods(k + 1)[0]);
    assert.equal(firsts.filter((m) => m === 'sql').length, 4);
  });

  it('leaves the article\'s SQL side on the server\'s default and sets synchronous_commit off on the durability-matched one, each in a table of its own', () => {
    const [durable, matched] = sqlBaseline.SIDES;
    assert.deepEqual([durable.method, durable.synchronousCommit], ['sql', null], 'the article\'s comparison is unchanged: PostgreSQL\'s default');
    assert.deepEqual([matched.method, matched.synchronousCommit], ['sql-async', 'off']);
    assert.notEqual(durable.table, matched.table, 'each holds k-1 shares at round k, as each collection does');
  });

  it('combines test 2\'s shells per block and round, and keeps the totals they summed themselves', () => {
    const { combineWorkerLines } = require('../../../orchestrator/run/workers');
    const block = (worker, round, method, startedAt, endedAt, appliedAt) => ({
      scenario: 'log-inserts', test: 'test 2: parallel', method, collection: `log_${method}`, round, rounds: 2, position: 1, iterations: 10, worker,
      startedAt, endedAt, appliedAt, ms: endedAt - startedAt, appliedMs: appliedAt - startedAt, hrMs: 1, inserted: 5,
    });
    const lines = [
      block(0, 1, 'save', 1000, 1100, 1110), block(1, 1, 'save', 1003, 1120, 1125),
      block(0, 1, 'insert', 1200, 1250, 1251), block(1, 1, 'insert', 1200, 1240, 1260),
      block(0, 2, 'save', 1300, 1400, 1402), block(1, 2, 'save', 1301, 1390, 1391),
      // each shell's total: the blocks' combined spans, summed, the same in every shell
      ...[0, 1].map((worker) => ({ scenario: 'log-inserts', method: 'save', collection: 'log_save', rounds: 2, worker, ms: 220, appliedMs: 227, hrMs: 9, workersOverlapped: true, inserted: 10, removed: worker ? 0 : 3 })),
    ];
    const combined = combineWorkerLines(lines, ['collection', 'round']);
    const of = (collection, round) => combined.find((c) => c.collection === collection && c.round === round);
    assert.equal(combined.length, 4);
    const save1 = of('log_save', 1);
    assert.deepEqual([save1.ms, save1.appliedMs, save1.startSkewMs, save1.inserted, save1.workers, save1.workersOverlapped], [120, 125, 3, 10, 2, true]);
    assert.equal(save1.startedAt, undefined, 'a shell\'s own instant is not the block\'s');
    assert.deepEqual([of('log_insert', 1).ms, of('log_insert', 1).appliedMs, of('log_insert', 1).startSkewMs], [50, 60, 0]);
    assert.deepEqual([of('log_save', 2).ms, of('log_save', 2).appliedMs], [100, 102]);
    const total = of('log_save', undefined);
    assert.deepEqual([total.ms, total.appliedMs, total.workersOverlapped, total.inserted, total.removed, total.workers], [220, 227, true, 20, 3, 2]);
    assert.equal(total.ms, save1.ms + of('log_save', 2).ms, 'the total is the sum of its blocks');
  });
});

describe('log-inserts verdicts', () => {
  const { analyseScenario } = require('../../../orchestrator/analysis/analyse');
  const { discoverScenarios } = require('../../../orchestrator/scenarios');
  const { sql } = require('./verdict-cases');
  const scenario = discoverScenarios(path.resolve(DIR, '..')).find((s) => s.name === 'log-inserts');

  it('leaves the SQL baseline out of the servers judged', () => {
    const measurements = [...sql('test1', 3000, 1000), ...sql('test2', 3000, 1000)].map((r) => ({ scenario: 'log-inserts', server: 'pg', ...r }));
    const { verdicts } = analyseScenario(scenario, { measurements });
    assert.deepEqual([...new Set(verdicts.map((v) => v.server))], ['pg']);
    const test1 = verdicts.find((v) => v.finding === 'mongo-beats-sql-test1');
    assert.equal(test1.status, 'inconclusive', 'one reading per side (no blocks) decides nothing');
    assert.equal(test1.ratio, 3);
  });
});
