'use strict';
// Every decided verdict of the fixture runs (one smoke run of every scenario per server kind)
// recomputed by an independent hand (test/helpers/recompute-verdicts.js). (compare of a
// ferretdb-pg run against a ferretdb2 one is no test here: at the smoke size, 2,000 keys a
// document, buckets-faster is about 0.9× on both and compare rightly cannot tell; the change shows
// at the quick size's 20,000 keys, a run of about 25 minutes on ferretdb-pg.)
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { fixtureRun, PARITY_KINDS } = require('../helpers/fixture-runs');
const { skipUnless } = require('../helpers/servers');
const { recompute } = require('../helpers/recompute-verdicts');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { verdictsSchemaProblems } = require('../../orchestrator/schemas');
const { resolveConfig } = require('../../orchestrator/config');

describe('every decided verdict of the fixture runs recomputed by an independent hand', function () {
  this.timeout(15 * 60 * 1000);
  for (const kind of PARITY_KINDS) {
    it(`in the fixture run on ${kind}`, async function () {
      skipUnless(this, kind);
      const { out } = await fixtureRun(kind);
      const file = path.join(out, 'verdicts.json');
      assert.ok(fs.existsSync(file), `${kind}: no verdicts.json in ${out}`);
      recompute(file);
      // each Verdict of the run, read again, is its own verdicts.json record (analysis/verdict.js toJSON)
      const { shellDir, root } = resolveConfig();
      const { verdicts } = readRunModel(out, discoverScenarios(shellDir, root));
      assert.ok(verdicts.length > 0, `${kind}: no verdicts`);
      assert.deepEqual(verdictsSchemaProblems(verdicts.map((v) => v.toJSON())), [], kind);
    });
  }
});
