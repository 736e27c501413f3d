'use strict';
// The kept calibrations and probes (run/probe-store.js): what their key holds (a change of
// machine, server version, kit version, a scenario's script or an input no budget changes finds
// nothing kept), how they are written (whole, in the setting's folder) and read back, and the
// check that decides whether they are reused. The runs that reuse them are in
// test/integration/sizing.test.js.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  ProbeStore, openProbeStore, probeKey, calibrationKey, scenarioDigest, checkAgainst, deviationText, keptWhen, REUSE_TOLERANCE,
} = require('../../orchestrator/run/probe-store');
const { machineKey, describeTestBed } = require('../../orchestrator/run/test-bed');
const { probeInputs, checkAfter, CHECK_LEAST_MS } = require('../../orchestrator/run/probe');
const { resolveConfig } = require('../../orchestrator/config');
const { fixture, FIXTURE_SHELL_DIR } = require('../helpers/fixture');
const { discoverScenarios } = require('../../orchestrator/scenarios');

const bed = {
  machine: { cpu: 'Intel(R) Xeon(R) Processor', cores: 2, memoryBytes: 25276510208, platform: 'Linux 6.18.44 x64' },
  node: 'v20.19.2',
};
// a server as run/benchmarks.js has it once described (servers/start.js describeServer)
const ferretdbPg = {
  name: 'ferretdb-pg', spec: 'ferretdb-pg', kind: 'ferretdb-pg', started: true, uri: 'mongodb://127.0.0.1:1/',
  product: 'FerretDB', version: 'v1.24.0', engine: 'PostgreSQL', backendVersion: 'PostgreSQL 15.18',
};
const options = { shell: 'kit', lean: 'on', workers: 2 };
const keyOf = ({ machine = machineKey(bed), server = ferretdbPg, scenario = fixture, opts = options, kitVersion } = {}) => probeKey({
  machine, server, kind: server.kind, scenario, inputs: probeInputs(scenario, server, opts), ...(kitVersion ? { kitVersion } : {}),
});

