'use strict';
// Chart configs as data: one y axis always, normalised as each scenario's chart spec declares
// where the run's sizes are not the article's, a log axis where the values span more than 10×,
// the real server in the legend, and the caption a page prints under each chart. The specs are
// the scenarios' own (scenario.json), tried on crafted records and on the kept examples'
// results.jsonl; rendering is smoke-checked as a PNG.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const charts = require('../../orchestrator/report/charts');
const { selectionOf, scenarioModel, articleModel, withDeployment } = require('../../orchestrator/analysis/run-model');

const { renderChart, WIDTH, HEIGHT, LOG_SPAN } = charts;

// The charts draw what the run model selected (analysis/run-model.js); these build that model
// from crafted records as a report does, so the tests below can give the records themselves.
const drawnOf = (spec, measured, published = []) => ({ servers: new Map([...measured].map(([server, records]) => [server, selectionOf(spec, records)])), article: selectionOf(spec, published) });
const lineChartConfig = ({ measured, published, ...args }) => charts.lineChartConfig({ ...args, drawn: drawnOf(args.spec, measured, published) });
const barChartConfig = ({ measured, published, ...args }) => charts.barChartConfig({ ...args, drawn: drawnOf(args.spec, measured, published) });
/** A scenario's part of a run model from its records and the run (readRun's answer, or a crafted part of one); the article's alone without them. */
const modelOf = ({ scenario, records = [], serverRecords = [], runData = null }) => (records.length || runData
  ? scenarioModel(scenario, { steps: [], sizes: [], run: { params: {} }, ...runData, servers: serverRecords }, records)
  : articleModel(scenario));
// the servers as the run model hands them to the views: each with its deployment and its names (withDeployment)
const modelServers = (records = []) => records.map(withDeployment);
const scenarioCharts = (args) => charts.scenarioCharts(modelOf(args), modelServers(args.serverRecords));
const { serverDisplayName } = require('../../orchestrator/results/server-names');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const { readRun } = require('../../orchestrator/results/reader');
const { inspectPng } = require('../helpers/png');

const { shellDir, root } = resolveConfig();
const scenarios = discoverScenarios(shellDir, root);
const scenarioOf = (name) => scenarios.find((s) => s.name === name);
const specOf = (name, id) => scenarioOf(name).charts.find((c) => c.id === id);
const EXAMPLES = path.join(root, 'reports', 'examples');
const examples = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, 'results.jsonl')));

// server records as runs write them (reports/examples/*/results.jsonl)
const FERRETDB2 = {
  type: 'server', server: 'embedded', spec: 'embedded', kind: 'embedded', product: 'FerretDB', version: 'v2.7.0',
  engine: 'PostgreSQL 18.6 (Debian 18.6-3) with DocumentDB 1.0-0', backendVersion: 'DocumentDB 1.0.0 (PostgreSQL 18.6)',
};
const FERRETDB1 = { type: 'server', server: 'ferretdb-pg', spec: 'ferretdb-pg', product: 'FerretDB', version: 'v1.24.0', engine: 'PostgreSQL 15.18 (Debian 15.18-0+deb12u1)' };
const MONGOD_ZSTD = { type: 'server', server: 'mongod:zstd', spec: 'mongod:zstd', product: 'MongoDB', version: '8.2.6', engine: 'wiredTiger', startedByKit: true };
const POSTGRES = { type: 'server', server: 'postgresql', spec: 'postgresql', product: 'PostgreSQL', version: '15.18 (Debian 15.18-0+deb12u1)', engine: 'heap tables' };

/** A run as readRun gives it, with the sizes each server ran at. */
function craftedRun(scenario, sizesByServer, passes = scenario.sizes.article.passes) {
  return {
    run: { params: { passes: { [scenario.name]: passes } } },
    sizes: Object.entries(sizesByServer).map(([server, sizes]) => ({ scenario: scenario.name, server, sizes })),
  };
}

/** Every y axis a config has, and every axis its datasets name. */
function axesOf(config) {
  return {
    scales: Object.keys(config.options.scales).filter((k) => k !== 'x'),
    named: [...new Set(config.data.datasets.map((d) => d.yAxisID ?? 'y'))],
  };
}

function assertOneYAxis(config, where) {
  const { scales, named } = axesOf(config);
  assert.deepEqual(scales, ['y'], `${where}: one y axis, not ${scales.join(', ')}`);
  assert.deepEqual(named, ['y'], `${where}: every dataset on the one y axis`);
  assert.notEqual(config.options.scales.y.position, 'right', `${where}: the y axis on the left`);
}

