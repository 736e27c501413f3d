'use strict';
// Everything the kit starts is stopped when it ends: child processes are tracked here, and
// cleanups (stop a server, remove a temporary folder) run in reverse order of registration,
// on a normal end, on an error and on SIGINT/SIGTERM. A second signal kills what is left at once.
// Against SIGKILL, which no handler sees: each child is started under the kernel's parent-death
// signal (dieWithKit), and a run records what it starts in a state file its watchdog reaps from
// (run-state.js, watchdog.js).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const debug = require('debug')('classics:processes');

const children = new Set();
const cleanups = [];
const tempDirs = new Set();
let runState = null;

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((f) => fs.existsSync(f)) || null;

/**
 * [command, args] that start command so that the kernel kills it (SIGKILL) the moment the kit's
 * process ends, however it ends: util-linux's setpriv --pdeathsig, then exec. Where there is no
 * setpriv the command is started as it is, and the watchdog alone reaps it.
 */
function dieWithKit(command, args) {
  return SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
}

/**
 * Records what this process starts in a state file (run-state.js) and starts the watchdog
 * that reaps it should the process be killed. Removed, with the watchdog, when the process exits.
 */
function openRunState(stateDir, { runId, out }) {
  // without /proc (not Linux) no PID can be told from a reused one: nothing is recorded or reaped
  if (!require('./process-table').startTimeOf(process.pid)) return null;
  const { RunState } = require('./run-state');
  const { startWatchdog } = require('./watchdog');
  runState = new RunState(stateDir, { runId, out });
  for (const dir of tempDirs) runState.addFolder(dir);
  const watchdog = startWatchdog(runState.base);
  runState.setWatchdog(watchdog.pid);
  const state = runState;
  process.once('exit', () => {
    state.close();
    try { watchdog.kill('SIGKILL'); } catch { /* gone */ }
  });
  return state;
}

/** Notes a mount a server's process holds (in its own namespace), for the reaper. */
function recordMount(mount) {
  runState?.addMount(mount);
}

function trackChild(child) {
  children.add(child);
  const state = runState;
  if (child.pid) state?.addProcess(child.pid, child.spawnargs.join(' ').slice(0, 200));
  child.once('exit', () => { children.delete(child); state?.removeProcess(child.pid); });
  return child;
}

/** Registers fn to run at cleanup; returns a function that unregisters it. */
function onCleanup(fn) {
  cleanups.push(fn);
  return () => {
    const i = cleanups.indexOf(fn);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** A new folder (mkdtemp: 700, the kit's) in base, removed at cleanup and by the reaper after a killed run. */
function makeTempDir(prefix, base = os.tmpdir()) {
  const dir = fs.mkdtempSync(path.join(base, prefix));
  tempDirs.add(dir);
  runState?.addFolder(dir);
  return dir;
}

function removeTempDirs() {
  for (const dir of tempDirs) {
    // a server killed a moment ago may still be closing files in it: retry a few times
    try { fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); } catch (err) { debug('rm %s: %s', dir, err.message); }
    tempDirs.delete(dir);
  }
}

function killChildren(signal) {
  for (const child of children) {
    try { child.kill(signal); } catch (err) { debug('kill %d: %s', child.pid, err.message); }
  }
}

/**
 * Waits for a child to exit, sending SIGKILL after graceMs. The signal is followed by SIGCONT: a
 * child stopped by a signal (a server frozen with SIGSTOP, or Ctrl-Z'd) takes no signal but SIGKILL
 * until it is continued, and would otherwise hold the run for the whole grace; a running child
 * ignores SIGCONT.
 */
function stopChild(child, signal = 'SIGTERM', graceMs = 10000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => { try { child.kill('SIGKILL'); } catch { /* gone */ } }, graceMs);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    try {
      child.kill(signal);
      child.kill('SIGCONT');
    } catch { clearTimeout(timer); resolve(); }
  });
}

let cleaning = null;
/** Runs every registered cleanup, newest first; calls made meanwhile wait for the same run. */
function cleanupAll() {
  if (!cleaning) {
    cleaning = (async () => {
      while (cleanups.length) {
        const fn = cleanups.pop();
        try { await fn(); } catch (err) { debug('cleanup: %s', err.message); }
      }
      killChildren('SIGKILL');
      removeTempDirs();
    })().finally(() => { cleaning = null; }); // a later run in the same process cleans up after itself too
  }
  return cleaning;
}

/**
 * SIGINT/SIGTERM: onSignal(signal) lets the run stop and flush; then everything is cleaned up
 * and the process exits 130/143. A second signal skips the graceful part.
 */
function installSignalHandlers(onSignal = () => {}) {
  let received = 0;
  const handler = (signal) => {
    received += 1;
    const code = signal === 'SIGINT' ? 130 : 143;
    if (received > 1) {
      killChildren('SIGKILL');
      const dirs = [...tempDirs];
      removeTempDirs();
      // a child killed a moment ago runs until the kernel ends it, and may make a folder again
      // (mkdir -p, as a server's start script does): the folders are swept once more before the exit
      setTimeout(() => {
        for (const dir of dirs) { try { fs.rmSync(dir, { recursive: true, force: true }); } catch (err) { debug('rm %s: %s', dir, err.message); } }
        process.exit(code);
      }, 250);
      return;
    }
    process.stderr.write(`\n${signal}: stopping the servers and scripts the kit started...\n`);
    Promise.resolve()
      .then(() => onSignal(signal))
      .then(cleanupAll, cleanupAll)
      .finally(() => process.exit(code));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  process.on('exit', () => { killChildren('SIGKILL'); removeTempDirs(); });
  return () => { process.off('SIGINT', handler); process.off('SIGTERM', handler); };
}

module.exports = {
  dieWithKit, openRunState, recordMount, trackChild, onCleanup, makeTempDir, stopChild, cleanupAll, installSignalHandlers, killChildren,
};
