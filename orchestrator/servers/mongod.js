'use strict';
// A real mongod through mongodb-memory-server (MMS) 11: the binary it downloads, or the one named
// by MONGOMS_SYSTEM_BINARY (which the library reads itself).
//
// The kit drives the library's MongoInstance (its binary lookup and --version check, its spawn,
// its wait for mongod's "Waiting for connections" line, its stop, and its killer process that
// stops mongod if the kit dies) rather than MongoMemoryServer, because MongoMemoryServer hides the
// mongod process until the start has finished and its stop() does nothing while a start is under
// way (MongoMemoryServer.stop returns early while `_instanceInfo` is unset, and `_instanceInfo` is
// set only after MongoInstance.create resolves). The kit needs the process from the moment it
// exists: to track it (a second Ctrl-C kills it before its folder is removed) and to stop it when
// a start takes too long.
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { spawn, spawnSync } = require('node:child_process');
const debug = require('debug')('classics:mongod');
const { ServerStartError } = require('../errors');
const { makeTempDir, trackChild, onCleanup, stopChild } = require('../processes');
const { VARIABLES } = require('../config');
const { freePort } = require('./net');
const { parseVersionOutput, isBelowFloor, tooOldLine, compatibilityLine, refusedAtOnce } = require('./versions');
const { allocatorEnvironment, runtimeGlibc } = require('./deployment');
const { startReplicaSet, REPLICA_SET_NAME } = require('./replica-set');

/**
 * The display a download reports to where the caller hands none (a test, the bench): nothing shown.
 * The run and `serve` hand theirs (run/progress.js), so the launcher knows no screen of its own.
 */
const NO_PROGRESS = Object.freeze({ startStep() {}, update() {}, endStep() {}, stop() {} });

/** The variable that sets a download's budget, named in the line that says it ran out. */
const DOWNLOAD_BUDGET = VARIABLES.find((v) => v.key === 'mongodDownloadTimeoutMs').name;

/** The process that downloads a mongod (mongodb-memory-server's download, in a process the kit can stop). */
const DOWNLOADER = path.join(__dirname, 'mongod-download.js');

/** How long a stopping mongod may take (a checkpoint of a large cache) before it is killed. */
const STOP_TIMEOUT_MS = 60000;

/** A ServerStartError for a mongod that could not be had; `reason` is the part a fallback quotes. */
function mongodStartError(reason, { logFile = null } = {}) {
  const err = new ServerStartError(`no mongod could be started: ${reason}${logFile ? `; see ${logFile}` : ''}`);
  err.reason = reason;
  return err;
}

/**
 * Runs fn with console.warn captured into `into` (and the debug log): the library warns on stderr
 * as it works ("Possible version conflict", a SIGKILL after 10 s...), which would land in the
 * middle of the kit's output. Captures may overlap (a stop still under way while the next server
 * starts): console.warn is the library's own again once the last one ends. (A download runs in a
 * process of its own, mongod-download.js, whose warnings come back as lines.)
 */
const capturing = new Set();
let consoleWarn = null;
async function capturingWarnings(into, fn) {
  if (!capturing.size) {
    consoleWarn = console.warn;
    console.warn = (...args) => {
      const line = args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ');
      debug('mongodb-memory-server warned: %s', line);
      for (const entry of capturing) entry.into.push(line);
    };
  }
  const entry = { into };
  capturing.add(entry);
  try {
    return await fn();
  } finally {
    capturing.delete(entry);
    if (!capturing.size) console.warn = consoleWarn;
  }
}

/** An error whose `reason` is the part of one line that says why no binary was had. */
function because(reason) {
  return Object.assign(new ServerStartError(reason), { reason });
}

const mb = (bytes) => Math.round(bytes / 1048576 * 10) / 10;

