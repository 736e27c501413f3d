'use strict';
// The history store: every run folder on this machine (config.runsDir: reports/runs/*) and the
// folders a user adds (--runs DIR...: runs copied from another machine), read as one store. The
// run folders are the store: nothing is copied or cached on disk, so nothing can drift from what
// the runs recorded. Each run is read through the one reader (reader.js), once per process, and
// only where asked: a run's header says its machine and scenarios without reading the rest.
const fs = require('node:fs');
const path = require('node:path');
const { readRun, hasResults, RESULTS_FILE } = require('./reader');
const { fingerprintOf } = require('./machine');
const { UsageError } = require('../errors');

/** The run folders in a folder: itself where it holds a run, else its subfolders that do, by name. */
function runFoldersIn(dir) {
  if (hasResults(dir)) return [dir];
  let names;
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return names.filter((d) => d.isDirectory()).map((d) => path.join(dir, d.name)).filter(hasResults).sort();
}

/**
 * A run's header alone (the first line of its results.jsonl), or null where it cannot be read:
 * enough to say its machine, its scenarios and its start without reading its records.
 */
function readHeader(dir) {
  let fd;
  try {
    fd = fs.openSync(path.join(dir, RESULTS_FILE), 'r');
    const chunks = [];
    const buf = Buffer.alloc(64 * 1024);
    for (let read; (read = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) {
      const part = buf.subarray(0, read);
      const nl = part.indexOf(10);
      chunks.push(Buffer.from(nl >= 0 ? part.subarray(0, nl) : part));
      if (nl >= 0) break;
    }
    const header = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return header?.type === 'run' && header.params ? header : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The store over runsDir's run folders and those added (added: folders, each a run or a folder of
 * runs; one that holds none is refused in one line). Returns { runs: [{ dir, name, added, header,
 * machine (its fingerprint) }] (by start), problems (folders whose header cannot be read), read(dir)
 * (readRun, once per folder) }.
 */
function openHistory({ runsDir, added = [] }) {
  const seen = new Set();
  const runs = [];
  const problems = [];
  const take = (dir, isAdded) => {
    const real = path.resolve(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const header = readHeader(real);
    if (!header) { problems.push(`${real}: its results.jsonl has no readable run header; left out of the history`); return; }
    runs.push({ dir: real, name: path.basename(real), added: isAdded, header, machine: fingerprintOf(header) });
  };
  for (const dir of added) {
    const found = runFoldersIn(path.resolve(dir));
    if (!found.length) throw new UsageError(`${dir} holds no run (no results.jsonl in it or in its folders): give run folders, or a folder of them`);
    found.forEach((d) => take(d, true));
  }
  if (runsDir) runFoldersIn(path.resolve(runsDir)).filter((d) => d !== path.resolve(runsDir)).forEach((d) => take(d, false));
  runs.sort((a, b) => String(a.header.startedAt).localeCompare(String(b.header.startedAt)) || a.dir.localeCompare(b.dir));
  const cache = new Map();
  const read = (dir) => {
    if (!cache.has(dir)) cache.set(dir, readRun(dir));
    return cache.get(dir);
  };
  return { runs, problems, read };
}

module.exports = { openHistory, readHeader, runFoldersIn };
