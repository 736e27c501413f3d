'use strict';
// Every decided verdict of the fixture runs (one smoke run of every scenario per server kind)
// recomputed by an independent hand (test/helpers/recompute-verdicts.js), and compare on two of
// them: a change of server flags the finding that differs between the two (buckets-faster: the
// bucketed updates several times faster on FerretDB 1.24 / PostgreSQL, not on 2.7 / DocumentDB).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { fixtureRun, PARITY_KINDS } = require('../helpers/fixture-runs');
const { unavailableReason } = require('../helpers/servers');
const { recompute } = require('../helpers/recompute-verdicts');
const { buildComparison, COMPARISON_RULE } = require('../../orchestrator/analysis/comparison');
const { discoverScenarios } = require('../../orchestrator/scenarios');

const ROOT = path.resolve(__dirname, '../..');

describe('every decided verdict of the fixture runs recomputed by an independent hand', function () {
  this.timeout(15 * 60 * 1000);
  for (const kind of PARITY_KINDS) {
    it(`in the fixture run on ${kind}`, async function () {
      const why = unavailableReason(kind);
      if (why) {
        console.log(`      skipped: ${kind}: ${why}`);
        this.skip();
      }
      const { out } = await fixtureRun(kind);
      const file = path.join(out, 'verdicts.json');
      assert.ok(fs.existsSync(file), `${kind}: no verdicts.json in ${out}`);
      recompute(file);
    });
  }
});

describe('compare: a change of server, FerretDB 1.24 on PostgreSQL against FerretDB 2.7 on DocumentDB (the fixture runs)', function () {
  this.timeout(15 * 60 * 1000);
  const scenarios = discoverScenarios(path.join(ROOT, 'shell'));

  it('flags buckets-faster, whose bucketed updates are several times faster on the one and not on the other', async function () {
    const why = ['ferretdb-pg', 'ferretdb2'].map((kind) => unavailableReason(kind) && `${kind}: ${unavailableReason(kind)}`).filter(Boolean);
    if (why.length) {
      console.log(`      skipped: ${why.join('; ')}`);
      this.skip();
    }
    const pg = await fixtureRun('ferretdb-pg');
    const f2 = await fixtureRun('ferretdb2');
    const c = buildComparison({ a: pg.run, b: f2.run, scenarios });
    const row = c.findings.find((f) => f.finding === 'buckets-faster');
    assert.ok(row, 'buckets-faster compared');
    assert.deepEqual([row.status, row.test?.kind], ['changed', 'welch'], JSON.stringify(row));
    assert.ok(row.hi < 1 - COMPARISON_RULE.noise && row.test.pHolm < COMPARISON_RULE.p, JSON.stringify(row));
  });
});
