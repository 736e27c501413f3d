'use strict';
// Servers beyond one machine's loopback. A server far away: FerretDB 1.24 on SQLite in a network
// namespace the test makes itself, a round trip of 20 ms from the kit, run as a user's server;
// its record must hold that round trip, and the network, not the server, must be said to have
// decided the fixture's inserts. And where a real mongod (and its mongos) is at hand
// (MONGOMS_SYSTEM_BINARY), a local cluster of two shards behind one mongos, the fixture run
// through it: the record says sharded, the collections unsharded on their primary shard.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { invokeOnFixture, fixture } = require('../helpers/fixture');
const { skipUnless } = require('../helpers/servers');
const { skip } = require('../helpers/skips');
const { whyNoNamespace, makeFarNamespace, makeLoopbackNamespace, printed } = require('../helpers/netns');
const { retryUntil, freePort } = require('../../orchestrator/servers/net');
const { pingServer } = require('../../orchestrator/servers/ping');
const { readRun } = require('../../orchestrator/results/reader');
const { resolveConfig } = require('../../orchestrator/config');
const { networkShare } = require('../../orchestrator/analysis/network');

const config = resolveConfig();
const DELAY_MS = 20;

/** Resolves once a server answers a ping at uri (through the delay), or throws after timeoutMs. */
function answers(uri, timeoutMs = 30000) {
  return retryUntil(() => pingServer(uri, 1000), { timeoutMs, intervalMs: 200 });
}

describe('a server far away: FerretDB in a network namespace, 20 ms from the kit', function () {
  this.timeout(300000);
  let far;
  let uri;
  const dirs = [];

  before(async function () {
    skipUnless(this, 'ferretdb');
    const why = whyNoNamespace();
    if (why) skip(this, 'no network namespace', why);
    far = await makeFarNamespace({ delayMs: DELAY_MS });
    process.stdout.write(far.delay === 'netem'
      ? `      the delay: tc netem, ${DELAY_MS / 2} ms each way on the veth pair\n`
      : `      the delay: a relay on the far side, ${DELAY_MS / 2} ms each way (this kernel has no netem: ${far.why})\n`);
    const dir = far.tmp();
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'sqlite'));
    const ferretdb = far.spawnInside(config.ferretdbBin, [
      `--listen-addr=${far.listenOn(27017)}`, `--state-dir=${dir}`, '--debug-addr=-', '--telemetry=disable', '--log-level=warn',
      '--handler=sqlite', `--sqlite-url=file:${path.join(dir, 'sqlite')}/`,
    ], { cwd: dir });
    ferretdb.stderr.on('data', () => {});
    ferretdb.stdout.on('data', () => {});
    uri = await far.farUri(27017);
    await answers(uri);
  });

  after(async () => {
    if (far) await far.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  it('records the round trip, timed in the kit\'s shell as the scripts see it, and makes the verdict the network could have made inconclusive', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-far-run-'));
    dirs.push(out);
    const { code, stderr } = await invokeOnFixture([
      '--server', `far=${uri}`, '--size', 'smoke', '--set', 'DOCS=41', '--set', 'UPDATES=5', '--set', 'REMOVES=2', '--set', 'INSERTS=2',
      '--passes', '1', '--no-calibrate', '--yes', '--out', out,
    ]);
    assert.equal(code, 0, stderr);
    const run = readRun(out);
    const [server] = run.servers;
    assert.equal(server.topology, 'standalone');
    assert.ok(server.roundTripMs >= DELAY_MS * 0.9 && server.roundTripMs < DELAY_MS * 5, `roundTripMs ${server.roundTripMs}, the link's ${DELAY_MS} ms`);
    // timed as the scripts see it: in the kit's shell, on their kind of connection; the driver's ping beside it
    assert.match(server.roundTripVia, /^the kit's shell, on the scripts' own kind of connection$/, JSON.stringify(server));
    assert.equal(server.roundTripBy, 'an acknowledged update that matches nothing');
    assert.ok(server.driverRoundTripMs >= DELAY_MS * 0.9, `the driver's ping ${server.driverRoundTripMs}`);
    // what the URI asked of every client, and the default concerns, in the record
    assert.equal(server.retryWrites, true);
    assert.deepEqual(server.readPreference, { mode: 'primary', source: 'the default' });
    assert.ok(server.defaultWriteConcern && server.defaultReadConcern, JSON.stringify(server));
    const steps = run.records.filter((r) => r.type === 'step' && r.scenario === fixture.name);
    assert.ok(steps.length && steps.every((st) => st.flowControl && st.flowControl.engaged === false), JSON.stringify(steps.map((st) => st.flowControl)));
    const setup = run.measurements.filter((m) => m.scenario === fixture.name && m.step === 'setup');
    assert.equal(setup.length, 2);
    const share = networkShare(server, setup, { timeField: 'hrMs', opsField: 'inserted' });
    assert.equal(share.decided, true, `one round trip ${share.roundTripMs} ms of ${share.perOpMs.toFixed(2)} ms per insert`);
    assert.ok(share.share > 0.5 && share.share <= 1);
    process.stdout.write(`      round trip ${server.roundTripMs} ms in the kit's shell (the driver's ping ${server.driverRoundTripMs} ms); ${share.perOpMs.toFixed(2)} ms per insert over ${share.roundTrips} inserts: ${Math.round(share.share * 100)}% of it the round trip\n`);
    // and the verdict decided on those records says so, as data and in words
    const verdicts = JSON.parse(fs.readFileSync(path.join(out, 'verdicts.json'), 'utf8'));
    const sameSpeed = verdicts.find((v) => v.finding === 'same-speed' && v.server === 'far');
    const network = sameSpeed.reasons.find((r) => r.code === 'network-decided');
    assert.ok(network && network.share > 0.5, JSON.stringify(sameSpeed.reasons));
    assert.equal(sameSpeed.status, 'inconclusive', 'the network could have made the ratio');
    assert.match(sameSpeed.reason, /the network, not the server, could have made it: the round trip \([\d.]+ ms\) is \d+% of the time per operation/);
    const roundTripCell = new RegExp(`\\| far \\|.*\\| no \\| ${String(server.roundTripMs).replace('.', '\\.')} ms \\|`);
    assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), roundTripCell, 'the servers\' table gives the round trip');
  });
});

