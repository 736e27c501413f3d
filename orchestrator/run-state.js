'use strict';
// What a run started, on disk while it runs: its own PID and start time, the processes it spawned
// (its watchdog adds every descendant it sees), the temporary folders it made and the mounts its
// servers hold. A run that ends, however it ends, removes its file; a file whose run is no longer
// alive is what a killed run left, and reapDeadRuns() stops each process that is still the one
// recorded (same PID, same start time), removes the folders, and says so in one line. The same
// files tell a run which other runs of the kit share the machine.
//
// <stateDir>/<pid>-<startTime>.json        written by the run
// <stateDir>/<pid>-<startTime>.procs.json  written by its watchdog: every descendant seen
// <stateDir>/<pid>-<startTime>.reaped.json written by its watchdog once it reaped a killed run
const fs = require('node:fs');
const path = require('node:path');
const { startTimeOf, isSameProcess, signalIfSame, commandLine } = require('./process-table');
const { writeFileAtomic } = require('./fs-atomic');

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return null; }
}

/** The run state of this process, written as it changes. */
class RunState {
  constructor(stateDir, { runId, out }) {
    fs.mkdirSync(stateDir, { recursive: true });
    const startTime = startTimeOf(process.pid);
    this.base = path.join(stateDir, `${process.pid}-${startTime}`);
    this.file = `${this.base}.json`;
    this.state = {
      runId, out, kit: { pid: process.pid, startTime }, startedAt: new Date().toISOString(),
      watchdog: null, processes: [], folders: [], mounts: [],
    };
    this.write();
  }

  write() {
    if (this.closed) return;
    // no fsync: the file must outlive a killed process, not a machine that lost power
    try { writeFileAtomic(this.file, JSON.stringify(this.state), { fsync: false }); } catch { /* a full disk: the watchdog still knows the processes */ }
  }

  addProcess(pid, what) {
    const startTime = startTimeOf(pid);
    if (!startTime) return;
    this.state.processes.push({ pid, startTime, what });
    this.write();
  }

  /** A child that exited: nothing to reap of it (its PID may soon be another process's). */
  removeProcess(pid) {
    const before = this.state.processes.length;
    this.state.processes = this.state.processes.filter((p) => p.pid !== pid);
    if (this.state.processes.length !== before) this.write();
  }

  addFolder(dir) { this.state.folders.push(dir); this.write(); }

  removeFolder(dir) { this.state.folders = this.state.folders.filter((d) => d !== dir); this.write(); }

  addMount(mount) { this.state.mounts.push(mount); this.write(); }

  setWatchdog(pid) { this.state.watchdog = { pid, startTime: startTimeOf(pid) }; this.write(); }

  /** The run ended and cleaned up after itself: nothing of it is left to reap. */
  close() {
    this.closed = true;
    for (const suffix of ['.json', '.procs.json']) fs.rmSync(`${this.base}${suffix}`, { force: true });
  }
}

/** Every run recorded in stateDir: [{ base, state, alive }]. */
function listRuns(stateDir) {
  let names;
  try { names = fs.readdirSync(stateDir); } catch { return []; }
  return names.filter((n) => /^\d+-\d+\.json$/.test(n)).map((n) => {
    const base = path.join(stateDir, n.replace(/\.json$/, ''));
    const state = readJson(`${base}.json`);
    if (!state) return null;
    return { base, state, alive: isSameProcess(state.kit.pid, state.kit.startTime) };
  }).filter(Boolean);
}

/** Other live runs of the kit on this machine: [{ runId, pid, out }]. */
function otherRuns(stateDir) {
  return listRuns(stateDir).filter((r) => r.alive && r.state.kit.pid !== process.pid)
    .map(({ state }) => ({ runId: state.runId, pid: state.kit.pid, out: state.out }));
}

function sleep(ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); }

/** The host's mount points: a mount the run made is normally private to its server's processes. */
function mountPoints() {
  try {
    return new Set(fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((l) => l.split(' ')[4]).filter(Boolean));
  } catch { return new Set(); }
}

/**
 * Stops what a dead run left and removes its folders: only processes that are still the ones it
 * recorded. Returns { processes, folders, mounts }: how many of each were found and dealt with.
 */
