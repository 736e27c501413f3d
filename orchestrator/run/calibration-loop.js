'use strict';
// The loops of calibration-ops.js for a Node program that is not a shell (the bare driver's
// calibration-driver.js, the bench's raw socket): WARMUP untimed rounds of every call, then OPS
// timed calls of each type with performance.now() around each and process.cpuUsage() around
// each loop, and the line the calibration reads, printed as a shell prints it.
const { performance } = require('node:perf_hooks');

/**
 * calls: { insert, find, update, remove }, each (i) => promise. Resolves to the calibration's
 * line: { scenario: 'harness', ops, totalMs: { type: ms }, cpuUs: { type: µs } }.
 */
async function timeCalls(calls, { ops, warmup }) {
  for (let w = 0; w < warmup; w++) {
    for (const call of Object.values(calls)) await call(-1 - w);
  }
  const totalMs = {};
  const cpuUs = {};
  for (const [type, call] of Object.entries(calls)) {
    const c0 = process.cpuUsage();
    let total = 0;
    for (let i = 0; i < ops; i++) {
      const t0 = performance.now();
      await call(i);
      total += performance.now() - t0;
    }
    const c = process.cpuUsage(c0);
    totalMs[type] = total;
    cpuUs[type] = c.user + c.system;
  }
  return { scenario: 'harness', ops, totalMs, cpuUs };
}

/** Runs main(vars) with the sizes given as JSON in argv[2]; an error is one line and exit code 1. */
function runLoopProgram(main) {
  main(JSON.parse(process.argv[2])).then((line) => {
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }).catch((err) => {
    process.stderr.write(`${err.name}: ${err.message}\n`);
    process.exitCode = 1;
  });
}

module.exports = { timeCalls, runLoopProgram };
