'use strict';
// Every skip in the suites goes through skip() here, with a reason from a short fixed list and the
// detail of this machine: the reason is set on the test (or, from a `before` hook, on its suite),
// and a root hook (mochaHooks, loaded by session.js) writes each pending test with its reason to
// the session's skips.jsonl once its file has run. That works in mocha's parallel mode too, where
// a reporter only sees serialized events without the reason: the worker that ran the test writes
// it. test/run.js (npm test) tallies the file, prints the skips by reason and fails the run on a
// reason or count that test/expected-skips.json does not list.
const fs = require('node:fs');
const path = require('node:path');

const REASON = 'classicsSkipReason';

/** The session's record of skipped tests, or null outside a session. */
const skipsFile = () => (process.env.CLASSICS_TEST_SESSION ? path.join(process.env.CLASSICS_TEST_SESSION, 'skips.jsonl') : null);

/** Where a skip called with this mocha context lands: a test, or a `before all` hook's suite. */
function skippedRunnable(ctx) {
  const runnable = ctx.test;
  if (!runnable || runnable.type === 'test') return runnable;
  // a hook: "before each" skips the test it runs before; "before all" every test of its suite
  if (/^"before each" hook/.test(runnable.title) && ctx.currentTest) return ctx.currentTest;
  return runnable.parent;
}

/**
 * Skips the test (in `it`) or the suite (in `before`) of a mocha context, printing why. `reason` is
 * one of the fixed phrases test/expected-skips.json counts; `detail` says what this machine lacks.
 */
function skip(ctx, reason, detail = '') {
  if (typeof reason !== 'string' || !reason) throw new TypeError('skip() needs a reason');
  const target = skippedRunnable(ctx);
  if (target) target[REASON] = { reason, detail };
  process.stdout.write(`      skipped: ${reason}${detail ? ` (${detail})` : ''}\n`);
  ctx.skip();
}

/** The reason a pending test was skipped for: its own, else its nearest suite's. */
function reasonOf(test) {
  for (let r = test; r; r = r.parent) if (r[REASON]) return r[REASON];
  return { reason: 'no reason recorded (a this.skip() or it.skip outside test/helpers/skips.js)', detail: '' };
}

/** Every test under a suite that mocha reported as pending (its state 'pending'). */
function pendingUnder(suite) {
  return [...suite.tests.filter((t) => t.state === 'pending'), ...suite.suites.flatMap(pendingUnder)];
}

const fileOf = (test) => { for (let r = test; r; r = r.parent) if (r.file) return r.file; return null; };

/** Appends the pending tests under a root suite to the session's skips.jsonl, one line each. */
function recordPending(root) {
  const file = skipsFile();
  if (!file) return;
  const lines = pendingUnder(root).map((t) => JSON.stringify({
    ...reasonOf(t), file: fileOf(t) && path.relative(path.resolve(__dirname, '..', '..'), fileOf(t)), title: t.fullTitle(),
  }));
  // one write of whole lines with O_APPEND: the workers' lines never interleave
  if (lines.length) fs.appendFileSync(file, `${lines.join('\n')}\n`);
}

/** The session's recorded skips. */
function readSkips(file = skipsFile()) {
  if (!file || !fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Skips counted by reason: a Map of reason → count, the largest first. */
function tally(skips) {
  const counts = new Map();
  for (const s of skips) counts.set(s.reason, (counts.get(s.reason) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

/**
 * What a tally has that the expected list does not allow: a reason not listed, or a listed reason
 * whose count differs from the list's (a reason listed may be absent: what this machine has; a
 * count of null is not checked: a reason whose count depends on a machine none has measured yet).
 * `expected` is test/expected-skips.json's `reasons`: reason → { count, why }.
 */
function unexpectedSkips(counts, expected) {
  const problems = [];
  for (const [reason, count] of counts) {
    const listed = expected[reason];
    if (!listed) problems.push(`${count} skipped for a reason not in test/expected-skips.json: ${reason}`);
    else if (listed.count !== null && listed.count !== count) problems.push(`${count} skipped for "${reason}", where test/expected-skips.json expects ${listed.count}`);
  }
  return problems;
}

/** pytest -rs's summary: one line per reason, its count first, then the lines that fail the run. */
function skipSummary(counts, problems, expected = null) {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const lines = [`skipped: ${total} test${total === 1 ? '' : 's'}${total ? ', by reason:' : ''}`];
  for (const [reason, count] of counts) {
    const note = expected && expected[reason] && expected[reason].count === null ? '  (its count not fixed in test/expected-skips.json)' : '';
    lines.push(`  ${String(count).padStart(4)}  ${reason}${note}`);
  }
  for (const p of problems) lines.push(`UNEXPECTED SKIP: ${p}`);
  return lines.join('\n');
}

/** The root hook that records each file's pending tests once it has run (per file in parallel mode). */
const mochaHooks = {
  afterAll() {
    let root = this.test && this.test.parent;
    while (root && root.parent) root = root.parent;
    if (root) recordPending(root);
  },
};

module.exports = { skip, reasonOf, pendingUnder, recordPending, readSkips, tally, unexpectedSkips, skipSummary, skipsFile, mochaHooks };