// its title holds " on mongod", so that npm run test:mongod runs it
describe('the fixture on mongod behind mongos: a local cluster of two shards', function () {
  this.timeout(600000);
  const procs = [];
  let root;
  let mongosUri;

  /** mongos beside the mongod MONGOMS_SYSTEM_BINARY names, or null. */
  const mongosBin = () => {
    const bin = process.env.MONGOMS_SYSTEM_BINARY;
    const beside = bin && path.join(path.dirname(bin), 'mongos');
    return beside && fs.existsSync(beside) ? beside : null;
  };

  before(async function () {
    skipUnless(this, 'mongod');
    if (!mongosBin()) skip(this, 'no mongos', `a sharded cluster: none beside ${process.env.MONGOMS_SYSTEM_BINARY}`);
    const { spawn } = require('node:child_process');
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sharded-'));
    const start = (bin, args, name) => {
      const log = fs.openSync(path.join(root, `${name}.log`), 'a');
      const child = spawn(bin, args, { stdio: ['ignore', log, log] });
      fs.closeSync(log);
      procs.push(child);
      return child;
    };
    // a config server and two shards, each a replica set of one member, as a production cluster's are
    const mongod = process.env.MONGOMS_SYSTEM_BINARY;
    const sets = {};
    for (const [name, role] of [['config', '--configsvr'], ['shard01', '--shardsvr'], ['shard02', '--shardsvr']]) {
      const port = await freePort();
      const dbpath = path.join(root, name);
      fs.mkdirSync(dbpath);
      start(mongod, [role, '--replSet', name, '--port', String(port), '--bind_ip', '127.0.0.1', '--dbpath', dbpath], name);
      const member = `mongodb://127.0.0.1:${port}/?directConnection=true`;
      await answers(member, 60000);
      const client = new MongoClient(member);
      await client.connect();
      await client.db('admin').command({ replSetInitiate: { _id: name, ...(role === '--configsvr' ? { configsvr: true } : {}), members: [{ _id: 0, host: `127.0.0.1:${port}` }] } });
      await retryUntil(async () => {
        if (!(await client.db('admin').command({ hello: 1 })).isWritablePrimary) throw new Error(`${name} has no primary yet`);
      }, { timeoutMs: 60000, intervalMs: 200 });
      await client.close();
      sets[name] = `${name}/127.0.0.1:${port}`;
    }
    const port = await freePort();
    start(mongosBin(), ['--configdb', sets.config, '--port', String(port), '--bind_ip', '127.0.0.1'], 'mongos');
    mongosUri = `mongodb://127.0.0.1:${port}/`;
    await answers(mongosUri, 60000);
    const client = new MongoClient(mongosUri);
    await client.connect();
    for (const shard of ['shard01', 'shard02']) await client.db('admin').command({ addShard: sets[shard], name: shard });
    await client.close();
  });

  after(async () => {
    for (const child of procs.reverse()) if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => { setTimeout(resolve, 2000); });
    for (const child of procs) if (child.exitCode === null) child.kill('SIGKILL');
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('runs the fixture through mongos: the record says sharded, its default write concern and that the collections stay unsharded on one shard', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-sharded-run-'));
    try {
      const { code, stderr } = await invokeOnFixture(['--server', `cluster=${mongosUri}`, '--size', 'smoke', '--passes', '1', '--no-calibrate', '--yes', '--out', out]);
      assert.equal(code, 0, stderr);
      const run = readRun(out);
      const [server] = run.servers;
      assert.equal(server.topology, 'sharded');
      assert.equal(server.topologyText, 'sharded cluster (mongos)');
      assert.equal(server.collectionsSharded, false);
      assert.equal(server.defaultWriteConcern?.w, 'majority');
      assert.equal(server.defaultReadConcern?.level, 'local');
      assert.ok(server.roundTripMs >= 0);
      assert.match(server.roundTripVia, /to one mongos$/);
      assert.ok(Number.isFinite(server.hopMs) && server.hopMs >= 0, `the hop from mongos to the shard: ${server.hopMs}`);
      assert.deepEqual(server.readPreference, { mode: 'primary', source: 'the default' });
      assert.ok(run.steps.every((st) => st.flowControl?.engaged === null), 'flow control is the shards\' own, not read through mongos');
      const measured = run.measurements.filter((m) => m.scenario === fixture.name && m.collection);
      assert.ok(measured.length > 0);
      for (const m of measured) {
        assert.equal(m.sharded, false, JSON.stringify(m));
        assert.ok(['shard01', 'shard02'].includes(m.primaryShard));
        assert.deepEqual(Object.keys(m.shards), [m.primaryShard]);
        assert.equal(m.shards[m.primaryShard].size, m.size);
      }
      assert.match(fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), /shards none of its collections/);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('the kit and its shell reach a mongodb+srv name that only the system\'s resolver knows, as mongosh does', function () {
  this.timeout(120000);
  let ns;
  let dir;
  const SRV_URI = 'mongodb+srv://c0.classics.test/classics_kit_srv?tls=false';
  const NODE_DNS_OFF = path.join(__dirname, '..', 'helpers', 'node-dns-off.js');

  /** Runs a Node program inside the namespace with Node's own resolver off: { code, out }. */
  const runInside = (args) => new Promise((resolve) => {
    const child = ns.spawnInside(process.execPath, ['--require', NODE_DNS_OFF, ...args], { cwd: path.join(__dirname, '..', '..') });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('exit', (code) => resolve({ code, out }));
  });

  before(async function () {
    skipUnless(this, 'ferretdb');
    const why = whyNoNamespace();
    if (why) skip(this, 'no network namespace', why);
    // the namespace's resolver is a DNS server inside it; the SRV record's host is in its hosts file
    ns = makeLoopbackNamespace({
      etc: {
        'resolv.conf': 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n',
        hosts: '127.0.0.1 localhost\n127.0.0.1 node1.c0.classics.test\n',
      },
    });
    const records = { srv: { '_mongodb._tcp.c0.classics.test': [{ target: 'node1.c0.classics.test', port: 27017 }] }, txt: { 'c0.classics.test': ['authSource=admin'] } };
    await printed(ns.spawnInside(process.execPath, [path.join(__dirname, '..', 'helpers', 'dns-responder.js'), '127.0.0.1', '53', JSON.stringify(records)]), 'listening');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-srv-'));
    fs.mkdirSync(path.join(dir, 'sqlite'));
    const ferretdb = ns.spawnInside(config.ferretdbBin, [
      '--listen-addr=127.0.0.1:27017', `--state-dir=${dir}`, '--debug-addr=-', '--telemetry=disable', '--log-level=warn',
      '--handler=sqlite', `--sqlite-url=file:${path.join(dir, 'sqlite')}/`,
    ], { cwd: dir });
    ferretdb.stdout.on('data', () => {});
    ferretdb.stderr.on('data', () => {});
    // FerretDB answering inside: the driver, from inside, on the plain host
    const up = await retryUntil(async () => {
      const r = await runInside(['-e', 'const { MongoClient } = require("mongodb"); const c = new MongoClient("mongodb://127.0.0.1:27017/", { serverSelectionTimeoutMS: 1000 }); c.db("admin").command({ ping: 1 }).then(() => c.close()).then(() => process.exit(0), () => process.exit(1));']);
      if (r.code !== 0) throw new Error(r.out);
      return r;
    }, { timeoutMs: 30000, intervalMs: 300 });
    assert.equal(up.code, 0);
  });

  after(async () => {
    if (ns) await ns.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('connects where the driver alone, asking Node\'s resolver, cannot', async () => {
    const driverAlone = await runInside(['-e', `const { MongoClient } = require("mongodb"); new MongoClient(${JSON.stringify(SRV_URI)}, { serverSelectionTimeoutMS: 2000 }).connect().then(() => process.exit(0), (e) => { console.log(e.message); process.exit(3); });`]);
    assert.equal(driverAlone.code, 3, `the driver resolved it on its own: ${driverAlone.out}`);
    const kit = await runInside([path.join('orchestrator', 'kit-shell', 'bin.js'), '--nodb', '--quiet', '--eval',
      `db = connect(${JSON.stringify(SRV_URI)}); print(JSON.stringify({ ok: db.runCommand({ ping: 1 }).ok, uri: db.getMongo().getURI().split('?')[0] }))`]);
    assert.equal(kit.code, 0, kit.out);
    assert.deepEqual(JSON.parse(kit.out.trim().split('\n').pop()), { ok: 1, uri: 'mongodb+srv://c0.classics.test/classics_kit_srv' }, 'the script sees the URI it was given, as in mongosh');
    const mongosh = await runInside([require.resolve('mongosh/bin/mongosh.js'), '--nodb', '--quiet', '--norc', '--eval',
      `db = connect(${JSON.stringify(SRV_URI)}); print(JSON.stringify({ ok: db.runCommand({ ping: 1 }).ok, uri: db.getMongo().getURI().split('?')[0] }))`]);
    assert.equal(mongosh.code, 0, mongosh.out);
    assert.deepEqual(JSON.parse(mongosh.out.trim().split('\n').pop()), JSON.parse(kit.out.trim().split('\n').pop()), 'mongosh, the same way');
  });

  it('runs the fixture through that name: the kit\'s own clients (its checks, lease, stats, calibration) and its shell alike', async () => {
    const { BIN } = require('../helpers/cli');
    const { FIXTURE_SHELL_DIR } = require('../helpers/fixture');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-srv-run-'));
    try {
      const child = ns.spawnInside(process.execPath, [BIN, '--server', `srv=${SRV_URI}`, '--size', 'smoke', '--set', 'DOCS=21', '--set', 'UPDATES=5',
        '--set', 'REMOVES=2', '--set', 'INSERTS=2', '--passes', '1', '--yes', '--out', out], {
        cwd: path.join(__dirname, '..', '..'),
        // every Node process of the run, the shells included, without Node's own resolver
        env: { ...process.env, CLASSICS_SHELL_DIR: FIXTURE_SHELL_DIR, NODE_OPTIONS: `--require ${NODE_DNS_OFF}` },
      });
      let said = '';
      child.stdout.on('data', (d) => { said += d; });
      child.stderr.on('data', (d) => { said += d; });
      const code = await new Promise((resolve) => { child.on('exit', resolve); });
      assert.equal(code, 0, said);
      const run = readRun(out);
      assert.deepEqual(run.failures, []);
      assert.equal(run.servers[0].product, 'FerretDB');
      assert.ok(run.measurements.some((m) => m.step === 'pass'), 'the shell measured');
      assert.equal(run.calibrations.length, 1, 'the calibration, its driver process too');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('gives the scripts\' private client one mongos of an SRV name: srvMaxHosts=1 resolves', async () => {
    const kit = await runInside([path.join('orchestrator', 'kit-shell', 'bin.js'), '--nodb', '--quiet', '--eval',
      `var m = new Mongo(${JSON.stringify(`${SRV_URI}&srvMaxHosts=1&maxPoolSize=1`)}); print(m.getDB('admin').runCommand({ ping: 1 }).ok)`]);
    assert.equal(kit.code, 0, kit.out);
    assert.equal(kit.out.trim().split('\n').pop(), '1');
  });
});
