'use strict';
// The report model (findings × servers) on crafted runs: each cell's verdict, ratio beside the
// article's, the rule's bands, a reason in words, and the mechanism read from recorded plans;
// server names from server records; summary.md's matrix with each reason once; several runs
// side by side; verdicts.png drawn.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { buildReportModel, bandsOf, NOT_RUN } = require('../../orchestrator/report/model');
const { readRunModel } = require('../../orchestrator/analysis/run-model');
const { serverDisplayName, serverNameWithAlias } = require('../../orchestrator/results/server-names');
const { matrixMarkdown } = require('../../orchestrator/report/matrix-markdown');
const { verdictsPng } = require('../../orchestrator/report/verdicts-png');
const { reportHtml } = require('../../orchestrator/report/html');
const {
  HOLDS, WEAKER, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE, PUBLISHED_ONLY,
} = require('../../orchestrator/analysis/rules');
const { mechanismOf } = require('../../orchestrator/analysis/judge');
const { withBlocks } = require('../helpers/blocks');
const { inspectPng } = require('../helpers/png');

// A crafted article: updates by key, timed on two schemas (the article: 12 s against 1.2 s, 10×),
// one claim only published, and one question of the kit's own.
const FINDINGS = [
  {
    id: 'b-faster', claim: 'schema b makes the updates many times faster', published: '12 s against 1.2 s: 10×', figure: 10,
    reasoning: '"12 s against 1.2 s": b 10 times faster, an effect of that order',
    decidedBy: 'a\'s applied time against b\'s.',
    check: { kind: 'ratio', field: 'appliedSeconds', num: { schema: 'a' }, den: { schema: 'b' }, says: 'order', margin: 0.1 },
  },
  {
    id: 'unacked', claim: 'unacknowledged writes are as fast as acknowledged ones', published: '1.02×',
    decidedBy: 'holds within 25%; past 50%, does not hold.',
    requires: { field: 'unacknowledged.outcome', equals: 'honoured', else: 'this server answers fire-and-forget (w:0) writes, so both ran acknowledged (w:1): not the article\'s clock' },
    check: { kind: 'near', field: 'seconds', num: { schema: 'a' }, den: { schema: 'b' }, tolerance: 0.25 },
  },
  { id: 'old-engine', claim: 'the old engine wrote faster', published: '1.4× faster', decidedBy: 'not decided by a measurement', check: { kind: 'publishedOnly', reason: 'the old engine cannot be run today (a fork of its time, long gone), so this stays the article\'s figure', reasonInBrief: 'the old engine cannot be run today, so this stays the article\'s figure' } },
  {
    id: 'kit-question', source: 'kit', claim: 'a is slower than b on today\'s servers', published: 'the article asked nothing of it', decidedBy: 'holds at 1.5× or more.',
    reasoning: 'the kit\'s question, asked beside the article\'s: is a slower by half again',
    check: { kind: 'ratio', field: 'seconds', num: { schema: 'a' }, den: { schema: 'b' }, atLeast: 1.5, margin: 0.1 },
  },
];

const SCENARIO = {
  name: 'crafted', title: 'Crafted updates', article: { title: '更新测试', gloss: 'update test', site: 'example.org', year: 2013 },
  collections: ['a', 'b'], steps: [{ name: 'update' }], tables: [], charts: [],
  sizes: { article: { N: 1000, passes: 1 }, smoke: { N: 10, passes: 1 } },
  loadPublished: () => ({
    server: 'MongoDB 2.4 (MMAPv1)', findings: FINDINGS,
    records: [{ step: 'update', schema: 'a', appliedSeconds: 12, seconds: 12 }, { step: 'update', schema: 'b', appliedSeconds: 1.2, seconds: 1.2 }],
  }),
};

