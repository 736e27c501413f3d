'use strict';
// The mongod launcher, run for real: the kit's CLI, mongodb-memory-server's spawn, version check,
// readiness wait, stop and kill, through MONGOMS_SYSTEM_BINARY. Here that is the stand-in
// (test/fixtures/mongod-stand-in: FerretDB behind a mongod's --version, never mongod's numbers),
// whose knobs also make a binary of another version, one that never becomes ready, one that fails
// at once, and an old server. Where MONGOMS_SYSTEM_BINARY names a real mongod, the tests that need
// no knob run again on it ("... on mongod", part of npm run test:mongod).
//
// Every run gets its own TMPDIR, so "no folder left" means that folder is empty afterwards, and
// a tag in its environment, so "no process left" means no live process carries the tag.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const http = require('node:http');
const { spawn, execFileSync } = require('node:child_process');
const { invokeOrchestrate } = require('../helpers/cli');
const { fixture, invokeOnFixture } = require('../helpers/fixture');
const { readRun } = require('../../orchestrator/results/reader');
const { waitFor } = require('../helpers/wait');
const { newTag, processesWithTag } = require('../helpers/processes');
const { STAND_IN, notMongodReason, skipUnless, unavailableReason, config } = require('../helpers/servers');
const { skip } = require('../helpers/skips');
const { freePort } = require('../../orchestrator/servers/net');
const { binaryVersion } = require('../../orchestrator/servers/mongod');