/**
 * Downloads and unpacks the mongod of binaryOpts in a process of its own (mongod-download.js),
 * within a budget of its own: past timeoutMs the process is stopped and nothing of the download
 * goes on. Its progress is one step of the kit's own display on stderr (a bar on a terminal; one
 * line when it ends). Resolves to the binary's path; rejects with a `reason`.
 */
function downloadMongod(binaryOpts, { timeoutMs, progress, label, version }) {
  return new Promise((resolve, reject) => {
    const seconds = Math.round(timeoutMs / 1000);
    const child = trackChild(spawn(process.execPath, [DOWNLOADER, JSON.stringify(binaryOpts)], { stdio: ['ignore', 'pipe', 'pipe'] }));
    progress.startStep(label, 1, { unit: 'MB' });
    let answer = null;
    let stderr = '';
    let settled = false;
    let unregister = () => {};
    const finish = (err, outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      unregister();
      progress.endStep(outcome);
      if (err) reject(err); else resolve(answer.path);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(because(`downloading mongod ${version} took longer than its ${seconds} s (${DOWNLOAD_BUDGET})`), `stopped at its ${seconds} s budget`);
    }, timeoutMs);
    // a Ctrl-C while it downloads ends the download with the run
    unregister = onCleanup(() => stopChild(child, 'SIGTERM', 2000));
    child.stderr.on('data', (d) => { stderr = `${stderr}${d}`.slice(-2000); });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let message;
      try { message = JSON.parse(line); } catch { return debug('download said: %s', line); }
      if (message.progress) progress.update(mb(message.progress.bytes), Math.max(mb(message.progress.total), mb(message.progress.bytes), 0.1));
      else if (message.warning) debug('mongodb-memory-server warned: %s', message.warning);
      else answer = message;
    });
    child.on('error', (err) => finish(because(`the download could not be started: ${err.message}`), 'FAILED'));
    child.on('close', (code, signal) => {
      if (answer?.path) return finish(null, 'done');
      const said = stderr.trim().split('\n').pop();
      return finish(because(answer?.error || `the download ended (${signal || `exit code ${code}`})${said ? `: ${said}` : ''}`), 'FAILED');
    });
  });
}

/**
 * The mongod binary for binaryOpts: MONGOMS_SYSTEM_BINARY's, or one mongodb-memory-server has
 * downloaded before, at once; otherwise downloaded within CLASSICS_MONGOD_DOWNLOAD_TIMEOUT_MS.
 */
async function mongodBinary(binaryOpts, { config, progress, name, warnings }) {
  const { DryMongoBinary } = require('mongodb-memory-server-core');
  const found = await capturingWarnings(warnings, async () => DryMongoBinary.locateBinary(await DryMongoBinary.generateOptions(binaryOpts)));
  if (found) return found;
  const { version } = DryMongoBinary.getEnsuredOptions(binaryOpts);
  return downloadMongod(binaryOpts, { timeoutMs: config.mongodDownloadTimeoutMs, progress, label: `${name} · downloading mongod ${version}`, version });
}

/** Rejects with `message` after ms; the promise itself goes on (the caller cleans up after it). */
function withTimeout(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new ServerStartError(message)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The version a mongod binary says it is (`mongod --version`, read as MMS's MongoBinary.getPath
 * reads it), or a ServerStartError saying why it cannot be run.
 */
function binaryVersion(bin, what = `MONGOMS_SYSTEM_BINARY=${bin}`) {
  try {
    fs.accessSync(bin, fs.constants.X_OK);
  } catch (err) {
    throw mongodStartError(`${what} ${err.code === 'ENOENT' ? 'does not exist' : 'cannot be run (not executable)'}`);
  }
  const out = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20000 });
  const version = parseVersionOutput(out.stdout);
  if (!version) {
    const said = `${out.stdout || ''}${out.stderr || ''}`.trim().split('\n')[0] || (out.error ? out.error.message : `exit code ${out.status}`);
    throw mongodStartError(`${what} does not answer --version as mongod does ("db version vX.Y.Z"): ${said}`);
  }
  return version;
}