const FERRETDB1 = { type: 'server', server: 'embedded', spec: 'embedded', kind: 'embedded', startedByKit: true, product: 'FerretDB', version: 'v1.24.0', engine: 'PostgreSQL 15.18 (Debian 15.18-0+deb12u1)' };
const FERRETDB2 = {
  type: 'server', server: 'ferretdb2', spec: 'ferretdb2', startedByKit: true, product: 'FerretDB', version: 'v2.7.0',
  engine: 'PostgreSQL 18.6 (Debian 18.6-3) with DocumentDB 1.0-0', backendVersion: 'DocumentDB 1.0.0 (PostgreSQL 18.6)',
};
const MONGOD = { type: 'server', server: 'mongod:zstd', spec: 'mongod:zstd', startedByKit: true, product: 'MongoDB', version: '8.2.6', engine: 'wiredTiger', description: 'mongod 8.2.6 with zstd block compression' };
const BASELINE = { type: 'server', server: 'postgresql', spec: 'postgresql', startedByKit: true, product: 'PostgreSQL', version: '15.18 (Debian 15.18-0+deb12u1)', baselineFor: 'crafted' };

function header(runId) {
  return {
    type: 'run', runId, startedAt: '2026-11-25T12:00:00.000Z',
    params: { scenarios: ['crafted'], servers: [], size: 'smoke', passes: { crafted: 1 }, overrides: {}, workers: 1, shell: 'kit', repeat: 1 },
    kit: { version: '0.1.0', commit: 'abcdef123456' }, machine: { cpu: 'Intel(R) Xeon(R) Processor', cores: 2, memoryBytes: 25 * 2 ** 30, platform: 'Linux' }, node: 'v20', shell: 'kit', mongosh: '2.12.0', driver: '7.9.0',
  };
}

const m = (server, schema, fields) => ({ type: 'measurement', scenario: 'crafted', server, step: 'update', pass: 1, schema, collection: schema, ...fields });

/** A run folder holding results.jsonl of the records given. */
function runDir(root, name, records) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return dir;
}

