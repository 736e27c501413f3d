'use strict';
// What each client adds to an operation a scenario script times: the runs' own calibration
// (orchestrator/run/calibration.js: insert, find, update and remove by _id, a clock read around
// each call, every side in a process of its own started as a run starts it, in interleaved
// rounds) run at length, with wall ms and client CPU µs per operation, for:
//   compiled  the loops in C on libmongoc (bench/compiled-client/calibration.c, built here): the
//             cost of a compiled client, as the articles' clients were;
//   raw node  the loops in Node on a bare socket (bench/raw-socket.js): Node's own floor;
//   driver    the loops on the Node driver's API (calibration-driver.js);
//   kit       the kit's shell running calibration-ops.js (its lean path where it covers a call);
//   mongosh   mongosh running the same script;
// on a server that answers every command at once (bench/instant-server.js, in a process of its
// own, holding awaitable hellos as mongod does: what is left is the clients' own cost) and on
// the servers given. Its figures: per operation type, the kit over the compiled client (wall
// and CPU) and over the driver; the bench ends with the kit's worst operation type over the
// compiled client, wall time, on the instant server: `kit/compiled ratio`.
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { measureCalibration, programAnchor, timeInProcess, TYPES } = require('../orchestrator/run/calibration');
const { buildCompiledClient } = require('../orchestrator/run/compiled-client');
const { SHELLS } = require('../orchestrator/run/shells');
const { KIT_DATABASES } = require('../orchestrator/config');
const { startInstantServerProcess } = require('./instant-server');

/** The goals: the kit within 1.5× a compiled client, wall and client CPU, worst operation. */
const GOALS = { wall: 1.5, cpu: 1.5 };
const RAW_SOCKET = path.join(__dirname, 'raw-socket.js');

/** The raw-socket floor as a calibration anchor (no TLS, no authentication: servers the kit started). */
function rawSocketAnchor({ uri, ops, warmup, database, server }) {
  const vars = JSON.stringify({ OPS: ops, WARMUP: warmup, DB_NAME: database });
  return timeInProcess({ what: 'raw-socket loop', command: process.execPath, args: [RAW_SOCKET, vars], uri, server });
}

/** The instant server's count of hellos answered, and since when (its instantServerStats command). */
async function helloCount(client) {
  const { hellos, sinceMs } = await client.db('admin').command({ instantServerStats: 1 });
  return { hellos, sinceMs };
}

/**
 * targets: [{ name, uri?, ops, warmup }] (no uri: the instant server, started here). Resolves to
 * { targets: [{ name, instant, ops, rounds, perOp, calls, hellosPerSecond? }], compiled: { bin,
 * reason }, ratio, cpuRatio, compiledRatio, compiledCpuRatio }: the kit's worst ratios on the
 * instant server, over the driver and over the compiled client (null where it was not built).
 */
async function measureShellCost({ targets, rounds, config, log = () => {} }) {
  const compiled = buildCompiledClient(config);
  const anchors = { ...(compiled.bin ? { compiled: programAnchor('compiled client', compiled.bin) } : {}), 'raw node': rawSocketAnchor };
  const measured = [];
  for (const target of targets) {
    const instant = target.uri ? null : await startInstantServerProcess();
    const uri = target.uri ?? instant.uri;
    const client = new MongoClient(uri);
    try {
      await client.connect();
      const before = instant ? await helloCount(client) : null;
      const { perOp, calls } = await measureCalibration({
        uri, client, ops: target.ops, rounds, warmup: target.warmup, server: target.name, shells: SHELLS, anchors, database: KIT_DATABASES.calibration, log,
      });
      const entry = { name: target.name, instant: !target.uri, ops: target.ops, rounds, perOp, calls };
      if (instant) {
        const after = await helloCount(client);
        entry.hellos = after.hellos - before.hellos;
        entry.hellosPerSecond = entry.hellos / ((after.sinceMs - before.sinceMs) / 1000);
        entry.seconds = (after.sinceMs - before.sinceMs) / 1000;
      }
      measured.push(entry);
    } finally {
      await client.close();
      if (instant) await instant.close();
    }
  }
  const instant = measured.find((t) => t.instant) ?? measured[0];
  const worst = (f) => Math.max(...TYPES.map((t) => f(instant.perOp[t])));
  const hasCompiled = TYPES.every((t) => instant.perOp[t].anchorMs?.compiled !== undefined);
  return {
    targets: measured,
    compiled,
    ratio: worst((v) => v.ratio.kit),
    cpuRatio: worst((v) => v.shellCpuUs.kit / v.driverCpuUs),
    compiledRatio: hasCompiled ? worst((v) => v.shellMs.kit / v.anchorMs.compiled) : null,
    compiledCpuRatio: hasCompiled ? worst((v) => v.shellCpuUs.kit / v.anchorCpuUs.compiled) : null,
  };
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')).join('\n');
}

