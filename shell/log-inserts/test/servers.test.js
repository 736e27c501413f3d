'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, smokeRunOn, verdictsOf } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { processesWithTag, leftAfter } = require('../../../test/helpers/processes');
const { pairedRoundsOf } = require('../../../test/helpers/paired-rounds');
const { sidesInOrder } = require('../sql-baseline');

// the article's test 3 wrote with insert only, after its fix; the kit reads it as one loop and as parallel
const METHODS_OF = { test1: ['save', 'insert'], test2: ['save', 'insert'], test3: ['insert'], 'test3-parallel': ['insert'] };
const METHODS = ['save', 'insert'];
// the SQL side's variants, both run in its turn of each round: PostgreSQL's default, and the kit's
// durability-matched one (synchronous_commit=off), each with the setting it read back
const SQL_METHODS = { sql: 'on', 'sql-async': 'off' };
const CHARTS = ['test1-time', 'test2-time', 'test3-time', 'test2-storage'];
const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

const { roundShares, roundOrders } = pairedRoundsOf(path.join(scenario.dir, 'loop.js'));

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`log-inserts at smoke size on ${server}, with its SQL baseline`, function () {
    this.timeout(300000);
    let out;
    let run;
    // the fixture run's own rounds, shells and sizes (test/helpers/fixture-runs.js), never constants of this suite's
    let ROUNDS;
    let WORKERS;
    let ITERATIONS;
    const measured = (step, method) => run.measurements.filter((m) => m.server === server && m.step === step && m.method === method);
    const sql = (step, method = 'sql') => run.measurements.filter((m) => m.server === 'postgresql' && m.step === step && m.method === method);
    // the counted blocks (rounds 1 to ROUNDS); the warm-up round's apart (round 0, warmup true)
    const blocks = (step, method) => run.blocks.filter((b) => b.server === server && b.step === step && b.method === method && !b.warmup).sort((a, b) => a.round - b.round);
    const sqlBlocks = (step, method = 'sql') => run.blocks.filter((b) => b.server === 'postgresql' && b.step === step && b.method === method && !b.warmup).sort((a, b) => a.round - b.round);
    const warmUps = (step) => run.blocks.filter((b) => (b.server === server || b.server === 'postgresql') && b.step === step && b.warmup).sort((a, b) => a.position - b.position || (a.inTurn ?? 0) - (b.inTurn ?? 0));
    /** A round's order with the SQL turn's variants in the order that round ran them. */
    const withSqlSides = (order, round) => order.flatMap((v) => (v === 'sql' ? sidesInOrder(round).map((d) => d.method) : [v]));
    /** A block's span on the Date clock, from its (first shell's) start to its (last shell's) applied instant, or its end on the SQL side. */
    const spanOf = (b) => {
      if (b.server === 'postgresql') return [b.startedAt, b.endedAt];
      const shells = run.records.filter((r) => r.type === 'worker' && r.server === server && r.step === b.step && r.method === b.method && r.round === b.round);
      return shells.length ? [Math.min(...shells.map((w) => w.startedAt)), Math.max(...shells.map((w) => w.appliedAt))] : [b.startedAt, b.appliedAt];
    };

    const state = smokeRunOn(scenario, server, { alsoNeeds: ['ferretdb-pg'] });
    before(() => {
      ({ out, run } = state);
      const { sizes } = state.params;
      ({ rounds: ROUNDS, workers: WORKERS } = state.params);
      ITERATIONS = { test1: sizes.TEST1_ITERATIONS, test2: sizes.TEST2_ITERATIONS, test3: sizes.TEST3_ITERATIONS, 'test3-parallel': sizes.TEST3_ITERATIONS };
    });

    it('ran its parallel tests in two shells or more', () => assert.ok(WORKERS >= 2, `${WORKERS} shells`));

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
        for (const [method, setting] of Object.entries(SQL_METHODS)) {
          const cells = sql(step, method);
          assert.equal(cells.length, 1, `${method} ${step}`);
          assert.ok(Number.isInteger(cells[0].ms) && cells[0].ms > 0 && cells[0].hrMs > 0, `${method} ${step}`);
          assert.equal(cells[0].synchronousCommit, setting, `${method} ${step}: the setting read back from its connections`);
        }
      }
      assert.deepEqual(run.measurements.filter((m) => m.server === 'postgresql' && m.step.startsWith('test3')), [], 'the article wrote no SQL rows in test 3');
    });

    it('cuts tests 1 and 2 into ROUNDS paired rounds: a block of save, of insert and of the SQL baseline in each, in the order drawn from the seed', () => {
      // the seed the run was given, as the scripts got it
      const orders = roundOrders(['save', 'insert', 'sql'], ROUNDS, run.run.params.seed);
      for (const step of ['test1', 'test2']) {
        const shares = roundShares(ITERATIONS[step], ROUNDS);
        const sides = [...METHODS.map((method) => [method, blocks(step, method)]), ...Object.keys(SQL_METHODS).map((method) => [method, sqlBlocks(step, method)])];
        for (const [method, list] of sides) {
          assert.deepEqual(list.map((b) => b.round), Array.from({ length: ROUNDS }, (_, r) => r + 1), `${step} ${method}: one block a round`);
          list.forEach((b, r) => {
            assert.equal(b.rounds, ROUNDS);
            assert.equal(b.method, method);
            assert.equal(b.iterations, shares[r][1] - shares[r][0], `${step} ${method} round ${b.round}: its share`);
            // the SQL side's two variants share the turn's place, each its place in the turn
            assert.equal(b.position, orders[r].indexOf(method in SQL_METHODS ? 'sql' : method) + 1, `${step} ${method} round ${b.round}: its place in the drawn order ${orders[r]}`);
            if (method in SQL_METHODS) {
              assert.equal(b.inTurn, sidesInOrder(b.round).findIndex((d) => d.method === method) + 1, `${step} ${method} round ${b.round}: its place in the turn`);
              assert.equal(b.synchronousCommit, SQL_METHODS[method]);
            }
            assert.ok(Number.isInteger(b.ms) && b.ms >= 0, `${step} ${method} round ${b.round} ms`);
            if (!(method in SQL_METHODS)) {
              assert.ok(Number.isInteger(b.appliedMs) && b.appliedMs >= b.ms, `${step} ${method} round ${b.round}: applied ${b.appliedMs}, sent ${b.ms}`);
              assert.equal(b.collection, `log_${method}`);
              assert.equal(b.test, measured(step, method)[0].test);
            }
          });
        }
        for (const b of [...sqlBlocks(step), ...sqlBlocks(step, 'sql-async')]) {
          assert.deepEqual(b.forServers, [server], 'a SQL block names the server it was paired with');
          assert.equal(b.baselineFor, 'log-inserts');
          assert.equal(b.inserted, b.iterations);
        }
      }
      for (const step of ['test3', 'test3-parallel']) assert.deepEqual(run.blocks.filter((b) => b.step === step), [], `${step} compares nothing: one loop, no blocks`);
    });

    it('warms up first: a block of save, of insert and of the SQL baseline in round 1\'s order, round 0, round 1\'s share, in no sum', () => {
      const orders = roundOrders(['save', 'insert', 'sql'], ROUNDS, run.run.params.seed);
      for (const step of ['test1', 'test2']) {
        const warm = warmUps(step);
        assert.deepEqual(warm.map((b) => [b.round, b.method]), withSqlSides(orders[0], 1).map((method) => [0, method]), `${step}: round 1's order`);
        const [first] = roundShares(ITERATIONS[step], ROUNDS);
        for (const b of warm) {
          assert.equal(b.iterations, first[1] - first[0], `${step} ${b.method}: round 1's share`);
          assert.equal(b.inserted, b.iterations, `${step} ${b.method}`);
        }
      }
      assert.equal(run.run.params.warmupBlocks, true);
    });

    it('interleaves the SQL baseline\'s blocks with the server\'s while both run: each block in its place in time, none overlapping another', () => {
      for (const step of ['test1', 'test2']) {
        const all = [...warmUps(step), ...METHODS.flatMap((method) => blocks(step, method)), ...sqlBlocks(step), ...sqlBlocks(step, 'sql-async')]
          .sort((a, b) => a.round - b.round || a.position - b.position || (a.inTurn ?? 0) - (b.inTurn ?? 0));
        assert.equal(all.length, 4 * (ROUNDS + 1));
        const spans = all.map(spanOf);
        spans.forEach(([start, end], i) => {
          assert.ok(Number.isInteger(start) && end >= start, `${step} ${all[i].method} round ${all[i].round}: ${start}-${end}`);
          if (i > 0) assert.ok(spans[i - 1][1] <= start, `${step}: ${all[i - 1].method} of round ${all[i - 1].round} ended at ${spans[i - 1][1]}, after ${all[i].method} of round ${all[i].round} began at ${start}`);
        });
        // the SQL side did not run after the server had finished: its first block is before the server's last
        const serverEnd = Math.max(...spans.filter((_, i) => !(all[i].method in SQL_METHODS)).map(([, e]) => e));
        assert.ok(spanOf(sqlBlocks(step)[0])[1] < serverEnd, `${step}: the SQL blocks ran between the server's`);
      }
    });

    it('gives each test\'s totals as the sums of its blocks (the article\'s printed line too)', () => {
      const sum = (list, field) => list.reduce((n, b) => n + b[field], 0);
      for (const step of ['test1', 'test2']) {
        for (const method of METHODS) {
          const [total] = measured(step, method);
          const list = blocks(step, method);
          assert.equal(total.rounds, ROUNDS);
          assert.equal(total.ms, sum(list, 'ms'), `${step} ${method} ms`);
          assert.equal(total.appliedMs, sum(list, 'appliedMs'), `${step} ${method} appliedMs`);
          if (step === 'test1') {
            assert.ok(Math.abs(total.hrMs - sum(list, 'hrMs')) < 0.01, `${step} ${method} hrMs ${total.hrMs} against ${sum(list, 'hrMs')}`);
            assert.ok(Math.abs(total.appliedHrMs - sum(list, 'appliedHrMs')) < 0.01, `${step} ${method} appliedHrMs`);
          }
          assert.equal(sum(list, 'iterations'), ITERATIONS[step]);
        }
        for (const [method, synchronousCommit] of Object.entries(SQL_METHODS)) {
          const [total] = sql(step, method);
          assert.equal(total.ms, sum(sqlBlocks(step, method), 'ms'), `${method} ${step} ms`);
          assert.ok(Math.abs(total.hrMs - sum(sqlBlocks(step, method), 'hrMs')) < 0.01, `${method} ${step} hrMs`);
          assert.equal(total.inserted, sum(sqlBlocks(step, method), 'inserted'));
          assert.deepEqual(total.forServers, [server]);
          assert.equal(total.baselineFor, 'log-inserts');
          // the settings its timed sessions ran under, read back on them (servers/store-settings.js), and its table's indexes
          assert.equal(total.sessionSettings?.synchronous_commit?.value, synchronousCommit, `${method} ${step}: ${JSON.stringify(total.sessionSettings)}`);
          assert.equal(total.sessionSettings.fsync.value, 'on');
          assert.deepEqual(total.indexes.map((i) => i.name), [`${total.collection}_pkey`]);
        }
      }
      const log = fs.readFileSync(path.join(out, 'logs', `${server}-log-inserts-test1.log`), 'utf8');
      const [save] = measured('test1', 'save');
      assert.match(log, new RegExp(`^MongoDB save: ${save.ms / 1000} \\(created: 1\\)$`, 'm'), 'the article\'s line prints the sum');
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
        for (const method of Object.keys(SQL_METHODS)) {
          const [cell] = sql(step, method);
          assert.equal(cell.inserted, ITERATIONS[step]);
          assert.equal(cell.count, ITERATIONS[step], `${method} ${step}: the table held only this test's rows`);
          assert.equal(cell.countOk, true);
        }
      }
    });

    it('ran each of test 2\'s blocks on all its shells at once, started together to within a few ms', () => {
      for (const method of METHODS) {
        const [cell] = measured('test2', method);
        assert.equal(cell.workers, WORKERS, `${method}: shells`);
        assert.equal(cell.workersOverlapped, true, `${method}: every block's shells overlapped`);
        const shells = run.records.filter((r) => r.type === 'worker' && r.server === server && r.step === 'test2' && r.method === method && r.round === undefined);
        assert.deepEqual(shells.map((w) => w.worker).sort(), Array.from({ length: WORKERS }, (_, i) => i));
        assert.equal(shells.reduce((n, w) => n + w.inserted, 0), ITERATIONS.test2, `${method}: shares add up`);
        for (const b of blocks('test2', method)) {
          assert.equal(b.workers, WORKERS, `${method} round ${b.round}: shells`);
          assert.equal(b.workerSpans.length, WORKERS);
          assert.equal(b.workersOverlapped, true, `${method} round ${b.round}: spans ${JSON.stringify(b.workerSpans)}`);
          assert.equal(b.inserted, b.iterations, `${method} round ${b.round}: the shells' parts add up`);
          // a meeting starts every shell at one instant; a loaded machine may hold one back a little
          assert.ok(Number.isInteger(b.startSkewMs) && b.startSkewMs >= 0 && b.startSkewMs < b.appliedMs, `${method} round ${b.round}: skew ${b.startSkewMs} ms of ${b.appliedMs}`);
        }
      }

      const [parallel3] = measured('test3-parallel', 'insert');
      assert.equal(parallel3.workers, WORKERS, 'test 3 read as a parallel run uses test 2\'s shells');
      assert.equal(parallel3.workersOverlapped, true);
      assert.equal(parallel3.test, 'test 3: parallel');

      for (const method of Object.keys(SQL_METHODS)) {
        const [sqlCell] = sql('test2', method);
        assert.equal(sqlCell.workers, WORKERS);
        assert.equal(sqlCell.workersOverlapped, true);
        for (const b of sqlBlocks('test2', method)) assert.equal(b.workersOverlapped, true, `${method} round ${b.round}: spans ${JSON.stringify(b.workerSpans)}`);
      }
    });

    it('reads the storage after each test: collection stats, and the SQL table\'s size', () => {
      for (const step of Object.keys(ITERATIONS)) {
        for (const method of METHODS_OF[step]) {
          const [cell] = measured(step, method);
          assert.ok(cell.storageSize > 0 && cell.size > 0, `${step} ${method}`);
        }
      }
      for (const step of ['test1', 'test2']) {
        for (const method of Object.keys(SQL_METHODS)) {
          const [cell] = sql(step, method);
          assert.ok(cell.storageSize > 0 && cell.totalIndexSize > 0, `${method} ${step}`);
          assert.equal(cell.totalRelationSize, cell.storageSize + cell.totalIndexSize);
        }
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
      const verdicts = verdictsOf(out, scenario.name);
      const v = verdicts.find((x) => x.finding === 'insert-beats-save' && x.server === server);
      // decided on the time until applied, on paired rounds, the send times beside it
      assert.equal(v.clock, 'applied');
      assert.equal(v.articleClock, 'send');
      assert.ok(Number.isFinite(v.ratio) && v.n === ROUNDS && v.lo <= v.ratio && v.ratio <= v.hi, JSON.stringify(v));
      assert.ok(v.articleClockRatio && Number.isFinite(v.articleClockRatio.ratio));
      assert.deepEqual(v.context.map((c) => c.label), ['MongoDB writes', 'save']);
      assert.match(v.context[0].values.join(), /^w:[01]$/);
      assert.match(v.context[1].values[0], /^an upsert by _id: /);
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

    it('leaves no process it started running', async () => {
      assert.deepEqual(await leftAfter(state.tag), []);
    });
  });
}

