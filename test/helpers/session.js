'use strict';
// Mocha's global fixtures (.mocharc.json requires this file): one folder for this `npm test`, in
// which the fixture runs (test/helpers/fixture-runs.js) are made once and shared by every worker
// process, removed at the end unless CLASSICS_KEEP_FIXTURES is set (then its path is printed).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const skips = require('./skips');
const { stopRunsLeft } = require('./cli');

let made = null;

// Each file's pending tests, with the reason each was skipped for, into the session's skips.jsonl
// (test/helpers/skips.js): in every worker, once its file has run. Then any run of the kit the file
// started and left going (a hook that timed out) is stopped, and said (test/helpers/cli.js).
exports.mochaHooks = {
  async afterAll() {
    skips.mochaHooks.afterAll.call(this);
    const stopped = await stopRunsLeft();
    if (stopped) process.stdout.write(`\n  stopped ${stopped} run(s) of the kit this file left going (a hook that timed out)\n`);
  },
};

// The history store (CLASSICS_RUNS_DIR, else reports/runs) decides a verdict across the comparable
// runs kept there: the tests' runs are judged alone, whatever runs the machine keeps, unless a test
// names a store of its own.
if (!process.env.CLASSICS_RUNS_DIR) process.env.CLASSICS_RUNS_DIR = path.join(os.tmpdir(), 'classics-test-no-kept-runs');
// The kit's tests read no calibration or probes kept in the user's cache, and keep none there:
// each run measures afresh, as it always has; a test of the store points it at a folder of its own.
if (process.env.CLASSICS_PROBE_STORE === undefined) process.env.CLASSICS_PROBE_STORE = 'off';

// In each worker process (mocha's parallel mode numbers them in MOCHA_WORKER_ID), a state folder of
// its own: the runs one worker starts never count another's as theirs, and a test that cleans up
// after a killed run (orchestrate clean, the next run's sweep) sees its own worker's runs alone.
// npm test's second part (test/run.js: the @serial tests, in one process) has one of its own too.
if (process.env.CLASSICS_TEST_SESSION && (process.env.MOCHA_WORKER_ID !== undefined || process.env.CLASSICS_TEST_PART === 'serial')) {
  const base = process.env.CLASSICS_STATE_DIR || path.join(process.env.CLASSICS_TEST_SESSION, 'state');
  process.env.CLASSICS_STATE_DIR = path.join(base, process.env.MOCHA_WORKER_ID !== undefined ? `worker-${process.env.MOCHA_WORKER_ID}` : 'serial');
  fs.mkdirSync(process.env.CLASSICS_STATE_DIR, { recursive: true });
}

exports.mochaGlobalSetup = function mochaGlobalSetup() {
  if (process.env.CLASSICS_TEST_SESSION) return; // a session given from outside is the caller's to keep
  made = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-test-session-'));
  // the worker processes start after this, and inherit it
  process.env.CLASSICS_TEST_SESSION = made;
};

exports.mochaGlobalTeardown = function mochaGlobalTeardown() {
  if (!made) return;
  // a session given from outside (test/run.js, npm test) tallies its skips itself, over both parts
  const counts = skips.tally(skips.readSkips());
  if (counts.size) process.stdout.write(`\n${skips.skipSummary(counts, [])}\n`);
  if (process.env.CLASSICS_KEEP_FIXTURES) process.stdout.write(`the fixture runs are kept in ${made}\n`);
  else fs.rmSync(made, { recursive: true, force: true });
};
