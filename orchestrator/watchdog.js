'use strict';
// A run's watchdog: a small process of its own session, started with the run, that outlives a
// run killed by SIGKILL (which no handler of the run's own can catch). While the run lives it
// notes every descendant of it (PostgreSQL's postmaster and backends, FerretDB, mongod and
// mongodb-memory-server's killer, the shells) with its start time; once the run is gone (its pipe
// to this process closes, or its PID is no longer it) without having removed its state file,
// the watchdog stops those processes, removes the run's folders and leaves a note the next run
// prints. The kernel's parent-death signal (setpriv --pdeathsig) already ends most of them at
// once; the watchdog catches what it cannot: a postmaster whose uid changed under chroot, a
// backend, anything a child started. A run that ends well removes its state file and stops this.
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const POLL_MS = 1000;

/** Starts the watchdog of this process's run state; returns its ChildProcess. */
function startWatchdog(base) {
  const child = spawn(process.execPath, [__filename, base, String(process.pid)], {
    detached: true, // a session of its own: a Ctrl-C to the terminal's process group passes it by
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.unref();
  child.stdin.on('error', () => {});
  child.stdin.unref?.();
  child.stdin._handle?.unref?.();
  return child;
}

function watch(base, kitPid) {
  const { isSameProcess, descendantsOf, commandLine, startTimeOf } = require('./process-table');
  const { reapRun } = require('./run-state');
  const { writeFileAtomic } = require('./fs-atomic');
  const kitStart = startTimeOf(kitPid);
  const seen = new Map();
  let done = false;

  const note = () => {
    let changed = false;
    // those that have ended need no reaping (and their PIDs may soon be others')
    for (const [key, p] of seen) if (!isSameProcess(p.pid, p.startTime)) { seen.delete(key); changed = true; }
    for (const p of descendantsOf(kitPid)) {
      if (p.pid === process.pid || seen.has(`${p.pid}-${p.startTime}`)) continue;
      seen.set(`${p.pid}-${p.startTime}`, { ...p, what: commandLine(p.pid).slice(0, 200) });
      changed = true;
    }
    if (changed) try { writeFileAtomic(`${base}.procs.json`, JSON.stringify({ processes: [...seen.values()] }), { fsync: false }); } catch { /* a full disk: what is in memory still counts */ }
  };

  const reapIfDead = () => {
    if (done) return;
    if (kitStart && isSameProcess(kitPid, kitStart)) { note(); return; }
    done = true;
    let state = null;
    try { state = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')); } catch { /* the run removed it: it ended well */ }
    if (state) {
      state.processes.push(...seen.values());
      const reaped = reapRun(base, state);
      try { writeFileAtomic(`${base}.reaped.json`, JSON.stringify({ state, reaped, at: new Date().toISOString() })); } catch { /* nothing more to do */ }
    }
    process.exit(0);
  };

  // the run's end of the pipe closes when the run's process ends, however it ends
  process.stdin.on('end', reapIfDead).on('close', reapIfDead).on('error', reapIfDead).resume();
  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGPIPE']) process.on(signal, () => {});
  setInterval(reapIfDead, POLL_MS);
  note();
}

if (require.main === module) watch(process.argv[2], Number(process.argv[3]));

module.exports = { startWatchdog, watchdogFile: path.resolve(__filename) };