describe('report model', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-model-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  // FerretDB 1.24 finds each update's document by a table scan and answers w:0 with w:1;
  // FerretDB 2.7 uses the index; b is barely faster there. Each cell in 8 paired rounds.
  const measured = [
    m('embedded', 'a', { appliedSeconds: 50, seconds: 50, plan: 'FerretDB: PostgreSQL Seq Scan, the filter not pushed down', planScans: true, unacknowledged: { outcome: 'refused' }, writeConcern: 'w:1' }),
    m('embedded', 'b', { appliedSeconds: 10, seconds: 10, planScans: false, unacknowledged: { outcome: 'refused' }, writeConcern: 'w:1' }),
    m('ferretdb2', 'a', { appliedSeconds: 15, seconds: 15, plan: 'FerretDB: PostgreSQL Index Scan on _id_', planScans: false, unacknowledged: { outcome: 'honoured' } }),
    m('ferretdb2', 'b', { appliedSeconds: 10, seconds: 10, planScans: false, unacknowledged: { outcome: 'honoured' } }),
  ];
  const one = runDir(root, 'one', [header('one'), FERRETDB1, FERRETDB2, BASELINE, ...measured, ...withBlocks(measured, { spread: 0.03 }).blocks, { type: 'end', status: 'done' }]);
  // the same run recorded before pairing: one reading per side
  const before = runDir(root, 'before', [header('before'), FERRETDB1, FERRETDB2, BASELINE, ...measured, { type: 'end', status: 'done' }]);
  const model = buildReportModel([readRunModel(one, [SCENARIO])], [SCENARIO]);
  const runRecords = (dir) => fs.readFileSync(path.join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const cell = (id, server, mdl = model) => mdl.rows.find((r) => r.id === id || r.folded?.some((f) => f.id === id)).cells[mdl.columns.find((c) => c.server === server).key];

  it('has a column per judged server, by its real name, and leaves the SQL baseline out', () => {
    assert.deepEqual(model.columns.map((c) => c.name), ['FerretDB 1.24 on PostgreSQL 15.18', 'FerretDB 2.7 / DocumentDB 1.0 on PostgreSQL 18.6']);
    assert.deepEqual(model.columns.map((c) => c.server), ['embedded', 'ferretdb2']);
  });

  it('gives each cell its verdict, the measured ratio beside the article\'s, and the rule\'s bands', () => {
    const row = model.rows.find((r) => r.id === 'b-faster');
    assert.equal(row.article.ratio, 10);
    assert.equal(cell('b-faster', 'embedded').status, HOLDS);
    assert.ok(Math.abs(cell('b-faster', 'embedded').ratio / 5 - 1) < 0.02);
    // past no effect, but short of the article's order (√10 = 3.16×): holds, weaker
    assert.equal(cell('b-faster', 'ferretdb2').status, WEAKER);
    assert.ok(Math.abs(cell('b-faster', 'ferretdb2').ratio / 1.5 - 1) < 0.02);
    assert.deepEqual(row.bands.map((b) => [b.from, Number(b.to.toFixed(3)), b.status]), [[0, 1.1, FAILS], [1.1, 3.162, WEAKER], [Math.sqrt(10), Infinity, HOLDS]]);
  });

  it('says how a verdict was reached where a recorded plan scanned the table, and nowhere else', () => {
    assert.equal(cell('b-faster', 'embedded').mechanism, 'by a table scan');
    assert.equal(cell('b-faster', 'ferretdb2').mechanism, null);
    assert.equal(cell('unacked', 'embedded').mechanism, null, 'an untested finding has no mechanism');
    // the same read from a plan's counters or stage names alone, on any finding
    const [finding] = FINDINGS;
    const rec = (extra) => [{ step: 'update', schema: 'a', ...extra }];
    assert.equal(mechanismOf(finding, rec({ upsertCost: { docsExamined: 500, keysExamined: 0 } })), 'by a table scan');
    assert.equal(mechanismOf(finding, rec({ docsExamined: 1, keysExamined: 1 })), null);
    assert.equal(mechanismOf(finding, rec({ planStages: ['COLLSCAN'] })), 'by a table scan');
    assert.equal(mechanismOf(finding, rec({ planStages: ['IDHACK'] })), null);
    assert.equal(mechanismOf(finding, [{ step: 'update', schema: 'c', planScans: true }]), null, 'only the records the finding is decided on count');
  });

  it('says each reason in words, without the records\' field names, and that a run before pairing rests on one reading', () => {
    const unpaired = buildReportModel([readRunModel(before, [SCENARIO])], [SCENARIO]);
    const oneReading = 'one reading per side (a run recorded before pairing): no interval, so no verdict';
    assert.equal(cell('b-faster', 'embedded', unpaired).status, INCONCLUSIVE);
    assert.equal(cell('b-faster', 'embedded', unpaired).reason, oneReading);
    assert.equal(cell('b-faster', 'embedded', unpaired).n, 1);
    assert.equal(cell('b-faster', 'embedded', unpaired).measured, '5.00× (one reading) on the applied time; a 50.0 s against b 10.0 s');
    assert.match(cell('b-faster', 'ferretdb2').reason, /^a smaller effect than the article's 10\.0×, in its direction: the whole 95% interval is between 1\.10× and 3\.16×$/);
    const untested = cell('unacked', 'embedded');
    assert.equal(untested.status, UNTESTABLE);
    assert.equal(cell('unacked', 'ferretdb2').status, FAILS, 'wholly outside the band around 1');
    assert.equal(untested.reason, 'this server answers fire-and-forget (w:0) writes, so both ran acknowledged (w:1): not the article\'s clock (unacknowledged outcome: refused)');
    for (const c of model.rows.flatMap((r) => Object.values(r.cells))) {
      assert.doesNotMatch(`${c.measured || ''}`, /appliedSeconds|unacknowledged\.outcome|planScans/, c.measured);
    }
  });

  it('gives a paired run\'s cells their interval and the pairs they rest on', () => {
    const records = [
      m('ferretdb2', 'a', { appliedSeconds: 50, seconds: 50 }), m('ferretdb2', 'b', { appliedSeconds: 10, seconds: 10 }),
    ];
    const { blocks } = withBlocks(records, { spread: 0.05 });
    const paired = runDir(root, 'paired', [header('paired'), FERRETDB2, ...records, ...blocks, { type: 'end', status: 'done' }]);
    const c = cell('b-faster', 'ferretdb2', buildReportModel([readRunModel(paired, [SCENARIO])], [SCENARIO]));
    assert.equal(c.status, HOLDS);
    assert.equal(c.n, 8);
    assert.ok(c.lo < c.ratio && c.ratio < c.hi);
    assert.match(c.estimateText, /^5\.\d\d× \(\d\.\d\d–\d\.\d\d×, n=8\)$/);
    assert.match(c.reason, /^95% interval \d\.\d\d–\d\.\d\d×, n=8$/);
  });

  it('folds the findings only published into one row per article, and keeps the kit\'s questions apart', () => {
    const [article] = model.articles;
    assert.deepEqual(article.rows.map((r) => r.id), ['b-faster', 'unacked']);
    assert.equal(article.foldedRow.folded.length, 1);
    assert.equal(cell('old-engine', 'embedded').status, PUBLISHED_ONLY);
    assert.equal(cell('old-engine', 'embedded').reason, 'the old engine cannot be run today, so this stays the article\'s figure');
    assert.equal(cell('old-engine', 'embedded').verdict.reasons[0].code, 'published-only');
    assert.deepEqual(model.kitRows.map((r) => r.id), ['kit-question']);
    assert.equal(model.kitRows[0].article.ratio, null, 'the article\'s figure of another comparison is said, not drawn');
  });

  it('says beside a verdict that another run of the kit shared the machine while its records were taken', () => {
    const shared = runDir(root, 'shared', [
      header('shared'), FERRETDB2,
      m('ferretdb2', 'a', { appliedSeconds: 50, seconds: 50, otherRuns: [{ runId: 'other', pid: 1234, out: '/tmp/other' }] }),
      m('ferretdb2', 'b', { appliedSeconds: 10, seconds: 10 }),
      { type: 'end', status: 'done' },
    ]);
    const sharedBlocks = withBlocks(runRecords(shared).filter((x) => x.type === 'measurement'), { spread: 0.03 }).blocks;
    fs.appendFileSync(path.join(shared, 'results.jsonl'), `${sharedBlocks.map((b) => JSON.stringify(b)).join('\n')}\n`);
    const mdl = buildReportModel([readRunModel(shared, [SCENARIO])], [SCENARIO]);
    const c = cell('b-faster', 'ferretdb2', mdl);
    assert.equal(c.shared, true);
    assert.match(c.reason, /another run of the kit shared the machine$/);
    assert.equal(cell('b-faster', 'ferretdb2').shared, false, 'a run alone on its machine says nothing of it');
  });

  it('tallies every cell by verdict', () => {
    assert.deepEqual(model.tally, { [HOLDS]: 2, [WEAKER]: 1, [FAILS]: 1, [INCONCLUSIVE]: 1, [NEEDS_SIZE]: 0, [UNTESTABLE]: 1, [PUBLISHED_ONLY]: 2 });
  });

  it('links each cell to its finding\'s evidence', () => {
    assert.equal(cell('b-faster', 'embedded').evidence, '#finding-crafted-b-faster');
  });

  it('puts several runs side by side, a column per run × server, and says where a run did not run the article', () => {
    const other = runDir(root, 'other', [{ ...header('other'), params: { ...header('other').params, scenarios: [] } }, MONGOD, { type: 'end', status: 'done' }]);
    const both = buildReportModel([readRunModel(one, [SCENARIO]), readRunModel(other, [SCENARIO])], [SCENARIO]);
    assert.deepEqual(both.columns.map((c) => c.key), ['0|embedded', '0|ferretdb2', '1|mongod:zstd']);
    assert.match(both.columns[2].sub, /^other · size smoke/);
    assert.equal(cell('b-faster', 'mongod:zstd', both).status, NOT_RUN);
  });

  it('writes summary.md\'s matrix with verdict words and ratios, each reason once as a note', () => {
    const md = matrixMarkdown(model);
    assert.match(md, /\| crafted \| schema b makes the updates many times faster \| 10\.0× \| \*\*holds\*\*, by a table scan 5\.\d\d× \(\d\.\d\d–\d\.\d\d×, n=8\) \[1\] \| \*\*holds, weaker\*\* 1\.\d\d× \(1\.\d\d–1\.\d\d×, n=8\) \[2\] \|/);
    const notes = md.slice(md.indexOf('Notes:'));
    const reasons = notes.split('\n').slice(1);
    assert.equal(new Set(reasons.map((l) => l.replace(/^\d+\. /, ''))).size, reasons.length, 'each reason once');
    assert.doesNotMatch(md, /appliedSeconds|unacknowledged\.outcome/);
  });

  it('draws the matrix as a page and as a picture', async () => {
    const html = reportHtml({ model, title: 't', sectionsOf: () => null, appendixOf: () => [] });
    assert.equal((html.match(/<td class="cell /g) || []).length, model.rows.length * model.columns.length);
    assert.match(html, /Noto Sans CJK SC/);
    // a kit's question says why its rule is what it is, never what the article claimed
    const kitItem = html.slice(html.indexOf('<li id="finding-crafted-kit-question"'));
    assert.match(kitItem.slice(0, kitItem.indexOf('</li>')), /^<li[^>]*><b>The kit's question: [\s\S]*Why this rule: the kit&#39;s question, asked beside/);
    assert.doesNotMatch(kitItem.slice(0, kitItem.indexOf('</li>')), /What it claimed/);
    const png = await inspectPng(verdictsPng(model, 'crafted'));
    assert.ok(png.distinctColours > 5);
  });
});

describe('report model on an article\'s own findings', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-model-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('holds a growth measured short of the article\'s largest point against the article\'s growth at the same point', () => {
    const { resolveConfig } = require('../../orchestrator/config');
    const { discoverScenarios } = require('../../orchestrator/scenarios');
    const { shellDir, root: kitRoot } = resolveConfig();
    const scenarios = discoverScenarios(shellDir, kitRoot).filter((s) => s.name === 'embedded-comments');
    const cellRecords = [10, 100, 1000].flatMap((perBlog, i) => ['embedded', 'separate'].map((layout) => ({
      type: 'measurement', scenario: 'embedded-comments', server: 'embedded', step: 'bench', pass: 1, mode: 'safe', layout, perBlog, seconds: layout === 'embedded' ? 10 * 4 ** i : 10, appliedSeconds: layout === 'embedded' ? 10 * 4 ** i : 10,
    })));
    const { blocks } = withBlocks(cellRecords, { spread: 0.03, counts: ['comments'] });
    const dir = runDir(root, 'ec', [{ ...header('ec'), params: { ...header('ec').params, scenarios: ['embedded-comments'] } }, { ...FERRETDB2, server: 'embedded' }, ...cellRecords, ...blocks]);
    const model = buildReportModel([readRunModel(dir, scenarios)], scenarios);
    const row = model.rows.find((r) => r.id === 'embedded-slows');
    const c = Object.values(row.cells)[0];
    // held to the article's 3.2× at 1,000 per blog, its order there (1.79×), not to its 24.9× at 10,000
    assert.equal(c.status, HOLDS);
    assert.ok(Math.abs(c.ratio / 16 - 1) < 0.02);
    assert.ok(Math.abs(c.verdict.thresholds.holdsAt - Math.sqrt(3.2)) < 1e-9);
    // the article: 4.30 s at 10 per blog, 13.77 s at 1,000 (3.2×), 107.09 s at 10,000 (24.9×)
    assert.equal(row.article.text, '24.9×');
    assert.equal(c.article.text, '3.20×');
    assert.equal(c.verdict.at, 1000);
    assert.equal(c.verdict.ref, 10);
    assert.match(c.reason, /; the article 3\.20× at 1,000$/);
  });
});

describe('server display names', () => {
  it('names the engine, its version and topology from the server record', () => {
    assert.equal(serverDisplayName(FERRETDB2), 'FerretDB 2.7 / DocumentDB 1.0 on PostgreSQL 18.6');
    assert.equal(serverDisplayName(FERRETDB1), 'FerretDB 1.24 on PostgreSQL 15.18');
    assert.equal(serverDisplayName({ ...FERRETDB1, engine: 'sqlite' }), 'FerretDB 1.24 on SQLite');
    assert.equal(serverDisplayName(MONGOD), 'MongoDB 8.2.6 standalone, zstd');
    assert.equal(serverDisplayName({ ...MONGOD, spec: 'mongod', description: 'mongod 8.2.6' }), 'MongoDB 8.2.6 standalone');
    assert.equal(serverDisplayName({ ...MONGOD, spec: 'prod=mongodb://h', startedByKit: false, description: 'mongodb://h' }), 'MongoDB 8.2.6', 'of a user\'s server the topology is not known');
    assert.equal(serverDisplayName({ ...MONGOD, topology: 'replica set rs0' }), 'MongoDB 8.2.6 replica set rs0, zstd');
    assert.equal(serverDisplayName(BASELINE), 'PostgreSQL 15.18 (SQL baseline)');
  });

  it('says the kit\'s alias once, beside the name', () => {
    assert.equal(serverNameWithAlias(FERRETDB1), 'FerretDB 1.24 on PostgreSQL 15.18 (embedded)');
  });
});

describe('rule bands', () => {
  it('draws each check\'s thresholds as bands on the ratio scale', () => {
    const of = (check, figure) => bandsOf({ check, figure });
    assert.deepEqual(of({ kind: 'ratio', atMost: 0.9, margin: 0.05 }).map((b) => b.status), [HOLDS, INCONCLUSIVE, FAILS]);
    // near is judged on a log scale: 1/1.15 and 1.15 alike, and an interval wholly outside the band does not hold
    assert.deepEqual(of({ kind: 'near', tolerance: 0.15 }).map((b) => [b.from, b.to].map((x) => Number(x.toFixed(4)))), [[0, 0.8696], [0.8696, 1.15], [1.15, Infinity]]);
    assert.equal(of({ kind: 'crossing' }), null);
    // "28× faster", held at its order: the square root of 28 on; "about 3×" a band around 2.98
    assert.deepEqual(of({ kind: 'ratio', says: 'order', margin: 0.1 }, 28).map((b) => [b.from, Number(b.to.toFixed(3)), b.status]), [[0, 1.1, FAILS], [1.1, 5.292, WEAKER], [Math.sqrt(28), Infinity, HOLDS]]);
    assert.deepEqual(of({ kind: 'ratio', says: 'about', band: 1.25, margin: 0.1 }, 2.98).map((b) => [Number(b.from.toFixed(3)), Number(b.to.toFixed(3)), b.status]), [[0, 1.1, FAILS], [1.1, 2.384, WEAKER], [2.384, 3.725, HOLDS], [3.725, Infinity, FAILS]]);
    // a figure below 1 mirrors it: 0.25× held at its order is 0.5× or less
    assert.deepEqual(of({ kind: 'ratio', says: 'order', margin: 0.1 }, 0.25).map((b) => [Number(b.from.toFixed(3)), Number(b.to.toFixed(3)), b.status]), [[0, 0.5, HOLDS], [0.5, 0.9, WEAKER], [0.9, Infinity, FAILS]]);
  });
});