const valuesOf = (dataset) => dataset.data.map((p) => (p && typeof p === 'object' ? p.y : p));
const datasetNamed = (config, re) => config.data.datasets.find((d) => re.test(d.label));

describe('chart configs: one y axis', () => {
  const lineSpec = { id: 'size', type: 'line', title: 'Size', x: 'pass', y: 'size', series: 'collection', xLabel: 'pass', yLabel: 'bytes' };
  const measured = new Map([['ferretdb', [
    { step: 'setup', pass: 0, collection: 'a', size: 10 },
    { step: 'pass', pass: 2, collection: 'a', size: 30 },
    { step: 'pass', pass: 1, collection: 'a', size: 20 },
    { step: 'pass', pass: 1, collection: 'b', size: 25 },
  ]]]);
  const published = [{ pass: 1, collection: 'a', size: 1000 }, { pass: 1, collection: 'b', size: 2000 }];

  it('draws the article on the measured values\' axis when the run is not at the article\'s size', () => {
    for (const sameScale of [true, false]) {
      const line = lineChartConfig({ spec: lineSpec, measured, published, groups: ['a', 'b'], sameScale });
      assertOneYAxis(line, `line, sameScale ${sameScale}`);
      const bar = barChartConfig({
        spec: { id: 'b', type: 'bar', title: 'B', category: 'pass', series: 'collection', y: 'size' }, measured, published, groups: ['a', 'b'], sameScale,
      });
      assertOneYAxis(bar, `bar, sameScale ${sameScale}`);
    }
  });

  it('has one y axis in every chart of every scenario, on every kept example and on crafted runs off the article\'s size', () => {
    let checked = 0;
    for (const example of examples) {
      const runData = readRun(path.join(EXAMPLES, example));
      for (const scenario of scenarios.filter((s) => runData.run.params.scenarios.includes(s.name))) {
        const records = runData.measurements.filter((r) => r.scenario === scenario.name);
        for (const chart of scenarioCharts({ scenario, records, serverRecords: runData.servers, runData })) {
          assertOneYAxis(chart.config, `${example}: ${chart.file}`);
          checked += 1;
        }
      }
    }
    // each scenario's article values put through its own specs as measured records at half the article's size
    for (const scenario of scenarios) {
      const half = Object.fromEntries(Object.entries(scenario.sizes.article).filter(([k]) => k !== 'passes').map(([k, v]) => [k, Math.max(1, Math.round(v / 2))]));
      const records = scenario.loadPublished().records.map((r) => ({ ...r, server: 'embedded', writeConcern: 'w:1' }));
      for (const chart of scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, { embedded: half }) })) {
        assertOneYAxis(chart.config, `crafted ${chart.file}`);
        checked += 1;
      }
    }
    assert.ok(checked >= 40, `only ${checked} charts were checked`);
  });
});

