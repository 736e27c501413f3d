'use strict';
// What a run measured of a machine and a server that holds for the next run on them: each
// server's calibration and each scenario's raw probes (the inputs the planner fits, not its fitted
// models, so that a change of the planner still applies to them), kept in a folder of the user's
// cache (config.probeStoreDir) under a key of everything the figures depend on: the machine
// (run/test-bed.js machineKey), the server (its kind and the versions its record gives), the
// kit (package.json's version and a hash of the scenario's scripts and scenario.json, so that an
// edited script probes again) and the inputs that no budget changes (shell, workers, rounds, the
// sizes --set pins, a baseline beside it). Like criterion.rs's kept baseline: a later run starts
// from them once a short check says they still hold (run/probe.js, run/benchmarks.js). Each file
// is written whole or not at all; one that cannot be read or written is a warning, never a
// failed run: the store only saves time.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { redactUri } = require('../servers/spec');

/** The store's format: a file of another format is not read (and is replaced when written). */
const FORMAT = 1;

/**
 * How far a check may land from what the kept figures predict for it and the figures still be
 * reused: a share of the prediction, either way. A busier machine, or a server that changed
 * without a new version, moves it further.
 */
const REUSE_TOLERANCE = 0.25;

const KIT_VERSION = require('../../package.json').version;

const digest = (value) => crypto.createHash('sha256').update(typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value)).digest('hex');

/** A hash of the files a scenario's probes run: scenario.json, its steps' scripts and its baseline module. */
function scenarioDigest(scenario) {
  const files = ['scenario.json', ...new Set(scenario.steps.map((s) => s.script)), ...(scenario.baseline?.module ? [scenario.baseline.module] : [])];
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(scenario.dir, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** A hash of the calibration's own loops (the shell script, the driver's, their loop), which its figures depend on. */
function calibrationDigest() {
  const hash = crypto.createHash('sha256');
  for (const file of ['calibration-ops.js', 'calibration-driver.js', 'calibration-loop.js', 'calibration.js']) hash.update(fs.readFileSync(path.join(__dirname, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The server as its record gives it, in the fields a speed depends on: its kind, product, version,
 * engine and backend version (FerretDB's and PostgreSQL's or DocumentDB's), its topology and
 * compressor, and for a server the kit did not start, where it is (no password).
 */
function serverIdentity(server, kind = null) {
  return {
    kind: kind ?? server.kind ?? null,
    spec: server.started === false ? redactUri(server.spec) : server.spec ?? null,
    product: server.product ?? null,
    version: server.version ?? null,
    engine: server.engine ?? null,
    backendVersion: server.backendVersion ?? null,
    topology: server.topology ?? null,
    compressor: server.compressor ?? null,
  };
}

/** The kit's part of a key: its version, and the digest of what the kept figures ran. */
function kitIdentity(scriptsDigest, version = KIT_VERSION) {
  return { version, scripts: scriptsDigest };
}

/**
 * The key of a scenario's probes on a server: machine (run/test-bed.js machineKey), the server
 * (its record, and its kind as results/records.js serverKind reads it), the kit (its version,
 * the scenario's files) and the inputs no budget changes (run/probe.js probeInputs).
 */
function probeKey({ machine, server, kind = null, scenario, inputs, kitVersion = KIT_VERSION }) {
  return { machine, server: serverIdentity(server, kind), kit: kitIdentity(scenarioDigest(scenario), kitVersion), scenario: scenario.name, inputs };
}

/** The key of a server's calibration: as a probe's, with the calibration's own loops for the scenario's files. */
function calibrationKey({ machine, server, kind = null, inputs, kitVersion = KIT_VERSION }) {
  return { machine, server: serverIdentity(server, kind), kit: kitIdentity(calibrationDigest(), kitVersion), inputs };
}

/**
 * The store in a folder (null: nothing kept or read). read(kind, key) → the kept entry
 * ({ key, savedAt, ...data }) or null; write(kind, key, data) keeps it, saying in one line to
 * warn where it cannot.
 */
class ProbeStore {
  constructor(dir, { warn = (line) => process.stderr.write(`warning: ${line}\n`) } = {}) {
    this.dir = dir;
    this.warn = warn;
  }

  fileOf(kind, key) {
    return path.join(this.dir, kind, `${digest(key).slice(0, 24)}.json`);
  }

  read(kind, key) {
    const file = this.fileOf(kind, key);
    let entry;
    try {
      entry = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      if (err.code !== 'ENOENT') this.warn(`the kept ${kind} in ${file} could not be read (${err.code || err.message}): measuring again`);
      return null;
    }
    // a file of another format, or (however unlikely) another key under the same hash
    if (entry?.format !== FORMAT || JSON.stringify(entry.key) !== JSON.stringify(key)) return null;
    return entry;
  }

  write(kind, key, data) {
    const file = this.fileOf(kind, key);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, key, savedAt: new Date().toISOString(), ...data })}\n`, { fsync: false });
      return true;
    } catch (err) {
      this.warn(`could not keep the ${kind} for the next run in ${path.dirname(file)} (${err.message}); this run is not affected`);
      return false;
    }
  }
}

/** The store a run keeps its figures in: none where the setting is off. */
function openProbeStore(dir, options = {}) {
  return dir ? new ProbeStore(dir, options) : null;
}

/**
 * A check's figure against the kept figures' prediction for it: { ms, predictedMs, deviation
 * (ms / predictedMs - 1), within (inside REUSE_TOLERANCE) }; a figure missing on either side is
 * not within.
 */
function checkAgainst(ms, predictedMs) {
  const round = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);
  const deviation = Number.isFinite(ms) && predictedMs > 0 ? ms / predictedMs - 1 : null;
  return { ms: round(ms), predictedMs: round(predictedMs), deviation: round(deviation), within: deviation !== null && Math.abs(deviation) <= REUSE_TOLERANCE };
}

/** A kept entry's time, in words: 2026-11-28 23:50 UTC. */
function keptWhen(iso) {
  return `${String(iso).slice(0, 16).replace('T', ' ')} UTC`;
}

/** +58%, −7%: a check's deviation from its prediction. */
function deviationText(deviation) {
  if (deviation === null) return 'nothing to compare';
  const p = Math.round(deviation * 100);
  return `${p > 0 ? '+' : p < 0 ? '−' : '±'}${Math.abs(p)}%`;
}

module.exports = {
  ProbeStore, openProbeStore, probeKey, calibrationKey, scenarioDigest, calibrationDigest, serverIdentity, kitIdentity, checkAgainst, keptWhen, deviationText, REUSE_TOLERANCE, FORMAT,
};
