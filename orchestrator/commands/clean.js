'use strict';
// `orchestrate clean`: what runs of the kit that were killed left behind (servers still serving,
// temporary folders, mounts), reaped now as the next run would, one line per run; runs still
// alive are named and left alone. Also what a killed `npm run setup` left mounted in ferretdb2's
// root file system (as the next setup does too).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { reapDeadRuns, listRuns, describeRun } = require('../run-state');
const { commandLine } = require('../process-table');

const SETUP_ROOT = path.join(__dirname, '..', '..', 'scripts', 'setup-root.sh');

/** Whether this mount namespace has a mount point at dir or below it. */
function hasMountsUnder(dir) {
  let text;
  try { text = fs.readFileSync('/proc/self/mountinfo', 'utf8'); } catch { return false; }
  return text.split('\n').map((l) => (l.split(' ')[4] || '').replace(/\\040/g, ' '))
    .some((m) => m === dir || m.startsWith(`${dir}/`));
}

/**
 * Mounts an `npm run setup` left in ferretdb2's root file system (root.partial while it installs,
 * with whatever the install left running there; root, the mounts only: the kit's own servers
 * mount in namespaces of their own), undone by scripts/setup-root.sh, the same steps setup takes.
 * Left alone while a setup is installing in this checkout. Returns the lines to print.
 */
function releaseSetupMounts(config) {
  if (process.platform !== 'linux' || !config.documentdbRoot) return [];
  // as the mount table names them: through any symbolic link on the way (.tools may be one)
  const real = (dir) => { try { return fs.realpathSync(dir); } catch { return dir; } };
  const root = real(path.resolve(config.documentdbRoot));
  const partial = real(`${path.resolve(config.documentdbRoot)}.partial`);
  let setupPid = null;
  try { setupPid = fs.readFileSync(path.join(path.dirname(root), '.setup.pid'), 'utf8').trim(); } catch { /* none running */ }
  if (setupPid && /setup-ferretdb2\.sh/.test(commandLine(setupPid))) {
    return hasMountsUnder(partial) ? [`npm run setup (pid ${setupPid}) is installing ferretdb2 in ${partial}: its mounts are left to it`] : [];
  }
  const lines = [];
  for (const [dir, how] of [[partial, 'kill'], [root, '']]) {
    if (!hasMountsUnder(dir)) continue;
    try {
      const said = execFileSync('bash', [SETUP_ROOT, dir, ...(how ? [how] : [])], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
      lines.push(`an earlier npm run setup left mounts behind: ${said}`);
    } catch (err) {
      lines.push(`an earlier npm run setup left mounts in ${dir} that could not be undone: ${String(err.stdout || err.message).trim()}`);
    }
  }
  return lines;
}

function cleanCommand({ config, log }) {
  const lines = [...reapDeadRuns(config.stateDir), ...releaseSetupMounts(config)];
  lines.forEach((line) => log(line));
  const alive = listRuns(config.stateDir).filter((r) => r.alive && r.state.kit.pid !== process.pid);
  alive.forEach(({ state }) => log(`${describeRun(state)} is still running: left alone`));
  if (!lines.length && !alive.length) log('nothing to clean: no run of the kit left anything behind');
  return 0;
}

function register(program, { config, log, setResult }) {
  program.command('clean')
    .description('stop the servers and remove the folders that killed runs of the kit left behind (the next run does it too), and undo the mounts a killed npm run setup left')
    .action(() => setResult(cleanCommand({ config, log })));
}

module.exports = { register, cleanCommand, releaseSetupMounts };
