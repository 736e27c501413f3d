'use strict';
// The driver's side of the calibration: calibration-ops.js's loops on the bare Node driver, in a
// process of its own, started like a shell (the URI in the environment, the sizes as JSON), so
// that it pays what a shell's process pays (a fresh JIT, its own GC) and its CPU time is its own.
// Prints the same line: {"scenario":"harness","ops","totalMs":{type: ms},"cpuUs":{type: µs}}.
// usage: node calibration-driver.js '{"OPS":200,"WARMUP":50,"DB_NAME":"classics_calibration"}'
const { performance } = require('node:perf_hooks');
const { MongoClient } = require('mongodb');
const { SHELL_URI_VARIABLE } = require('../config');

async function main({ OPS, WARMUP, DB_NAME }) {
  const client = new MongoClient(process.env[SHELL_URI_VARIABLE]);
  await client.connect();
  try {
    const db = client.db(DB_NAME);
    const ops = db.collection('ops');
    await ops.drop().catch(() => {});
    await db.createCollection('ops');
    for (let w = 0; w < WARMUP; w++) {
      await ops.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
      await ops.findOne({ _id: -1 - w });
      await ops.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
      await ops.deleteOne({ _id: -1 - w });
    }
    const calls = {
      insert: (i) => ops.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] }),
      find: (i) => ops.findOne({ _id: i }),
      update: (i) => ops.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } }),
      remove: (i) => ops.deleteOne({ _id: i }),
    };
    const totalMs = {};
    const cpuUs = {};
    for (const [type, call] of Object.entries(calls)) {
      const c0 = process.cpuUsage();
      let total = 0;
      for (let i = 0; i < OPS; i++) {
        const t0 = performance.now();
        await call(i);
        total += performance.now() - t0;
      }
      const c = process.cpuUsage(c0);
      totalMs[type] = total;
      cpuUs[type] = c.user + c.system;
    }
    process.stdout.write(`${JSON.stringify({ scenario: 'harness', ops: OPS, totalMs, cpuUs })}\n`);
  } finally {
    await client.close();
  }
}

main(JSON.parse(process.argv[2])).catch((err) => {
  process.stderr.write(`${err.name}: ${err.message}\n`);
  process.exitCode = 1;
});
