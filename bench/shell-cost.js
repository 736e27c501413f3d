'use strict';
// What each shell adds to an operation a scenario script times: the runs' own calibration
// (orchestrator/run/calibration.js: insert, find, update and remove by _id, performance.now()
// around each call, a plain driver loop beside each shell running calibration-ops.js, started as
// a run starts them, in interleaved rounds), run at length, with wall ms and client CPU µs per
// operation, on a server that answers every command at once (bench/instant-server.js, in a
// process of its own: what is left is the clients' own cost) and on the servers given. The
// driver's loop runs in this process, which does nothing else meanwhile. Its last figure, the kit's shell's
// worst operation type over the driver's, wall time, on the instant server, is the bench's
// `harness/driver ratio`.
const { MongoClient } = require('mongodb');
const { measureCalibration, TYPES } = require('../orchestrator/run/calibration');
const { SHELLS } = require('../orchestrator/run/shells');
const { KIT_DATABASES } = require('../orchestrator/config');
const { startInstantServerProcess } = require('./instant-server');

const GOALS = { wall: 1.10, cpu: 1.15 };

/**
 * targets: [{ name, uri?, ops, warmup }] (no uri: the instant server, started here). Resolves to
 * [{ name, ops, rounds, perOp }] and, from the instant server, the kit's worst ratios:
 * { targets, ratio, cpuRatio }.
 */
async function measureShellCost({ targets, rounds, log = () => {} }) {
  const measured = [];
  for (const target of targets) {
    const instant = target.uri ? null : await startInstantServerProcess();
    const uri = target.uri ?? instant.uri;
    const client = new MongoClient(uri);
    try {
      await client.connect();
      const perOp = await measureCalibration({
        uri, client, ops: target.ops, rounds, warmup: target.warmup, server: target.name, shells: SHELLS, database: KIT_DATABASES.calibration, log,
      });
      measured.push({ name: target.name, instant: !target.uri, ops: target.ops, rounds, perOp });
    } finally {
      await client.close();
      if (instant) await instant.close();
    }
  }
  const instant = measured.find((t) => t.instant) ?? measured[0];
  const worst = (f) => Math.max(...TYPES.map((t) => f(instant.perOp[t])));
  return {
    targets: measured,
    ratio: worst((v) => v.ratio.kit),
    cpuRatio: worst((v) => v.shellCpuUs.kit / v.driverCpuUs),
  };
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')).join('\n');
}

/** Per target, per operation: wall ms and CPU µs of the driver and each shell, and their ratios. */
function formatShellCost(cost) {
  const lines = [];
  for (const target of cost.targets) {
    lines.push('', `${target.name}${target.instant ? ' (answers every command at once: the clients\' own cost)' : ''}: ${target.ops} operations of each type × ${target.rounds} interleaved rounds`);
    const rows = [['operation', 'measure', 'driver', ...SHELLS, ...SHELLS.map((s) => `${s}/driver`)]];
    for (const type of TYPES) {
      const v = target.perOp[type];
      rows.push([`${type} by _id`, 'wall ms/op', v.driverMs.toFixed(3), ...SHELLS.map((s) => v.shellMs[s].toFixed(3)), ...SHELLS.map((s) => v.ratio[s].toFixed(3))]);
      rows.push(['', 'CPU µs/op', v.driverCpuUs.toFixed(0), ...SHELLS.map((s) => v.shellCpuUs[s].toFixed(0)), ...SHELLS.map((s) => (v.shellCpuUs[s] / v.driverCpuUs).toFixed(3))]);
    }
    lines.push(table(rows));
  }
  lines.push('', `kit shell on the instant server, worst operation: wall ×${cost.ratio.toFixed(3)} (goal ≤ ${GOALS.wall}: ${cost.ratio <= GOALS.wall ? 'met' : 'missed'}), client CPU ×${cost.cpuRatio.toFixed(3)} (goal ≤ ${GOALS.cpu}: ${cost.cpuRatio <= GOALS.cpu ? 'met' : 'missed'})`);
  return lines.join('\n');
}

module.exports = { measureShellCost, formatShellCost, GOALS };
