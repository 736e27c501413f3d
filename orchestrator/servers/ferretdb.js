'use strict';
// FerretDB, each run in temporary folders on free ports: v1.24 on SQLite or on a private PostgreSQL
// cluster (this machine's), and v2 (ferretdb2) on PostgreSQL with Microsoft's DocumentDB extension,
// from the Debian sid root file system scripts/setup-ferretdb2.sh installs.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const execFile = require('node:util').promisify(require('node:child_process').execFile);
const { ServerStartError } = require('../errors');
const { trackChild, stopChild, makeTempDir, dieWithKit } = require('../processes');
const { onFreePort, retryUntil } = require('./net');
const { startPostgres } = require('./postgres');
const { pingServer } = require('./ping');

/** Settings DocumentDB needs in its PostgreSQL (its README's; pg_cron runs its background jobs). */
const DOCUMENTDB_SETTINGS = {
  shared_preload_libraries: 'pg_cron,pg_documentdb_core,pg_documentdb',
  'cron.database_name': 'postgres',
  'documentdb.enableUserCrud': 'true',
  // no /dev/shm in the root file system: dynamic shared memory in files of the data folder
  dynamic_shared_memory_type: 'mmap',
};

/**
 * Starts the FerretDB binary with args on a free port, after its backend (stopped with it), on
 * another port where the first was taken before FerretDB could bind it. Returns { uri, stop }, or
 * stops everything and throws where FerretDB does not answer.
 */
async function runFerretDB({ bin, args, dir, logFile, backend, pick }) {
  const stopBackend = async () => { if (backend) await backend.stop(); };
  try {
    return await onFreePort(async (port) => {
      const log = fs.openSync(logFile, 'a');
      const child = trackChild(spawn(...dieWithKit(bin, [`--listen-addr=127.0.0.1:${port}`, ...args]), { cwd: dir, stdio: ['ignore', log, log] }));
      fs.closeSync(log);
      const uri = `mongodb://127.0.0.1:${port}/`;
      try {
        await retryUntil(() => pingServer(uri, 1000), { timeoutMs: 30000, isAlive: () => child.exitCode === null });
      } catch (err) {
        await stopChild(child, 'SIGTERM', 10000);
        throw new ServerStartError(`FerretDB did not answer on port ${port} (${err.message}); see ${logFile}`);
      }
      const stop = async () => {
        await stopChild(child, 'SIGTERM', 10000);
        await stopBackend();
      };
      return { uri, stop, watched: [{ name: 'FerretDB', child }, ...(backend?.watched || [])] };
    }, { logFile, pick });
  } catch (err) {
    await stopBackend();
    throw err;
  }
}

/** @param keepDir a folder for the server's data that outlives the run (--keep-data), or null */
async function startFerretDB({ backend, config, logDir, name, keepDir = null }) {
  if (!fs.existsSync(config.ferretdbBin)) {
    throw new ServerStartError(
      `FerretDB not found at ${config.ferretdbBin}: run \`npm run setup\` or set CLASSICS_FERRETDB_BIN`);
  }
  const dir = keepDir ? path.join(keepDir, 'ferretdb') : makeTempDir('classics-ferretdb-');
  fs.mkdirSync(dir, { recursive: true });
  const args = [
    `--state-dir=${dir}`, // else FerretDB writes state.json into the working folder
    '--debug-addr=-', // its default :8088 collides with other services
    '--telemetry=disable',
    '--log-level=warn',
  ];
  let postgres = null;
  let backendDescription;
  if (backend === 'postgresql') {
    postgres = await startPostgres({
      binDir: config.postgresBinDir, logFile: path.join(logDir, `${name}-postgres.log`), keepDir: keepDir && path.join(keepDir, 'postgres'),
      pgDir: config.pgDir, templates: true, prepare: { databases: ['ferretdb'] },
    });
    args.push('--handler=postgresql', `--postgresql-url=${postgres.url('ferretdb')}`);
    backendDescription = `PostgreSQL ${postgres.version}`;
  } else {
    const dataDir = path.join(dir, 'sqlite');
    fs.mkdirSync(dataDir, { recursive: true });
    args.push('--handler=sqlite', `--sqlite-url=file:${dataDir}/`);
    backendDescription = 'SQLite';
  }
  const { uri, stop, watched } = await runFerretDB({ bin: config.ferretdbBin, args, dir, logFile: path.join(logDir, `${name}-ferretdb.log`), backend: postgres });
  return {
    uri,
    watched,
    backend: backendDescription,
    // where its PostgreSQL answers, for reading its settings back (servers/store-settings.js); never recorded
    ...(postgres ? { storeUrl: postgres.url('ferretdb') } : {}),
    description: `FerretDB on ${backendDescription}`,
    started: true,
    stop,
  };
}