/** The line that refuses a binary of another version than the spec asks for. */
function versionMismatch(asked, actual, where) {
  return `mongod@${asked} was asked for, but ${where} is mongod ${actual}: give mongod@${actual}, or point MONGOMS_SYSTEM_BINARY at a mongod ${asked}`;
}

/** The version of a binary, after refusing one older than 4.4 or other than the one asked for. */
function checkedVersion(bin, asked, what) {
  const actual = binaryVersion(bin, what);
  if (isBelowFloor(actual)) throw mongodStartError(tooOldLine(what, actual));
  if (asked && actual !== asked) throw mongodStartError(versionMismatch(asked, actual, what));
  return actual;
}

/**
 * What the kit can check before anything starts: the binary MONGOMS_SYSTEM_BINARY names (exists,
 * runs, is 4.4 or later, is the version a mongod@VERSION spec asks for), or, without one, that
 * MMS has a download for this system of the version asked for (or of its default version).
 * Throws a ServerStartError.
 */
async function checkMongodSpec({ version }, config) {
  if (config.mongodSystemBinary) {
    checkedVersion(config.mongodSystemBinary, version, `MONGOMS_SYSTEM_BINARY=${config.mongodSystemBinary}`);
    return;
  }
  const { DryMongoBinary } = require('mongodb-memory-server-core');
  const { MongoBinaryDownloadUrl } = require('mongodb-memory-server-core/lib/util/MongoBinaryDownloadUrl');
  await capturingWarnings([], async () => {
    const opts = await DryMongoBinary.generateOptions(version ? { version } : {});
    if (await DryMongoBinary.locateBinary(opts)) return; // downloaded before
    try {
      await new MongoBinaryDownloadUrl(opts).getDownloadUrl();
    } catch (err) {
      throw mongodStartError(reasonOf(err, version));
    }
  });
}

/**
 * The mongod `mongod` and `embedded` run where no version is named, read from the library at run
 * time (DryMongoBinary.getEnsuredOptions: MONGOMS_VERSION, else mongodb-memory-server-core's own
 * default, resolveConfig's DEFAULT_VERSION): { version, library } for one line.
 */
function defaultMongod() {
  const { DryMongoBinary } = require('mongodb-memory-server-core');
  return { version: DryMongoBinary.getEnsuredOptions({}).version, library: `mongodb-memory-server-core ${require('mongodb-memory-server-core/package.json').version}` };
}

