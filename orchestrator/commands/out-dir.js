'use strict';
// The folder a command writes to (--out), made or refused in a moment. Node's own recursive
// mkdir never returns for a path under /proc (it retries ENOENT for ever), so the folder is made
// one level at a time below its nearest existing ancestor, each level a plain mkdir that fails
// at once.
const fs = require('node:fs');
const path = require('node:path');
const { UsageError } = require('../errors');

function nearestExisting(dir) {
  let d = path.resolve(dir);
  while (!fs.existsSync(d)) {
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return d;
}

/** Makes dir (and any missing parents) and checks it can be written, or throws a UsageError. */
function makeOutDir(dir, option = '--out') {
  const target = path.resolve(dir);
  try {
    const base = nearestExisting(target);
    if (!fs.statSync(base).isDirectory()) throw new UsageError(`${option} ${dir} cannot be written: ENOTDIR (${base} is not a folder)`);
    const missing = path.relative(base, target).split(path.sep).filter(Boolean);
    let d = base;
    for (const part of missing) {
      d = path.join(d, part);
      fs.mkdirSync(d);
    }
    fs.accessSync(target, fs.constants.W_OK);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${option} ${dir} cannot be written: ${err.code || err.message}`);
  }
  return target;
}

/** A folder name for now, sortable and safe on every file system: 2026-11-23T12-00-00. */
function timestamp() {
  return new Date().toISOString().replace(/\..*$/, '').replace(/:/g, '-');
}

module.exports = { makeOutDir, timestamp };
