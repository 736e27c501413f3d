'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('../../../test/helpers/cli');
const { loadRun } = require('../../../test/helpers/results');
const { skipUnless } = require('../../../test/helpers/servers');
const { inspectPng } = require('../../../test/helpers/png');
const { newTag, processesWithTag } = require('../../../test/helpers/processes');

const WORKERS = 2;
const SMOKE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'scenario.json'), 'utf8')).sizes.smoke;
const ITERATIONS = { test1: SMOKE.TEST1_ITERATIONS, test2: SMOKE.TEST2_ITERATIONS, test3: SMOKE.TEST3_ITERATIONS };
const METHODS = ['save', 'insert'];
const CHARTS = ['test1-time', 'test2-time', 'test3-time', 'test2-storage'];

for (const server of ['ferretdb', 'ferretdb-pg', 'mongod']) {
  describe(`log-inserts at smoke size on ${server}, with its SQL baseline`, function () {
    this.timeout(300000);
    let out;
    let result;
    let run;
    const tag = newTag();
    const measured = (step, method) => run.measurements.filter((m) => m.server === server && m.step === step && m.method === method);
    const sql = (step) => run.measurements.filter((m) => m.server === 'postgresql' && m.step === step);

    before(async function () {
      skipUnless(this, server);
      skipUnless(this, 'ferretdb-pg'); // the baseline needs PostgreSQL's binaries, as ferretdb-pg does
      out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-log-inserts-'));
      result = await invokeOrchestrate(['log-inserts', '--server', server, '--size', 'smoke', '--no-calibrate', '--workers', String(WORKERS), '--out', out], { env: tag });
      run = loadRun(out);
    });

    after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

    it('exits 0 and records no failure', () => {
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(run.failures, []);
      assert.equal(run.end.status, 'ok');
    });

    it('measures every cell once: three tests by save and by insert, tests 1 and 2 on the SQL baseline', () => {
      for (const step of Object.keys(ITERATIONS)) {
        for (const method of METHODS) {
          const cell = measured(step, method);
          assert.equal(cell.length, 1, `${step} ${method}`);
          assert.equal(cell[0].collection, `log_${method}`);
          assert.ok(Number.isInteger(cell[0].ms) && cell[0].ms > 0, `${step} ${method} ms`);
          if (step !== 'test2') assert.ok(cell[0].hrMs > 0, `${step} ${method} hrMs`);
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
        const shells = run.records.filter((r) => r.type === 'worker' && r.server === server && r.method === method);
        assert.deepEqual(shells.map((w) => w.worker).sort(), Array.from({ length: WORKERS }, (_, i) => i));
        assert.equal(shells.reduce((n, w) => n + w.inserted, 0), ITERATIONS.test2, `${method}: shares add up`);
        return cell.workerSpans;
      });
      const lastSaveEnd = Math.max(...phases[0].map(([, end]) => end));
      const firstInsertStart = Math.min(...phases[1].map(([start]) => start));
      assert.ok(lastSaveEnd <= firstInsertStart, 'no shell inserted while another still saved');

      const [sqlCell] = sql('test2');
      assert.equal(sqlCell.workers, WORKERS);
      assert.equal(sqlCell.workersOverlapped, true, `sql spans ${JSON.stringify(sqlCell.workerSpans)}`);
    });

    it('reads the storage after each test: collection stats, and the SQL table\'s size', () => {
      for (const step of Object.keys(ITERATIONS)) {
        for (const method of METHODS) {
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

    it('records the SQL baseline as a server of its own, labelled as the SQL Server stand-in', () => {
      const baseline = run.servers.find((s) => s.server === 'postgresql');
      assert.equal(baseline.product, 'PostgreSQL');
      assert.match(baseline.description, /stand-in for the article's SQL Server/);
      assert.equal(baseline.baselineFor, 'log-inserts');
    });

    it('writes summary.md with the article beside each server and a chart per test', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, /\| test \| save ms \(article\) \| save ms \| save hr ms \| insert ms \(article\) \|/);
      assert.match(summary, /\| test 1: one loop \| 760 \| \d[\d,]* \| [\d,.]+ \| – \| \d/);
      assert.match(summary, /\| test 2: parallel \| 6,190 \| \d[\d,]* \| – \| 2,900 \| \d/);
      assert.match(summary, /### postgresql: PostgreSQL [\s\S]*\| test 1: one loop \| 760 \| – \| – \| – \| – \| – \| 21,310 \| \d/);
      for (const chart of CHARTS) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `log-inserts-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('leaves no process it started running', () => {
      assert.deepEqual(processesWithTag(tag), []);
    });
  });
}
