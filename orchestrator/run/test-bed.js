'use strict';
// What a result set was measured on, stored with it.
const fs = require('node:fs');
const os = require('node:os');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('../config');
const { runtimeGlibc } = require('../servers/deployment');
const { fingerprintFrom } = require('../results/machine');

function gitCommit() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return null;
  }
}

/** The setting a sysfs choice file selects ("always [madvise] never" → "madvise"), or null where there is none. */
function sysfsChoice(file) {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return /\[([^\]]+)\]/.exec(text)?.[1] ?? (text || null);
  } catch {
    return null;
  }
}

/**
 * Transparent huge pages, which mongod warns about at start-up (8.0 and later, with
 * tcmalloc-google, want enabled=always and defrag=defer+madvise; 7.0 and earlier, never), and
 * the glibc mongod runs on (2.35 and later take rseq, for which the kit sets GLIBC_TUNABLES).
 */
function memorySettings(root = '/sys/kernel/mm/transparent_hugepage') {
  return {
    transparentHugePages: { enabled: sysfsChoice(`${root}/enabled`), defrag: sysfsChoice(`${root}/defrag`) },
    glibc: runtimeGlibc(),
  };
}

/** The machine's parts a fingerprint is made of: { cpu, cores, memoryBytes, platform }. */
function machineParts() {
  const cpus = os.cpus();
  return { cpu: cpus[0] ? cpus[0].model.trim() : 'unknown', cores: cpus.length, memoryBytes: os.totalmem(), platform: `${os.type()} ${os.release()} ${os.arch()}` };
}

/**
 * This machine's fingerprint, as a run's header records it: { id, cpu, cores, memoryBytes,
 * kernel, arch, node, canary } (results/machine.js derives the id, for new runs and old alike;
 * canary names the calibration records that hold the per-operation figures).
 */
function machineFingerprint() {
  return fingerprintFrom(machineParts(), process.version);
}

function describeTestBed({ shell = 'mongosh' } = {}) {
  return {
    kit: { version: require('../../package.json').version, commit: gitCommit() },
    machine: { ...machineParts(), ...memorySettings() },
    fingerprint: machineFingerprint(),
    node: process.version,
    shell,
    mongosh: require('mongosh/package.json').version,
    driver: require('mongodb/package.json').version,
  };
}

/**
 * The machine a measurement of speed holds for, as one string: the machine's fingerprint id (its
 * CPU, cores, memory and kernel: results/machine.js, the one place the id is made) and Node's major
 * version (a minor one changes no loop the kit times). Figures kept from one run
 * (run/probe-store.js) are reused only on the same key.
 */
function machineKey(testBed = describeTestBed()) {
  const { id, arch } = fingerprintFrom(testBed.machine, testBed.node);
  return `${id} ${arch} node ${String(testBed.node).replace(/^v/, '').split('.')[0]}`;
}

module.exports = { describeTestBed, machineFingerprint, machineKey, memorySettings, sysfsChoice };