describe('chart configs: a log axis where the values span more than 10×', () => {
  const spec = { id: 'b', type: 'bar', title: 'B', category: 'k', series: 's', y: 'v' };
  const bars = (values) => barChartConfig({
    spec, measured: new Map([['m', values.map((v, i) => ({ k: `c${i}`, s: 'a', v }))]]), published: [], groups: ['a'], sameScale: true,
  });

  it('chooses a logarithmic axis past the span and a linear one within it', () => {
    assert.equal(bars([1, 5, 100]).options.scales.y.type, 'logarithmic');
    assert.equal(bars([1, 5, 100]).drawn.log, true);
    assert.equal(bars([2, 5, 2 * LOG_SPAN]).options.scales.y.type, 'linear', 'exactly 10× is not past it');
    assert.equal(bars([3, 9, 12]).options.scales.y.type, 'linear');
  });

  it('leaves out the zeros a log axis cannot draw, and counts them', () => {
    const line = lineChartConfig({
      spec: { id: 'r', type: 'line', title: 'R', x: 'second', y: 'rate', series: 's' },
      measured: new Map([['m', [{ second: 0, s: 'a', rate: 0 }, { second: 1, s: 'a', rate: 5 }, { second: 2, s: 'a', rate: 500 }]]]),
      published: [], groups: ['a'], sameScale: true,
    });
    assert.equal(line.options.scales.y.type, 'logarithmic');
    assert.deepEqual(line.data.datasets[0].data, [{ x: 1, y: 5 }, { x: 2, y: 500 }]);
    assert.equal(line.drawn.dropped, 1);
    const bar = bars([0, 5, 500]);
    assert.deepEqual(bar.data.datasets[0].data, [null, 5, 500], 'a bar keeps its category, empty');
    assert.equal(bar.drawn.dropped, 1);
  });

  it('draws the article\'s 13.77 s and a run\'s 16.37 s at 1,000 per blog on one scale, per comment even at the article\'s size (its largest cells write a blog a round)', () => {
    const scenario = scenarioOf('embedded-comments');
    const cell = (seconds, perBlog, layout) => ({ step: 'bench', mode: 'safe', layout, perBlog, comments: 10000, seconds });
    const records = [cell(16.37, 1000, 'embedded'), cell(4.1, 10, 'embedded'), cell(3.7, 1000, 'separate')].map((r) => ({ ...r, server: 'embedded' }));
    const sizes = { embedded: { TOTAL: 10000, COMMENT_LEN: 1000 } };
    const [safe] = scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, sizes) }).filter((c) => c.id === 'safe');
    const at1000 = (re) => valuesOf(datasetNamed(safe.config, re))[safe.config.data.labels.indexOf('1000 per blog')];
    assert.ok(Math.abs(at1000(/FerretDB.*embedded/) - 1.637) < 1e-9);
    assert.ok(Math.abs(at1000(/article · embedded/) - 1.37657668591) < 1e-9);
    assert.ok(safe.normalised, 'normalised per comment where the spec says always');
  });
});

describe('chart configs: normalised as the spec declares where the sizes differ', () => {
  it('per comment (a record field): a run of 5,000 comments beside the article\'s 10,000', () => {
    const scenario = scenarioOf('embedded-comments');
    const records = [
      { server: 'embedded', step: 'bench', mode: 'unsafe', layout: 'embedded', perBlog: 1, comments: 5000, seconds: 10, writeConcern: 'w:1' },
      { server: 'embedded', step: 'bench', mode: 'unsafe', layout: 'separate', perBlog: 1, comments: 5000, seconds: 5, writeConcern: 'w:1' },
    ];
    const charts = scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, { embedded: { TOTAL: 5000, COMMENT_LEN: 1000 } }) });
    const unsafe = charts.find((c) => c.id === 'unsafe');
    const labels = unsafe.config.data.labels;
    assert.equal(valuesOf(datasetNamed(unsafe.config, /FerretDB.*embedded/))[labels.indexOf('1 per blog')], 2, '10 s ÷ 5,000 comments = 2 ms each');
    assert.equal(valuesOf(datasetNamed(unsafe.config, /FerretDB.*separate/))[labels.indexOf('1 per blog')], 1);
    // the article's 2.31141519547 s for 10,000 comments at 1 per blog
    assert.ok(Math.abs(valuesOf(datasetNamed(unsafe.config, /article · embedded/))[labels.indexOf('1 per blog')] - 0.231141519547) < 1e-9);
    assert.equal(unsafe.config.options.scales.y.title.text.replace(' (log scale)', ''), 'ms per comment');
    assert.equal(unsafe.normalised, 'per comment written');
  });

  it('per operation (size variables): a pass\'s time ÷ the updates, removes and inserts each source ran', () => {
    const scenario = scenarioOf('power-of-2-sizes');
    const ran = { DOCS: 30000, UPDATES: 3000, REMOVES: 600, INSERTS: 400 };
    const records = [{ server: 'embedded', step: 'pass', pass: 1, collection: 'powerOf2Sizes', ms: 4000 }];
    const [time] = scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, { embedded: ran }) }).filter((c) => c.id === 'time-per-pass');
    assert.deepEqual(datasetNamed(time.config, /FerretDB/).data, [{ x: 1, y: 1000 }], '4,000 ms ÷ 4,000 operations = 1,000 µs');
    // the article's pass 1 of powerOf2Sizes: 16,797 ms over 100,001 + 20,001 + 20,000 operations
    const article = datasetNamed(time.config, /article · powerOf2Sizes/).data.find((p) => p.x === 1);
    assert.ok(Math.abs(article.y - (16797 / 140002) * 1000) < 1e-9);
  });

  it('relative to a baseline cell: each size ÷ noPowerOf2Sizes\' size after the inserts, in its own source', () => {
    const scenario = scenarioOf('power-of-2-sizes');
    const records = [
      { server: 'embedded', step: 'setup', pass: 0, collection: 'noPowerOf2Sizes', size: 1000 },
      { server: 'embedded', step: 'setup', pass: 0, collection: 'powerOf2Sizes', size: 1500 },
      { server: 'embedded', step: 'pass', pass: 1, collection: 'noPowerOf2Sizes', size: 1200 },
      { server: 'embedded', step: 'pass', pass: 1, collection: 'powerOf2Sizes', size: 1600 },
    ];
    const ran = { DOCS: 1000, UPDATES: 100, REMOVES: 20, INSERTS: 20 };
    const [size] = scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, { embedded: ran }, 1) }).filter((c) => c.id === 'size-per-pass');
    assert.deepEqual(datasetNamed(size.config, /FerretDB.*· powerOf2Sizes/).data, [{ x: 0, y: 1.5 }, { x: 1, y: 1.6 }]);
    assert.deepEqual(datasetNamed(size.config, /FerretDB.*noPowerOf2Sizes/).data, [{ x: 0, y: 1 }, { x: 1, y: 1.2 }]);
    const article = datasetNamed(size.config, /article · powerOf2Sizes/).data[0];
    assert.ok(Math.abs(article.y - 107887632 / 71490776) < 1e-9, 'the article\'s own pass 0 is its baseline');
  });

  it('declares a normalisation that can be made, with its words, in every scenario\'s charts', () => {
    for (const scenario of scenarios) {
      assert.ok(scenario.charts.some((spec) => spec.normalise), `${scenario.name}: no chart declares how it is normalised`);
      const findingIds = (scenario.loadPublished().findings || []).map((f) => f.id);
      for (const spec of scenario.charts) {
        for (const id of spec.findings || []) assert.ok(findingIds.includes(id), `${scenario.name} ${spec.id}: no finding ${id}`);
        const n = spec.normalise;
        if (!n) continue;
        const ways = [n.divideBy?.field, n.divideBy?.sizes, n.relativeTo].filter(Boolean);
        assert.equal(ways.length, 1, `${scenario.name} ${spec.id}: one way to normalise`);
        assert.ok(n.yLabel && n.says, `${scenario.name} ${spec.id}: the axis's words and the caption's`);
        for (const v of [].concat(n.divideBy?.sizes || [])) assert.ok(v in scenario.sizes.article, `${scenario.name} ${spec.id}: no size ${v}`);
      }
    }
  });
});

