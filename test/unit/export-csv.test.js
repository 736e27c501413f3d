'use strict';
// results.csv, read back by a CSV parser from npm: every number each measurement and block
// record of results.jsonl holds has its row (or names the row's variant, or has a column of its
// own), with the unit and clock of the one field table.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parse } = require('csv-parse/sync');
const csv = require('../../orchestrator/export/csv');
const figureRows = require('../../orchestrator/analysis/figure-rows');
const { readRun } = require('../../orchestrator/results/reader');
const { fieldInfo } = require('../../orchestrator/results/fields');
const { discoverScenarios } = require('../../orchestrator/scenarios');

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLE = path.join(ROOT, 'reports', 'examples', 'auto-embedded', 'results.jsonl');

/** Every finite number in a record, nested ones by dotted names, as the export reads them. */
function numbers(value, prefix = '') {
  return Object.entries(value).flatMap(([k, v]) => {
    const name = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'number' && Number.isFinite(v)) return [[name, v]];
    return v && typeof v === 'object' && !Array.isArray(v) ? numbers(v, name) : [];
  });
}

describe('results.csv', () => {
  const scenarios = discoverScenarios(path.join(ROOT, 'shell'));
  let dir;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-csv-'));
    // a kept run, and the paired rounds' block lines beside it (two rounds of two variants, one of them a SQL baseline's)
    const blocks = [1, 2].flatMap((round) => [
      { type: 'block', scenario: 'log-inserts', server: 'embedded', step: 'test1', pass: 0, round, rounds: 2, position: 1, test: 'test 1: one loop', method: 'insert', ms: 10.5 * round, appliedMs: 11.25 * round, iterations: 500 },
      { type: 'block', scenario: 'log-inserts', server: 'postgresql', step: 'test1', round, rounds: 2, position: 2, test: 'test 1: one loop', method: 'sql', ms: 7 * round, iterations: 500, forServers: ['embedded'] },
    ]);
    fs.writeFileSync(path.join(dir, 'results.jsonl'), `${fs.readFileSync(EXAMPLE, 'utf8')}${blocks.map((b) => JSON.stringify(b)).join('\n')}\n`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has a row for every number of every measurement and block record, read back by csv-parse', () => {
    const data = readRun(dir);
    const text = csv.render({ runs: [{ label: 'example', data }], scenarios });
    const rows = parse(text, { columns: true });
    assert.deepEqual(Object.keys(rows[0]), figureRows.COLUMNS);
    for (const c of ['scenario', 'server', 'step', 'variant', 'size', 'sample', 'clock', 'field', 'value', 'unit']) assert.ok(figureRows.COLUMNS.includes(c), c);
    // rows by where they come from; a record's rows are those whose variant it matches
    const where = (r) => [r.scenario, r.server, r.step ?? '', r.pass ?? '', r.repeat ?? '', r.sample ?? ''].map(String).join('|');
    const byWhere = new Map();
    for (const r of rows) byWhere.set(where(r), [...(byWhere.get(where(r)) || []), r]);
    const pairs = (variant) => (variant ? variant.split(';').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]) : []);
    const records = data.records.filter((r) => r.type === 'measurement' || r.type === 'block');
    assert.ok(records.length > 100 && records.some((r) => r.type === 'block'));
    let checked = 0;
    for (const record of records) {
      const sample = record.type === 'block' ? record.round : '';
      const mine = (byWhere.get(where({ ...record, sample })) || []).filter((r) => pairs(r.variant).every(([k, v]) => String(record[k]) === v));
      for (const [field, value] of numbers(record)) {
        if (figureRows.IN_COLUMNS.has(field) || mine.some((r) => pairs(r.variant).some(([k]) => k === field))) continue;
        assert.ok(mine.some((r) => r.field === field && Number(r.value) === value), `no row for ${field}=${value} of ${JSON.stringify(record).slice(0, 200)}`);
        checked += 1;
      }
    }
    assert.ok(checked > 1000, `${checked} figures`);
    // units and clocks are the field table's, the paired rounds' sample is the block's round
    for (const r of rows.slice(0, 300)) {
      const { unit, clock } = fieldInfo(r.field);
      assert.equal(r.unit, unit ?? '');
      assert.equal(r.clock, clock ?? '');
    }
    // the planted SQL block of round 2 (the kept run's own SQL blocks name their collection too)
    const sql = rows.filter((r) => r.server === 'postgresql' && r.sample === '2' && r.field === 'ms' && r.variant === 'method=sql;test=test 1: one loop');
    assert.deepEqual(sql.map((r) => [r.value, r.unit, r.clock]), [['14', 'ms', 'send']]);
    assert.ok(rows.some((r) => r.field === 'lowMemory.dataBytes' && r.unit === 'bytes'), 'nested figures by dotted names');
    assert.ok(rows.every((r) => r.size !== '' || r.server === 'postgresql'), 'every row but a baseline of its own size names its size');
  });

  it('names a line\'s variant by the step\'s declared variants first, then the fields the findings select on', () => {
    const scenario = scenarios.find((s) => s.name === 'log-inserts');
    const declared = { ...scenario, steps: scenario.steps.map((st) => ({ ...st, variants: ['method'] })) };
    const record = { type: 'measurement', scenario: 'log-inserts', server: 'x', step: scenario.steps[0].name, test: 't', method: 'save', ms: 5 };
    const data = { records: [record], sizes: [], run: { params: {} } };
    const [row] = parse(csv.render({ runs: [{ label: 'r', data }], scenarios: [declared] }), { columns: true });
    assert.equal(row.variant, 'method=save;test=t');
    assert.equal(row.field, 'ms');
  });
});
