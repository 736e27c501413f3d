'use strict';
// `npm test`: mocha in two parts sharing one session (its fixture runs and its record of skips),
// then the skips by reason.
//   1. every file in mocha's parallel pool (.mocharc.json), the tests tagged @serial left out;
//   2. the @serial tests alone, one after another, once the pool is done: the checks a busy machine
//      can fail (CPU shares, two clocks agreeing within milliseconds, wall-clock ceilings), which
//      three workers on two cores would otherwise run beside each other.
// Then every skip is tallied by reason (test/helpers/skips.js) and held to test/expected-skips.json:
// a reason not listed there, or a listed reason at another count, fails the run.
// Arguments after `npm test --` go to both mocha runs (e.g. --bail). CLASSICS_TEST_FILES (paths,
// space-separated) and CLASSICS_EXPECTED_SKIPS (a file) replace the list of files and of skips:
// test/integration/suite-runner.test.js runs this on crafted files with them.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { testOrder, serialFiles } = require('./order');
const skips = require('./helpers/skips');

const ROOT = path.resolve(__dirname, '..');
const SERIAL = '@serial';
const MOCHA = require.resolve('mocha/bin/mocha.js');

function mocha(args, env) {
  const result = spawnSync(process.execPath, [MOCHA, ...args], { cwd: ROOT, env, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function main() {
  const extra = process.argv.slice(2);
  const session = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-test-session-'));
  // a run of its own, even where a mocha worker starts it (test/integration/suite-runner.test.js):
  // its tests must not take the caller's worker number for theirs
  const { MOCHA_WORKER_ID, ...outer } = process.env;
  const env = { ...outer, CLASSICS_TEST_SESSION: session };
  let failed = false;
  try {
    const started = Date.now();
    const files = process.env.CLASSICS_TEST_FILES ? process.env.CLASSICS_TEST_FILES.split(/\s+/).filter(Boolean) : testOrder();
    failed = mocha([...extra, '--grep', SERIAL, '--invert', ...files], env) !== 0;
    const pooled = Date.now();
    const serial = serialFiles(files);
    process.stdout.write(`\nthe load-sensitive tests (${SERIAL}), alone, one after another: ${serial.join(' ')}\n`);
    if (serial.length) failed = mocha([...extra, '--no-parallel', '--grep', SERIAL, ...serial], { ...env, CLASSICS_TEST_PART: 'serial' }) !== 0 || failed;
    const done = Date.now();
    const counts = skips.tally(skips.readSkips(path.join(session, 'skips.jsonl')));
    const listFile = process.env.CLASSICS_EXPECTED_SKIPS || path.join(__dirname, 'expected-skips.json');
    const expected = JSON.parse(fs.readFileSync(listFile, 'utf8')).reasons;
    const problems = skips.unexpectedSkips(counts, expected);
    process.stdout.write(`\n${skips.skipSummary(counts, problems, expected)}\n`);
    process.stdout.write(`the parallel pool took ${((pooled - started) / 1000).toFixed(0)} s, the ${SERIAL} tests ${((done - pooled) / 1000).toFixed(0)} s\n`);
    if (problems.length) {
      process.stdout.write('a skip not in test/expected-skips.json fails the run: give the test a listed reason, or list its reason and count there\n');
      failed = true;
    }
  } finally {
    if (process.env.CLASSICS_KEEP_FIXTURES) process.stdout.write(`the fixture runs are kept in ${session}\n`);
    else fs.rmSync(session, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main();
