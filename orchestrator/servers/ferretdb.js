'use strict';
// FerretDB v1.24 on SQLite or on a private PostgreSQL cluster, each in a temporary folder.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ServerStartError } = require('../errors');
const { trackChild, stopChild, makeTempDir } = require('../processes');
const { freePort, retryUntil } = require('./net');
const { startPostgres } = require('./postgres');
const { pingServer } = require('./ping');

/** @param keepDir a folder for the server's data that outlives the run (--keep-data), or null */
async function startFerretDB({ backend, config, logDir, name, keepDir = null }) {
  if (!fs.existsSync(config.ferretdbBin)) {
    throw new ServerStartError(
      `FerretDB not found at ${config.ferretdbBin}: run \`npm run setup\` or set CLASSICS_FERRETDB_BIN`);
  }
  const dir = keepDir ? path.join(keepDir, 'ferretdb') : makeTempDir('classics-ferretdb-');
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const args = [
    `--listen-addr=127.0.0.1:${port}`,
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
    });
    try {
      if (postgres.fresh) await postgres.createDatabase('ferretdb');
    } catch (err) {
      await postgres.stop();
      throw new ServerStartError(`could not create the ferretdb database in PostgreSQL: ${err.message}`);
    }
    args.push('--handler=postgresql', `--postgresql-url=${postgres.url('ferretdb')}`);
    backendDescription = `PostgreSQL ${postgres.version}`;
  } else {
    const dataDir = path.join(dir, 'sqlite');
    fs.mkdirSync(dataDir, { recursive: true });
    args.push('--handler=sqlite', `--sqlite-url=file:${dataDir}/`);
    backendDescription = 'SQLite';
  }

  const logFile = path.join(logDir, `${name}-ferretdb.log`);
  const log = fs.openSync(logFile, 'a');
  const child = trackChild(spawn(config.ferretdbBin, args, { cwd: dir, stdio: ['ignore', log, log] }));
  fs.closeSync(log);
  const uri = `mongodb://127.0.0.1:${port}/`;
  const stop = async () => {
    await stopChild(child, 'SIGTERM', 10000);
    if (postgres) await postgres.stop();
  };
  try {
    await retryUntil(() => pingServer(uri, 1000), { timeoutMs: 30000, isAlive: () => child.exitCode === null });
  } catch (err) {
    await stop();
    throw new ServerStartError(`FerretDB did not answer on port ${port} (${err.message}); see ${logFile}`);
  }
  return {
    uri,
    backend: backendDescription,
    description: `FerretDB on ${backendDescription}`,
    started: true,
    stop,
  };
}

module.exports = { startFerretDB };
