'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, smokeRunOn, verdictsOf, assertDeclaredUntestable } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { leftAfter } = require('../../../test/helpers/processes');

const COLLECTIONS = ['noPowerOf2Sizes', 'powerOf2Sizes'];
const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`power-of-2-sizes at smoke size on ${server}`, function () {
    this.timeout(300000);
    let out;
    let run;
    // the fixture run's own passes and sizes (test/helpers/fixture-runs.js), never constants of this suite's
    let PASSES;
    let SMOKE;

    const state = smokeRunOn(scenario, server);
    before(() => {
      ({ out, run } = state);
      ({ passes: PASSES, sizes: SMOKE } = state.params);
    });

    it('ran more than one pass, so that passes follow one another on the same data', () => assert.ok(PASSES >= 2, `${PASSES} passes`));

    it('records the set-up and every pass for each collection', () => {
      for (const collection of COLLECTIONS) {
        const passes = run.measurements.filter((m) => m.collection === collection).map((m) => m.pass);
        assert.deepEqual(passes, [0, ...Array.from({ length: PASSES }, (_, i) => i + 1)]);
      }
    });

    it('leaves each collection holding the scripts\' inserts minus their removes', () => {
      for (const collection of COLLECTIONS) {
        const ms = run.measurements.filter((m) => m.collection === collection);
        const tally = ms.reduce((n, m) => n + m.inserted - m.removed, 0);
        assert.equal(ms.at(-1).count, tally, `${collection}: count ${ms.at(-1).count}, tally ${tally}`);
        assert.equal(ms[0].inserted, SMOKE.DOCS, `smoke size inserts ${SMOKE.DOCS} documents`);
        assert.ok(ms.every((m) => m.countOk), 'every step passed the orchestrator\'s count check');
      }
    });

    it('measures positive sizes and times, Date sums beside high-resolution sums', () => {
      for (const m of run.measurements) {
        assert.ok(m.size > 0 && m.storageSize > 0, `size of ${m.collection} pass ${m.pass}`);
        assert.ok(Number.isInteger(m.ms) && m.ms >= 0);
        assert.ok(m.hrMs > 0);
      }
    });

    it('says which push operator and which usePowerOf2Sizes outcome the server gave', () => {
      const passes = run.measurements.filter((m) => m.step === 'pass');
      assert.ok(passes.every((m) => ['$pushAll', '$push/$each'].includes(m.pushOperator)));
      const setup = run.measurements.find((m) => m.step === 'setup' && m.collection === 'powerOf2Sizes');
      assert.ok(['applied', 'ignored', 'refused'].includes(setup.usePowerOf2Sizes.outcome));
    });

    it('sends the writes as the 2.4 shell did where the server takes w:0, says so where it does not, and times until applied', () => {
      for (const m of run.measurements) {
        const where = `${m.collection} ${m.step} ${m.pass}`;
        assert.ok(['honoured', 'refused'].includes(m.unacknowledged.outcome), where);
        assert.equal(m.writeConcern, m.unacknowledged.outcome === 'honoured' ? 'w:0' : 'w:1', where);
        assert.ok(m.unacknowledged.reason.length > 20, `${where}: the record says why`);
      }
      // FerretDB 1.24 answers fire-and-forget writes: the probe must notice it
      if (server.startsWith('ferretdb')) assert.ok(run.measurements.every((m) => m.unacknowledged.outcome === 'refused' && /answers fire-and-forget/.test(m.unacknowledged.reason)));
      if (server.startsWith('mongod')) assert.ok(run.measurements.every((m) => m.writeConcern === 'w:0'));
      for (let pass = 0; pass <= PASSES; pass++) {
        const both = run.measurements.filter((m) => m.pass === pass);
        assert.equal(both.length, 2);
        assert.equal(both[0].appliedHrMs, both[1].appliedHrMs, 'one applied time for both collections');
        assert.ok(both[0].appliedHrMs >= both[0].hrMs + both[1].hrMs, `pass ${pass}: applied ${both[0].appliedHrMs} ms, sent ${both[0].hrMs} + ${both[1].hrMs} ms`);
        assert.ok(both[0].barrierHrMs >= 0 && both[0].barrierHrMs <= both[0].appliedHrMs);
      }
    });

    it('records the server\'s own time over the timed loops alone where it keeps one (mongod), and says so where not', () => {
      const smoke = SMOKE;
      for (const m of run.measurements.filter((r) => r.collection)) {
        if (server.startsWith('mongod')) {
          // exactly the loops' writes: not the $pushAll probe, lastElement, the tally, nor the kit's stats
          const writes = m.step === 'setup' ? smoke.DOCS : smoke.UPDATES + smoke.REMOVES + smoke.INSERTS;
          assert.equal(m.serverOps, writes, `${m.step} ${m.pass} ${m.collection}: serverOps`);
          assert.ok(m.serverMs > 0, `${m.step} ${m.pass} ${m.collection}: serverMs ${m.serverMs}`);
        } else {
          assert.equal(m.serverMs, undefined);
          assert.equal(m.serverOps, undefined);
        }
      }
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.equal(summary.includes('this server keeps no per-collection latency'), !server.startsWith('mongod'));
    });

    it('reports the speed and size findings as cannot be tested here, with what it measured instead', () => {
      const verdicts = verdictsOf(out, scenario.name);
      assertDeclaredUntestable(scenario, verdicts, server);
      const speed = verdicts.find((v) => v.finding === 'same-speed');
      assert.equal(speed.reasons[0].code, 'requirement-unmet');
      assert.match(speed.reason, /no server this kit can reach has MMAPv1/);
      // what was measured instead: the two collections' send times, the passes as paired samples
      assert.equal(speed.clock, 'send');
      assert.ok(Number.isFinite(speed.ratio), JSON.stringify(speed));
    });


    it('records the server and the test bed in the results', () => {
      assert.deepEqual(run.servers.map((s) => s.server), [server]);
      assert.ok(run.servers[0].version);
      assert.ok(run.run.machine.cores >= 1);
      assert.equal(run.run.params.size, 'smoke');
    });

    it('writes summary.md with the table and both charts as real PNGs', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, /\| pass \| noPowerOf2Sizes ms \(article\) \| noPowerOf2Sizes ms \|/);
      // the last pass's row, the article's time beside the measured one
      const article = JSON.parse(fs.readFileSync(path.join(scenario.dir, 'published.json'), 'utf8')).records
        .find((r) => r.step === 'pass' && r.pass === PASSES && r.collection === 'noPowerOf2Sizes');
      assert.match(summary, new RegExp(`\\| ${PASSES} \\| ${article.ms.toLocaleString('en-US')} \\| \\d`));
      for (const chart of ['time-per-pass', 'size-per-pass']) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `power-of-2-sizes-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('leaves no process it started running', async () => {
      assert.deepEqual(await leftAfter(state.tag), []);
    });
  });
}
