'use strict';
// The file formats as JSON Schemas, checked with ajv: every kept file holds to them, a broken
// one is named in words (the field, what was wanted), and what the other issues add is accepted.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scenarioSchemaProblems, publishedSchemaProblems, recordProblem, schemas, SCHEMA_VERSION } = require('../../orchestrator/schemas');
const { scenarioDirs, scenarioProblems } = require('../../orchestrator/scenarios');
const { readRun } = require('../../orchestrator/results/reader');
const { DB_PREFIX } = require('../../orchestrator/config');
const { CHECK_KINDS, KINDS } = require('../../orchestrator/analysis/checks');

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'reports', 'examples');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const finding = (check, more = {}) => ({ id: 'f', claim: 'c', published: 'p', decidedBy: 'd', check, ...more });
const publishedWith = (...findings) => ({ records: [], findings });

describe('schemas', () => {
  const dirs = [...scenarioDirs(path.join(ROOT, 'shell')), ...['shell', 'paired-shell'].flatMap((d) => scenarioDirs(path.join(ROOT, 'test', 'fixtures', d)))];

  it('every scenario.json and published.json holds to its schema', () => {
    for (const dir of dirs) {
      const descriptor = readJson(path.join(dir, 'scenario.json'));
      assert.deepEqual(scenarioSchemaProblems(descriptor), [], dir);
      assert.deepEqual(publishedSchemaProblems(readJson(path.join(dir, descriptor.published))), [], dir);
    }
  });

  it('every record of the kept examples holds to its type\'s schema', () => {
    for (const dir of fs.readdirSync(EXAMPLES)) {
      const file = path.join(EXAMPLES, dir, 'results.jsonl');
      if (!fs.existsSync(file)) continue;
      const broken = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)
        .map((line, i) => [i + 1, recordProblem(JSON.parse(line))]).filter(([, p]) => p);
      assert.deepEqual(broken, [], dir);
    }
  });

  it('results.schema.json read whole, as a tool would read a line, picks the record\'s type', () => {
    const Ajv2020 = require('ajv/dist/2020');
    const validate = new Ajv2020({ strictRequired: false, allowUnionTypes: true }).compile(schemas.results);
    const lines = fs.readFileSync(path.join(EXAMPLES, 'article-ferretdb2-trade-candles', 'results.jsonl'), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) assert.ok(validate(JSON.parse(line)), JSON.stringify(validate.errors));
    assert.equal(validate({ type: 'end', status: 'fine' }), false);
    assert.equal(validate({ type: 'unknown' }), false);
  });

  it('say the one rule of the code they share: database prefix, check kinds', () => {
    assert.ok(schemas.scenario.properties.database.pattern === `^${DB_PREFIX}`);
    // the kinds' one list is analysis/checks/index.js's: the schema's enum says it, in its order, each kind's words in its description
    const kind = schemas.published.$defs.check.properties.kind;
    assert.deepEqual(kind.enum, CHECK_KINDS);
    for (const k of KINDS) assert.ok(kind.description.includes(`${k.kind} (${k.about})`), `${k.kind}: ${kind.description}`);
  });

  it('name a field that is missing with what it is for, a misspelt one with the fields there are, a value not allowed with those that are', () => {
    const descriptor = readJson(path.join(dirs[0], 'scenario.json'));
    const { scaling, ...noScaling } = descriptor;
    const problems = scenarioSchemaProblems({ ...noScaling, steps: [{ ...descriptor.steps[0], scrpt: 'x.js', repeat: 'sometimes' }], servers: { mongo: {} } });
    assert.deepEqual(problems, [
      'scaling is missing: which size variables scale under --size auto (vary), which must not (fixed, with why), each step\'s operations (steps), and the smallest size each finding needs (findings)',
      `steps[0].scrpt is not a field of steps[0] (its fields: ${Object.keys(schemas.scenario.properties.steps.items.properties).join(', ')})`,
      'steps[0].repeat "sometimes" is not one of once, passes',
      'servers.mongo: not a server kind (ferretdb, ferretdb-pg, ferretdb2, mongod, mongod:none, mongod:snappy, mongod:zstd, mongod:zlib)',
    ]);
  });

  it('refuse a finding without the thresholds that decide it, in one line that says which', () => {
    const cases = [
      [{ kind: 'ratio', atLeast: 2 }, 'findings[0].check: a ratio check needs a failure threshold: margin, failAtMost or failAtLeast'],
      [{ kind: 'ratio', failAtMost: 1.2 }, 'findings[0].check: a ratio check holds at a threshold (atLeast or atMost) or at the article\'s figure (says)'],
      [{ kind: 'ratio', says: 'about', margin: 0.1 }, /^findings\[0\]\.check\.band is missing: says about: the band around the article's figure/],
      [{ kind: 'growth', x: 'perBlog', atLeast: 2.5 }, 'findings[0].check: a growth check needs a failure threshold: margin or failAtMost'],
      [{ kind: 'near', field: 'hrMs' }, /^findings\[0\]\.check\.tolerance is missing: near: the band around 1/],
      [{ kind: 'crossing', x: 'pass', y: 'size', series: 'collection', a: 'a', b: 'b' }, /^findings\[0\]\.check\.margin is missing/],
      [{ kind: 'publishedOnly' }, /^findings\[0\]\.check\.reason is missing/],
      [{ kind: 'ratio', atLeast: 2, margin: 1.5 }, /^findings\[0\]\.check\.margin must be < 1/],
    ];
    for (const [check, expected] of cases) {
      const problems = publishedSchemaProblems(publishedWith(finding(check)));
      assert.equal(problems.length, 1, `${JSON.stringify(check)}: ${problems.join(' | ')}`);
      if (typeof expected === 'string') assert.equal(problems[0], expected);
      else assert.match(problems[0], expected);
    }
  });

  it('accept what the paired rounds and the tightened thresholds add', () => {
    const descriptor = readJson(path.join(dirs[0], 'scenario.json'));
    assert.deepEqual(scenarioSchemaProblems({ ...descriptor, rounds: 8, steps: descriptor.steps.map((s) => ({ ...s, variants: ['method'] })) }), []);
    assert.deepEqual(publishedSchemaProblems(publishedWith(
      finding({ kind: 'ratio', atMost: 0.9, failAtLeast: 1 }, { clock: { decides: 'appliedMs', article: 'ms', why: 'w' }, requires: [{ field: 'x', equals: 'y', else: 'z' }], context: [{ field: 'ms', label: 'l' }], source: 'kit' }),
      finding({ kind: 'near', tolerance: 0.25, failTolerance: 0.6, sum: true }),
      finding({ kind: 'growth', x: 'perBlog', atLeast: 2.5, failAtMost: 1.2, per: 'comments', flat: { where: { mode: 'safe' }, atMost: 1.5, failAtLeast: 2 } }),
      finding({ kind: 'ratio', field: 'meanUs', atLeast: 1.1, margin: 0.05 }, { across: { a: { select: { spec: 'mongod:zstd' } }, b: { select: { spec: 'mongod:none' } } } }),
    )), []);
    const block = { type: 'block', scenario: 's', server: 'postgresql', step: 'test1', round: 3, rounds: 8, position: 2, method: 'sql', forServers: ['embedded'], ms: 12.5, ops: 100 };
    assert.equal(recordProblem(block), null);
    assert.equal(recordProblem({ ...block, round: '3' }), 'round must be integer, not "3"');
    assert.equal(recordProblem({ type: 'measurement', scenario: 's', server: 'x', anyFieldOfItsOwn: { nested: [1] }, seconds: 1.5 }), null);
    assert.equal(recordProblem({ type: 'measurement', scenario: 's', server: 'x', seconds: 'fast' }), 'seconds must be number or null, not "fast"');
  });

  describe('at the door of a run folder', () => {
    let dir;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-schemas-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
    const write = (records) => fs.writeFileSync(path.join(dir, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const RUN = { type: 'run', schemaVersion: SCHEMA_VERSION, startedAt: 'x', params: { scenarios: ['s'] } };

    it('skips a record that breaks its schema, saying in one line which line and which field, and keeps the rest', () => {
      write([RUN, { type: 'server', server: 'a', warnings: 'not a list' }, { type: 'measurement', scenario: 's', server: 'a', ms: 1 }, { type: 'measurement', scenario: 's', ms: 2 }, { type: 'end', status: 'ok' }]);
      const run = readRun(dir);
      assert.deepEqual(run.problems, [
        'line 2 (a server record): warnings must be array, not "not a list"; the record was skipped',
        'line 4 (a measurement record): server is missing; the record was skipped',
      ]);
      assert.equal(run.measurements.length, 1);
      assert.equal(run.servers.length, 0);
      assert.equal(run.end.status, 'ok');
    });

    it('says in one line that a file comes from a newer kit, and reads what it can', () => {
      write([{ ...RUN, schemaVersion: SCHEMA_VERSION + 1 }, { type: 'measurement', scenario: 's', server: 'a', ms: 1 }]);
      const run = readRun(dir);
      assert.equal(run.problems.length, 1);
      assert.match(run.problems[0], new RegExp(`^written by a newer kit \\(results schema version ${SCHEMA_VERSION + 1}; this kit reads version ${SCHEMA_VERSION}\\)`));
      assert.equal(run.measurements.length, 1);
    });

    it('reads a file from before the schemas (no schemaVersion) as version 1', () => {
      write([{ type: 'run', params: { scenarios: ['s'] } }]);
      assert.deepEqual(readRun(dir).problems, []);
    });
  });

  it('scenarioProblems names a finding by its id', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-schemas-'));
    try {
      fs.cpSync(dirs.find((d) => d.endsWith('churn')), dir, { recursive: true });
      const file = path.join(dir, 'published.json');
      const published = readJson(file);
      delete published.findings[0].check.tolerance;
      fs.writeFileSync(file, JSON.stringify(published));
      const name = path.basename(dir);
      const descriptor = readJson(path.join(dir, 'scenario.json'));
      fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify({ ...descriptor, name }));
      assert.match(scenarioProblems(dir).join('\n'), new RegExp(`^published\\.json: finding ${published.findings[0].id}\\.check\\.tolerance is missing`, 'm'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
