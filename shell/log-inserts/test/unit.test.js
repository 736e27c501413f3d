'use strict';
// The log-inserts record is built twice, in the mongosh scripts and in the SQL baseline (Node):
// the block that builds it must be the same text in every file and give the same record.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const DIR = path.resolve(__dirname, '..');
const sqlBaseline = require('../sql-baseline');



const SCRIPTS = ['loop.js', 'test2.js'].map((f) => path.join(DIR, f));
const MODULE = path.join(DIR, 'sql-baseline.js');
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function recordBlock(file) {
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf('// ---- the log record');
  const end = text.indexOf('// ---- end of the log record');
  assert.ok(start >= 0 && end > start, `${path.relative(DIR, file)} has no marked record block`);
  return text.slice(start, end);
}

/** A file's generator, run in a sandbox whose newGuid stands in for mongosh's UUID(). */
function generatorOf(file) {
  const sandbox = { newGuid: () => ({ uuid: '0f8fad5b-d9cb-469f-a165-70867728950e' }) };
  vm.runInNewContext(`${recordBlock(file)}; this.newLogInfo = newLogInfo; this.logTypeOf = logTypeOf;`, sandbox);
  return sandbox;
}
const mongoshGenerator = () => generatorOf(SCRIPTS[0]);

describe('log-inserts record', () => {
  it('is built by the same block of text in every script and in the SQL baseline', () => {
    const expected = recordBlock(MODULE);
    for (const file of SCRIPTS) assert.equal(recordBlock(file), expected, `${path.basename(file)} differs from the SQL baseline's block`);
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
    const services = (file) => {
      const text = fs.readFileSync(file, 'utf8');
      const start = text.indexOf('// ---- the article\'s MongoDB services');
      const end = text.indexOf('// ---- end of the services');
      assert.ok(start >= 0 && end > start, `${path.basename(file)} has no marked services block`);
      return text.slice(start, end);
    };
    assert.equal(services(SCRIPTS[0]), services(SCRIPTS[1]));
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
    assert.equal(test1.status, 'holds');
    assert.equal(test1.ratio, 3);
  });
});