// The SQL side's connections ended in the middle of a step: every SQL block fails, each shell is
// told so at its turn and goes on, the failure is recorded once per step, and the server's own
// blocks are all kept
describe('log-inserts: a SQL block that fails does not hold the shells', function () {
  this.timeout(240000);
  const { MongoClient } = require('mongodb');
  const { startTestServer, skipUnless, config } = require('../../../test/helpers/servers');
  const { Conductor } = require('../../../orchestrator/run/conductor');
  const { runScenario, scenarioPlan } = require('../../../orchestrator/run/steps');
  const { ResultsLog } = require('../../../orchestrator/results/writer');
  const { discoverScenarios } = require('../../../orchestrator/scenarios');
  const KIND = 'ferretdb';
  let box;
  let srv;
  let client;
  let run;
  let failures;
  let turns;
  let stepMs;
  const said = [];

  before(async function () {
    skipUnless(this, KIND);
    skipUnless(this, 'ferretdb-pg'); // PostgreSQL, which ferretdb-pg needs too
    box = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'classics-log-inserts-sql-fails-'));
    srv = await startTestServer(KIND);
    client = new MongoClient(srv.uri);
    const described = discoverScenarios(config.shellDir).find((s) => s.name === 'log-inserts');
    const options = { log: (line) => said.push(line), workers: 2, shell: 'kit', lean: 'on', seed: 7, runId: `sql-fails-${process.pid}`, isInterrupted: () => false };
    const results = new ResultsLog(path.join(box, 'results.jsonl'));
    const progress = { startStep() {}, endStep() {}, update() {} };
    const server = { name: KIND, uri: srv.uri, started: true };
    const conductor = new Conductor({ options, results, config, logDir: box });
    const partner = await conductor.open({ scenario: described, ready: { server, client } });
    assert.ok(partner, 'PostgreSQL started');
    // each step's side opens (its connections made), then PostgreSQL ends them, as an
    // administrator would: every block of the step fails on a connection that is gone
    const openStep = partner.openStep.bind(partner);
    partner.openStep = async (...args) => {
      const side = await openStep(...args);
      await partner.pg.psql(described.database, 'SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      return side;
    };
    const plan = scenarioPlan(described, 'smoke', 1);
    plan.steps = plan.steps.filter((st) => ['test1', 'test2'].includes(st.name));
    const started = Date.now();
    try {
      failures = await runScenario({ scenario: described, server, client, plan, options: { ...options, keepData: true }, results, progress, logDir: box, config, partner });
      turns = await client.db(described.database).collection('turns').find().toArray();
    } finally {
      await partner.stop();
    }
    stepMs = Date.now() - started;
    failures += conductor.failures;
    results.close();
    const records = fs.readFileSync(path.join(box, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const of = (type) => records.filter((r) => r.type === type);
    run = { records, blocks: of('block'), measurements: of('measurement'), failures: of('failure') };
  });

  after(async () => {
    if (client) await client.close();
    if (srv) await srv.stop();
    if (box) fs.rmSync(box, { recursive: true, force: true });
  });

  it('runs both steps to their end, every server block and total kept', () => {
    for (const step of ['test1', 'test2']) {
      assert.ok(run.records.some((r) => r.type === 'step' && r.step === step), `${step} finished`);
      for (const method of METHODS) {
        const own = run.blocks.filter((b) => b.server === KIND && b.step === step && b.method === method && !b.warmup);
        assert.ok(own.length > 0 && own.every((b) => b.rounds === own.length), `${step} ${method}: a block for each of its rounds`);
        assert.equal(run.measurements.filter((m) => m.server === KIND && m.step === step && m.method === method).length, 1);
      }
    }
    assert.ok(stepMs < 200000, `${stepMs} ms`);
  });

  it('records one failure a step, says it, and keeps no SQL block or total that did not run', () => {
    const sqlFailures = run.failures.filter((f) => f.server === 'postgresql');
    assert.deepEqual(sqlFailures.map((f) => f.step), ['test1', 'test2']);
    for (const f of sqlFailures) {
      assert.equal(f.round, 0, 'the first block, the warm-up\'s, failed');
      assert.deepEqual(f.forServers, [KIND]);
      assert.match(f.error, /^round 0: /);
    }
    assert.equal(failures, 2, 'the run counts them');
    assert.ok(said.some((l) => /^FAILED postgresql · log-inserts · test1: round 0: /.test(l)), said.join('\n'));
    assert.deepEqual(run.blocks.filter((b) => b.server === 'postgresql'), []);
    assert.deepEqual(run.measurements.filter((m) => m.server === 'postgresql'), []);
  });

  it('answered every turn of the last step, each marked failed with why, so no shell waited for ever', () => {
    const rounds = run.blocks.find((b) => b.server === KIND && b.step === 'test2').rounds;
    assert.equal(turns.length, rounds + 1, JSON.stringify(turns)); // the warm-up round's turn too
    for (const t of turns) {
      assert.equal(t.ok, false);
      assert.match(t.error, /./);
    }
    assert.match(turns.find((t) => t._id === '2:sql').error, /^an earlier block failed/);
  });
});

// Ctrl-C while the SQL baseline runs beside the server: PostgreSQL is stopped with the rest, and
// what was measured is kept
describe('log-inserts interrupted while its SQL baseline runs beside the server', function () {
  this.timeout(240000);
  const os = require('node:os');
  const { invokeOrchestrate } = require('../../../test/helpers/cli');
  const { waitFor } = require('../../../test/helpers/wait');
  const { skipUnless } = require('../../../test/helpers/servers');
  const { newTag } = require('../../../test/helpers/processes');
  const { readRun } = require('../../../orchestrator/results/reader');
  const tag = newTag();
  let out;
  let result;
  let running;

  before(async function () {
    skipUnless(this, 'ferretdb');
    skipUnless(this, 'ferretdb-pg'); // PostgreSQL, which ferretdb-pg needs too
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-log-inserts-signal-'));
    const results = path.join(out, 'results.jsonl');
    result = await invokeOrchestrate(['log-inserts', '--server', 'ferretdb', '--size', 'smoke', '--no-calibrate', '--out', out], {
      env: tag,
      onSpawn: (child) => {
        // once test 1's second SQL block is recorded: both servers are running
        waitFor(() => fs.existsSync(results) && (fs.readFileSync(results, 'utf8').match(/"type":"block","step":"test1"[^\n]*"server":"postgresql"/g) || []).length >= 2, 150000)
          .then(() => {
            running = processesWithTag(tag);
            child.kill('SIGINT');
          }, () => child.kill('SIGKILL'));
      },
    });
  });

  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it('exits 130, with a FerretDB and a PostgreSQL running when it was stopped and none of them left', async () => {
    assert.equal(result.code, 130, result.stderr);
    assert.ok(running.some((p) => /ferretdb/.test(p.cmd)), 'FerretDB was running');
    assert.ok(running.some((p) => /postgres/.test(p.cmd)), 'PostgreSQL was running');
    assert.deepEqual(await leftAfter(tag), []);
  });

  it('keeps the blocks measured, marks the run interrupted and counts no failure', () => {
    const run = readRun(out);
    assert.ok(run.blocks.filter((b) => b.server === 'postgresql').length >= 2);
    assert.equal(run.end.status, 'interrupted');
    assert.deepEqual(run.failures, [], 'a block stopped by the signal is not a failure');
  });
});
