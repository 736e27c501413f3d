'use strict';
// Calibration: what a shell adds to each operation on this server. The same operations, in the
// same order, timed the same way (performance.now() around each call), by a plain loop on the
// Node driver and through each shell running calibration-ops.js, in interleaved rounds so drift
// on the machine falls on all of them; with each side's own client CPU per operation
// (process.cpuUsage() around each loop). Every report prints it, so a reader can tell the
// server's time from the shell's; npm run bench runs it at length, on a server that answers at
// once too, to measure the shells themselves.
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { runShellScript } = require('./shells');
const { emptyDatabase, refusalText } = require('./ownership');

const SCRIPT = path.join(__dirname, 'calibration-ops.js');
const TYPES = ['insert', 'find', 'update', 'remove'];
const WARMUP = 50; // untimed operations of each type first, on every side (the bench takes more)

/** { totalMs, cpuUs } per operation type, timed in a shell as the scenario scripts time. */
async function timeInShell({ shell, uri, ops, warmup, server, database, logFile }) {
  const { measurements } = await runShellScript({ shell, uri, file: SCRIPT, vars: { OPS: ops, WARMUP: warmup, DB_NAME: database }, server, logFile });
  if (!measurements.length) throw new Error(`the calibration script printed no measurement in ${shell}`);
  return measurements[0];
}

/** { totalMs, cpuUs } per operation type, timed around each call of the driver. */
async function timeWithDriver({ client, ops, warmup, database }) {
  const db = client.db(database);
  const coll = db.collection('ops');
  await coll.drop().catch(() => {});
  await db.createCollection('ops');
  for (let w = 0; w < warmup; w++) {
    await coll.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
    await coll.findOne({ _id: -1 - w });
    await coll.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
    await coll.deleteOne({ _id: -1 - w });
  }
  const totals = Object.fromEntries(TYPES.map((t) => [t, 0]));
  const cpuUs = Object.fromEntries(TYPES.map((t) => [t, 0]));
  const timed = async (type, fn) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < ops; i++) {
      const t0 = performance.now();
      await fn(i);
      totals[type] += performance.now() - t0;
    }
    const c = process.cpuUsage(c0);
    cpuUs[type] = c.user + c.system;
  };
  await timed('insert', (i) => coll.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] }));
  await timed('find', (i) => coll.findOne({ _id: i }));
  await timed('update', (i) => coll.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } }));
  await timed('remove', (i) => coll.deleteOne({ _id: i }));
  return { totalMs: totals, cpuUs };
}

/**
 * Runs `rounds` rounds of the driver and every shell, each round in another order, and returns
 * per operation type the mean ms per operation of each: { driverMs, shellMs: { kit, mongosh },
 * ratio: { kit, mongosh } } (a shell's time over the driver's), and the client CPU µs per
 * operation: { driverCpuUs, shellCpuUs: { kit, mongosh } }. The scratch database is dropped
 * after, collection by collection where the user may not drop databases (readWrite); a clean-up
 * the server refuses is one line to `log`, and the calibration stands.
 */
async function measureCalibration({
  uri, client, ops = 200, rounds = 2, warmup = WARMUP, server = 'server', shells = ['mongosh'], database, logFile,
  log = (line) => process.stderr.write(`warning: ${line}\n`),
}) {
  const sides = ['driver', ...shells];
  const sums = Object.fromEntries(sides.map((s) => [s, Object.fromEntries(TYPES.map((t) => [t, 0]))]));
  const cpu = Object.fromEntries(sides.map((s) => [s, Object.fromEntries(TYPES.map((t) => [t, 0]))]));
  for (let r = 0; r < rounds; r++) {
    const order = sides.map((_, i) => sides[(i + r) % sides.length]);
    for (const side of order) {
      const { totalMs, cpuUs } = side === 'driver'
        ? await timeWithDriver({ client, ops, warmup, database })
        : await timeInShell({ shell: side, uri, ops, warmup, server, database, logFile });
      TYPES.forEach((t) => { sums[side][t] += totalMs[t]; cpu[side][t] += cpuUs[t]; });
    }
  }
  await emptyDatabase(client.db(database)).catch((err) => {
    log(`${server}: could not drop the kit's database ${database} after the calibration (${refusalText(err)}); drop it yourself when you are done`);
  });
  const n = ops * rounds;
  return Object.fromEntries(TYPES.map((t) => {
    const driverMs = sums.driver[t] / n;
    const shellMs = Object.fromEntries(shells.map((s) => [s, sums[s][t] / n]));
    return [t, {
      driverMs, shellMs, ratio: Object.fromEntries(shells.map((s) => [s, shellMs[s] / driverMs])),
      driverCpuUs: cpu.driver[t] / n, shellCpuUs: Object.fromEntries(shells.map((s) => [s, cpu[s][t] / n])),
    }];
  }));
}

module.exports = { measureCalibration, TYPES };
