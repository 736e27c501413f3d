'use strict';
// The driver's side of the calibration: calibration-ops.js's loops on the bare Node driver, in a
// process of its own, started like a shell (the URI in the environment, the sizes as JSON), so
// that it pays what a shell's process pays (a fresh JIT, its own GC) and its CPU time is its own.
// Prints the same line: {"scenario":"harness","ops","totalMs":{type: ms},"cpuUs":{type: µs}}.
// usage: node calibration-driver.js '{"OPS":200,"WARMUP":50,"DB_NAME":"classics_calibration"}'
const { connectReaching } = require('../servers/reach');
const { SHELL_URI_VARIABLE } = require('../config');
const { timeCalls, runLoopProgram } = require('./calibration-loop');

async function main({ OPS, WARMUP, DB_NAME }) {
  const client = await connectReaching(process.env[SHELL_URI_VARIABLE]);
  try {
    const db = client.db(DB_NAME);
    const ops = db.collection('ops');
    await ops.drop().catch(() => {});
    await db.createCollection('ops');
    return await timeCalls({
      insert: (i) => ops.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] }),
      find: (i) => ops.findOne({ _id: i }),
      update: (i) => ops.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } }),
      remove: (i) => ops.deleteOne({ _id: i }),
    }, { ops: OPS, warmup: WARMUP });
  } finally {
    await client.close();
  }
}

runLoopProgram(main);
