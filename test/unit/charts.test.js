'use strict';
const assert = require('node:assert/strict');
const { lineChartConfig, barChartConfig, renderChart, WIDTH, HEIGHT } = require('../../orchestrator/report/charts');
const { inspectPng } = require('../helpers/png');

const lineSpec = { id: 'size', type: 'line', title: 'Size', x: 'pass', y: 'size', series: 'collection', xLabel: 'pass', yLabel: 'bytes' };
const measured = new Map([['ferretdb', [
  { step: 'setup', pass: 0, collection: 'a', size: 10 },
  { step: 'pass', pass: 2, collection: 'a', size: 30 },
  { step: 'pass', pass: 1, collection: 'a', size: 20 },
  { step: 'pass', pass: 1, collection: 'b', size: 25 },
]]]);
const published = [{ pass: 1, collection: 'a', size: 1000 }, { pass: 1, collection: 'b', size: 2000 }];

describe('chart configs', () => {
  it('draws one solid line per server and collection, sorted by x, and the article dashed', () => {
    const config = lineChartConfig({ spec: lineSpec, measured, published, groups: ['a', 'b'], sameScale: true });
    const labels = config.data.datasets.map((d) => d.label);
    assert.deepEqual(labels, ['ferretdb · a', 'ferretdb · b', 'article · a', 'article · b']);
    assert.deepEqual(config.data.datasets[0].data, [{ x: 0, y: 10 }, { x: 1, y: 20 }, { x: 2, y: 30 }]);
    assert.equal(config.data.datasets[0].borderDash, undefined);
    assert.deepEqual(config.data.datasets[2].borderDash, [8, 5]);
    assert.ok(config.data.datasets.every((d) => d.yAxisID === 'y'), 'one axis at the article\'s size');
  });

  it('gives the article its own labelled axis when the run is not at the article\'s size', () => {
    const config = lineChartConfig({ spec: lineSpec, measured, published, groups: ['a', 'b'], sameScale: false });
    assert.equal(config.data.datasets[2].yAxisID, 'yArticle');
    assert.match(config.options.scales.yArticle.title.text, /article/);
    assert.equal(config.options.scales.yArticle.position, 'right');
  });

  it('filters by step', () => {
    const config = lineChartConfig({ spec: { ...lineSpec, step: 'pass' }, measured, published: [], groups: ['a'], sameScale: true });
    assert.deepEqual(config.data.datasets[0].data.map((p) => p.x), [1, 2]);
  });

  it('builds grouped bars with the article hatched', () => {
    const spec = { id: 'b', type: 'bar', title: 'B', category: 'perBlog', series: 'layout', y: 'seconds' };
    const m = new Map([['pg', [{ perBlog: 1, layout: 'embedded', seconds: 2 }, { perBlog: 10, layout: 'embedded', seconds: 3 }]]]);
    const p = [{ perBlog: 1, layout: 'embedded', seconds: 20 }, { perBlog: 10, layout: 'separate', seconds: 1 }];
    const config = barChartConfig({ spec, measured: m, published: p, groups: ['embedded', 'separate'], sameScale: true });
    assert.deepEqual(config.data.labels, ['1', '10']);
    assert.deepEqual(config.data.datasets.map((d) => [d.label, d.data, Boolean(d.hatch)]), [
      ['pg · embedded', [2, 3], false],
      ['article · embedded', [20, null], true],
      ['article · separate', [null, 1], true],
    ]);
  });
});

describe('chart rendering', function () {
  this.timeout(20000);
  it('renders a PNG of the expected size that is not blank', async () => {
    const config = lineChartConfig({ spec: lineSpec, measured, published, groups: ['a', 'b'], sameScale: false });
    const png = await inspectPng(await renderChart(config));
    assert.deepEqual([png.width, png.height], [WIDTH, HEIGHT]);
    assert.ok(png.distinctColours > 10);
  });

  it('renders hatched bars', async () => {
    const spec = { id: 'b', type: 'bar', title: 'B', category: 'k', series: 's', y: 'v' };
    const config = barChartConfig({ spec, measured: new Map(), published: [{ k: 'x', s: 'a', v: 3 }], groups: ['a'], sameScale: true });
    const png = await inspectPng(await renderChart(config));
    assert.ok(png.distinctColours > 5);
  });
});

describe('server-side time beside the client\'s', () => {
  it('draws the second field dotted on the same axis', () => {
    const spec = { id: 's', type: 'line', title: 'S', x: 'pass', y: 'serverMs', yName: 'server', also: { y: 'hrMs', label: 'client' }, series: 'collection' };
    const m = new Map([['mongod', [{ pass: 1, collection: 'a', serverMs: 5, hrMs: 9 }]]]);
    const config = lineChartConfig({ spec, measured: m, published: [], groups: ['a'], sameScale: true });
    assert.deepEqual(config.data.datasets.map((d) => [d.label, d.data[0].y, d.borderDash]), [
      ['mongod · a · server', 5, undefined],
      ['mongod · a · client', 9, [2, 3]],
    ]);
  });
});

describe('a chart of sizes a server estimated', () => {
  const { estimatedNote } = require('../../orchestrator/report/render');
  const chart = { y: 'size' };

  it('says which servers\' sizes are estimates, and nothing where all were measured', () => {
    const records = [
      { server: 'ferretdb2', size: 10, sizesEstimated: true },
      { server: 'mongod', size: 12 },
      { server: 'ferretdb2', hrMs: 3, sizesEstimated: true },
    ];
    assert.equal(estimatedNote(chart, records), 'ferretdb2: size is the server\'s estimate, which jumps when PostgreSQL re-analyzes the table');
    assert.equal(estimatedNote(chart, records.filter((r) => r.server === 'mongod')), null);
    assert.equal(estimatedNote({ y: 'hrMs' }, records), null, 'a time chart of the same records says nothing of sizes');
  });
});