/** A private TMPDIR, an --out folder and a tag for one invocation, and the clean-up after it. */
function sandbox(env = {}) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-launcher-test-'));
  const tmp = path.join(base, 'tmp');
  fs.mkdirSync(tmp);
  // as root the kit runs PostgreSQL (embedded's fallback) as the postgres user, who must get through
  fs.chmodSync(base, 0o755);
  fs.chmodSync(tmp, 0o755);
  const tag = newTag();
  return {
    base,
    tmp,
    out: path.join(base, 'out'),
    tag,
    env: { ...tag, TMPDIR: tmp, ...env },
    /** Waits for every tagged process to be gone (MMS's killer and the stand-in's watcher take a moment). */
    async leftovers(ms = 8000) {
      await waitFor(() => processesWithTag(tag).length === 0, ms).catch(() => {});
      return processesWithTag(tag);
    },
    leftFolders: () => fs.readdirSync(tmp),
    cleanup() {
      for (const { pid } of processesWithTag(tag)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * embedded's line when no mongod starts: FerretDB 2 on DocumentDB where ferretdb2 is installed,
 * else FerretDB 1.24 on PostgreSQL or SQLite, saying why not ferretdb2.
 */
const EMBEDDED_FALLBACK = unavailableReason('ferretdb2')
  ? '^embedded: FerretDB on (PostgreSQL [^,]+|SQLite)'
  : '^embedded: FerretDB v2\\S* on PostgreSQL .+ with DocumentDB [^,]+';
/** The stand-in's backend for the one test of the server the launcher started: ferretdb2's where it can run. */
const BACKEND_TEST = { MONGOD_STAND_IN_BACKEND: 'auto' };
const FERRETDB2_WHY = unavailableReason('ferretdb2') ? '; ferretdb2 is not here \\(.+\\)' : '';

/**
 * The environment that makes the stand-in mongod's binary, with its knobs. It serves FerretDB 1.24
 * on SQLite, which starts in milliseconds, unless a test asks for its backend by name: FerretDB 2
 * on DocumentDB starts a chroot PostgreSQL and creates its extension at each start, and only the
 * test of what the launcher records of the server it started asks for it (BACKEND_TEST).
 */
function standInEnv(knobs = {}) {
  return {
    MONGOMS_SYSTEM_BINARY: STAND_IN,
    MONGOD_STAND_IN_BACKEND: 'sqlite',
    MONGOD_STAND_IN_MODE: 'serve',
    MONGOD_STAND_IN_VERSION: '',
    MONGOD_STAND_IN_WIRE_VERSION: '',
    MONGOD_STAND_IN_BUILD_VERSION: '',
    ...knobs,
  };
}

/**
 * The archive a slow mirror serves, named as MONGOMS_ARCHIVE_NAME gives it to mongodb-memory-server,
 * which reads the version from the name (DryMongoBinary.parseArchiveNameRegex): its default one.
 */
const ARCHIVE = `mongodb-linux-x86_64-debian12-${require('mongodb-memory-server-core/lib/util/resolveConfig').DEFAULT_VERSION}.tgz`;

/**
 * A download mirror for mongodb-memory-server on 127.0.0.1 (MONGOMS_DOWNLOAD_MIRROR): it serves,
 * in 20 pieces over `seconds`, a tarball that holds the stand-in as bin/mongod (with the
 * Content-Length MMS requires), and the tarball's .md5 that MMS checks it against.
 */
async function slowMirror(base, { seconds }) {
  const top = path.join(base, 'mirror', ARCHIVE.replace(/\.tgz$/, ''));
  fs.mkdirSync(path.join(top, 'bin'), { recursive: true });
  fs.copyFileSync(STAND_IN, path.join(top, 'bin', 'mongod'));
  fs.chmodSync(path.join(top, 'bin', 'mongod'), 0o755);
  const archive = path.join(base, 'mirror', ARCHIVE);
  execFileSync('tar', ['czf', archive, '-C', path.dirname(top), path.basename(top)]);
  const body = fs.readFileSync(archive);
  const md5 = `${crypto.createHash('md5').update(body).digest('hex')}  ${ARCHIVE}\n`;
  const served = { requests: [], finished: 0, cut: 0 };
  const server = http.createServer((req, res) => {
    served.requests.push(req.url);
    if (req.url.endsWith(`/${ARCHIVE}.md5`)) return res.end(md5);
    if (!req.url.endsWith(`/${ARCHIVE}`)) { res.statusCode = 404; return res.end(); }
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length });
    const pieces = 20;
    let sent = 0;
    const timer = setInterval(() => {
      const next = Math.ceil(body.length * (sent + 1) / pieces);
      res.write(body.subarray(Math.ceil(body.length * sent / pieces), next));
      sent += 1;
      if (sent === pieces) { clearInterval(timer); res.end(); served.finished += 1; }
    }, (seconds * 1000) / pieces);
    res.on('close', () => { if (sent < pieces) { clearInterval(timer); served.cut += 1; } });
    return undefined;
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    served,
    env: {
      MONGOMS_SYSTEM_BINARY: '',
      MONGOMS_DOWNLOAD_MIRROR: `http://127.0.0.1:${server.address().port}`,
      MONGOMS_USE_HTTP: 'true',
      MONGOMS_ARCHIVE_NAME: ARCHIVE,
      MONGOMS_DOWNLOAD_DIR: path.join(base, 'downloads'),
      // the stand-in runs from the download folder: it finds FerretDB here
      CLASSICS_FERRETDB_BIN: config.ferretdbBin,
      MONGOD_STAND_IN_MODE: 'serve',
      MONGOD_STAND_IN_VERSION: '',
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** The lines a command wrote to stderr, without npm's or Node's own noise. */
function errorLines(result) {
  return result.stderr.split('\n').filter((l) => l.trim() && !/^npm warn/.test(l));
}

/** Every line but the one the kit writes when the test's Ctrl-C stops it. */
const notTheCtrlC = (line) => !/^SIGINT: stopping the servers/.test(line);

/** The parent of a process, or null once it is gone. */
function parentOf(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
  } catch {
    return null;
  }
}

/**
 * The server process mongodb-memory-server spawned (mongod, or the stand-in): the kit's child
 * that holds the kit's folder on its command line.
 */
function serverProcesses(seen, tmp) {
  return seen.filter((p) => p.parent === p.kit && p.cmd.includes(`${tmp}/classics-mongod-`));
}

/** Whether a process is still there (a zombie has exited). */
function alive(pid) {
  try {
    return !/State:\s+Z/.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** Resolves true once ready() holds, false if the child exits first or timeoutMs passes. */
function whileRunning(child, ready, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const tick = () => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(false);
      if (ready()) return resolve(true);
      if (Date.now() > deadline) return resolve(false);
      return setTimeout(tick, 100);
    };
    tick();
  });
}

/**
 * Runs `orchestrate serve SPEC` in the sandbox until it prints its server's URI, then presses
 * Ctrl-C; whenServing({ ms }) sees it serving first (ms: since it was started).
 */
function serveThenCtrlC(spec, box, { whenServing = () => {}, timeoutMs = 60000 } = {}) {
  let stdout = '';
  const started = Date.now();
  return invokeOrchestrate(['serve', spec, '--out', box.out], {
    env: box.env,
    onSpawn: (child) => {
      child.stdout.on('data', (d) => { stdout += d; });
      whileRunning(child, () => / at mongodb:\/\//.test(stdout), timeoutMs).then((ok) => {
        if (ok) whenServing({ ms: Date.now() - started });
        child.kill('SIGINT');
      });
    },
  });
}

/** Sends `signals` to the child (50 ms apart) once ready() holds; the tagged processes of that moment go to `seen`. */
function signalWhen(child, ready, { tag, signals, seen, timeoutMs = 60000 }) {
  whileRunning(child, ready, timeoutMs).then((ok) => {
    if (!ok) return child.kill('SIGKILL');
    seen.push(...processesWithTag(tag).map((p) => ({ ...p, parent: parentOf(p.pid), kit: child.pid })));
    return signals.forEach((signal, i) => setTimeout(() => child.kill(signal), i * 50));
  });
}

/** Snapshots the tagged processes into `seen` once ready() holds, while the child runs. */
function snapshotWhen(child, ready, { tag, seen, timeoutMs = 60000 }) {
  whileRunning(child, ready, timeoutMs).then((ok) => { if (ok) seen.push(...processesWithTag(tag)); });
}

/**
 * The tests that need no knob, for a binary: the stand-in (`label` names it) or a real mongod.
 * `asked` is the version the binary is; `env` makes it MONGOMS_SYSTEM_BINARY.
 */
function launcherTests({ binary, version, env, real }) {
  // the version is read when the tests run (a real binary's is asked of it, once it is there); the
  // titles name it where it is known as they are made
  const known = (() => { try { return version(); } catch { return null; } })();
  let asked;
  let other;
  before(() => {
    asked = version();
    other = `${asked.split('.')[0]}.${asked.split('.')[1]}.${Number(asked.split('.')[2]) + 1000}`;
  });

  it(`refuses mongod@${known ? `${known.replace(/\.\d+$/, '')}.X` : 'VERSION'} other than the binary's, in one line naming both versions, before anything starts`, async () => {
    const box = sandbox(env());
    try {
      const result = await invokeOnFixture([fixture.name, '--server', `mongod@${other}`, '--size', 'smoke', '--out', box.out], { env: box.env });
      assert.equal(result.code, 2, result.stderr);
      assert.deepEqual(errorLines(result), [
        `UsageError: server 'mongod@${other}': mongod@${other} was asked for, but MONGOMS_SYSTEM_BINARY=${binary()} is mongod ${asked}: give mongod@${asked}, or point MONGOMS_SYSTEM_BINARY at a mongod ${other}`,
      ]);
      assert.ok(!fs.existsSync(box.out), 'no run folder was made');
      assert.deepEqual(await box.leftovers(), []);
    } finally { box.cleanup(); }
  });

  it(`accepts mongod@${known ?? 'VERSION'}:zstd, the binary's own, runs the fixture scenario, keeps mongod's log under logs/ and leaves nothing behind`, async () => {
    // the one test on the stand-in's closest backend (FerretDB 2 on DocumentDB, where this machine has it)
    const box = sandbox(env(BACKEND_TEST));
    const seen = [];
    try {
      const results = path.join(box.out, 'results.jsonl');
      const result = await invokeOnFixture(
        [fixture.name, '--server', `mongod@${asked}:zstd`, '--size', 'smoke', '--passes', '1', '--no-calibrate', '--no-baseline', '--out', box.out],
        { env: box.env, onSpawn: (child) => snapshotWhen(child, () => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"type":"server"'), { tag: box.tag, seen }) },
      );
      assert.equal(result.code, 0, result.stderr);
      const run = readRun(box.out);
      assert.deepEqual(run.failures, []);
      const [server] = run.servers;
      // the handshake's maxWireVersion, a number the driver checks (never the version string)
      assert.ok(Number.isInteger(server.wireVersion) && server.wireVersion >= 9, `wireVersion ${JSON.stringify(server.wireVersion)}`);
      if (real) {
        assert.equal(server.product, 'MongoDB');
        assert.equal(server.version, asked);
        assert.equal(server.description, `mongod ${asked} with zstd block compression`);
        assert.equal(server.engine, 'wiredTiger');
      } else {
        // FerretDB behind the stand-in is never presented as mongod
        assert.equal(server.product, 'FerretDB');
        assert.match(server.description, /^FerretDB v[\d.]+ behind .*mongod-stand-in, which says it is mongod 7\.0\.14 but is not a mongod$/);
        assert.match(result.stdout, new RegExp(`^mongod@${asked}:zstd: FerretDB v[\\d.]+$`, 'm'));
        assert.doesNotMatch(fs.readFileSync(path.join(box.out, 'summary.md'), 'utf8'), /MongoDB 7\.0\.14/);
      }
      const log = fs.readFileSync(path.join(box.out, 'logs', `mongod_${asked}_zstd-mongod.log`), 'utf8');
      assert.match(log, /"msg":"Waiting for connections"/);
      if (!real) assert.match(log, /"ignoredArgs":\[[^\]]*"--wiredTigerCollectionBlockCompressor","zstd"/);
      assert.ok(seen.some((p) => p.cmd.includes(`${box.tmp}/classics-mongod-`)), `mongod ran over a folder of the kit's: ${JSON.stringify(seen)}`);
      assert.ok(seen.some((p) => /mongo_killer\.js/.test(p.cmd)), 'mongodb-memory-server\'s killer ran beside it');
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('Ctrl-C on `serve mongod` stops it and removes its folder', async () => {
    const box = sandbox(env());
    const seen = [];
    try {
      let stdout = '';
      const result = await invokeOrchestrate(['serve', 'mongod', '--out', box.out], {
        env: box.env,
        onSpawn: (child) => {
          child.stdout.on('data', (d) => { stdout += d; });
          signalWhen(child, () => / at mongodb:\/\/127\.0\.0\.1:\d+\//.test(stdout), { tag: box.tag, signals: ['SIGINT'], seen });
        },
      });
      assert.equal(result.code, 130, result.stderr);
      assert.match(result.stdout, real ? new RegExp(`^mongod: mongod ${asked} at mongodb://`, 'm') : /^mongod: FerretDB v[\d.]+ behind .* is not a mongod at mongodb:\/\//m);
      assert.ok(seen.some((p) => p.cmd.includes(`${box.tmp}/classics-mongod-`)), 'mongod was running');
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('two Ctrl-Cs in the middle of a run leave no process and no folder', async () => {
    const box = sandbox(env());
    const seen = [];
    try {
      const results = path.join(box.out, 'results.jsonl');
      const result = await invokeOnFixture(
        [fixture.name, '--server', 'mongod', '--size', 'smoke', '--passes', '20', '--no-calibrate', '--no-baseline', '--out', box.out],
        {
          env: box.env,
          onSpawn: (child) => signalWhen(child, () => fs.existsSync(results) && fs.readFileSync(results, 'utf8').includes('"step":"pass"'),
            { tag: box.tag, signals: ['SIGINT', 'SIGINT'], seen }),
        },
      );
      const stillThere = serverProcesses(seen, box.tmp).filter((p) => alive(p.pid));
      assert.equal(result.code, 130, result.stderr);
      assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
      assert.deepEqual(readRun(box.out).problems, []);
      assert.ok(serverProcesses(seen, box.tmp).length > 0, `mongod was running: ${JSON.stringify(seen)}`);
      assert.deepEqual(stillThere, [], 'the second Ctrl-C killed mongod before the kit exited');
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });
}

describe('the mongod launcher, through the stand-in binary (FerretDB behind a mongod\'s --version)', function () {
  this.timeout(90000);

  before(function () {
    skipUnless(this, 'ferretdb'); // the stand-in serves FerretDB
  });

  describe('what a real mongod would do too', () => {
    launcherTests({ binary: () => STAND_IN, version: () => '7.0.14', env: (extra) => standInEnv({ MONGOD_STAND_IN_VERSION: '7.0.14', ...extra }), real: false });
  });

  it('refuses a server whose buildInfo is not the version asked for, and stops it', async () => {
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'handshake', MONGOD_STAND_IN_WIRE_VERSION: '21', MONGOD_STAND_IN_BUILD_VERSION: '8.0.1' }));
    try {
      const result = await invokeOrchestrate(['serve', 'mongod@8.2.6', '--out', box.out], { env: box.env });
      assert.equal(result.code, 1, result.stderr);
      const lines = errorLines(result);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0], /^ServerStartError: no mongod could be started: mongod@8\.2\.6 was asked for, but the server .*mongod-stand-in started is mongod 8\.0\.1: give mongod@8\.0\.1, or point MONGOMS_SYSTEM_BINARY at a mongod 8\.2\.6; see /);
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('stops a start that never becomes ready, in one line, and leaves no process and no folder', async () => {
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'never-ready', CLASSICS_MONGOD_START_TIMEOUT_MS: '4000' }));
    const seen = [];
    try {
      const result = await invokeOrchestrate(['serve', 'mongod', '--out', box.out], {
        env: box.env,
        onSpawn: (child) => snapshotWhen(child, () => processesWithTag(box.tag).some((p) => /ferretdb --listen-addr/.test(p.cmd)), { tag: box.tag, seen, timeoutMs: 20000 }),
      });
      assert.equal(result.code, 1, result.stderr);
      const lines = errorLines(result);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0], /^ServerStartError: no mongod could be started: mongod did not say "Waiting for connections" within [34] s; see .*mongod-mongod\.log$/);
      assert.ok(seen.some((p) => p.cmd.includes(`${box.tmp}/classics-mongod-`)), `FerretDB was running behind the stand-in: ${JSON.stringify(seen)}`);
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('two Ctrl-Cs while mongod starts kill it before the kit exits, and leave no process and no folder', async () => {
    // a mongod slow to stop, as one checkpointing a large cache is: the second Ctrl-C must not wait for it
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'never-ready', MONGOD_STAND_IN_STOP_DELAY: '5' }));
    const seen = [];
    try {
      const result = await invokeOrchestrate(['serve', 'mongod', '--out', box.out], {
        env: box.env,
        onSpawn: (child) => signalWhen(child, () => processesWithTag(box.tag).some((p) => /ferretdb --listen-addr/.test(p.cmd)),
          { tag: box.tag, signals: ['SIGINT', 'SIGINT'], seen, timeoutMs: 20000 }),
      });
      const stillThere = serverProcesses(seen, box.tmp).filter((p) => alive(p.pid));
      assert.equal(result.code, 130, result.stderr);
      assert.ok(serverProcesses(seen, box.tmp).length > 0, `the starting server was running: ${JSON.stringify(seen)}`);
      assert.deepEqual(stillThere, [], 'not left to mongodb-memory-server\'s killer, which looks every 2 s');
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('one Ctrl-C lets a mongod slow to stop finish (past mongodb-memory-server\'s 10 s), without a warning', async () => {
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_STOP_DELAY: '11' }));
    let signalled = null;
    try {
      let stdout = '';
      const result = await invokeOrchestrate(['serve', 'mongod', '--out', box.out], {
        env: box.env,
        onSpawn: (child) => {
          child.stdout.on('data', (d) => { stdout += d; });
          whileRunning(child, () => / at mongodb:\/\//.test(stdout)).then((ok) => { signalled = Date.now(); child.kill(ok ? 'SIGINT' : 'SIGKILL'); });
        },
      });
      const took = Date.now() - signalled;
      assert.equal(result.code, 130, result.stderr);
      assert.ok(took >= 11000, `the kit waited for mongod to stop (${took} ms), where mongodb-memory-server alone kills it at 10 s`);
      assert.doesNotMatch(result.stderr, /SIGKILL/);
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('embedded, when mongod never becomes ready, stops it and removes its folder before falling back, and says why', async () => {
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'never-ready', CLASSICS_MONGOD_START_TIMEOUT_MS: '4000' }));
    const during = {};
    try {
      const result = await serveThenCtrlC('embedded', box, { whenServing: () => Object.assign(during, { processes: processesWithTag(box.tag), folders: box.leftFolders() }) });
      assert.equal(result.code, 130, result.stderr);
      assert.match(result.stdout, new RegExp(`${EMBEDDED_FALLBACK}, because no mongod could be started \\(mongod did not say "Waiting for connections" within [34] s\\)${FERRETDB2_WHY}$`, 'm'));
      assert.ok(during.processes, 'the fallback served');
      assert.deepEqual(during.processes.filter((p) => p.cmd.includes('classics-mongod-') || /mongo_killer/.test(p.cmd)), [], 'no mongod left while the run goes on');
      assert.deepEqual(during.folders.filter((f) => f.startsWith('classics-mongod-')), [], 'no mongod folder left while the run goes on');
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('embedded falls back to FerretDB with one line saying why when the binary fails at once', async () => {
    const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'fail' }));
    try {
      let stdout = '';
      const result = await invokeOrchestrate(['serve', 'embedded', '--out', box.out], {
        env: box.env,
        onSpawn: (child) => {
          child.stdout.on('data', (d) => { stdout += d; });
          signalWhen(child, () => / at mongodb:\/\//.test(stdout), { tag: box.tag, signals: ['SIGINT'], seen: [] });
        },
      });
      assert.equal(result.code, 130, result.stderr);
      assert.doesNotMatch(result.stderr, /SyntaxError|^\s+at /m, 'mongod\'s two lines in one read did not bring the kit down');
      assert.match(result.stdout, new RegExp(`${EMBEDDED_FALLBACK}, because no mongod could be started \\(mongod failed to start \\(DBException in initAndListen, terminating\\): StandInFailure: asked to fail by MONGOD_STAND_IN_MODE=fail\\)${FERRETDB2_WHY}$`, 'm'));
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  describe('mongod-rs, a replica set of one member (FerretDB behind the stand-in cannot be one)', () => {
    const glibcRseq = (() => {
      const g = String(require('../../orchestrator/servers/deployment').runtimeGlibc() || '').split('.').map(Number);
      return g[0] > 2 || (g[0] === 2 && g[1] >= 35);
    })();

    it('starts mongod with --replSet (and GLIBC_TUNABLES for mongod 8 on glibc 2.35+), refuses FerretDB\'s refusal of replSetInitiate in one line, and leaves nothing behind', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_BACKEND: 'sqlite' }));
      try {
        const result = await invokeOrchestrate(['serve', 'mongod-rs', '--out', box.out], { env: box.env });
        assert.equal(result.code, 1, result.stderr);
        const lines = errorLines(result);
        assert.equal(lines.length, 1, result.stderr);
        assert.match(lines[0], /^ServerStartError: no mongod could be started: FerretDB v[\d.]+ behind .*mongod-stand-in \(not a mongod\) did not become a replica set: replSetInitiate was refused \(.*replSetInitiate.*\); see /);
        const log = fs.readFileSync(path.join(box.out, 'logs', 'mongod-rs-mongod.log'), 'utf8');
        assert.match(log, /"ignoredArgs":\["--replSet","classics-rs"/);
        assert.match(log, glibcRseq ? /"glibcTunables":"glibc\.pthread\.rseq=0"/ : /"glibcTunables":""/);
        assert.equal(process.env.GLIBC_TUNABLES, undefined, 'the kit\'s own environment is untouched');
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally { box.cleanup(); }
    });

    it('leaves mongod 7.0 without GLIBC_TUNABLES (its allocator does not use rseq)', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_VERSION: '7.0.14', MONGOD_STAND_IN_BACKEND: 'sqlite' }));
      try {
        const result = await invokeOrchestrate(['serve', 'mongod-rs@7.0.14', '--out', box.out], { env: box.env });
        assert.equal(result.code, 1, result.stderr);
        assert.match(fs.readFileSync(path.join(box.out, 'logs', 'mongod-rs_7.0.14-mongod.log'), 'utf8'), /"glibcTunables":""/);
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally { box.cleanup(); }
    });

    it('--server mongod --server mongod-rs starts both, each on its own port: the standalone runs and says so, the replica set\'s failure is recorded and the run goes on', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_BACKEND: 'sqlite' }));
      try {
        const result = await invokeOnFixture(
          [fixture.name, '--server', 'mongod', '--server', 'mongod-rs', '--size', 'smoke', '--passes', '1', '--no-calibrate', '--no-baseline', '--out', box.out],
          { env: box.env },
        );
        assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack trace');
        const run = readRun(box.out);
        assert.deepEqual(run.servers.map((s) => [s.server, s.topology]), [['mongod', 'standalone']]);
        assert.deepEqual(run.failures.map((f) => [f.server, f.step]), [['mongod-rs', 'start']]);
        assert.match(run.failures[0].error, /did not become a replica set: replSetInitiate was refused/);
        assert.ok(run.measurements.some((m) => m.server === 'mongod'), 'the standalone measured');
        assert.match(fs.readFileSync(path.join(box.out, 'summary.md'), 'utf8'), /mongod-rs.*did not become a replica set/);
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally { box.cleanup(); }
    });
  });

  describe('a mongod that must be downloaded (a slow mirror on 127.0.0.1 serving the stand-in)', () => {
    const { DEFAULT_VERSION } = require('mongodb-memory-server-core/lib/util/resolveConfig');

    it('shows the download as one line of progress on stderr, nothing of mongodb-memory-server\'s on stdout, and gives the start its whole budget after it', async () => {
      const box = sandbox();
      const mirror = await slowMirror(box.base, { seconds: 2 });
      // under one deadline for both (the old 8 s), a download of 2-3 s would leave a start that
      // takes 8 s no more than 5-6 s; with a budget each, the start has its own 30 s
      Object.assign(box.env, mirror.env, { CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS: '8000', CLASSICS_MONGOD_START_TIMEOUT_MS: '30000', MONGOD_STAND_IN_READY_DELAY: '8' });
      let ready = null;
      try {
        const result = await serveThenCtrlC('mongod', box, { whenServing: ({ ms }) => { ready = ms; }, timeoutMs: 90000 });
        assert.equal(result.code, 130, result.stderr);
        assert.deepEqual(errorLines(result).filter(notTheCtrlC).map((l) => l.replace(/in [\d.]+ s$/, 'in N s')), [`mongod · downloading mongod ${DEFAULT_VERSION} · done in N s`]);
        assert.doesNotMatch(result.stdout + result.stderr, /Downloading MongoDB/, 'mongodb-memory-server printed nothing of its own');
        assert.match(result.stdout, new RegExp(`^mongod: FerretDB v[\\d.]+ behind ${box.base}/downloads/\\S+, which says it is mongod ${DEFAULT_VERSION.replace(/\./g, '\\.')} but is not a mongod at mongodb://`, 'm'));
        assert.deepEqual(mirror.served.requests, [`/linux/${ARCHIVE}`, `/linux/${ARCHIVE}.md5`]);
        assert.equal(mirror.served.finished, 1);
        // the stand-in took 8 s to be ready after a download of 2-3 s: under one deadline of 8 s for
        // both, it would have been stopped
        assert.ok(ready > 8000, `ready ${ready} ms after the run began`);
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally {
        await mirror.close();
        box.cleanup();
      }
    });

    it('stops a download past its own budget, leaves nothing of it running, and embedded falls back saying why', async () => {
      const box = sandbox();
      const mirror = await slowMirror(box.base, { seconds: 20 });
      Object.assign(box.env, mirror.env, { CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS: '2000' });
      const during = {};
      try {
        const result = await serveThenCtrlC('embedded', box, { whenServing: () => { during.processes = processesWithTag(box.tag); } });
        assert.equal(result.code, 130, result.stderr);
        assert.match(result.stdout, new RegExp(`${EMBEDDED_FALLBACK}, because no mongod could be started \\(downloading mongod ${DEFAULT_VERSION.replace(/\./g, '\\.')} took longer than its 2 s \\(CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS\\)\\)${FERRETDB2_WHY}$`, 'm'));
        assert.deepEqual(errorLines(result).filter(notTheCtrlC).map((l) => l.replace(/in [\d.]+ s$/, 'in N s')), [`embedded · downloading mongod ${DEFAULT_VERSION} · stopped at its 2 s budget in N s`]);
        assert.doesNotMatch(result.stdout + result.stderr, /Downloading MongoDB/);
        assert.ok(during.processes, 'the fallback served');
        assert.deepEqual(during.processes.filter((p) => /mongod-download\.js/.test(p.cmd)), [], 'no download goes on behind the fallback');
        await waitFor(() => mirror.served.cut === 1, 5000).catch(() => {});
        assert.deepEqual([mirror.served.cut, mirror.served.finished], [1, 0], 'the mirror saw the download stop');
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally {
        await mirror.close();
        box.cleanup();
      }
    });
  });

  describe('servers older than the driver takes (4.4)', () => {
    it('refuses mongod@4.0.28, and a binary that is 4.0, before anything starts', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_VERSION: '4.0.28' }));
      try {
        const spec = await invokeOnFixture([fixture.name, '--server', 'mongod@4.0.28', '--out', box.out], { env: box.env });
        assert.equal(spec.code, 2);
        assert.deepEqual(errorLines(spec), [`UsageError: server spec 'mongod@4.0.28' asks for MongoDB 4.0.28: the kit needs MongoDB 4.4 or later, because the Node.js driver it and mongosh use (mongodb ${require('mongodb/package.json').version}) refuses servers older than 4.4 (wire version below 9)`]);
        const binary = await invokeOnFixture([fixture.name, '--server', 'mongod', '--out', box.out], { env: box.env });
        assert.equal(binary.code, 2);
        assert.deepEqual(errorLines(binary), [`UsageError: server 'mongod': MONGOMS_SYSTEM_BINARY=${STAND_IN} is MongoDB 4.0.28; the kit needs MongoDB 4.4 or later, because the Node.js driver it and mongosh use (mongodb ${require('mongodb/package.json').version}) refuses servers older than 4.4 (wire version below 9)`]);
        assert.ok(!fs.existsSync(box.out));
        assert.deepEqual(await box.leftovers(), []);
      } finally { box.cleanup(); }
    });

    it('refuses a 4.0 server given by URI, in one line: its version, the floor and why, exit 2', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'handshake', MONGOD_STAND_IN_WIRE_VERSION: '7' }));
      let old;
      try {
        const port = await freePort();
        fs.mkdirSync(path.join(box.base, 'old'));
        old = spawn(STAND_IN, ['--port', String(port), '--dbpath', path.join(box.base, 'old')], { env: { ...process.env, ...box.env }, stdio: ['ignore', 'pipe', 'inherit'] });
        let said = '';
        old.stdout.on('data', (d) => { said += d; });
        await waitFor(() => /Waiting for connections/.test(said), 10000);
        const result = await invokeOnFixture([fixture.name, '--server', `old=mongodb://127.0.0.1:${port}/`, '--yes', '--size', 'smoke', '--out', box.out], { env: box.env });
        assert.equal(result.code, 2, result.stderr);
        assert.deepEqual(errorLines(result), [`UsageError: server 'old' at mongodb://127.0.0.1:${port}/ is MongoDB 4.0 (wire version 7); the kit needs MongoDB 4.4 or later, because the Node.js driver it and mongosh use (mongodb ${require('mongodb/package.json').version}) refuses servers older than 4.4 (wire version below 9)`]);
      } finally {
        if (old) old.kill('SIGTERM');
        box.cleanup();
      }
    });

    it('stops a started mongod that the driver refuses, saying which MongoDB it is', async () => {
      const box = sandbox(standInEnv({ MONGOD_STAND_IN_MODE: 'handshake', MONGOD_STAND_IN_VERSION: '4.4.0', MONGOD_STAND_IN_WIRE_VERSION: '7' }));
      try {
        const result = await invokeOrchestrate(['serve', 'mongod', '--out', box.out], { env: box.env });
        assert.equal(result.code, 1, result.stderr);
        const lines = errorLines(result);
        assert.equal(lines.length, 1, result.stderr);
        assert.match(lines[0], /^ServerStartError: no mongod could be started: the mongod at .*mongod-stand-in is MongoDB 4\.0 \(wire version 7\); the kit needs MongoDB 4\.4 or later, because /);
        assert.deepEqual(await box.leftovers(), []);
        assert.deepEqual(box.leftFolders(), []);
      } finally { box.cleanup(); }
    });

    it('refuses a mongod@VERSION mongodb-memory-server has no build of for this system, before anything starts', async function () {
      const { DryMongoBinary } = require('mongodb-memory-server-core');
      const { MongoBinaryDownloadUrl } = require('mongodb-memory-server-core/lib/util/MongoBinaryDownloadUrl');
      const opts = await DryMongoBinary.generateOptions({ version: '6.0.14' });
      const missing = await new MongoBinaryDownloadUrl(opts).getDownloadUrl().then(() => null, (err) => err);
      if (!missing) {
        skip(this, 'mongodb-memory-server has a build of mongod 6.0.14 here', 'the refusal needs a version it has none of');
      }
      const box = sandbox({ MONGOMS_SYSTEM_BINARY: '' });
      try {
        const result = await invokeOnFixture([fixture.name, '--server', 'mongod@6.0.14', '--out', box.out], { env: box.env });
        assert.equal(result.code, 2, result.stderr);
        assert.deepEqual(errorLines(result), [`UsageError: server 'mongod@6.0.14': mongodb-memory-server has no mongod 6.0.14 for ${missing.dist} (it has ${missing.available_versions}): set MONGOMS_SYSTEM_BINARY to a mongod 6.0.14`]);
      } finally { box.cleanup(); }
    });
  });
});

