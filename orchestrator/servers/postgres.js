'use strict';
// A private PostgreSQL cluster, in a temporary folder, on a free port, TCP only: from Debian's
// binaries on this machine, or from those of a root file system of its own (`root`: the Debian sid
// one DocumentDB needs, see scripts/setup-ferretdb2.sh), run there through chroot.
// PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { promisify } = require('node:util');
const execFile = promisify(require('node:child_process').execFile);
const debug = require('debug')('classics:postgres');
const { ServerStartError } = require('../errors');
const { trackChild, stopChild, dieWithKit, recordMount } = require('../processes');
const { postgresFolder, templatesFolder, makeClusterDir, closedFolderAbove } = require('./postgres-folder');
const { isSameProcess, startTimeOf, commandLine } = require('../process-table');
const { onFreePort, retryUntil } = require('./net');
const { withLock } = require('../lock-file');

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

/** Why the kit cannot start a PostgreSQL here (the SQL baseline, ferretdb-pg), or null. */
function postgresMissing(config) {
  try {
    findPostgresBinDir(config.postgresBinDir);
  } catch {
    return 'PostgreSQL\'s server binaries are not installed (initdb and postgres, in /usr/lib/postgresql/*/bin, on PATH or in CLASSICS_PG_BINDIR; Debian and Ubuntu: apt-get install postgresql)';
  }
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    // PostgreSQL refuses to run as root: the kit runs it as the postgres user the package makes
    try { execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' }); } catch { return 'running as root, and there is no postgres user to run PostgreSQL as (Debian\'s postgresql package makes it)'; }
  }
  return null;
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
 * How commands of the cluster are run: on this machine, as the postgres user when root; or inside
 * a root file system, through a mount namespace of their own (unshare) in which the cluster's folder
 * is bound to /mnt of that file system, then chroot as its own postgres user. The binding lives and
 * dies with the process (nothing stays mounted, whatever ends it), and the data stay in a folder of
 * this machine's, a temporary one or the one --keep-data keeps, like every other server's.
 */
function hostRunner(binDir) {
  const bin = findPostgresBinDir(binDir);
  const identity = postgresIdentity();
  return {
    identity,
    dataDir: (dir) => path.join(dir, 'data'),
    command: (name, args) => [path.join(bin, name), args, { ...identity }],
  };
}

/** The postgres user of a root file system, from its /etc/passwd. */
function rootIdentity(root) {
  const line = fs.readFileSync(path.join(root, 'etc', 'passwd'), 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new ServerStartError(`${root} has no postgres user: run \`npm run setup\` again`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function rootRunner(root, hostDir) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new ServerStartError(`PostgreSQL in ${root} runs through chroot, which needs root: run the kit as root`);
  }
  const versions = fs.existsSync(path.join(root, 'usr/lib/postgresql'))
    ? fs.readdirSync(path.join(root, 'usr/lib/postgresql')).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new ServerStartError(`no PostgreSQL in ${root}: run \`npm run setup\``);
  const bin = `/usr/lib/postgresql/${versions[0]}/bin`;
  const identity = rootIdentity(root);
  // $1 the cluster's folder, $2 the root file system, $3 uid:gid, then the command and its arguments.
  // chroot's change of user clears the parent-death signal, so it is set again inside, by the root
  // file system's own setpriv: PostgreSQL still dies the moment the kit does, even by SIGKILL
  const pdeathsig = fs.existsSync(path.join(root, 'usr/bin/setpriv')) ? '/usr/bin/setpriv --pdeathsig KILL -- ' : '';
  const script = `mount --bind "$1" "$2/mnt" && exec chroot --userspec="$3" "$2" ${pdeathsig}"\${@:4}"`;
  return {
    identity,
    dataDir: () => '/mnt/data',
    mount: { target: path.join(root, 'mnt'), source: hostDir },
    command: (name, args) => ['unshare', ['--mount', '--propagation', 'private', '--', 'bash', '-c', script, 'bash', hostDir, root,
      `${identity.uid}:${identity.gid}`, `${bin}/${name}`, ...args], { env: { ...process.env, LC_ALL: 'C', LANG: 'C' } }],
  };
}

/** The postgres user must be able to pass through every folder above a kept cluster. */
function assertReachableBy(identity, dir) {
  const d = closedFolderAbove(identity, dir);
  if (d) {
    throw new ServerStartError(`PostgreSQL runs as the postgres user, which cannot pass through ${d} to keep its data in ${dir}: choose an --out folder others can enter (or chmod o+x ${d})`);
  }
}

/**
 * A kept cluster (--keep-data) whose postmaster.pid outlived its server (a killed run): where the
 * PID in it is no longer a PostgreSQL (gone, or reused by another process), the lock is stale and
 * removed; where a PostgreSQL still holds it (the reaper at the run's start has already stopped
 * those a dead run of the kit recorded), the start is refused in one line naming that process.
 */
function releaseStaleLock(dataDir) {
  const lock = path.join(dataDir, 'postmaster.pid');
  let pid;
  try { pid = Number(fs.readFileSync(lock, 'utf8').split('\n')[0]); } catch { return; }
  const start = Number.isInteger(pid) && pid > 0 ? startTimeOf(pid) : null;
  const cmd = start ? commandLine(pid) : '';
  if (start && isSameProcess(pid, start) && /postgres/.test(cmd)) {
    throw new ServerStartError(`the kept PostgreSQL data in ${dataDir} is locked by process ${pid} (${cmd.slice(0, 120)}), which is not this run's: stop it (or run \`orchestrate clean\` if a killed run of the kit left it) and resume again`);
  }
  debug('removing the stale %s (pid %s is gone)', lock, pid);
  fs.rmSync(lock, { force: true });
}

/**
 * The template cluster a fresh cluster is copied from: made once (initdb, then its databases and
 * SQL, e.g. ferretdb2's CREATE EXTENSION documentdb), stopped cleanly, and copied for every fresh
 * cluster after, as pg_regress's and testcontainers' reusable set-ups do: initdb and creating
 * DocumentDB's extension took 0.9 s of a 1.4 s ferretdb2 start (2-core machine, this kit's tests,
 * about 30 starts each). Its key is what makes it: the PostgreSQL it runs (root file system, bin
 * folder), the settings it is prepared under and what it is prepared with. Made under a lock
 * (lock-file.js: its maker's PID and start time, published whole; taken over from a maker that
 * died or whose PID was reused; a wait past TEMPLATE_WAIT_MS fails naming the maker), so that two
 * runs at once make it once. Returns its folder (holding data/).
 */
async function templateCluster({ templateDir, binDir, root, settings, prepare, logFile }) {
  const key = crypto.createHash('sha256').update(JSON.stringify({ root, bin: root ? null : findPostgresBinDir(binDir), settings, prepare, initdb: INITDB_ARGS })).digest('hex').slice(0, 16);
  const dir = path.join(templateDir, key);
  const ready = () => fs.existsSync(path.join(dir, '.ready'));
  if (ready()) return dir;
  await withLock(`${dir}.lock`, { what: 'making a PostgreSQL template cluster', timeoutMs: TEMPLATE_WAIT_MS }, async () => {
    if (!ready()) await makeTemplate({ dir, binDir, root, settings, prepare, logFile });
  });
  return dir;
}

/** How long a start waits for another process making the same template (seconds, alone; a minute under load). */
const TEMPLATE_WAIT_MS = 5 * 60 * 1000;

/** Makes a template cluster in dir: initdb, its databases and SQL, a clean stop, then marked ready. */
async function makeTemplate({ dir, binDir, root, settings, prepare, logFile }) {
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  const pg = await startPostgres({ binDir, logFile, keepDir: partial, root, settings, templates: false, prepare });
  // SIGINT is a fast shutdown: a checkpoint, then a clean stop, so a copy starts without recovery
  await pg.stop();
  fs.renameSync(partial, dir);
  fs.writeFileSync(path.join(dir, '.ready'), `${new Date().toISOString()}\n`);
  debug('template cluster made in %s', dir);
}

/** initdb's arguments beside -D: every cluster the kit makes, templates too. */
const INITDB_ARGS = ['-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'];

/**
 * @param keepDir     a folder to keep the cluster in (reused when it holds one), instead of a
 *                    temporary folder removed at the end
 * @param root        a root file system whose PostgreSQL to run (through chroot), or null for this machine's
 * @param settings    server settings (-c NAME=VALUE) beside the kit's own
 * @param pgDir       the kit's folder for PostgreSQL (config.pgDir: templates, and clusters where
 *                    TMPDIR is closed to PostgreSQL's user), or null: postgres-folder.js's default
 * @param templates   whether a fresh cluster is copied from a template cluster (made once, kept in
 *                    the kit's folder); false: made by initdb and prepared here
 * @param prepare     what a fresh cluster holds before it is used: { databases: [name], sql: [statement] }
 *                    (run on the postgres database), made once in the template where there is one
 * @param pick        chooses the ports to try (net.js freePort; a test hands one it holds first)
 */
async function startPostgres({ binDir, logFile, keepDir = null, root = null, settings = {}, pgDir = null, templates = false, prepare = {}, pick }) {
  // inside a root file system the cluster's folder is bound in: the folders above it need not let anyone pass
  const reaching = root ? {} : postgresIdentity();
  const folder = !keepDir || templates ? postgresFolder(pgDir, reaching) : null;
  const dir = keepDir || makeClusterDir(folder, reaching);
  fs.mkdirSync(dir, { recursive: true });
  const runner = root ? rootRunner(root, dir) : hostRunner(binDir);
  const { identity } = runner;
  // in a root file system the folder is bound into it: the folders above it need not let anyone pass
  if (keepDir && !root && identity.uid !== undefined) assertReachableBy(identity, dir);
  if (identity.uid !== undefined) fs.chownSync(dir, identity.uid, identity.gid);
  const dataDir = runner.dataDir(dir);
  const fresh = !fs.existsSync(path.join(dir, 'data', 'PG_VERSION'));
  const template = fresh && templates ? await templateCluster({ templateDir: templatesFolder(folder, reaching), binDir, root, settings, prepare, logFile }) : null;
  const run = (name, args) => {
    const [file, argv, options] = runner.command(name, args);
    const running = execFile(...dieWithKit(file, argv), { cwd: dir, ...options });
    trackChild(running.child);
    return running;
  };
  if (runner.mount) recordMount(runner.mount);

  if (template) {
    // the template's data, its owner and modes kept (PostgreSQL refuses a data folder others can read)
    try {
      await execFile('cp', ['-a', path.join(template, 'data'), path.join(dir, 'data')]);
    } catch (err) {
      throw new ServerStartError(`could not copy the template cluster ${template}: ${(err.stderr || err.message).trim()}`);
    }
  } else if (fresh) {
    try {
      await run('initdb', ['-D', dataDir, ...INITDB_ARGS]);
    } catch (err) {
      throw new ServerStartError(`initdb failed: ${(err.stderr || err.message).trim()}`);
    }
  }

  if (!fresh) releaseStaleLock(path.join(dir, 'data'));
  // TCP only: a Unix socket path under a long run folder could pass the kernel's 107-byte limit
  const options = { unix_socket_directories: '', listen_addresses: '127.0.0.1', ...settings };
  // on another port where the first was taken before the postmaster could bind it
  const { port, child } = await onFreePort(async (port) => {
    const log = fs.openSync(logFile, 'a');
    const [file, argv, spawnOptions] = runner.command('postgres',
      ['-D', dataDir, '-p', String(port), ...Object.entries(options).flatMap(([k, v]) => ['-c', `${k}=${v}`])]);
    const child = trackChild(spawn(...dieWithKit(file, argv), { ...spawnOptions, cwd: dir, stdio: ['ignore', log, log] }));
    fs.closeSync(log);
    try {
      await retryUntil(() => run('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-q']),
        { timeoutMs: 30000, isAlive: () => child.exitCode === null });
    } catch {
      await stopChild(child, 'SIGQUIT', 2000);
      throw new ServerStartError(`PostgreSQL did not start on port ${port}; see ${logFile}`);
    }
    return { port, child };
  }, { logFile, pick });
  const client = ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'];

  const { stdout } = await run('postgres', ['--version']);
  debug('postgres %s on %d', stdout.trim(), port);

  if (fresh && !template) {
    try {
      for (const database of prepare.databases || []) await run('createdb', [...client, database]);
      for (const sql of prepare.sql || []) await run('psql', [...client, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAtc', sql]);
    } catch (err) {
      await stopChild(child, 'SIGINT', 15000);
      throw new ServerStartError(`could not prepare PostgreSQL (${JSON.stringify(prepare)}): ${(err.stderr || err.message).trim()}`);
    }
  }

  return {
    port,
    fresh,
    // a copy of the template cluster (already prepared) rather than initdb's
    fromTemplate: Boolean(template),
    version: stdout.trim().replace(/^postgres \(PostgreSQL\) /, ''),
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => run('createdb', [...client, name]),
    psql: (database, sql) => run('psql', [...client, '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql]),
    // the processes whose end means the server is gone (start.js watches them during a run)
    watched: [{ name: 'PostgreSQL postmaster', child }],
    // SIGINT is PostgreSQL's fast shutdown: sessions ended, no waiting for clients.
    stop: () => stopChild(child, 'SIGINT', 15000),
  };
}

module.exports = { postgresMissing, startPostgres, postgresIdentity };
