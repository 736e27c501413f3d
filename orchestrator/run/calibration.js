'use strict';
// What the harness adds to each operation: the same operations, in the same order, timed the
// same way, once through a mongosh script and once through a plain loop on the Node driver.
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { runMongoshScript } = require('./mongosh');

const SCRIPT = path.join(__dirname, 'calibration-ops.js');
const TYPES = ['insert', 'find', 'update', 'remove'];
const CALIBRATION_DB = 'classics_calibration';
const WARMUP = 50; // untimed operations of each type first, on both sides

/** Total ms per operation type, timed in mongosh as the scenario scripts time. */
async function timeInMongosh({ uri, ops, server, logFile }) {
  const { measurements } = await runMongoshScript({ uri, file: SCRIPT, vars: { OPS: ops, WARMUP, DB_NAME: CALIBRATION_DB }, server, logFile });
  if (!measurements.length) throw new Error('the calibration script printed no measurement');
  return measurements[0].totalMs;
}

/** Total ms per operation type, timed around each call of the driver. */
async function timeWithDriver({ client, ops }) {
  const coll = client.db(CALIBRATION_DB).collection('ops');
  await coll.drop().catch(() => {});
  await client.db(CALIBRATION_DB).createCollection('ops');
  for (let w = 0; w < WARMUP; w++) {
    await coll.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
    await coll.findOne({ _id: -1 - w });
    await coll.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
    await coll.deleteOne({ _id: -1 - w });
  }
  const totals = { insert: 0, find: 0, update: 0, remove: 0 };
  const timed = async (type, fn) => {
    for (let i = 0; i < ops; i++) {
      const t0 = performance.now();
      await fn(i);
      totals[type] += performance.now() - t0;
    }
  };
  await timed('insert', (i) => coll.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] }));
  await timed('find', (i) => coll.findOne({ _id: i }));
  await timed('update', (i) => coll.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } }));
  await timed('remove', (i) => coll.deleteOne({ _id: i }));
  return totals;
}

/**
 * Runs `rounds` rounds, alternating which goes first so drift on the machine falls on both, and
 * returns per type the mean ms per operation for each and their ratio kit/driver.
 */
async function measureHarnessOverhead({ uri, client, ops = 200, rounds = 2, server = 'server', logFile }) {
  const kit = Object.fromEntries(TYPES.map((t) => [t, 0]));
  const driver = Object.fromEntries(TYPES.map((t) => [t, 0]));
  const add = (into, totals) => TYPES.forEach((t) => { into[t] += totals[t]; });
  for (let r = 0; r < rounds; r++) {
    const kitFirst = r % 2 === 0;
    if (kitFirst) add(kit, await timeInMongosh({ uri, ops, server, logFile }));
    add(driver, await timeWithDriver({ client, ops }));
    if (!kitFirst) add(kit, await timeInMongosh({ uri, ops, server, logFile }));
  }
  await client.db(CALIBRATION_DB).dropDatabase().catch(() => {});
  const n = ops * rounds;
  return Object.fromEntries(TYPES.map((t) => [t, {
    kitMs: kit[t] / n,
    driverMs: driver[t] / n,
    ratio: kit[t] / driver[t],
  }]));
}

module.exports = { measureHarnessOverhead, TYPES, CALIBRATION_DB };
