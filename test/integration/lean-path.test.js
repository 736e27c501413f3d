'use strict';
// The kit's shell's lean path (orchestrator/kit-shell/api/lean.js) held to the driver's path it
// replaces, and the instrument the bench measures it on (bench/instant-server.js):
//  - the instant server holds awaitable hellos as mongod does, so the clients' monitors sit idle
//    while they run (the hellos it answers per second, printed);
//  - in its test mode it records every command document it receives: the same script in the kit's
//    shell with the lean path on and with `--lean off` (every call through the driver) must send
//    the same documents in the same order, field by field and in the driver's field order, apart
//    from lsid values and $clusterTime: the calibration script, and a scenario step with w:0 and
//    w:1 writes and driver-made _ids (embedded-comments' bench.js at smoke size);
//  - the same on the instant server as a replica set's primary, where the driver adds a
//    retryable write's txnNumber and gossips $clusterTime: the lean path must send the same
//    txnNumbers and the $clusterTime from the same reply (the server records which it was).
// (The probe of results and errors under both paths is in kit-shell.test.js; every scenario's
// measurements under both paths, in the scenario suites: test/helpers/scenario-suite.js.)
const assert = require('node:assert/strict');
const net = require('node:net');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { EJSON } = require('bson');
const { startInstantServer } = require('../../bench/instant-server');
const { runShell } = require('../helpers/kit-shell');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { scenarioPlan } = require('../../orchestrator/run/steps');
const { resolveConfig, SHELL_URI_VARIABLE, KIT_DATABASES } = require('../../orchestrator/config');
const { trackChild } = require('../../orchestrator/processes');

const CALIBRATION = path.resolve(__dirname, '..', '..', 'orchestrator', 'run', 'calibration-ops.js');
const DRIVER_LOOP = path.resolve(__dirname, '..', '..', 'orchestrator', 'run', 'calibration-driver.js');

function isHello(command) {
  return ['hello', 'ismaster'].includes(Object.keys(command)[0].toLowerCase());
}

/** One OP_MSG hello on a raw socket; resolves to the replies' { flags, at } as they come, for ms. */
function awaitableHello(port, { exhaust, ms }) {
  const { BSON } = require('bson');
  return new Promise((resolve, reject) => {
    const replies = [];
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      const send = (command, flags) => {
        const body = BSON.serialize(command);
        const message = Buffer.alloc(21 + body.length);
        message.writeInt32LE(message.length, 0);
        message.writeInt32LE(1, 4);
        message.writeInt32LE(2013, 12);
        message.writeUInt32LE(flags, 16);
        body.copy(message, 21);
        socket.write(message);
      };
      socket.once('data', (first) => {
        const { topologyVersion } = BSON.deserialize(first.subarray(21));
        socket.on('data', (chunk) => replies.push({ flags: chunk.readUInt32LE(16), at: Date.now() - started }));
        send({ hello: 1, topologyVersion, maxAwaitTimeMS: 300, $db: 'admin' }, exhaust ? 1 << 16 : 0);
      });
      send({ hello: 1, $db: 'admin' }, 0);
    });
    socket.on('error', reject);
    setTimeout(() => { socket.destroy(); resolve(replies); }, ms);
  });
}

/** The driver's calibration loop in a process of its own, as the calibration starts it. */
function driverLoop(uri, ops) {
  const child = trackChild(spawn(process.execPath, [DRIVER_LOOP, JSON.stringify({ OPS: ops, WARMUP: 10, DB_NAME: KIT_DATABASES.calibration })], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [SHELL_URI_VARIABLE]: uri },
  }));
  return new Promise((resolve) => child.on('close', resolve));
}

