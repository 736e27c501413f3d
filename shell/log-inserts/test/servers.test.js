'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, smokeRunOn, verdictRows, assertDeclaredUntestable } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { processesWithTag } = require('../../../test/helpers/processes');

const WORKERS = 2;
const SMOKE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'scenario.json'), 'utf8')).sizes.smoke;
const ITERATIONS = { test1: SMOKE.TEST1_ITERATIONS, test2: SMOKE.TEST2_ITERATIONS, test3: SMOKE.TEST3_ITERATIONS, 'test3-parallel': SMOKE.TEST3_ITERATIONS };
// the article's test 3 wrote with insert only, after its fix; the kit reads it as one loop and as parallel
const METHODS_OF = { test1: ['save', 'insert'], test2: ['save', 'insert'], test3: ['insert'], 'test3-parallel': ['insert'] };
const METHODS = ['save', 'insert'];
const CHARTS = ['test1-time', 'test2-time', 'test3-time', 'test2-storage'];
const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`log-inserts at smoke size on ${server}, with its SQL baseline`, function () {
    this.timeout(300000);
    let out;
    let result;
    let run;
    const measured = (step, method) => run.measurements.filter((m) => m.server === server && m.step === step && m.method === method);
    const sql = (step) => run.measurements.filter((m) => m.server === 'postgresql' && m.step === step);

    const state = smokeRunOn(scenario, server, { args: ['--no-calibrate', '--workers', String(WORKERS)], alsoNeeds: ['ferretdb-pg'] });
    before(() => {
      ({ out, result, run } = state);
    });


    it('exits 0 and records no failure', () => {
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(run.failures, []);
      assert.equal(run.end.status, 'ok');
    });

    it('measures every cell once: tests 1 and 2 by save and by insert, test 3 by insert both ways, tests 1 and 2 on the SQL baseline', () => {
      for (const step of Object.keys(ITERATIONS)) {
        for (const method of METHODS) {
          const cell = measured(step, method);
          assert.equal(cell.length, METHODS_OF[step].includes(method) ? 1 : 0, `${step} ${method}`);
          if (!cell.length) continue;
          assert.equal(cell[0].collection, `log_${method}`);
          assert.ok(Number.isInteger(cell[0].ms) && cell[0].ms > 0, `${step} ${method} ms`);
          assert.ok(Number.isInteger(cell[0].appliedMs) && cell[0].appliedMs >= cell[0].ms, `${step} ${method}: applied ${cell[0].appliedMs} ms, sent ${cell[0].ms} ms`);
          if (!cell[0].workers) assert.ok(cell[0].hrMs > 0, `${step} ${method} hrMs`);
        }
      }
      for (const step of ['test1', 'test2']) {
        const [cell] = sql(step);
        assert.equal(cell.method, 'sql');
        assert.ok(Number.isInteger(cell.ms) && cell.ms > 0 && cell.hrMs > 0, `sql ${step}`);
      }
      assert.deepEqual(sql('test3'), [], 'the article wrote no SQL rows in test 3');
    });

    it('writes exactly the iterations of each test into a collection emptied first', () => {
      for (const method of METHODS) {
        let before = 0;
        for (const [step, iterations] of Object.entries(ITERATIONS)) {
          if (!METHODS_OF[step].includes(method)) continue;
          const [cell] = measured(step, method);
          assert.equal(cell.inserted, iterations, `${step} ${method} inserted`);
          assert.equal(cell.removed, before, `${step} ${method} emptied the previous test's documents`);
          assert.equal(cell.count, iterations, `${step} ${method} count`);
          assert.equal(cell.countOk, true);
          before = cell.count;
        }
      }
      for (const step of ['test1', 'test2']) {
        const [cell] = sql(step);
        assert.equal(cell.inserted, ITERATIONS[step]);
        assert.equal(cell.count, ITERATIONS[step], `sql ${step}: the table held only this test's rows`);
        assert.equal(cell.countOk, true);
      }
    });

    it('ran test 2 on all its shells at once, save and insert one after the other', () => {
      const phases = METHODS.map((method) => {
        const [cell] = measured('test2', method);
        assert.equal(cell.workers, WORKERS, `${method}: shells`);
        assert.equal(cell.workerSpans.length, WORKERS);
        assert.equal(cell.workersOverlapped, true, `${method}: spans ${JSON.stringify(cell.workerSpans)}`);
        const shells = run.records.filter((r) => r.type === 'worker' && r.server === server && r.step === 'test2' && r.method === method);
        assert.deepEqual(shells.map((w) => w.worker).sort(), Array.from({ length: WORKERS }, (_, i) => i));
        assert.equal(shells.reduce((n, w) => n + w.inserted, 0), ITERATIONS.test2, `${method}: shares add up`);
        return cell.workerSpans;
      });
      const lastSaveEnd = Math.max(...phases[0].map(([, end]) => end));
      const firstInsertStart = Math.min(...phases[1].map(([start]) => start));
      assert.ok(lastSaveEnd <= firstInsertStart, 'no shell inserted while another still saved');

      const [parallel3] = measured('test3-parallel', 'insert');
      assert.equal(parallel3.workers, WORKERS, 'test 3 read as a parallel run uses test 2\'s shells');
      assert.equal(parallel3.workersOverlapped, true);
      assert.equal(parallel3.test, 'test 3: parallel');

      const [sqlCell] = sql('test2');
      assert.equal(sqlCell.workers, WORKERS);
      assert.equal(sqlCell.workersOverlapped, true, `sql spans ${JSON.stringify(sqlCell.workerSpans)}`);
    });

    it('reads the storage after each test: collection stats, and the SQL table\'s size', () => {
      for (const step of Object.keys(ITERATIONS)) {
        for (const method of METHODS_OF[step]) {
          const [cell] = measured(step, method);
          assert.ok(cell.storageSize > 0 && cell.size > 0, `${step} ${method}`);
        }
      }
      for (const step of ['test1', 'test2']) {
        const [cell] = sql(step);
        assert.ok(cell.storageSize > 0 && cell.totalIndexSize > 0);
        assert.equal(cell.totalRelationSize, cell.storageSize + cell.totalIndexSize);
      }
    });

    it('sends the records as the 2010 driver did where the server takes w:0, and says why not where it does not', () => {
      const cells = run.measurements.filter((m) => m.server === server);
      for (const m of cells) {
        assert.equal(m.writeConcern, m.unacknowledged.outcome === 'honoured' ? 'w:0' : 'w:1', `${m.step} ${m.method}`);
        assert.equal(m.unacknowledged.outcome, server.startsWith('ferretdb') ? 'refused' : 'honoured', m.unacknowledged.reason);
      }
    });

    it('says what an upsert costs on this server after each save test: its plan, and empty against full', () => {
      for (const step of ['test1', 'test2']) {
        const [cell] = measured(step, 'save');
        const c = cell.upsertCost;
        assert.ok(c.emptyMs > 0 && c.fullMs > 0 && c.growth > 0, JSON.stringify(c));
        assert.equal(c.docs, ITERATIONS[step], 'the probe ran on the collection the test filled');
        assert.equal(cell.upsertCostText, c.text);
        if (server.startsWith('mongod')) assert.match(c.plan, /^UPDATE <- (IDHACK|EXPRESS|IXSCAN)/);
        // FerretDB 2 does not explain updates: the plan is the equivalent find's, and says so
        else if (server === 'ferretdb2') assert.match(c.plan, /^the equivalent find's plan \(this server does not explain an update: [^)]+\): FerretDB: PostgreSQL Index Scan on _id_$/);
        else assert.match(c.plan, /^FerretDB: (PostgreSQL Seq Scan|SQLite SCAN \w+), the filter not pushed down: FerretDB reads every document/);
      }
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      const row = verdictRows(summary).find((r) => r.claim === FINDINGS.find((f) => f.id === 'insert-beats-save').claim && r.server === server);
      // decided on the time until applied, the send times beside it
      assert.match(row.measured, /^\d+\.\d\d× \(applied time [\d,]+ \/ [\d,]+ ms\)(: the span was too short to decide \([^)]+\))?; beside it, the article's clock: \d+\.\d\d× \(send time [\d,]+ \/ [\d,]+ ms\) \[MongoDB writes: w:[01]; save: an upsert by _id: /);
      assertDeclaredUntestable(scenario, summary, server);
    });

    it('records the SQL baseline as a server of its own, labelled as the SQL Server stand-in', () => {
      const baseline = run.servers.find((s) => s.server === 'postgresql');
      assert.equal(baseline.product, 'PostgreSQL');
      assert.match(baseline.description, /stand-in for the article's SQL Server/);
      assert.equal(baseline.baselineFor, 'log-inserts');
    });

    it('writes summary.md with the article beside each server and a chart per test', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, /\| test \| save ms \(article\) \| save ms \| save applied ms \| save hr ms \| insert ms \(article\) \|/);
      assert.match(summary, /\| test 1: one loop \| 760 \| \d[\d,]* \| \d[\d,]* \| [\d,.]+ \| – \| \d/);
      assert.match(summary, /\| test 2: parallel \| 6,190 \| \d[\d,]* \| \d[\d,]* \| – \| 2,900 \| \d/);
      assert.match(summary, /\| test 3: one long loop \| – \| – \| – \| – \| 119,000 \| \d/);
      assert.match(summary, /\| test 3: parallel \| – \| – \| – \| – \| 119,000 \| \d/);
      assert.match(summary, /### postgresql: PostgreSQL [\s\S]*\| test 1: one loop \| 760 \| – \| – \| – \| – \| – \| – \| – \| 21,310 \| \d/);
      for (const chart of CHARTS) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `log-inserts-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('leaves no process it started running', () => {
      assert.deepEqual(processesWithTag(state.tag), []);
    });
  });
}
