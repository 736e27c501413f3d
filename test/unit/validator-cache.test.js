'use strict';
// The file formats' validators, compiled once and kept (orchestrator/schemas/index.js): a start of
// the kit that finds them kept compiles nothing, the kept code says what ajv compiled afresh says
// of every kept example's records and of broken ones, and a cache that cannot be written only
// costs the time. Each case runs in a process of its own, as each start of the kit does.
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const SCHEMAS = path.join(ROOT, 'orchestrator', 'schemas');
const EXAMPLE = path.join(ROOT, 'reports', 'examples', 'main-job-conditions', 'results.jsonl');

/** Runs `body` (a function's text, given `schemas` and `fs`) in a fresh node with the cache at dir: its JSON answer. */
function inProcess(dir, body) {
  const program = `
    const schemas = require(${JSON.stringify(SCHEMAS)});
    const fs = require('node:fs');
    const answer = (${body})(schemas, fs);
    answer.compiled = Object.keys(require.cache).some((f) => f.endsWith('ajv/dist/2020.js'));
    process.stdout.write(JSON.stringify(answer));`;
  const r = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8', env: { ...process.env, CLASSICS_VALIDATOR_CACHE: dir } });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Every record of a kept example, and the first 40 altered three ways (a field added, one left out, one of another type; most are refused): { sound: [problem…], broken: [problem…] }. */
const CHECK_RECORDS = `(schemas, fs) => {
  const records = fs.readFileSync(${JSON.stringify(EXAMPLE)}, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));
  const broken = records.slice(0, 40).flatMap((r) => [
    { ...r, type: r.type, extra: 1 },
    Object.fromEntries(Object.entries(r).filter(([k]) => k !== Object.keys(r).find((x) => x !== 'type'))),
    { ...r, [Object.keys(r).find((x) => x !== 'type')]: { nested: true } },
  ]);
  return { sound: records.map((r) => schemas.recordProblem(r)), broken: broken.map((r) => schemas.recordProblem(r)) };
}`;

describe('the validators, compiled once and kept', () => {
  const dirs = [];
  const fresh = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-validators-')); dirs.push(d); return d; };
  after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

  it('compiles them at the first start and keeps them; a later start compiles nothing and answers the same', () => {
    const dir = fresh();
    const first = inProcess(dir, CHECK_RECORDS);
    const kept = fs.readdirSync(dir);
    assert.equal(kept.length, 1, kept.join(' '));
    assert.match(kept[0], /^validators-[0-9a-f]{32}\.js$/);
    const second = inProcess(dir, CHECK_RECORDS);
    // the first start's broken records needed ajv's words; a start with only sound values needs none
    const soundOnly = inProcess(dir, `(schemas, fs) => ({ sound: fs.readFileSync(${JSON.stringify(EXAMPLE)}, 'utf8').split('\\n').filter(Boolean).map((l) => schemas.recordProblem(JSON.parse(l))) })`);
    assert.equal(soundOnly.compiled, false, 'a start that found the validators kept compiled the schemas');
    assert.ok(soundOnly.sound.length > 100 && soundOnly.sound.every((p) => p === null));
    assert.deepEqual(second.sound, first.sound);
    assert.deepEqual(second.broken, first.broken);
    const refused = first.broken.filter((p) => typeof p === 'string' && p.length > 0);
    assert.ok(refused.length >= 40, `${refused.length} of ${first.broken.length} altered records refused, in words`);
  });

  it('says of every value what ajv compiled afresh, with every error in words, says', () => {
    const dir = fresh();
    inProcess(dir, '() => ({})');
    const kept = inProcess(dir, CHECK_RECORDS);
    // the reference: ajv compiled in this process, with nothing kept to read (an unwritable folder)
    const none = path.join(fresh(), 'file');
    fs.writeFileSync(none, '');
    const afresh = inProcess(path.join(none, 'under-a-file'), CHECK_RECORDS);
    assert.deepEqual(kept.sound, afresh.sound);
    assert.deepEqual(kept.broken, afresh.broken);
    assert.equal(afresh.compiled, true);
  });

  it('checks the descriptors and verdicts alike, and names a broken scenario.json\'s field', () => {
    const dir = fresh();
    const answer = inProcess(dir, `(schemas, fs) => {
      const descriptor = JSON.parse(fs.readFileSync(${JSON.stringify(path.join(ROOT, 'shell', 'many-keys', 'scenario.json'))}, 'utf8'));
      return { sound: schemas.scenarioSchemaProblems(descriptor), broken: schemas.scenarioSchemaProblems({ ...descriptor, database: 7 }), verdicts: schemas.verdictsSchemaProblems([{}]).length };
    }`);
    assert.deepEqual(answer.sound, []);
    assert.deepEqual(answer.broken, ['database must be string, not 7']);
    assert.ok(answer.verdicts > 0);
  });
});