describe('the instant server, the bench\'s instrument', function () {
  this.timeout(120000);
  let server;
  before(async () => { server = await startInstantServer(); });
  after(async () => { if (server) await server.close(); });

  it('holds an awaitable hello until maxAwaitTimeMS, and with exhaustAllowed streams it with moreToCome', async () => {
    const held = await awaitableHello(server.port, { exhaust: false, ms: 1000 });
    assert.equal(held.length, 1, JSON.stringify(held));
    assert.ok(held[0].at >= 300, `answered after ${held[0].at} ms, before its maxAwaitTimeMS of 300`);
    assert.equal(held[0].flags & 2, 0, 'no moreToCome without exhaustAllowed');
    const streamed = await awaitableHello(server.port, { exhaust: true, ms: 1100 });
    assert.ok(streamed.length >= 2, `streamed: ${JSON.stringify(streamed)}`);
    assert.ok(streamed.every((r) => (r.flags & 2) === 2), 'every streamed reply has moreToCome');
    assert.ok(streamed[1].at - streamed[0].at >= 300, JSON.stringify(streamed));
  });

  it('leaves the clients\' monitors idle while they run (the kit\'s shell and a driver loop): hellos per second', async () => {
    const before = { ...server.stats, at: Date.now() };
    const kit = runShell('kit', { uri: server.uri, file: CALIBRATION, vars: { OPS: 2000, WARMUP: 100 } });
    const [result] = await Promise.all([kit, driverLoop(server.uri, 2000)]);
    assert.equal(result.code, 0, result.stderr);
    const seconds = (Date.now() - before.at) / 1000;
    const hellos = server.stats.hellos - before.hellos;
    const awaited = server.stats.awaitedHellos - before.awaitedHellos;
    process.stdout.write(`      ${hellos} hellos in ${seconds.toFixed(1)} s while two clients ran 16,000 operations (${(hellos / seconds).toFixed(2)} per second, ${awaited} of them awaited)\n`);
    // each client opens a few connections (monitor, pool, round-trip pinger), one handshake hello
    // each; its streaming monitor's awaitable hello is answered only every 10 s (maxAwaitTimeMS)
    assert.ok(hellos - awaited <= 8, `${hellos - awaited} hellos answered at once: a monitor loops`);
    assert.ok(awaited <= 2 * (1 + seconds / 10), `${awaited} awaited hellos answered in ${seconds.toFixed(1)} s`);
  });
});

/**
 * A received command as text to compare: lsid values (and the session ids endSessions lists) and
 * $clusterTime out, every ObjectId and every 24-hex-digit run in a string alike (a collection
 * named after a fresh ObjectId).
 */
function comparable({ command, moreToCome, clusterTimeSent }) {
  const canonical = EJSON.serialize(command, { relaxed: false });
  const normal = JSON.parse(JSON.stringify(canonical, (key, value) => {
    if (key === '$clusterTime') return undefined;
    if (key === 'lsid' && value && typeof value === 'object') return { id: 'LSID' };
    if (key === 'endSessions' && Array.isArray(value)) return value.map(() => ({ id: 'LSID' }));
    if (value && typeof value === 'object' && value.$oid !== undefined) return { $oid: 'OID' };
    if (typeof value === 'string') return value.replace(/[0-9a-f]{24}/g, 'HEX');
    return value;
  }));
  return `${moreToCome ? 'moreToCome ' : ''}${JSON.stringify(normal)}${clusterTimeSent ? ` $clusterTime: ${clusterTimeSent}` : ''}`;
}

/** The commands (no hellos) a script sends in the kit's shell with lean on and off (and which path took their calls). */
async function capture(server, file, vars) {
  const sent = {};
  for (const lean of ['on', 'off']) {
    server.received.length = 0;
    const r = await runShell('kit', { uri: server.uri, file, vars, lean });
    assert.equal(r.code, 0, `${lean}: ${r.stderr}`);
    sent[lean] = server.received.filter((x) => !isHello(x.command)).map(comparable);
    sent.calls = { ...sent.calls, [lean]: r.calls };
  }
  // the two runs took the two paths
  const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
  assert.ok(total(sent.calls.on.lean) > 0 && total(sent.calls.off.lean) === 0, JSON.stringify(sent.calls));
  assert.ok(Object.values(sent.calls.off.why).every((reasons) => Object.keys(reasons).every((r) => r === 'the lean path is off' || /a cursor|a bulk write/.test(r))), JSON.stringify(sent.calls.off.why));
  return sent;
}

function assertSame(sent) {
  assert.ok(sent.on.length > 10, `the script sent ${sent.on.length} commands`);
  for (let i = 0; i < Math.max(sent.on.length, sent.off.length); i++) {
    assert.equal(sent.on[i], sent.off[i], `command ${i + 1} of ${sent.off.length}`);
  }
}

/** embedded-comments' step at smoke size: w:0 and w:1 writes, and _ids the driver makes. */
function embeddedStep() {
  const scenario = discoverScenarios(resolveConfig().shellDir).find((s) => s.name === 'embedded-comments');
  const plan = scenarioPlan(scenario, 'smoke');
  const [step] = plan.steps;
  const vars = { ...step.vars, TOTAL: 20, DB_NAME: scenario.database, PASS: 1, PROGRESS: false, SEED: 1, SERVER_OWNED_BY_KIT: false };
  return { file: scenario.scriptPath(step), vars };
}

