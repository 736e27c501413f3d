'use strict';
// The fixture runs: one run of every scenario at smoke size per server kind, made once per `npm test`
// and read by every suite that only needs its records (pytest's session-scoped fixtures), plus one
// run per other client path (mongosh; the kit's shell with --lean off) on the parity kind, which
// the scenario suites compare with the kit's run field by field.
//
// Mocha runs the test files in two worker processes (.mocharc.json: parallel), so a fixture is made
// by whichever process asks for it first and read by the others: each fixture is a folder in the
// session's folder (test/helpers/session.js), made under a lock (orchestrator/lock-file.js: a file
// naming its maker's PID and start time, published whole), and done once its `done.json` is
// written. A process that finds a fixture being made by a live process first makes another fixture
// it will need, then waits, at most FIXTURE_WAIT_MS, then fails naming the maker; one whose maker
// died (or whose PID now names another process) takes the lock over.
//
// A fixture run's arguments are fixed here, once: the suites read the rounds, sizes and passes from
// the run's own params (run.params), never from a constant of their own.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { invokeOrchestrate } = require('./cli');
const { newTag } = require('./processes');
const { unavailableReason } = require('./servers');
const { readRun } = require('../../orchestrator/results/reader');
const { tryLock, unlock, describeHolder } = require('../../orchestrator/lock-file');
const { LockTimeoutError } = require('../../orchestrator/errors');

/** How long a process waits for a fixture another makes: a fixture run takes a minute or two, more under load. */
const FIXTURE_WAIT_MS = 20 * 60 * 1000;

/** The seed of every fixture run, so that the shells and paths draw the same numbers. */
const SMOKE_SEED = '20141105';

/**
 * The smoke sizes made smaller where a size only costs time on FerretDB 1.24 on SQLite (which reads
 * the whole collection, each document whole, for every lookup by _id) and no suite's check needs
 * more: many-keys' documents of 500 counters rather than 2,000 (still about two to a bucket of its
 * 256; the update step took 38 s at 2,000 and 14 s at 500 there, quiet), trade-candles' day of 3
 * tickers rather than 10, sampled 3 rather than 5 (its reads took 55 s at 10 and 30 s at 5 there: each
 * reads the whole day), power-of-2-sizes' passes of 50 updates rather than 101
 * and 10 removes and inserts rather than 21 and 20 (UPDATES is many-keys' smoke size too: --set
 * names a variable in every scenario that has it). The suites read every size back from the run's
 * params, never from these.
 */
const SMOKE_PINS = { KEYS: 500, TICKERS: 3, TICKER_SAMPLE: 3, UPDATES: 50, REMOVES: 10, INSERTS: 10 };

/**
 * What every fixture run is given. --no-calibrate: no suite reads a calibration (the calibration
 * has its own tests); 4 paired rounds: the fewest that keep the ABBA order's two mirrored pairs of
 * rounds; 2 passes: power-of-2-sizes' pass loop more than once, on the data the pass before left
 * (the other scenarios have one pass); 2 shells for log-inserts' parallel tests.
 */
const FIXTURE_ARGS = ['--size', 'smoke', ...Object.entries(SMOKE_PINS).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
  '--seed', SMOKE_SEED, '--no-calibrate', '--rounds', '4', '--passes', '2', '--workers', '2'];

/** The client paths besides the kit's own: the parity runs, made on the parity kind only, without baselines. */
const PATHS = {
  kit: [],
  mongosh: ['--shell', 'mongosh', '--no-baseline'],
  'lean-off': ['--shell', 'kit', '--lean', 'off', '--no-baseline'],
};

/**
 * Where the parity runs are made: the first of these this machine can start. Parity is a property
 * of the shells and the scripts, not of the server, so one kind covers every scenario.
 */
const PARITY_KINDS = ['mongod', 'ferretdb2', 'ferretdb-pg', 'ferretdb'];
const parityKind = () => PARITY_KINDS.find((kind) => !unavailableReason(kind)) ?? null;

/** The session's folder: the one test/helpers/session.js made for this `npm test`, else one of this process's own. */
let ownSession = null;
function sessionDir() {
  if (process.env.CLASSICS_TEST_SESSION) return process.env.CLASSICS_TEST_SESSION;
  if (!ownSession) {
    ownSession = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-test-session-'));
    process.on('exit', () => fs.rmSync(ownSession, { recursive: true, force: true }));
  }
  return ownSession;
}

const keyOf = (kind, clientPath) => `${kind.replace(/[^\w.-]/g, '_')}-${clientPath}`;
const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

