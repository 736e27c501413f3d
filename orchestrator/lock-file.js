'use strict';
// A lock between processes on one machine (two runs making one PostgreSQL template cluster, the
// test workers making one fixture run): a file whose content names its holder, its PID and that
// process's start time. A PID alone is reused; a PID with its start time names one process for
// good, so a holder whose PID is alive under another start time is stale, as is one whose PID is
// gone. The file is published whole: written under a name of its own, then hard-linked to the
// lock's name, which fails where the lock is held. A crash before the link leaves no lock (only
// that temporary file, ignored), a crash after it a lock whose holder is dead, which the next
// taker removes. A wait has a deadline, and its error names the holder.
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const { isSameProcess, startTimeOf, commandLine } = require('./process-table');
const { LockTimeoutError } = require('./errors');

let counter = 0;

/** A process's start time: /proc/PID/stat's field 22 on Linux, `ps -o lstart=` elsewhere; null where there is none. */
function processStart(pid) {
  if (process.platform === 'linux') return startTimeOf(pid);
  const out = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
  return out.status === 0 && out.stdout.trim() ? out.stdout.trim() : null;
}

/** Whether the holder a lock names is still the process that took it. */
function holderAlive({ pid, startTime }) {
  if (!Number.isInteger(pid) || pid <= 0 || startTime == null) return false;
  if (process.platform === 'linux') return isSameProcess(pid, startTime);
  return processStart(pid) === String(startTime);
}

/** The lock's holder as written, with the file's inode; null where there is no lock; { invalid } where it is not one of ours. */
function readHolder(lock) {
  let fd;
  try { fd = fs.openSync(lock, 'r'); } catch (err) {
    if (err.code === 'ENOENT') return null;
    if (err.code === 'EISDIR') return { invalid: true, ino: fs.statSync(lock).ino }; // a folder: an older kit's lock
    throw err;
  }
  try {
    const { ino } = fs.fstatSync(fd);
    try {
      const holder = JSON.parse(fs.readFileSync(fd, 'utf8'));
      return { ...holder, ino };
    } catch {
      return { invalid: true, ino };
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Removes a stale lock: renamed aside first (atomic), then checked to be the file judged stale; one
 * another process took meanwhile (its inode differs) is put back.
 */
function breakStale(lock, ino) {
  const aside = `${lock}.stale.${process.pid}.${++counter}`;
  try { fs.renameSync(lock, aside); } catch (err) { if (err.code === 'ENOENT') return; throw err; }
  if (fs.lstatSync(aside).ino !== ino) {
    try { fs.linkSync(aside, lock); } catch { /* taken again meanwhile: theirs stands */ }
  }
  fs.rmSync(aside, { recursive: true, force: true });
}

/**
 * Takes the lock if it is free or stale: { mine: true }, else { holder: { pid, startTime, since, what } }.
 * `what` says what the holder is doing, for whoever waits.
 */
function tryLock(lock, what = '') {
  for (;;) {
    const temp = `${lock}.${process.pid}.${++counter}.tmp`;
    fs.writeFileSync(temp, JSON.stringify({ pid: process.pid, startTime: processStart(process.pid), since: new Date().toISOString(), what }));
    try {
      fs.linkSync(temp, lock);
      return { mine: true };
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    const holder = readHolder(lock);
    if (!holder) continue; // released meanwhile
    if (holder.invalid || !holderAlive(holder)) { breakStale(lock, holder.ino); continue; }
    const { ino, ...named } = holder;
    return { holder: named };
  }
}

/** Releases the lock where this process holds it (a lock taken over from this process is left alone). */
function unlock(lock) {
  const holder = readHolder(lock);
  if (holder && !holder.invalid && holder.pid === process.pid && String(holder.startTime) === String(processStart(process.pid))) fs.rmSync(lock, { force: true });
}

/** The holder in words: its PID, its command line where it can be read, what it does and since when. */
function describeHolder(holder) {
  const cmd = process.platform === 'linux' ? commandLine(holder.pid).slice(0, 120) : '';
  return `process ${holder.pid}${cmd ? ` (${cmd})` : ''}${holder.what ? `, ${holder.what}` : ''}, since ${holder.since}`;
}

const sleep = (ms) => new Promise((r) => { setTimeout(r, ms); });

/**
 * Waits for the lock and takes it, polling every pollMs; past timeoutMs, throws a LockTimeoutError
 * naming the holder.
 */
async function waitForLock(lock, { what = '', timeoutMs, pollMs = 100 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = tryLock(lock, what);
    if (got.mine) return;
    if (Date.now() >= deadline) throw new LockTimeoutError(lock, describeHolder(got.holder), timeoutMs);
    await sleep(pollMs);
  }
}

/** Runs fn holding the lock, and releases it after. */
async function withLock(lock, opts, fn) {
  await waitForLock(lock, opts);
  try { return await fn(); } finally { unlock(lock); }
}

module.exports = { tryLock, unlock, waitForLock, withLock, describeHolder, holderAlive, processStart };
