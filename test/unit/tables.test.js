'use strict';
const assert = require('node:assert/strict');
const tables = require('../../orchestrator/report/tables');
const { selectionOf } = require('../../orchestrator/analysis/run-model');

const { toMarkdown } = tables;
/** A table of the records its spec selects, as the run model selects them (analysis/run-model.js). */
const pivotTable = (spec, measured, published, groups) => tables.pivotTable(spec, selectionOf(spec, measured).selected, selectionOf(spec, published).selected, groups);

const spec = {
  title: 't', step: 'pass', row: 'pass', group: 'collection',
  columns: [{ field: 'ms', label: 'ms', published: true, format: 'int' }, { field: 'hrMs', label: 'hr ms', format: 'fixed1' }],
};

describe('pivot tables', () => {
  const measured = [
    { step: 'setup', pass: 0, collection: 'a', ms: 5 },
    { step: 'pass', pass: 1, collection: 'a', ms: 1200, hrMs: 1199.94 },
    { step: 'pass', pass: 1, collection: 'b', ms: 7, hrMs: 7.25 },
    { step: 'pass', pass: 2, collection: 'a', ms: 9, hrMs: 9 },
  ];
  const published = [1, 2, 3].flatMap((p) => [{ step: 'pass', pass: p, collection: 'a', ms: 100 * p }, { step: 'pass', pass: p, collection: 'b', ms: 10 * p }]);

  it('puts the article beside each measured column, on the rows the run measured', () => {
    const t = pivotTable(spec, measured, published, ['a', 'b']);
    assert.deepEqual(t.header, ['pass', 'a ms (article)', 'a ms', 'a hr ms', 'b ms (article)', 'b ms', 'b hr ms']);
    assert.deepEqual(t.rows, [
      ['1', '100', '1,200', '1,199.9', '10', '7', '7.3'],
      ['2', '200', '9', '9.0', '20', '–', '–'],
    ]);
  });

  it('shows every published row when nothing was measured', () => {
    assert.equal(pivotTable(spec, [], published, ['a', 'b']).rows.length, 3);
  });

  it('filters with where', () => {
    const t = pivotTable({ ...spec, where: { collection: 'b' } }, measured, [], ['a', 'b']);
    assert.deepEqual(t.rows.map((r) => r[0]), ['1']);
  });

  it('writes markdown with numbers right-aligned', () => {
    const md = toMarkdown({ header: ['x', 'y'], rows: [['1', '2']] });
    assert.equal(md, '| x | y |\n| --- | ---: |\n| 1 | 2 |');
  });
});