/**
 * Why ferretdb2 cannot be started here, or null: its binary, its root file system, and root
 * (PostgreSQL runs in that file system through chroot).
 */
function ferretdb2Missing(config) {
  if (!fs.existsSync(config.ferretdb2Bin)) return `FerretDB 2 is not installed at ${config.ferretdb2Bin} (npm run setup installs it, as root)`;
  if (!fs.existsSync(path.join(config.documentdbRoot, '.classics-ready'))) return `DocumentDB's root file system is not installed at ${config.documentdbRoot} (npm run setup installs it, as root)`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'ferretdb2 runs PostgreSQL with DocumentDB through chroot, which needs root';
  return null;
}

/**
 * ferretdb2: FerretDB 2 on PostgreSQL with DocumentDB, from the root file system of
 * config.documentdbRoot. Each run gets a fresh cluster (or the one --keep-data kept) with the
 * documentdb extension, and a FerretDB without authentication, on free ports.
 */
async function startFerretDB2({ config, logDir, name, keepDir = null }) {
  const missing = ferretdb2Missing(config);
  if (missing) throw new ServerStartError(missing);
  const dir = keepDir ? path.join(keepDir, 'ferretdb2') : makeTempDir('classics-ferretdb2-');
  fs.mkdirSync(dir, { recursive: true });
  const postgres = await startPostgres({
    logFile: path.join(logDir, `${name}-postgres.log`), keepDir: keepDir && path.join(keepDir, 'postgres'),
    root: config.documentdbRoot, settings: DOCUMENTDB_SETTINGS,
    pgDir: config.pgDir, templates: true, prepare: { sql: ['CREATE EXTENSION documentdb CASCADE'] },
  });
  let documentdb = null;
  try {
    ({ stdout: documentdb } = await postgres.psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'documentdb'"));
  } catch { /* the server record reads it from FerretDB too */ }
  const args = [
    `--postgresql-url=${postgres.url('postgres')}`,
    `--state-dir=${dir}`, // else FerretDB writes state.json into the working folder
    '--debug-addr=-', // its default 127.0.0.1:8088 collides with a second server
    '--telemetry=disable',
    '--no-auth', // the kit's own server, on 127.0.0.1 only, as the others
    '--log-level=warn',
  ];
  const { uri, stop, watched } = await runFerretDB({ bin: config.ferretdb2Bin, args, dir, logFile: path.join(logDir, `${name}-ferretdb.log`), backend: postgres });
  const backend = `PostgreSQL ${postgres.version} with DocumentDB ${String(documentdb || '?').trim()}`;
  const version = await execFile(config.ferretdb2Bin, ['--version']).then(({ stdout }) => /version: (\S+)/.exec(stdout)?.[1], () => null);
  return { uri, backend, storeUrl: postgres.url('postgres'), description: `FerretDB ${version || '2'} on ${backend}`, started: true, stop, watched };
}

module.exports = { startFerretDB, startFerretDB2, ferretdb2Missing, runFerretDB, DOCUMENTDB_SETTINGS };
