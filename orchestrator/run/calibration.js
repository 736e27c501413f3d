'use strict';
// Calibration: what a shell adds to each operation on this server. The same operations, in the
// same order, timed the same way (performance.now() around each call), by a plain loop on the
// Node driver (calibration-driver.js, in a process of its own as each shell is), by any anchors
// given (the compiled client in C where it is built, and in the bench a raw Node socket: the
// floors a shell is measured against) and through each shell running calibration-ops.js, in
// interleaved rounds so drift on the machine falls on all of them; with each side's own client
// CPU per operation (process.cpuUsage() around each loop). Every report prints it, so a reader
// can tell the server's time from the shell's; npm run bench runs it at length, on a server that
// answers at once too, to measure the shells themselves.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { runShellScript, combineCalls } = require('./shells');
const { trackChild, dieWithKit } = require('../processes');
const { redactUri } = require('../servers/spec');
const { SHELL_URI_VARIABLE } = require('../config');
const { emptyDatabase, refusalText } = require('./ownership');
const { ScriptError } = require('../errors');

const SCRIPT = path.join(__dirname, 'calibration-ops.js');
const DRIVER_SCRIPT = path.join(__dirname, 'calibration-driver.js');
const TYPES = ['insert', 'find', 'update', 'remove'];
const WARMUP = 50; // untimed operations of each type first, on every side (the bench takes more)

/** { totalMs, cpuUs, calls } per operation type, timed in a shell as the scenario scripts time. */
async function timeInShell({ shell, uri, ops, warmup, server, database, logFile, lean }) {
  const { measurements, calls } = await runShellScript({ shell, uri, lean, file: SCRIPT, vars: { OPS: ops, WARMUP: warmup, DB_NAME: database }, server, logFile });
  if (!measurements.length) throw new ScriptError(`the calibration script printed no measurement in ${shell}`, { script: SCRIPT, server });
  return { ...measurements[0], calls };
}

/**
 * { totalMs, cpuUs } per operation type from a loop in a process of its own (the driver's, an
 * anchor's): started like a shell (the URI in the environment), it prints the calibration
 * script's line, {"scenario":"harness","ops","totalMs":{type: ms},"cpuUs":{type: µs}}.
 */
function timeInProcess({ what, command, args, uri, server }) {
  const child = trackChild(spawn(...dieWithKit(command, args), {
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
      return reject(new ScriptError(`the calibration's ${what} on '${server}' exited with code ${code}: ${redactUri(stderr.trim().split('\n').pop() || 'no output')}`, { script: what, server }));
    });
  });
}

/** The bare driver's side: calibration-driver.js. */
function timeWithDriver({ uri, ops, warmup, database, server }) {
  const vars = JSON.stringify({ OPS: ops, WARMUP: warmup, DB_NAME: database });
  return timeInProcess({ what: 'driver loop', command: process.execPath, args: [DRIVER_SCRIPT, vars], uri, server });
}

/** An anchor that is a program taking OPS WARMUP DB_NAME (the compiled client). */
function programAnchor(what, bin) {
  return ({ uri, ops, warmup, database, server }) => timeInProcess({ what, command: bin, args: [String(ops), String(warmup), database], uri, server });
}

/**
 * Runs `rounds` rounds of the driver, every anchor ({ name: ({ uri, ops, warmup, database,
 * server }) => { totalMs, cpuUs } }) and every shell, each round in another order, and returns
 * { perOp, anchors, calls }: per operation type the mean ms per operation of each, { driverMs, shellMs:
 * { kit, mongosh }, ratio: { kit, mongosh } } (a shell's time over the driver's), the client CPU
 * µs per operation, { driverCpuUs, shellCpuUs: { kit, mongosh } }, and with anchors { anchorMs,
 * anchorCpuUs } by anchor name; `anchors`, those that ran (one that fails is left out, said in
 * one line to `log`); `calls`, which path took the kit's shell's calls. The scratch
 * database is dropped after, collection by collection where the user may not drop databases
 * (readWrite); a clean-up the server refuses is one line to `log`, and the calibration stands.
 */
async function measureCalibration({
  uri, client, ops = 200, rounds = 2, warmup = WARMUP, server = 'server', shells = ['mongosh'], anchors = {}, lean = 'on', database, logFile,
  log = (line) => process.stderr.write(`warning: ${line}\n`),
}) {
  let anchorNames = Object.keys(anchors);
  const sides = ['driver', ...anchorNames, ...shells];
  const sums = Object.fromEntries(sides.map((s) => [s, Object.fromEntries(TYPES.map((t) => [t, 0]))]));
  const cpu = Object.fromEntries(sides.map((s) => [s, Object.fromEntries(TYPES.map((t) => [t, 0]))]));
  const kitCalls = [];
  const failed = new Set();
  for (let r = 0; r < rounds; r++) {
    const order = sides.map((_, i) => sides[(i + r) % sides.length]).filter((side) => !failed.has(side));
    for (const side of order) {
      const args = { uri, ops, warmup, database, server };
      let measured;
      if (anchors[side]) {
        // an anchor that cannot run here (a URI option libmongoc lacks) leaves the calibration standing
        measured = await anchors[side](args).catch((err) => {
          log(`${server}: the calibration goes on without its ${side} anchor: ${err.message}`);
          failed.add(side);
          return null;
        });
        if (!measured) continue;
      } else {
        measured = side === 'driver' ? await timeWithDriver(args) : await timeInShell({ ...args, shell: side, logFile, lean });
      }
      if (side === 'kit') kitCalls.push(measured.calls);
      TYPES.forEach((t) => { sums[side][t] += measured.totalMs[t]; cpu[side][t] += measured.cpuUs[t]; });
    }
  }
  anchorNames = anchorNames.filter((a) => !failed.has(a));
  await emptyDatabase(client.db(database)).catch((err) => {
    log(`${server}: could not drop the kit's database ${database} after the calibration (${refusalText(err)}); drop it yourself when you are done`);
  });
  const n = ops * rounds;
  const perOp = Object.fromEntries(TYPES.map((t) => {
    const driverMs = sums.driver[t] / n;
    const shellMs = Object.fromEntries(shells.map((s) => [s, sums[s][t] / n]));
    const measured = {
      driverMs, shellMs, ratio: Object.fromEntries(shells.map((s) => [s, shellMs[s] / driverMs])),
      driverCpuUs: cpu.driver[t] / n, shellCpuUs: Object.fromEntries(shells.map((s) => [s, cpu[s][t] / n])),
    };
    if (anchorNames.length) {
      measured.anchorMs = Object.fromEntries(anchorNames.map((a) => [a, sums[a][t] / n]));
      measured.anchorCpuUs = Object.fromEntries(anchorNames.map((a) => [a, cpu[a][t] / n]));
    }
    return [t, measured];
  }));
  return { perOp, anchors: anchorNames, calls: combineCalls(kitCalls) };
}

/**
 * One of each operation type in a shell, by a calibration's figures: the sum of its per-operation
 * means (ms), the figure a kept calibration's check is held to; null where the shell was not timed.
 */
function shellRoundMs(perOp, shell) {
  const each = TYPES.map((t) => perOp?.[t]?.shellMs?.[shell]);
  return each.every(Number.isFinite) ? each.reduce((a, b) => a + b, 0) : null;
}

module.exports = { measureCalibration, programAnchor, timeInProcess, shellRoundMs, TYPES };