describe('kept probes and calibrations', () => {
  let dir;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-probe-store-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keys a machine by its CPU, cores, memory, kernel, architecture and Node\'s major version', () => {
    const key = machineKey(bed);
    assert.equal(key, machineKey(structuredClone(bed)));
    assert.equal(machineKey({ ...bed, node: 'v20.20.0' }), key, 'a minor version of Node is the same machine');
    for (const other of [
      { ...bed, node: 'v22.1.0' },
      { ...bed, machine: { ...bed.machine, cpu: 'AMD EPYC 7763 64-Core Processor' } },
      { ...bed, machine: { ...bed.machine, cores: 4 } },
      { ...bed, machine: { ...bed.machine, memoryBytes: 2 * bed.machine.memoryBytes } },
      { ...bed, machine: { ...bed.machine, platform: 'Linux 6.1.0 x64' } },
      { ...bed, machine: { ...bed.machine, platform: 'Linux 6.18.44 arm64' } },
    ]) assert.notEqual(machineKey(other), key, JSON.stringify(other));
    // the machine's fingerprint id (results/machine.js, the id history and compare group by), its architecture, Node's major version
    const here = describeTestBed();
    assert.equal(machineKey(here), `${here.fingerprint.id} ${process.arch} node ${process.versions.node.split('.')[0]}`);
  });

  it('keeps what it is given and reads it back under the same key only, written whole', () => {
    const store = new ProbeStore(dir);
    const key = keyOf();
    assert.equal(store.read('probes', key), null, 'nothing kept yet');
    const probes = [{ sizes: { DOCS: 21 }, steps: { setup: { ms: 700 } }, warmup: true }, { sizes: { DOCS: 100 }, steps: { setup: { ms: 900 } } }];
    assert.equal(store.write('probes', key, { probes, fixedMs: {} }), true);
    const kept = store.read('probes', key);
    assert.deepEqual(kept.probes, probes);
    assert.deepEqual(kept.key, key);
    assert.ok(Date.now() - Date.parse(kept.savedAt) < 60000);
    // no temporary file is left beside it
    assert.deepEqual(fs.readdirSync(path.join(dir, 'probes')).filter((f) => !f.endsWith('.json')), []);
    // the same key's next write replaces it
    store.write('probes', key, { probes: probes.slice(0, 1), fixedMs: {} });
    assert.equal(store.read('probes', key).probes.length, 1);
  });

  it('finds nothing kept after a change of server version, backend, server, machine, kit version or a scenario\'s script', () => {
    const store = new ProbeStore(dir);
    store.write('probes', keyOf(), { probes: [{ sizes: {}, steps: {} }] });
    assert.ok(store.read('probes', keyOf()), 'the same key finds it');
    const changed = {
      'a FerretDB version': keyOf({ server: { ...ferretdbPg, version: 'v1.24.1' } }),
      'a PostgreSQL version': keyOf({ server: { ...ferretdbPg, backendVersion: 'PostgreSQL 16.4' } }),
      'another server': keyOf({ server: { ...ferretdbPg, name: 'ferretdb', spec: 'ferretdb', kind: 'ferretdb', engine: 'SQLite', backendVersion: null } }),
      'another machine': keyOf({ machine: machineKey({ ...bed, machine: { ...bed.machine, cores: 16 } }) }),
      'a kit version': keyOf({ kitVersion: '0.2.0' }),
      'another shell': keyOf({ opts: { ...options, shell: 'mongosh' } }),
      'a --set': keyOf({ opts: { ...options, overrides: { DOCS: 50 } } }),
      'another count of workers': keyOf({ opts: { ...options, workers: 4 } }),
    };
    for (const [what, key] of Object.entries(changed)) assert.equal(store.read('probes', key), null, what);
    // the budget is no part of the key: a run at another budget starts from the same probes
    assert.ok(store.read('probes', keyOf({ opts: { ...options, budgetSeconds: 600 } })));
  });

  it('hashes a scenario\'s scripts and scenario.json: an edited script is another key', () => {
    const copy = path.join(dir, 'shell');
    fs.cpSync(FIXTURE_SHELL_DIR, copy, { recursive: true });
    const [scenario] = discoverScenarios(copy);
    assert.equal(scenarioDigest(scenario), scenarioDigest(fixture), 'the same files, the same digest');
    const script = scenario.scriptPath(scenario.steps[0]);
    fs.appendFileSync(script, '\n// an edit\n');
    assert.notEqual(scenarioDigest(scenario), scenarioDigest(fixture));
    assert.notDeepEqual(keyOf({ scenario }), keyOf());
  });

  it('keys a calibration by machine, server and the calibration\'s own inputs, with no password', () => {
    const inputs = { ops: 100, rounds: 2, shells: ['kit', 'mongosh'], anchors: [], lean: 'on' };
    const key = calibrationKey({ machine: machineKey(bed), server: ferretdbPg, kind: 'ferretdb-pg', inputs });
    assert.deepEqual(calibrationKey({ machine: machineKey(bed), server: ferretdbPg, kind: 'ferretdb-pg', inputs }), key);
    assert.notDeepEqual(calibrationKey({ machine: machineKey(bed), server: { ...ferretdbPg, version: 'v1.25.0' }, kind: 'ferretdb-pg', inputs }), key);
    const user = { name: 'mine', spec: 'mongodb://me:secret@db.example:27017/', kind: 'uri', started: false, product: 'MongoDB', version: '8.0.4' };
    const userKey = calibrationKey({ machine: machineKey(bed), server: user, kind: 'mongod', inputs });
    assert.doesNotMatch(JSON.stringify(userKey), /secret/);
  });

  it('says in one line where a kept file cannot be read or written, and the run goes on', () => {
    const warnings = [];
    const store = new ProbeStore(dir, { warn: (line) => warnings.push(line) });
    const key = keyOf();
    fs.mkdirSync(path.join(dir, 'probes'));
    fs.writeFileSync(store.fileOf('probes', key), '{"format": 1, "key": ');
    assert.equal(store.read('probes', key), null);
    assert.equal(warnings.length, 1, 'a file that is no JSON (a hand edit) is said, and read as nothing kept');
    assert.match(warnings[0], /^the kept probes in .*\.json could not be read \(.*\): measuring again$/);
    fs.writeFileSync(store.fileOf('probes', key), JSON.stringify({ format: 0, key, probes: [] }));
    assert.equal(store.read('probes', key), null, 'another format is not read');
    const blocked = new ProbeStore(path.join(dir, 'a-file'), { warn: (line) => warnings.push(line) });
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    assert.equal(blocked.write('probes', key, { probes: [] }), false);
    assert.equal(warnings.length, 2);
    assert.match(warnings[1], /^could not keep the probes for the next run in .*a-file\/probes \(.*\); this run is not affected$/);
  });

  it('reuses where the check lands within 25% of the prediction, either way', () => {
    assert.equal(REUSE_TOLERANCE, 0.25);
    assert.deepEqual(checkAgainst(1250, 1000), { ms: 1250, predictedMs: 1000, deviation: 0.25, within: true });
    assert.equal(checkAgainst(750, 1000).within, true);
    assert.equal(checkAgainst(1260, 1000).within, false);
    assert.equal(checkAgainst(740, 1000).within, false);
    assert.equal(checkAgainst(1900, 1200).deviation, 0.583);
    assert.equal(checkAgainst(500, 0).within, false, 'nothing to compare with');
    assert.equal(checkAgainst(null, 1000).within, false);
    assert.equal(deviationText(0.583), '+58%');
    assert.equal(deviationText(-0.07), '−7%');
    assert.equal(keptWhen('2026-11-28T23:50:12.345Z'), '2026-11-28 23:50 UTC');
  });

  it('checks a scenario\'s first steps at the kept first probe\'s sizes until they took 2 s there, less the parallel steps\' known start', () => {
    assert.equal(CHECK_LEAST_MS, 2000);
    const first = { sizes: { N: 10 }, warmup: true, steps: { load: { ms: 800 }, parallel: { ms: 5000 }, read: { ms: 400 } } };
    const fixedMs = { parallel: 3800 };
    const at = (steps) => checkAfter(first, steps, { fixedMs, stepCount: 3 });
    assert.equal(at({ load: { ms: 810 } }), null, '0.8 s: not enough to tell');
    // load and parallel: 0.8 + (5.0 - 3.8) = 2.0 s of work kept, against 0.9 + (5.3 - 3.8) = 2.4 s now
    assert.deepEqual(at({ load: { ms: 900 }, parallel: { ms: 5300 } }), { sizes: { N: 10 }, steps: ['load', 'parallel'], ms: 2400, predictedMs: 2000, deviation: 0.2, within: true });
    assert.equal(at({ load: { ms: 900 }, parallel: { ms: 5600 } }).within, false, '2.7 s against 2.0 s: +35%');
    // a scenario whose every step is short is checked on all of them
    const short = { sizes: {}, steps: { a: { ms: 300 }, b: { ms: 300 } } };
    assert.equal(checkAfter(short, { a: { ms: 300 } }, { stepCount: 2 }), null);
    assert.deepEqual(checkAfter(short, { a: { ms: 300 }, b: { ms: 450 } }, { stepCount: 2 }).steps, ['a', 'b']);
  });

  it('keeps its folder under the user\'s cache, a setting overrides it, and off keeps nothing', () => {
    assert.equal(resolveConfig({ XDG_CACHE_HOME: '/c' }).probeStoreDir, path.join('/c', 'mongo-classics', 'probes'));
    assert.equal(resolveConfig({}).probeStoreDir, path.join(os.homedir(), '.cache', 'mongo-classics', 'probes'));
    assert.equal(resolveConfig({ CLASSICS_PROBE_STORE: '/p', XDG_CACHE_HOME: '/c' }).probeStoreDir, '/p');
    assert.equal(resolveConfig({ CLASSICS_PROBE_STORE: 'off' }).probeStoreDir, null);
    assert.equal(openProbeStore(null), null);
  });
});