describe('what the lean path sends: command documents captured on the instant server (test mode), lean beside --lean off', function () {
  this.timeout(240000);
  let server;
  before(async () => { server = await startInstantServer({ record: true }); });
  after(async () => { if (server) await server.close(); });

  it('sends the driver\'s documents for the calibration script', async () => {
    const sent = await capture(server, CALIBRATION, { OPS: 5, WARMUP: 3 });
    assertSame(sent);
    const kinds = new Set(sent.on.map((c) => Object.keys(JSON.parse(c.replace(/^moreToCome /, '')))[0]));
    for (const kind of ['insert', 'find', 'update', 'delete']) assert.ok(kinds.has(kind), kind);
    assert.ok(sent.on.some((c) => /"lsid":\{"id":"LSID"\}/.test(c)), 'an lsid where the driver sends one');
  });

  it('sends the driver\'s documents for a scenario step with w:0 and w:1 writes and driver-made _ids (embedded-comments at smoke size)', async () => {
    // an article's step whose writes go w:0 (its probe of the server's w:0 handling), w:1, and
    // without _id, so that the driver makes one
    const { file, vars } = embeddedStep();
    const sent = await capture(server, file, vars);
    assertSame(sent);
    assert.ok(sent.on.some((c) => /^moreToCome \{"insert"/.test(c)), 'w:0 inserts as moreToCome');
    assert.ok(sent.on.some((c) => /^\{"insert".*"writeConcern":\{"w":\{"\$numberInt":"1"\}\}/.test(c)), 'w:1 inserts');
    assert.ok(sent.on.some((c) => /"documents":\[\{"comment":"[^"]+","_id":\{"\$oid":"OID"\}\}\]/.test(c)), 'the driver\'s _id, after the fields');
  });
});

describe('what the lean path sends to a replica set\'s primary: txnNumber and $clusterTime as the driver sends them (the instant server as a primary, test mode)', function () {
  this.timeout(240000);
  let server;
  before(async () => { server = await startInstantServer({ record: true, replicaSet: 'classics-rs' }); });
  after(async () => { if (server) await server.close(); });

  it('takes the primary\'s calls and sends the driver\'s documents for the calibration script: retryable writes\' txnNumbers, $clusterTime from the same reply', async () => {
    const sent = await capture(server, CALIBRATION, { OPS: 5, WARMUP: 3 });
    assertSame(sent);
    assert.ok(sent.on.some((c) => /^\{"insert".*"txnNumber":\{"\$numberLong":"\d+"\}/.test(c)), 'a retryable insert carries a txnNumber');
    assert.ok(sent.on.some((c) => /"\$clusterTime": the last on this connection$/.test(c) || / \$clusterTime: the last on this connection$/.test(c)), 'the $clusterTime gossiped');
    assert.ok(sent.on.filter((c) => /^\{"(insert|update|delete|find)"/.test(c)).every((c) => / \$clusterTime: the last on this connection$/.test(c)),
      sent.on.filter((c) => !/the last on this connection$/.test(c)).join('\n'));
  });

  it('sends the driver\'s documents for a scenario step with w:0 and w:1 writes (embedded-comments at smoke size)', async () => {
    const { file, vars } = embeddedStep();
    const sent = await capture(server, file, vars);
    assertSame(sent);
    assert.ok(sent.on.some((c) => /^moreToCome \{"insert"/.test(c) && !/txnNumber/.test(c)), 'w:0 inserts as moreToCome, no txnNumber');
    // the timed writes' client has retryable writes off, on both sides alike (the article's clients
    // had none, and w:0 writes cannot be retried): no txnNumber on its acknowledged inserts either
    assert.ok(sent.on.some((c) => /^\{"insert".*"writeConcern":\{"w":\{"\$numberInt":"1"\}\}/.test(c) && !/txnNumber/.test(c)), 'w:1 inserts without a txnNumber');
  });

  it('retries a write the driver retries once, with the same lsid and txnNumber, as the driver does', async () => {
    const sent = {};
    for (const lean of ['on', 'off']) {
      server.received.length = 0;
      server.failWrites(1);
      const r = await runShell('kit', { uri: server.uri, lean, code: "const c = db.getSiblingDB('classics_retry').w; printjson(c.insertOne({ _id: 1 }))" });
      assert.equal(r.code, 0, `${lean}: ${r.stderr}`);
      assert.match(r.stdout, /insertedId: 1/);
      sent[lean] = server.received.filter((x) => Object.keys(x.command)[0] === 'insert').map(comparable);
      if (lean === 'on') assert.equal(r.calls.lean.insertOne, 1, JSON.stringify(r.calls));
    }
    assert.equal(sent.on.length, 2, sent.on.join('\n'));
    assert.deepEqual(sent.on, sent.off);
    assert.equal(sent.on[0], sent.on[1], 'the retry sends the same command');
    assert.match(sent.on[0], /"txnNumber":\{"\$numberLong":"1"\}/);
  });
});