/** The sides of a target in the table's order: the anchors (compiled, raw node), the driver, the shells. */
function sidesOf(perOp) {
  return [...Object.keys(perOp.anchorMs ?? {}), 'driver', ...Object.keys(perOp.shellMs)];
}
function wallOf(v, side) {
  return side === 'driver' ? v.driverMs : v.shellMs[side] ?? v.anchorMs[side];
}
function cpuOf(v, side) {
  return side === 'driver' ? v.driverCpuUs : v.shellCpuUs[side] ?? v.anchorCpuUs[side];
}
function ratioText(a, b) {
  return b > 0 && Number.isFinite(a / b) ? (a / b).toFixed(2) : '–';
}

/** Which path took the kit's calls, in a line. */
function callsText(calls) {
  if (!calls) return 'the kit\'s shell said nothing about its calls';
  const n = (side) => Object.values(calls[side]).reduce((a, b) => a + b, 0);
  return `the kit's shell's calls: ${n('lean')} on its lean path, ${n('driver')} through the driver (${calls.path})`;
}

/** Per target, per operation: wall ms and CPU µs of every side, and the kit's ratios. */
function formatShellCost(cost) {
  const lines = [];
  if (!cost.compiled.bin) lines.push('', `no compiled client: ${cost.compiled.reason}`);
  for (const target of cost.targets) {
    const sides = sidesOf(target.perOp[TYPES[0]]);
    const hasCompiled = sides.includes('compiled');
    lines.push('', `${target.name}${target.instant ? ' (answers every command at once: what is left is the clients\' own cost)' : ''}: ${target.ops} operations of each type after as many untimed, × ${target.rounds} interleaved rounds, each side in a process of its own; wall ms and client CPU µs per operation`);
    const rows = [['operation', 'measure', ...sides, ...(hasCompiled ? ['kit/compiled'] : []), 'kit/driver', ...(hasCompiled ? ['mongosh/compiled'] : [])]];
    for (const type of TYPES) {
      const v = target.perOp[type];
      for (const [measure, of, digits] of [['wall ms/op', wallOf, 3], ['CPU µs/op', cpuOf, 0]]) {
        rows.push([
          measure === 'wall ms/op' ? `${type} by _id` : '', measure,
          ...sides.map((s) => of(v, s).toFixed(digits)),
          ...(hasCompiled ? [ratioText(of(v, 'kit'), of(v, 'compiled'))] : []),
          ratioText(of(v, 'kit'), of(v, 'driver')),
          ...(hasCompiled ? [ratioText(of(v, 'mongosh'), of(v, 'compiled'))] : []),
        ]);
      }
    }
    lines.push(table(rows));
    lines.push(callsText(target.calls));
    if (target.hellosPerSecond !== undefined) {
      lines.push(`the instant server answered ${target.hellos} hellos in ${target.seconds.toFixed(0)} s while the clients ran (${target.hellosPerSecond.toFixed(2)} per second: handshakes and idle monitors, which wait on an awaitable hello as against mongod)`);
    }
  }
  lines.push('', 'columns: compiled = C on libmongoc 1.23, one call per clock; raw node = Node, a bare socket, OP_MSG by hand; driver = the Node driver\'s API; kit = the kit\'s shell (mongosh\'s semantics); mongosh = mongosh 2.12');
  lines.push(`kit shell on the instant server, worst operation over the driver: wall ×${cost.ratio.toFixed(3)}, client CPU ×${cost.cpuRatio.toFixed(3)}`);
  if (cost.compiledRatio !== null) {
    const met = (r, goal) => (r <= goal ? 'met' : 'missed');
    lines.push(`kit shell on the instant server, worst operation over the compiled client: wall ×${cost.compiledRatio.toFixed(3)} (goal ≤ ${GOALS.wall}: ${met(cost.compiledRatio, GOALS.wall)}), client CPU ×${cost.compiledCpuRatio.toFixed(3)} (goal ≤ ${GOALS.cpu}: ${met(cost.compiledCpuRatio, GOALS.cpu)})`);
  }
  return lines.join('\n');
}

module.exports = { measureShellCost, formatShellCost, GOALS };
