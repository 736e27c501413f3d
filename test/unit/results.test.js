'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ResultsLog } = require('../../orchestrator/results/writer');
const { readResults } = require('../../orchestrator/results/reader');
const { SCHEMA_VERSION } = require('../../orchestrator/schemas');

describe('results.jsonl', () => {
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-results-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes each record as one line the moment it is appended', () => {
    const file = path.join(dir, 'results.jsonl');
    const log = new ResultsLog(file);
    log.append({ type: 'run', n: 1 });
    assert.equal(fs.readFileSync(file, 'utf8'), `{"type":"run","schemaVersion":${SCHEMA_VERSION},"n":1}\n`, 'on disk before close, stamped with its schema\'s version');
    log.append({ type: 'measurement', ms: 2.5, at: new Date('2026-01-02T03:04:05Z') });
    log.close();
    log.append({ type: 'after close' });
    const { records, problems } = readResults(file);
    assert.deepEqual(problems, []);
    assert.equal(records.length, 2);
    assert.equal(records[1].ms, 2.5);
    assert.ok(records[1].at instanceof Date, 'dates survive through EJSON');
  });

  it('skips a truncated last line and says so', () => {
    const file = path.join(dir, 'results.jsonl');
    fs.writeFileSync(file, '{"type":"run"}\n{"type":"measurement","ms":1}\n{"type":"measurem');
    const { records, problems } = readResults(file);
    assert.equal(records.length, 2);
    assert.deepEqual(problems, ['line 3 is not complete JSON and was skipped']);
  });

  it('refuses a missing or empty file with a clear message', () => {
    assert.throws(() => readResults(path.join(dir, 'nope.jsonl')), /no results at/);
    fs.writeFileSync(path.join(dir, 'empty.jsonl'), '');
    assert.throws(() => readResults(path.join(dir, 'empty.jsonl')), /holds no complete results/);
  });
});