/** Makes one fixture run into dir (its results folder dir/out) and marks it done. */
async function make(dir, kind, clientPath) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'out');
  const tag = newTag();
  const args = ['--server', kind, ...FIXTURE_ARGS, ...PATHS[clientPath], '--out', out];
  const started = Date.now();
  const { code, signal, stdout, stderr } = await invokeOrchestrate(args, { env: tag });
  const done = { kind, clientPath, args, code, signal, stdout, stderr, tag, seconds: (Date.now() - started) / 1000 };
  fs.writeFileSync(path.join(dir, 'done.json.tmp'), JSON.stringify(done));
  fs.renameSync(path.join(dir, 'done.json.tmp'), path.join(dir, 'done.json'));
}

const doneOf = (dir) => (fs.existsSync(path.join(dir, 'done.json')) ? JSON.parse(fs.readFileSync(path.join(dir, 'done.json'), 'utf8')) : null);

/**
 * Makes (or waits for) every fixture of `wanted` ([{ kind, clientPath }]): those no process has
 * started are made here, one after the other, before waiting for those another process is making.
 */
async function ensure(wanted, { waitMs = FIXTURE_WAIT_MS } = {}) {
  const session = sessionDir();
  const pending = wanted.map((w) => ({ ...w, dir: path.join(session, keyOf(w.kind, w.clientPath)) }));
  let waitingSince = null;
  for (;;) {
    const open = pending.filter((w) => !doneOf(w.dir));
    if (!open.length) return;
    let madeOne = false;
    let holder = null;
    for (const w of open) {
      const lockFile = `${w.dir}.lock`;
      const got = tryLock(lockFile, `making the fixture run ${keyOf(w.kind, w.clientPath)}`);
      if (!got.mine) { holder ??= { lockFile, ...got.holder }; continue; }
      try {
        if (!doneOf(w.dir)) await make(w.dir, w.kind, w.clientPath);
      } finally {
        unlock(lockFile);
      }
      madeOne = true;
    }
    if (madeOne) { waitingSince = null; continue; }
    waitingSince ??= Date.now();
    if (Date.now() - waitingSince >= waitMs) throw new LockTimeoutError(holder.lockFile, describeHolder(holder), waitMs);
    await sleep(250);
  }
}

/** One fixture run, read: { out, code, stdout, stderr, tag, args, seconds, run (readRun), summary }. */
const memo = new Map();
async function fixtureRun(kind, clientPath = 'kit') {
  const dir = path.join(sessionDir(), keyOf(kind, clientPath));
  if (!memo.has(dir)) {
    await ensure([{ kind, clientPath }]);
    const done = doneOf(dir);
    const out = path.join(dir, 'out');
    const summaryFile = path.join(out, 'summary.md');
    memo.set(dir, {
      ...done,
      out,
      run: fs.existsSync(path.join(out, 'results.jsonl')) ? readRun(out) : null,
      summary: fs.existsSync(summaryFile) ? fs.readFileSync(summaryFile, 'utf8') : '',
    });
  }
  return memo.get(dir);
}

/** The fixtures a suite will read, made or waited for together (the first before hook calls this). */
function prepareFixtures(kinds, { parity = true } = {}) {
  const available = kinds.filter((kind) => !unavailableReason(kind));
  const wanted = available.map((kind) => ({ kind, clientPath: 'kit' }));
  const onParity = parityKind();
  if (parity && onParity && available.includes(onParity)) wanted.push(...['mongosh', 'lean-off'].map((clientPath) => ({ kind: onParity, clientPath })));
  // what this process can make is made first, in the order asked; the rest is waited for
  return ensure(wanted);
}

/**
 * A run's records of one scenario: every array of readRun's narrowed to the records of that
 * scenario (records that name none, such as a server's, are kept where that server ran the scenario).
 */
function scenarioView(run, name) {
  const own = (r) => r.scenario === undefined || r.scenario === name;
  const servers = new Set(run.records.filter((r) => r.scenario === name && r.server).map((r) => r.server));
  const view = { ...run };
  for (const [key, value] of Object.entries(run)) {
    if (Array.isArray(value) && value.every((r) => r && typeof r === 'object')) view[key] = value.filter(own);
  }
  view.servers = run.servers.filter((s) => servers.has(s.server));
  view.failures = run.failures.filter((f) => f.scenario === name);
  return view;
}

module.exports = { fixtureRun, prepareFixtures, scenarioView, parityKind, SMOKE_SEED, FIXTURE_ARGS, PARITY_KINDS };
