'use strict';
// A private PostgreSQL cluster from Debian's binaries, in a temporary folder, on a free port.
// PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { promisify } = require('node:util');
const execFile = promisify(require('node:child_process').execFile);
const debug = require('debug')('classics:postgres');
const { ServerStartError } = require('../errors');
const { trackChild, stopChild, makeTempDir } = require('../processes');
const { freePort, retryUntil } = require('./net');

function findPostgresBinDir(configured) {
  const candidates = [];
  if (configured) candidates.push(configured);
  const debianRoot = '/usr/lib/postgresql';
  if (fs.existsSync(debianRoot)) {
    fs.readdirSync(debianRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
      .forEach((v) => candidates.push(path.join(debianRoot, v, 'bin')));
  }
  try {
    candidates.push(path.dirname(execFileSync('which', ['initdb'], { encoding: 'utf8' }).trim()));
  } catch { /* not on PATH */ }
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres')));
  if (!found) {
    throw new ServerStartError(
      'PostgreSQL binaries not found (looked in /usr/lib/postgresql/*/bin and PATH): run `npm run setup` or set CLASSICS_PG_BINDIR');
  }
  return found;
}

/** uid/gid to run PostgreSQL as: ourselves, or the postgres user when we are root. */
function postgresIdentity() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new ServerStartError('running as root, and there is no `postgres` user to run PostgreSQL as: install Debian\'s postgresql package');
  }
}

/**
 * @param keepDir a folder to keep the cluster in (reused when it holds one), instead of a
 *                temporary folder removed at the end
 */
/** The postgres user must be able to pass through every folder above a kept cluster. */
function assertReachableBy(identity, dir) {
  for (let d = path.dirname(path.resolve(dir)); d !== path.dirname(d); d = path.dirname(d)) {
    const st = fs.statSync(d);
    const canPass = st.uid === identity.uid ? st.mode & 0o100 : st.gid === identity.gid ? st.mode & 0o010 : st.mode & 0o001;
    if (!canPass) {
      throw new ServerStartError(`PostgreSQL runs as the postgres user, which cannot pass through ${d} to keep its data in ${dir}: choose an --out folder others can enter (or chmod o+x ${d})`);
    }
  }
}

async function startPostgres({ binDir, logFile, keepDir = null }) {
  const bin = findPostgresBinDir(binDir);
  const identity = postgresIdentity();
  const dir = keepDir || makeTempDir('classics-pg-');
  fs.mkdirSync(dir, { recursive: true });
  if (keepDir && identity.uid !== undefined) assertReachableBy(identity, dir);
  const dataDir = path.join(dir, 'data');
  if (identity.uid !== undefined) fs.chownSync(dir, identity.uid, identity.gid);
  const port = await freePort();
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));

  if (fresh) {
    try {
      await execFile(path.join(bin, 'initdb'),
        ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'],
        { ...identity, cwd: dir });
    } catch (err) {
      throw new ServerStartError(`initdb failed: ${(err.stderr || err.message).trim()}`);
    }
  }

  const log = fs.openSync(logFile, 'a');
  // TCP only: a Unix socket path under a long run folder could pass the kernel's 107-byte limit
  const child = trackChild(spawn(path.join(bin, 'postgres'),
    ['-D', dataDir, '-p', String(port), '-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    { ...identity, cwd: dir, stdio: ['ignore', log, log] }));
  fs.closeSync(log);

  const client = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];
  try {
    await retryUntil(() => execFile(path.join(bin, 'pg_isready'), [...client, '-q']),
      { timeoutMs: 30000, isAlive: () => child.exitCode === null });
  } catch {
    await stopChild(child, 'SIGQUIT', 2000);
    throw new ServerStartError(`PostgreSQL did not start on port ${port}; see ${logFile}`);
  }
  const { stdout } = await execFile(path.join(bin, 'postgres'), ['--version']);
  debug('postgres %s on %d', stdout.trim(), port);

  return {
    port,
    fresh,
    version: stdout.trim().replace(/^postgres \(PostgreSQL\) /, ''),
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => execFile(path.join(bin, 'createdb'), [...client, name]),
    // SIGINT is PostgreSQL's fast shutdown: sessions ended, no waiting for clients.
    stop: () => stopChild(child, 'SIGINT', 15000),
  };
}

module.exports = { startPostgres, findPostgresBinDir };
