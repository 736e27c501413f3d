'use strict';
// What the kernel says of a process, read from /proc: its start time (which, with its PID, names
// one process for good: a PID is reused, a PID and start time never are), its parent and its
// command line. Linux only; elsewhere every answer is "unknown" and nothing is ever signalled.
const fs = require('node:fs');

/** { ppid, startTime, state } from /proc/PID/stat, or null where there is no such process. */
function readStat(pid) {
  let text;
  try { text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return null; }
  // the command name, in parentheses, may itself hold spaces and parentheses: fields follow the last ')'
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
}

/** The process's start time (clock ticks since boot, as text), or null. */
function startTimeOf(pid) {
  return readStat(pid)?.startTime ?? null;
}

/** Whether PID is still the process that had this start time (and has not exited). */
function isSameProcess(pid, startTime) {
  const stat = readStat(pid);
  return Boolean(stat && stat.startTime === String(startTime) && stat.state !== 'Z');
}

function commandLine(pid) {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim(); } catch { return ''; }
}

/** Every live descendant of pid: [{ pid, startTime }], children before grandchildren. */
function descendantsOf(pid) {
  let entries;
  try { entries = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)); } catch { return []; }
  const children = new Map();
  const stats = new Map();
  for (const entry of entries) {
    const stat = readStat(entry);
    if (!stat || stat.state === 'Z') continue;
    stats.set(Number(entry), stat);
    if (!children.has(stat.ppid)) children.set(stat.ppid, []);
    children.get(stat.ppid).push(Number(entry));
  }
  const found = [];
  const queue = [...(children.get(pid) || [])];
  while (queue.length) {
    const p = queue.shift();
    found.push({ pid: p, startTime: stats.get(p).startTime });
    queue.push(...(children.get(p) || []));
  }
  return found;
}

/**
 * The CPU time, in clock ticks, of pid and every live descendant: each one's user and system time
 * and its reaped children's (utime + stime + cutime + cstime), so that a process that exits and
 * is reaped by its parent inside the tree moves its time to the parent rather than out of the
 * sum. One pass over /proc. Null where there is no /proc.
 */
function treeCpuTicks(pid) {
  let entries;
  try { entries = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)); } catch { return null; }
  const children = new Map();
  const ticks = new Map();
  for (const entry of entries) {
    let text;
    try { text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { continue; }
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    // fields 14 to 17 of proc(5): utime, stime, cutime, cstime
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  if (!ticks.has(pid)) return null;
  let sum = 0;
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift();
    sum += ticks.get(p) || 0;
    queue.push(...(children.get(p) || []));
  }
  return sum;
}

/** Sends signal to PID only if it is still that process; resolves whether it was sent. */
function signalIfSame({ pid, startTime }, signal = 'SIGKILL') {
  if (!isSameProcess(pid, startTime)) return false;
  try { process.kill(pid, signal); return true; } catch { return false; }
}

module.exports = { readStat, startTimeOf, isSameProcess, commandLine, descendantsOf, treeCpuTicks, signalIfSame };