function reapRun(base, state) {
  const seen = readJson(`${base}.procs.json`)?.processes || [];
  const recorded = [...state.processes, ...seen];
  if (state.watchdog) recorded.push(state.watchdog);
  const unique = [...new Map(recorded.map((p) => [`${p.pid}-${p.startTime}`, p])).values()];
  const live = unique.filter((p) => p.pid !== process.pid && isSameProcess(p.pid, p.startTime));
  for (const p of live) signalIfSame(p, 'SIGKILL');
  // PostgreSQL's backends end once they see their postmaster gone: wait for all of them
  for (let i = 0; i < 50 && live.some((p) => isSameProcess(p.pid, p.startTime)); i++) sleep(100);
  let mounts = 0;
  const points = mountPoints();
  for (const m of state.mounts || []) {
    if (!points.has(m.target)) continue;
    try { require('node:child_process').execFileSync('umount', ['-l', m.target], { stdio: 'ignore' }); mounts += 1; } catch { /* not ours to undo */ }
  }
  // a backend started since the watchdog last looked ends on its own, its postmaster gone, but may
  // still be writing in its folder for a moment: the removal is tried again for a few seconds
  let folders = 0;
  const left = [];
  for (const dir of state.folders) {
    if (!fs.existsSync(dir)) continue;
    for (let i = 0; i < 25 && fs.existsSync(dir); i++) {
      try { fs.rmSync(dir, { recursive: true, force: true }); } catch { sleep(200); }
    }
    if (fs.existsSync(dir)) left.push(dir); else folders += 1;
  }
  if (left.length) {
    // kept for the next run or `orchestrate clean` to try again
    writeFileAtomic(`${base}.json`, JSON.stringify({ ...state, processes: [], watchdog: null, folders: left }));
    return { processes: live.length, folders, mounts, left: left.length };
  }
  for (const suffix of ['.json', '.procs.json']) fs.rmSync(`${base}${suffix}`, { force: true });
  return { processes: live.length, folders, mounts };
}

function summary({ processes, folders, mounts, left = 0 }) {
  const parts = [`${processes} process${processes === 1 ? '' : 'es'} stopped`, `${folders} temporary folder${folders === 1 ? '' : 's'} removed`];
  if (mounts) parts.push(`${mounts} mount${mounts === 1 ? '' : 's'} undone`);
  if (left) parts.push(`${left} folder${left === 1 ? '' : 's'} could not be removed yet (\`orchestrate clean\` tries again)`);
  return parts.join(', ');
}

function describeRun(state) {
  return `run ${state.runId} (pid ${state.kit.pid}${state.out ? `, results in ${state.out}` : ''})`;
}

/**
 * Reaps every dead run recorded in stateDir (one whose watchdog is still alive is left to it),
 * and collects what watchdogs reaped since. Returns one line per run dealt with.
 */
function reapDeadRuns(stateDir) {
  const lines = [];
  for (const { base, state, alive } of listRuns(stateDir)) {
    if (alive) continue;
    // its watchdog is at work on it this moment: give it a moment, then do it here
    for (let i = 0; i < 30 && state.watchdog && isSameProcess(state.watchdog.pid, state.watchdog.startTime) && fs.existsSync(`${base}.json`); i++) sleep(100);
    if (!fs.existsSync(`${base}.json`)) continue;
    lines.push(`${describeRun(state)} ended without cleaning up (killed?): reaped what it left, ${summary(reapRun(base, state))}`);
  }
  let names = [];
  try { names = fs.readdirSync(stateDir); } catch { /* no folder yet */ }
  // a state file's write cut short by the kill (writeFileAtomic's temporary name), once its run is dead
  for (const name of names.filter((n) => /^\.\d+-\d+\..*\.tmp$/.test(n))) {
    const [pid, startTime] = name.slice(1).split('.')[0].split('-');
    if (!isSameProcess(Number(pid), startTime)) fs.rmSync(path.join(stateDir, name), { force: true });
  }
  // a watchdog's last note written as its run ended well (and removed its own file): nothing to reap
  for (const name of names.filter((n) => /^\d+-\d+\.procs\.json$/.test(n))) {
    const [pid, startTime] = name.split('.')[0].split('-');
    if (!names.includes(`${pid}-${startTime}.json`) && !isSameProcess(Number(pid), startTime)) fs.rmSync(path.join(stateDir, name), { force: true });
  }
  names = names.filter((n) => n.endsWith('.reaped.json'));
  for (const name of names) {
    const note = readJson(path.join(stateDir, name));
    fs.rmSync(path.join(stateDir, name), { force: true });
    if (note) lines.push(`${describeRun(note.state)} was killed; its watchdog reaped what it left, ${summary(note.reaped)}`);
  }
  return lines;
}

module.exports = { RunState, listRuns, otherRuns, reapRun, reapDeadRuns, describeRun, summary, commandLine };
