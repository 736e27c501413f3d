'use strict';
// The compiled client: the calibration's loops in C on libmongoc (bench/compiled-client/
// calibration.c), a client that costs per call what the articles' clients cost (the 2.4 shell's
// C++ client, PHP's and pymongo's C extensions). `npm run bench` builds it (cc and pkg-config on
// Debian's libmongoc-dev, which `npm run setup` installs) into CLASSICS_COMPILED_CLIENT_DIR,
// named by its source's hash so that a changed source is never timed from an old binary; every
// run's calibration times it too where it has been built.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../config');

const SOURCE = path.join(ROOT, 'bench', 'compiled-client', 'calibration.c');
const PKG = 'libmongoc-1.0';

/** Where the binary of the current source lives (built or not). */
function binaryPath(config) {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(SOURCE)).digest('hex').slice(0, 16);
  return path.join(config.compiledClientDir, `calibration-${hash}`);
}

/** The built binary, or null where `npm run bench` has not built it on this machine. */
function builtCompiledClient(config) {
  const bin = binaryPath(config);
  return fs.existsSync(bin) ? bin : null;
}

/**
 * Builds the binary if it is not built; returns { bin } or { bin: null, reason } (no compiler,
 * no libmongoc-dev: the bench then says why it has no compiled client, and measures the rest).
 */
function buildCompiledClient(config) {
  const bin = binaryPath(config);
  if (fs.existsSync(bin)) return { bin };
  let flags;
  try {
    flags = execFileSync('pkg-config', ['--cflags', '--libs', PKG], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim().split(/\s+/);
  } catch {
    return { bin: null, reason: `pkg-config finds no ${PKG} (install Debian's libmongoc-dev: npm run setup does)` };
  }
  fs.mkdirSync(config.compiledClientDir, { recursive: true });
  const temp = `${bin}.${process.pid}.tmp`;
  try {
    execFileSync('cc', ['-O2', '-o', temp, SOURCE, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    fs.renameSync(temp, bin);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    return { bin: null, reason: `cc could not build ${path.relative(ROOT, SOURCE)}: ${String(err.stderr || err.message).trim().split('\n')[0]}` };
  }
  return { bin };
}

module.exports = { builtCompiledClient, buildCompiledClient, SOURCE };
