'use strict';
// Which machine a run was measured on. Timings from two machines are not comparable as absolute
// figures (the same finding at the same size was 3.58× on one machine and 6.51× on another of
// the same kind), so every run's header carries a fingerprint (run/test-bed.js machineFingerprint)
// and history and compare group or warn by its id. The id is derived here, in one place, from
// the parts that identify the machine (CPU model and count, memory, kernel); Node, recorded
// beside them, is software the kit runs, not the machine. A run from before fingerprints has
// its header's `machine` and `node`: the same fingerprint is derived from them (derived: true).
// The calibration (one record per server, written after the header) is the machine's canary: its
// bare driver's time per operation says whether the machine was as fast and as quiet as before.
const crypto = require('node:crypto');

const MIB = 1024 * 1024;

/**
 * The machine's id: the first 10 hex digits of a SHA-256 over its CPU model, CPU count, memory
 * (to the MiB: what the kernel keeps back moves by a few pages from one boot to the next) and
 * kernel. Parts that are unknown hash as null, so an id is always made.
 */
function machineId({ cpu = null, cores = null, memoryBytes = null, kernel = null } = {}) {
  const parts = [cpu, cores, Number.isFinite(memoryBytes) ? Math.round(memoryBytes / MIB) : null, kernel];
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 10);
}

/** "Linux 6.18.44-fc-v669 x64" (os.type, os.release, os.arch) → { kernel: "Linux 6.18.44-fc-v669", arch: "x64" }. */
function splitPlatform(platform) {
  const words = String(platform || '').trim().split(/\s+/).filter(Boolean);
  if (words.length < 3) return { kernel: words.join(' ') || null, arch: null };
  return { kernel: words.slice(0, -1).join(' '), arch: words.at(-1) };
}

/**
 * A fingerprint from the parts a header records ({ cpu, cores, memoryBytes, platform }, node):
 * { id, cpu, cores, memoryBytes, kernel, arch, node, canary }. canary names where the run keeps
 * its per-operation figures (its calibration records), not the figures.
 */
function fingerprintFrom(machine = {}, node = null) {
  const { kernel, arch } = splitPlatform(machine.platform);
  const parts = {
    cpu: typeof machine.cpu === 'string' ? machine.cpu.trim() : null,
    cores: Number.isInteger(machine.cores) ? machine.cores : null,
    memoryBytes: Number.isFinite(machine.memoryBytes) ? machine.memoryBytes : null,
    kernel,
  };
  return { id: machineId(parts), ...parts, arch, node: node ?? null, canary: CANARY };
}

/** Where a run's canary lies: its calibration records, each server's bare-driver time per operation. */
const CANARY = Object.freeze({ record: 'calibration', field: 'perOp.<type>.driverMs' });

/** A run header's fingerprint: the one it recorded, else derived from its `machine` (runs from before). */
function fingerprintOf(header) {
  if (header?.fingerprint?.id) return { ...header.fingerprint, derived: false };
  return { ...fingerprintFrom(header?.machine || {}, header?.node ?? null), derived: true };
}

/**
 * The canary of a run (readRun's answer): per server its calibration's bare-driver ms per
 * operation type ({ server: { insert, find, update, remove } }), or {} where the run calibrated
 * nothing.
 */
function canaryOf(data) {
  const out = {};
  for (const c of data.calibrations || []) {
    if (!c.perOp) continue;
    out[c.server] = Object.fromEntries(Object.entries(c.perOp).map(([type, f]) => [type, Number.isFinite(f?.driverMs) ? f.driverMs : null]));
  }
  return out;
}

/** The machine a run ran on: its fingerprint with its canary's figures (canaryOf). */
function machineOf(data) {
  return { ...fingerprintOf(data.run), figures: canaryOf(data) };
}

const gib = (bytes) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
const cpuWords = (cpu) => String(cpu || 'unknown CPU').replace(/\(R\)|\(TM\)|Processor/g, '').replace(/\s+/g, ' ').trim();

/** A machine in words: "2 × Intel Xeon, 23.5 GiB, Linux 6.18.44-fc-v669, Node v20.20.2 (machine 3f2a9c01de)". */
function machineWords(fp) {
  const parts = [
    `${fp.cores ?? '?'} × ${cpuWords(fp.cpu)}`, Number.isFinite(fp.memoryBytes) ? gib(fp.memoryBytes) : null, fp.kernel, fp.node ? `Node ${fp.node}` : null,
  ].filter(Boolean);
  return `${parts.join(', ')} (machine ${fp.id})`;
}

/** What differs between two fingerprints, in words: ["CPU Intel Xeon against AMD EPYC", ...]; [] where they are one machine. */
function machineDifferences(a, b) {
  const out = [];
  if (a.cpu !== b.cpu) out.push(`CPU ${cpuWords(a.cpu)} against ${cpuWords(b.cpu)}`);
  if (a.cores !== b.cores) out.push(`${a.cores} cores against ${b.cores}`);
  const [ma, mb] = [a, b].map((f) => Math.round((f.memoryBytes || 0) / MIB));
  if (ma !== mb) out.push(gib(a.memoryBytes) === gib(b.memoryBytes) ? `memory ${ma.toLocaleString('en-US')} MiB against ${mb.toLocaleString('en-US')} MiB` : `memory ${gib(a.memoryBytes)} against ${gib(b.memoryBytes)}`);
  if (a.kernel !== b.kernel) out.push(`kernel ${a.kernel} against ${b.kernel}`);
  if (!out.length && a.id !== b.id) out.push(`machine ${a.id} against ${b.id}`);
  return out;
}

module.exports = { machineId, fingerprintFrom, fingerprintOf, canaryOf, machineOf, machineWords, machineDifferences, splitPlatform, CANARY };