/** mongod's own JSON log line ({ msg, attr }), or null where the line is not one. */
function logLineOf(line) {
  try {
    const parsed = JSON.parse(line);
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * A short reason for an error from MMS, for one line, told apart by its class
 * (mongodb-memory-server-core's lib/util/errors.js) and said from its fields, never read out of
 * its message, which is shown as it is where its fields say nothing more. What MMS keeps in no
 * field comes from the start itself (starting): the launch timeout the kit gave it, the mongod
 * process (its exit code and signal), and the log line an error was raised on (err.line, set by
 * checkLineByLine), whose own fields (msg, attr.error) say what mongod refused.
 * @param starting  { launchTimeoutMs, mongod } where the error came of MongoInstance.start
 */
function reasonOf(err, version, starting = null) {
  const errors = require('mongodb-memory-server-core').errors;
  const message = String(err && err.message ? err.message : err);
  const said = message.split('\n').map((l) => l.trim()).filter(Boolean);
  if (err instanceof errors.KnownVersionIncompatibilityError) {
    return `mongodb-memory-server has no mongod ${err.requested_version} for ${err.dist} (it has ${err.available_versions}): set MONGOMS_SYSTEM_BINARY to a mongod ${err.requested_version}`;
  }
  // MongoInstance.start raises a GenericMMSError at its launch timeout, and otherwise only for an
  // instance started twice, which the kit never does (each start makes a new MongoInstance)
  if (err instanceof errors.GenericMMSError && starting?.launchTimeoutMs) {
    return `mongod did not say "Waiting for connections" within ${Math.round(starting.launchTimeoutMs / 1000)} s`;
  }
  if (err instanceof errors.UnexpectedCloseError) {
    const p = starting?.mongod;
    return p ? `mongod exited before it was ready (exit code ${p.exitCode}, signal ${p.signalCode})` : `mongod exited before it was ready (${said.join(' ')})`;
  }
  if (err instanceof errors.StdoutInstanceError) {
    const logged = logLineOf(err.line);
    if (logged?.attr?.error) return `mongod failed to start (${logged.msg}): ${logged.attr.error}`;
    return `mongod failed to start: ${said.slice(0, 2).join(' ')}`;
  }
  if (err instanceof errors.DownloadError) return `mongodb-memory-server could not download mongod ${version} (${String(err.msg || message).replace(/\s+/g, ' ').trim()})`;
  return said.slice(0, 2).join(' ');
}

/**
 * MMS 11.3.0 looks for mongod's JSON "DBException in initAndListen" line with JSON.parse(chunk)
 * (MongoInstance.checkErrorInLine), on whatever one read from mongod's stdout returned: a chunk
 * that holds that line and the next (mongod writes its last lines together as it exits), or half
 * of it, throws a SyntaxError from an event handler, which ends the whole kit. Here the same
 * checks run one line at a time, and a line that still cannot be parsed is reported as the error
 * it is.
 */
function checkLineByLine(instance, MongoInstance, StdoutInstanceError) {
  instance.checkErrorInLine = function checkEachLine(text) {
    for (const line of String(text).split('\n').map((l) => l.trim()).filter(Boolean)) {
      // the line an error is raised on goes with it (err.line), for reasonOf to read mongod's own fields
      const withLine = (err) => { if (err instanceof StdoutInstanceError && err.line === undefined) err.line = line; };
      this.prependListener('instanceError', withLine);
      try {
        MongoInstance.prototype.checkErrorInLine.call(this, line);
      } catch {
        this.emit('instanceError', new StdoutInstanceError(`Instance failed to start. Original Error:\n${line}`));
      } finally {
        this.off('instanceError', withLine);
      }
    }
  };
}

/** mongod's own output, as MMS hands it over, appended to a file; write() and close() never throw. */
function openLog(file) {
  if (!file) return { write: () => {}, close: () => {} };
  let fd = fs.openSync(file, 'a');
  return {
    write: (text) => { if (fd !== null) try { fs.writeSync(fd, `${text}\n`); } catch (err) { debug('log: %s', err.message); } },
    close: () => { if (fd !== null) { try { fs.closeSync(fd); } catch { /* closed */ } fd = null; } },
  };
}

/** What a topology's description says after the version: nothing for a standalone. */
const TOPOLOGY_TEXT = { standalone: '', replicaSet: ', a replica set of one member' };

/**
 * Starts a mongod and checks what answers. Resolves to { uri, description, version, started, stop,
 * topology, allocator }. With topology 'replicaSet' (mongod-rs) it is a replica set of one member,
 * as production servers are: started with --replSet, initiated and waited for until it is primary
 * (servers/replica-set.js), its URI naming the set (replicaSet=).
 * Getting the binary and starting it have a budget each: a download that ends near its own
 * deadline still leaves mongod its whole CLASSICS_MONGOD_START_TIMEOUT_MS.
 * @param name      the server's name, for its log file (<logDir>/<name>-mongod.log)
 * @param keepDir   a folder for its data that outlives the run (--keep-data), reused by --resume
 * @param progress  the display a download shows on ({ startStep, update, endStep }: the run's,
 *                  run/progress.js); none is shown where the caller hands none
 */
async function startMongod({ version = null, compressor = null, topology = 'standalone', config, logDir = null, name = 'mongod', keepDir = null, progress = NO_PROGRESS }) {
  const replicaSet = topology === 'replicaSet';
  const { MongoInstance, errors } = require('mongodb-memory-server-core');
  const warnings = [];
  const systemBinary = config.mongodSystemBinary;

  // 1. The binary, and the version it is, before anything is spawned. With MONGOMS_SYSTEM_BINARY,
  // MMS is then asked for that very version, so that its own check ("Possible version conflict",
  // a warning it prints and goes on) agrees; a download is checked once it is there.
  let actual = systemBinary ? checkedVersion(systemBinary, version, `MONGOMS_SYSTEM_BINARY=${systemBinary}`) : null;
  const binaryOpts = actual ? { version: actual } : version ? { version } : {};
  let bin;
  try {
    bin = await mongodBinary(binaryOpts, { config, progress, name, warnings });
  } catch (err) {
    debug('binary: %s; warnings: %o', err.message, warnings);
    const { DryMongoBinary } = require('mongodb-memory-server-core');
    throw mongodStartError(err.reason || reasonOf(err, DryMongoBinary.getEnsuredOptions(binaryOpts).version));
  }
  if (!actual) {
    actual = checkedVersion(bin, version, `the mongod mongodb-memory-server gave (${bin})`);
    binaryOpts.version = actual;
  }

  // 2. The process: spawned, tracked and logged from the moment it exists.
  const dbPath = keepDir ? path.join(keepDir, 'mongod') : makeTempDir('classics-mongod-');
  fs.mkdirSync(dbPath, { recursive: true });
  const logFile = logDir ? path.join(logDir, `${name.replace(/[^A-Za-z0-9_.-]+/g, '_')}-mongod.log`) : null;
  const log = openLog(logFile);
  const port = await freePort();
  // the start's own budget, whatever the download took
  const launchTimeout = config.mongodStartTimeoutMs;
  const startedAt = Date.now();
  // mongod 8 on glibc 2.35+: GLIBC_TUNABLES=glibc.pthread.rseq=0, in mongod's environment alone
  const allocator = allocatorEnvironment({ glibc: runtimeGlibc(), mongodVersion: actual });
  debug('%s: allocator: %s (%s)', name, allocator.tunables || 'environment unchanged', allocator.why);
  const instance = new MongoInstance({
    instance: {
      port,
      ip: '127.0.0.1',
      dbPath,
      storageEngine: 'wiredTiger',
      ...(replicaSet ? { replSet: REPLICA_SET_NAME } : {}),
      // only collections created after start get it: a resumed dbPath keeps what its collections had
      args: compressor ? ['--wiredTigerCollectionBlockCompressor', compressor] : [],
      launchTimeout,
    },
    // the binary just found or downloaded, run as it is (MongoInstance.start asks MongoBinary.getPath
    // again, which for a systemBinary only checks the path; a second lookup would judge a
    // downloaded file again, DryMongoBinary.locateBinary)
    binary: { ...binaryOpts, systemBinary: bin },
    // MongoInstance spawns mongod with these options (spawn's env), nothing else of the kit's changes
    spawn: allocator.env ? { env: allocator.env } : {},
  });
  checkLineByLine(instance, MongoInstance, errors.StdoutInstanceError);
  instance.on('instanceSTDOUT', (text) => log.write(text));
  instance.on('instanceSTDERR', (text) => log.write(`[stderr] ${text}`));
  // emitted once mongod and MMS's killer are spawned, both assigned on the instance by then; the
  // process is kept here, as MMS drops its reference when it stops one that failed (its exit code
  // and signal are then the kit's to say)
  let mongodChild = null;
  instance.on('killerLaunched', () => {
    mongodChild = instance.mongodProcess;
    trackChild(instance.mongodProcess);
    if (instance.killerProcess) trackChild(instance.killerProcess);
  });
  instance.on('killerLaunched', () => debug('%s: mongod %s pid %d on port %d, %s', name, actual, instance.mongodProcess.pid, port, dbPath));

  const removeData = () => { if (!keepDir) fs.rmSync(dbPath, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); };
  // MMS's stop sends SIGINT and SIGKILLs after 10 s (utils.killProcess), which can cut short a
  // mongod checkpointing a large cache: the kit gives it STOP_TIMEOUT_MS first (a second Ctrl-C
  // still kills it at once), then lets MMS stop what is left and its killer process.
  const stop = async () => {
    const mongod = instance.mongodProcess;
    if (mongod && mongod.exitCode === null && mongod.signalCode === null) await stopChild(mongod, 'SIGINT', STOP_TIMEOUT_MS);
    await capturingWarnings(warnings, () => instance.stop());
    log.close();
  };
  // a Ctrl-C while it starts stops it as a started one would be (a second one kills it)
  const unregister = onCleanup(stop);
  const fail = async (reason) => {
    await stop().catch((err) => debug('stop: %s', err.message));
    unregister();
    removeData();
    throw mongodStartError(reason, { logFile });
  };

  try {
    // MMS gives up at launchTimeout and stops the process itself; this is the kit's own bound
    await withTimeout(capturingWarnings(warnings, () => instance.start()), launchTimeout + 10000,
      `mongod did not start within ${Math.round((launchTimeout + 10000) / 1000)} s`);
  } catch (err) {
    debug('start: %s; warnings: %o', err.message, warnings);
    await fail(reasonOf(err, version, { launchTimeoutMs: launchTimeout, mongod: mongodChild }));
  }
  let uri = `mongodb://127.0.0.1:${port}/`;

  // 3. What answers: the version it runs, and whether it is a mongod at all.
  let build;
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs, directConnection: true });
  try {
    build = await refusedAtOnce(client, (c) => c.db('admin').command({ buildInfo: 1 }));
  } catch (err) {
    await fail(compatibilityLine(`the mongod at ${bin}`, err) || `mongod started but did not answer buildInfo: ${err.message.split('\n')[0]}`);
  } finally {
    await client.close().catch(() => {});
  }
  const ferretdb = build.ferretdbVersion || build.ferretdb?.version || null;
  if (!ferretdb && version && build.version !== version) {
    await fail(versionMismatch(version, build.version, `the server ${bin} started`));
  }
  // 4. A replica set: initiated, and primary, within what is left of the start's budget
  if (replicaSet) {
    try {
      uri = await startReplicaSet({
        uri, host: `127.0.0.1:${port}`, config, budgetMs: Math.max(5000, launchTimeout - (Date.now() - startedAt)),
        what: ferretdb ? `FerretDB ${ferretdb} behind ${bin} (not a mongod)` : `mongod ${build.version}`,
      });
    } catch (err) {
      await fail(err.message);
    }
  }
  unregister();
  const compression = compressor ? ` with ${compressor} block compression` : '';
  return {
    uri,
    // never mongod's name on what is not a mongod (the kit's test stand-in serves FerretDB)
    description: ferretdb
      ? `FerretDB ${ferretdb} behind ${bin}, which says it is mongod ${actual} but is not a mongod`
      : `mongod ${build.version}${TOPOLOGY_TEXT[topology] ?? ''}${compression}`,
    version: ferretdb ? null : build.version,
    // the block compressor its collections are created with, as a field: the report names it from here
    compressor: ferretdb ? null : compressor,
    started: true,
    logFile,
    // what the kit set in mongod's environment for its allocator, for the server record
    allocator: allocator.tunables ? { GLIBC_TUNABLES: allocator.tunables, why: allocator.why } : { GLIBC_TUNABLES: null, why: allocator.why },
    stop,
  };
}

module.exports = { startMongod, checkMongodSpec, binaryVersion, reasonOf, checkLineByLine, defaultMongod };
