'use strict';
// npm test's runner (test/run.js) on a crafted file (test/fixtures/suite-runner/): the pool without
// the serial-tagged tests, then those alone, then the skips by reason, held to a list of expected skips.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const CRAFTED = 'test/fixtures/suite-runner/crafted.test.js';

describe('npm test\'s runner: the pool, then the serial-tagged tests alone, then the skips by reason', function () {
  this.timeout(120000);
  let dir;
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-suite-runner-')); });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** test/run.js on the crafted file, with a list of expected skips; { code, stdout, ran }. */
  function runner(reasons, env = {}) {
    const list = path.join(dir, `expected-${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(list, JSON.stringify({ reasons }));
    const log = path.join(dir, `ran-${Math.random().toString(36).slice(2)}.log`);
    const out = spawnSync(process.execPath, ['test/run.js'], {
      cwd: ROOT, encoding: 'utf8',
      env: { ...process.env, CLASSICS_TEST_SESSION: '', CLASSICS_TEST_FILES: CRAFTED, CLASSICS_EXPECTED_SKIPS: list, CRAFTED_LOG: log, ...env },
    });
    return { code: out.status, stdout: out.stdout, ran: fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [] };
  }
  const LISTED = { 'crafted reason A': { count: 2 }, 'crafted reason B': { count: 2 }, 'a reason this machine lacks': { count: 9 } };

  it('runs the serial-tagged test after the pool and alone, and ends on the skips by reason', () => {
    const { code, stdout, ran } = runner(LISTED);
    assert.equal(code, 0, stdout);
    assert.deepEqual(ran, ['pooled pool', 'serial alone']);
    const tail = stdout.slice(stdout.lastIndexOf('skipped: 4 tests, by reason:'));
    assert.match(tail, /^skipped: 4 tests, by reason:\n {5}2 {2}crafted reason A\n {5}2 {2}crafted reason B\n/);
  });

  it('fails on a skip that gives no reason, naming it', () => {
    const { code, stdout } = runner(LISTED, { CRAFTED_BARE_SKIP: '1' });
    assert.equal(code, 1);
    assert.match(stdout, /\n {5}1 {2}no reason recorded \(a this\.skip\(\) or it\.skip outside test\/helpers\/skips\.js\)\n/);
    assert.match(stdout, /UNEXPECTED SKIP: 1 skipped for a reason not in test\/expected-skips\.json: no reason recorded/);
  });

  it('fails on a listed reason at another count, and passes any count where the list fixes none', () => {
    const more = runner({ ...LISTED, 'crafted reason A': { count: 3 } });
    assert.equal(more.code, 1);
    assert.match(more.stdout, /UNEXPECTED SKIP: 2 skipped for "crafted reason A", where test\/expected-skips\.json expects 3/);
    const open = runner({ ...LISTED, 'crafted reason A': { count: null } });
    assert.equal(open.code, 0, open.stdout);
    assert.match(open.stdout, / {5}2 {2}crafted reason A {2}\(its count not fixed in test\/expected-skips\.json\)/);
  });
});