describe('chart configs: the x axis ends where the data do', () => {
  it('ends power-of-2-sizes\' pass axis at pass 21, not at 25', () => {
    const scenario = scenarioOf('power-of-2-sizes');
    const records = [];
    for (let pass = 0; pass <= 21; pass += 1) {
      for (const collection of scenario.collections) records.push({ server: 'embedded', step: pass ? 'pass' : 'setup', pass, collection, size: 1000 + pass, ms: 10 });
    }
    const charts = scenarioCharts({ scenario, records, serverRecords: [FERRETDB2], runData: craftedRun(scenario, { embedded: scenario.sizes.article }) });
    for (const id of ['size-per-pass', 'time-per-pass']) {
      const x = charts.find((c) => c.id === id).config.options.scales.x;
      assert.equal(x.max, 21, id);
    }
    assert.equal(charts.find((c) => c.id === 'size-per-pass').config.options.scales.x.min, 0);
  });
});

describe('chart legends and captions', () => {
  it('names servers by engine, version and topology', () => {
    // the words are server-names.js's; what the charts need of them is the engine, version and topology
    assert.match(serverDisplayName(FERRETDB2), /^FerretDB 2\.7 \/ DocumentDB 1\.0\b/);
    assert.match(serverDisplayName(FERRETDB1), /^FerretDB 1\.24\b.*PostgreSQL 15\.18/);
    assert.equal(serverDisplayName(MONGOD_ZSTD), 'MongoDB 8.2.6 standalone, zstd');
    assert.match(serverDisplayName({ ...MONGOD_ZSTD, spec: 'mongod-rs', topology: 'replica set' }), /^MongoDB 8\.2\.6 replica set\b/);
    // the compressor from the record's field (the embedded mongod has no :zstd in its spec), never from its description's words
    assert.equal(serverDisplayName({ ...MONGOD_ZSTD, server: 'embedded', spec: 'embedded', compressor: 'snappy' }), 'MongoDB 8.2.6 standalone, snappy');
    assert.equal(serverDisplayName({ ...MONGOD_ZSTD, server: 'embedded', spec: 'embedded', description: 'mongod 8.2.6 with zlib block compression' }), 'MongoDB 8.2.6 standalone');
    assert.match(serverDisplayName(POSTGRES), /^PostgreSQL 15\.18\b/);
  });

  it('puts the real server in the legend, never "embedded · embedded"', () => {
    const runData = readRun(path.join(EXAMPLES, 'auto-embedded'));
    const scenario = scenarioOf('embedded-comments');
    const records = runData.measurements.filter((r) => r.scenario === scenario.name);
    const [safe] = scenarioCharts({ scenario, records, serverRecords: runData.servers, runData }).filter((c) => c.id === 'safe');
    const labels = safe.config.data.datasets.map((d) => d.label);
    const name = serverDisplayName(runData.servers.find((s) => s.server === 'embedded'));
    assert.match(name, /^FerretDB 2\.7 \/ DocumentDB 1\.0\b/);
    assert.ok(labels.includes(`${name} · embedded comments`), labels.join(' | '));
    assert.ok(!labels.some((l) => /embedded · embedded/.test(l)));
  });

  it('gives each chart its rule and what differs from the article, as data', () => {
    const runData = readRun(path.join(EXAMPLES, 'auto-embedded'));
    const scenario = scenarioOf('embedded-comments');
    const records = runData.measurements.filter((r) => r.scenario === scenario.name);
    const charts = scenarioCharts({ scenario, records, serverRecords: runData.servers, runData });
    const unsafe = charts.find((c) => c.id === 'unsafe-applied');
    assert.equal(unsafe.file, 'embedded-comments-unsafe-applied.png');
    // the claim, then its rule's bands from its thresholds (never typed beside them)
    assert.match(unsafe.caption, /^Unacknowledged, embedded comments are written about as fast as separate ones up to 100 per blog: holds where the whole 95% interval is at 0\.80× to 1\.25×; does not hold at 0\.80× or less or 1\.25× or more; otherwise, inconclusive\./);
    assert.match(unsafe.caption, /the article's 27\.6× held at its order \(its square root, 5\.26×\)/);
    assert.match(unsafe.caption, /Values per comment written, because the run's sizes are not the article's/);
    assert.deepEqual(unsafe.rules.map((r) => r.id), ['unsafe-as-fast-up-to-100', 'unsafe-26x-at-10000']);
    assert.ok(unsafe.differs.includes('50% of the article\'s size: TOTAL 5,000 (the article\'s 10,000)'), unsafe.differs.join(' | '));
    assert.ok(unsafe.differs.some((d) => /^w:1 writes where the article's were w:0, because the scripts' probe refused w:0 on this server \(its notes say why\)$/.test(d)), unsafe.differs.join(' | '));
    // the safe table was acknowledged in the article too
    assert.ok(!charts.find((c) => c.id === 'safe').differs.some((d) => /writes/.test(d)));
  });

  it('says where sizes are DocumentDB\'s estimates, on the chart and in its caption', () => {
    const runData = readRun(path.join(EXAMPLES, 'auto-embedded'));
    const scenario = scenarioOf('power-of-2-sizes');
    const records = runData.measurements.filter((r) => r.scenario === scenario.name);
    const charts = scenarioCharts({ scenario, records, serverRecords: runData.servers, runData });
    const size = charts.find((c) => c.id === 'size-per-pass');
    assert.ok(size.differs.some((d) => /size is the server's estimate/.test(d)));
    assert.ok([].concat(size.config.options.plugins.subtitle.text).some((t) => /estimate/.test(t)));
    assert.ok(!charts.find((c) => c.id === 'time-per-pass').differs.some((d) => /estimate/.test(d)), 'a time chart says nothing of sizes');
  });

  it('never calls the article\'s own ratios measured', () => {
    const runData = readRun(path.join(EXAMPLES, 'auto-embedded'));
    const scenario = scenarioOf('trade-candles');
    const records = runData.measurements.filter((r) => r.scenario === scenario.name);
    const findings = scenarioCharts({ scenario, records, serverRecords: runData.servers, runData }).find((c) => c.id === 'article-findings');
    const words = [findings.config.options.plugins.subtitle.text, findings.config.options.scales.y.title.text].flat().join(' ');
    assert.ok(!/measured/.test(words.replace('nothing here was measured', '')), words);
    assert.ok(findings.config.data.datasets.every((d) => d.source === 'article'));
    assert.ok(findings.differs.some((d) => /nothing in this chart was measured/.test(d)));
  });
});

describe('chart configs: little memory only where the cache was cut', () => {
  const scenario = scenarioOf('trade-candles');
  const read = (run, outcome) => ({
    server: 'mongod', step: 'read', pass: 1, run, query: 'byTicker', meanUs: run === 'own-memory' ? 100 : 150,
    lowMemory: run === 'own-memory' ? null : { outcome, reason: 'MongoDB has no WiredTiger cache to resize: so the reads ran with the memory it has' },
  });
  const byTicker = (outcome) => scenarioCharts({
    scenario, records: [read('own-memory'), read('little-memory', outcome)], serverRecords: [{ ...MONGOD_ZSTD, server: 'mongod' }],
    runData: craftedRun(scenario, { mongod: scenario.sizes.article }),
  }).find((c) => c.id === 'latency-by-ticker');

  it('leaves out the little-memory bars where the cut was not applied, and says why', () => {
    const chart = byTicker('not applied');
    assert.deepEqual(chart.config.data.labels, ['the server\'s own memory, right after the load']);
    assert.ok(chart.differs.some((d) => /no little-memory bar: the cache was not cut \(MongoDB has no WiredTiger cache to resize: so the reads ran with the memory it has\)/.test(d)), chart.differs.join(' | '));
    // and draws them where it was
    const cut = byTicker('applied');
    assert.equal(cut.config.data.labels.length, 2);
    assert.deepEqual(valuesOf(cut.config.data.datasets[0]), [100, 150]);
    assert.ok(!cut.differs.some((d) => /little-memory/.test(d)));
  });
});

describe('chart rendering', function () {
  this.timeout(60000);

  it('renders a scenario\'s chart as a PNG of the expected size that is not blank', async () => {
    const scenario = scenarioOf('embedded-comments');
    const [safe] = scenarioCharts({ scenario }).filter((c) => c.id === 'safe');
    assert.equal(safe.scale, 'log', 'the article\'s 3.66 s to 107.09 s');
    const png = await inspectPng(await renderChart(safe.config));
    assert.deepEqual([png.width, png.height], [WIDTH, HEIGHT]);
    assert.ok(png.distinctColours > 10, `${png.distinctColours} colours`);
  });

  it('draws every chart of a kept example from its results.jsonl into bytes, beside what a page prints with it', async () => {
    const dir = path.join(EXAMPLES, 'auto-embedded');
    const runData = readRun(dir);
    const scenario = scenarioOf('power-of-2-sizes');
    const records = runData.measurements.filter((r) => r.scenario === scenario.name);
    const charts = scenarioCharts({ scenario, records, serverRecords: runData.servers, runData });
    assert.deepEqual(charts.map((c) => c.file), ['power-of-2-sizes-time-per-pass.png', 'power-of-2-sizes-size-per-pass.png']);
    assert.match(charts[1].caption, /^usePowerOf2Sizes starts larger but grows slower: the two size curves cross: holds where powerOf2Sizes is more than 2% above noPowerOf2Sizes at the first pass and more than 2% below at the last/);
    for (const chart of charts) {
      assert.deepEqual(Object.keys(chart).sort(), ['caption', 'config', 'differs', 'file', 'id', 'normalised', 'rules', 'scale', 'title']);
      chart.bytes = await renderChart(chart.config);
      const png = await inspectPng(chart.bytes);
      assert.deepEqual([png.width, png.height], [WIDTH, HEIGHT]);
      assert.ok(png.distinctColours > 10);
    }
    // the same bytes as the kept example's own chart: drawn in memory, as the report draws them
    assert.ok(charts[0].bytes.equals(fs.readFileSync(path.join(dir, charts[0].file))), 'power-of-2-sizes-time-per-pass.png as kept');
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
    assert.deepEqual(config.data.datasets.map((d) => [d.label, d.data[0].y, d.borderDash, d.yAxisID]), [
      ['mongod · a · server', 5, undefined, 'y'],
      ['mongod · a · client', 9, [2, 3], 'y'],
    ]);
  });
});