describe('the mongod launcher on mongod', function () {
  this.timeout(180000);
  const bin = process.env.MONGOMS_SYSTEM_BINARY;
  before(function () { skipUnless(this, 'mongod'); });
  // registered here too, so that each is listed as skipped, with the reason printed, where no real mongod is
  launcherTests({ binary: () => bin, version: () => binaryVersion(bin), env: (extra) => ({ MONGOMS_SYSTEM_BINARY: bin, ...extra }), real: true });
});

describe('the mongod-rs launcher on mongod (a replica set of one member beside the standalone)', function () {
  this.timeout(240000);
  const bin = process.env.MONGOMS_SYSTEM_BINARY;
  before(function () { skipUnless(this, 'mongod-rs'); });

  it('runs the fixture on --server mongod --server mongod-rs: each names its topology, the set its w:majority default and mongod\'s startup warnings, and nothing is left behind', async () => {
    const asked = binaryVersion(bin);
    const box = sandbox({ MONGOMS_SYSTEM_BINARY: bin });
    try {
      const result = await invokeOnFixture(
        [fixture.name, '--server', 'mongod', '--server', 'mongod-rs', '--size', 'smoke', '--passes', '1', '--no-calibrate', '--no-baseline', '--out', box.out],
        { env: box.env },
      );
      assert.equal(result.code, 0, result.stderr);
      const run = readRun(box.out);
      assert.deepEqual(run.failures, []);
      const byName = Object.fromEntries(run.servers.map((s) => [s.server, s]));
      assert.equal(byName.mongod.topology, 'standalone');
      assert.equal(byName['mongod-rs'].topology, 'replicaSet');
      assert.equal(byName['mongod-rs'].topologyText, 'replica set (1 member)');
      assert.equal(byName['mongod-rs'].replicaSet, 'classics-rs');
      assert.equal(byName['mongod-rs'].description, `mongod ${asked}, a replica set of one member`);
      if (Number(asked.split('.')[0]) >= 5) assert.equal(byName['mongod-rs'].defaultWriteConcern?.w, 'majority');
      for (const s of run.servers) assert.ok(Array.isArray(s.warnings) || s.warnings === undefined, JSON.stringify(s.warnings));
      assert.ok(run.measurements.some((m) => m.server === 'mongod-rs') && run.measurements.some((m) => m.server === 'mongod'));
      const summary = fs.readFileSync(path.join(box.out, 'summary.md'), 'utf8');
      assert.match(summary, /^- mongod-rs: replica set \(1 member\); a write that names no w gets w:majority/m);
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });

  it('serves a replica set whose URI names the set, and Ctrl-C stops it and removes its folder', async () => {
    const box = sandbox({ MONGOMS_SYSTEM_BINARY: bin });
    try {
      const result = await serveThenCtrlC('mongod-rs', box);
      assert.equal(result.code, 130, result.stderr);
      assert.match(result.stdout, /^mongod-rs: mongod [\d.]+, a replica set of one member at mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=classics-rs/m);
      assert.deepEqual(await box.leftovers(), []);
      assert.deepEqual(box.leftFolders(), []);
    } finally { box.cleanup(); }
  });
});
