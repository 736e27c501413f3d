'use strict';
// Calibration: what a shell adds to each operation on this server. The same operations, in the
// same order, timed the same way (performance.now() around each call), by a plain loop on the
// Node driver (calibration-driver.js, in a process of its own as each shell is) and through each shell running calibration-ops.js, in interleaved rounds so drift
// on the machine falls on all of them; with each side's own client CPU per operation
// (process.cpuUsage() around each loop). Every report prints it, so a reader can tell the
// server's time from the shell's; npm run bench runs it at length, on a server that answers at
// once too, to measure the shells themselves.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { runShellScript } = require('./shells');
const { trackChild } = require('../processes');
const { redactUri } = require('../servers/spec');
const { SHELL_URI_VARIABLE } = require('../config');
const { emptyDatabase, refusalText } = require('./ownership');

const SCRIPT = path.join(__dirname, 'calibration-ops.js');
const DRIVER_SCRIPT = path.join(__dirname, 'calibration-driver.js');
const TYPES = ['insert', 'find', 'update', 'remove'];
const WARMUP = 50; // untimed operations of each type first, on every side (the bench takes more)

/** { totalMs, cpuUs } per operation type, timed in a shell as the scenario scripts time. */
async function timeInShell({ shell, uri, ops, warmup, server, database, logFile }) {
  const { measurements } = await runShellScript({ shell, uri, file: SCRIPT, vars: { OPS: ops, WARMUP: warmup, DB_NAME: database }, server, logFile });
  if (!measurements.length) throw new Error(`the calibration script printed no measurement in ${shell}`);
  return measurements[0];
}

/** { totalMs, cpuUs } per operation type, timed around each call of the bare driver, in a process of its own. */
function timeWithDriver({ uri, ops, warmup, database, server }) {
  const vars = JSON.stringify({ OPS: ops, WARMUP: warmup, DB_NAME: database });
  const child = trackChild(spawn(process.execPath, [DRIVER_SCRIPT, vars], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [SHELL_URI_VARIABLE]: uri },
  }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('{"scenario":"harness"'));
      if (code === 0 && line) return resolve(JSON.parse(line));
      return reject(new Error(`the calibration's driver loop on '${server}' exited with code ${code}: ${redactUri(stderr.trim().split('\n').pop() || 'no output')}`));
    });
  });
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
        ? await timeWithDriver({ uri, ops, warmup, database, server })
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
