#!/usr/bin/env node
'use strict';
// What the shell adds to each operation a scenario script times. The same four operations by
// _id (insertOne, findOne, updateOne, deleteOne), timed with performance.now() around each call
// as the scenario scripts time them, through three runners, each in a process of its own:
//   driver   a plain loop on the Node driver (the floor);
//   kit      the kit's shell (orchestrator/kit-shell) running a mongosh script;
//   mongosh  the same script in mongosh.
// Both shells are started exactly as a run starts them (orchestrator/run/shells.js).
// Each process reports wall ms per operation (the timed calls) and its own client CPU µs per
// operation (process.cpuUsage() around each loop, read inside that process). Rounds are
// interleaved, the order rotating, and the table shows medians. Targets: the instant server
// (bench/instant-server.js, started here: the client's own cost) and any URI given (FerretDB).
// The last line, `harness/driver ratio: R`, is the kit's shell's worst operation type, wall
// time, on the instant server; the goal is R ≤ 1.10 and client CPU within 1.15× the driver's.
//
// usage: node bench/shell-cost.js [--uri NAME=URI ...] [--ops N] [--rounds N] [--runners driver,kit,mongosh]
// exports measureShellCost(options) and formatShellCost(result) for npm run bench.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');

const { shellInvocation } = require('../orchestrator/run/shells');
const { trackChild } = require('../orchestrator/processes');

const TYPES = ['insertOne', 'findOne', 'updateOne', 'deleteOne'];
const RUNNERS = ['driver', 'kit', 'mongosh'];
const GOALS = { wall: 1.10, cpu: 1.15 };

// The shell side: written like the scenario scripts (top-level vars, performance.now() around
// each call), reporting its own CPU time per loop.
const OPS_SCRIPT = `
if (typeof N === 'undefined') var N = 2000;
if (typeof WARMUP === 'undefined') var WARMUP = 2000;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_shell_cost';
db = db.getSiblingDB(DB_NAME);
db.ops.drop();
db.createCollection('ops');
for (var w = 0; w < WARMUP; w++) {
  db.ops.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
  db.ops.findOne({ _id: -1 - w });
  db.ops.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
  db.ops.deleteOne({ _id: -1 - w });
}
function cpuUs() { var u = process.cpuUsage(); return u.user + u.system; }
var out = { n: N, types: {} };
var t0, c0, s0, timed, res, check;
function finish(type) { out.types[type] = { cpuUsPerOp: (cpuUs() - c0) / N, systemUsPerOp: (process.cpuUsage().system - s0) / N, wallMsPerOp: timed / N, check: check }; }
c0 = cpuUs(); s0 = process.cpuUsage().system; timed = 0; check = 0;
for (var i = 0; i < N; i++) {
  t0 = performance.now();
  res = db.ops.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] });
  timed += performance.now() - t0;
  if (res.insertedId === i) check++;
}
finish('insertOne');
c0 = cpuUs(); s0 = process.cpuUsage().system; timed = 0; check = 0;
for (var i = 0; i < N; i++) {
  t0 = performance.now();
  res = db.ops.findOne({ _id: i });
  timed += performance.now() - t0;
  if (res && res.foo.length >= 5) check++;
}
finish('findOne');
c0 = cpuUs(); s0 = process.cpuUsage().system; timed = 0; check = 0;
for (var i = 0; i < N; i++) {
  t0 = performance.now();
  res = db.ops.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } });
  timed += performance.now() - t0;
  check += res.matchedCount;
}
finish('updateOne');
c0 = cpuUs(); s0 = process.cpuUsage().system; timed = 0; check = 0;
for (var i = 0; i < N; i++) {
  t0 = performance.now();
  res = db.ops.deleteOne({ _id: i });
  timed += performance.now() - t0;
  check += res.deletedCount;
}
finish('deleteOne');
db.dropDatabase();
print(JSON.stringify({ shellCost: out }));
`;

/** The driver side: the same loop in plain Node, run in a child by --driver-loop. */
async function driverLoop({ uri, n, warmup, dbName }) {
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(uri);
  await client.connect();
  try {
    const db = client.db(dbName);
    const ops = db.collection('ops');
    await ops.drop().catch(() => {});
    await db.createCollection('ops');
    for (let w = 0; w < warmup; w++) {
      await ops.insertOne({ _id: -1 - w, foo: [1, 2, 3, 4, 5] });
      await ops.findOne({ _id: -1 - w });
      await ops.updateOne({ _id: -1 - w }, { $push: { foo: { $each: [6, 7] } } });
      await ops.deleteOne({ _id: -1 - w });
    }
    const calls = {
      insertOne: [(i) => ops.insertOne({ _id: i, foo: [1, 2, 3, 4, 5] }), (r, i) => (r.insertedId === i ? 1 : 0)],
      findOne: [(i) => ops.findOne({ _id: i }), (r) => (r && r.foo.length >= 5 ? 1 : 0)],
      updateOne: [(i) => ops.updateOne({ _id: i }, { $push: { foo: { $each: [6, 7] } } }), (r) => r.matchedCount],
      deleteOne: [(i) => ops.deleteOne({ _id: i }), (r) => r.deletedCount],
    };
    const out = { n, types: {} };
    for (const type of TYPES) {
      const [call, ok] = calls[type];
      const c0 = process.cpuUsage();
      let timed = 0;
      let check = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res = await call(i);
        timed += performance.now() - t0;
        check += ok(res, i);
      }
      const c = process.cpuUsage(c0);
      out.types[type] = { cpuUsPerOp: (c.user + c.system) / n, systemUsPerOp: c.system / n, wallMsPerOp: timed / n, check };
    }
    await db.dropDatabase();
    process.stdout.write(`${JSON.stringify({ shellCost: out })}\n`);
  } finally {
    await client.close();
  }
}

function run(command, args, { env, cwd }) {
  return new Promise((resolve, reject) => {
    const child = trackChild(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('{"shellCost"'));
      if (code !== 0 || !line) return reject(new Error(`${path.basename(args[0])} exited ${code}: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ')}`));
      resolve(JSON.parse(line).shellCost);
    });
  });
}

/** One run of one runner against one URI: { types: { insertOne: { cpuUsPerOp, wallMsPerOp, check } } }. */
async function runOnce(runner, uri, { ops, warmup, dbName, work }) {
  const vars = { N: ops, WARMUP: warmup, DB_NAME: dbName };
  if (runner === 'driver') {
    return run(process.execPath, [__filename, '--driver-loop'], { env: { ...process.env, SHELL_COST_URI: uri, SHELL_COST_VARS: JSON.stringify(vars) } });
  }
  const { command, args, env, cwd } = shellInvocation({ shell: runner, uri, file: work.script, vars });
  return run(command, args, { env, cwd });
}

function median(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function prepareWork() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-shell-cost-'));
  const script = path.join(dir, 'ops.js');
  fs.writeFileSync(script, OPS_SCRIPT);
  return { dir, script };
}

/**
 * Measures every runner against every target. targets: [{ name, uri }] (an `instant` target
 * with no uri starts the instant server here). Resolves to
 * { machine, targets: [{ name, runs: [...], medians: { runner: { type: { wallMsPerOp, cpuUsPerOp } } } }], ratio, cpuRatio }.
 */
async function measureShellCost({ targets = [{ name: 'instant' }], ops = 3000, warmup = 2000, rounds = 3, runners = RUNNERS, log = () => {} } = {}) {
  const work = prepareWork();
  const result = { machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model?.trim(), node: process.version, loadBefore: os.loadavg() }, targets: [] };
  let instant = null;
  try {
    for (const target of targets) {
      let { uri } = target;
      if (!uri) {
        instant ??= await require('./instant-server').startInstantServer();
        uri = instant.uri;
      }
      const runs = [];
      for (let round = 0; round < rounds; round++) {
        const order = runners.map((_, i) => runners[(i + round) % runners.length]);
        for (const runner of order) {
          const load = os.loadavg()[0];
          const started = performance.now();
          const measured = await runOnce(runner, uri, { ops: target.ops ?? ops, warmup, dbName: `classics_shell_cost_${runner}`, work });
          runs.push({ round, runner, load, seconds: (performance.now() - started) / 1000, types: measured.types });
          log(`${target.name} round ${round} ${runner.padEnd(7)} load ${load.toFixed(2)}  ${TYPES.map((t) => `${t} ${measured.types[t].wallMsPerOp.toFixed(3)} ms ${measured.types[t].cpuUsPerOp.toFixed(0)} µs (sys ${measured.types[t].systemUsPerOp.toFixed(0)})`).join('  ')}`);
        }
      }
      const medians = {};
      for (const runner of runners) {
        medians[runner] = {};
        for (const type of TYPES) {
          const mine = runs.filter((r) => r.runner === runner).map((r) => r.types[type]);
          medians[runner][type] = { wallMsPerOp: median(mine.map((m) => m.wallMsPerOp)), cpuUsPerOp: median(mine.map((m) => m.cpuUsPerOp)), checks: mine.map((m) => m.check) };
        }
      }
      result.targets.push({ name: target.name, uri: target.uri ? '(given)' : 'instant server', ops: target.ops ?? ops, rounds, runs, medians });
    }
  } finally {
    if (instant) await instant.close();
    fs.rmSync(work.dir, { recursive: true, force: true });
  }
  result.machine.loadAfter = os.loadavg();
  const instantTarget = result.targets.find((t) => t.name === 'instant') || result.targets[0];
  if (instantTarget && instantTarget.medians.kit && instantTarget.medians.driver) {
    const k = instantTarget.medians.kit;
    const d = instantTarget.medians.driver;
    result.ratio = Math.max(...TYPES.map((t) => k[t].wallMsPerOp / d[t].wallMsPerOp));
    result.cpuRatio = Math.max(...TYPES.map((t) => k[t].cpuUsPerOp / d[t].cpuUsPerOp));
    result.meanCpuRatio = TYPES.reduce((n, t) => n + k[t].cpuUsPerOp, 0) / TYPES.reduce((n, t) => n + d[t].cpuUsPerOp, 0);
  }
  return result;
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')).join('\n');
}

/** The table and the closing ratio line, as text. */
function formatShellCost(result) {
  const lines = [];
  const m = result.machine;
  lines.push(`machine: ${m.cpus} × ${m.model}, Node ${m.node}, load average ${m.loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${m.loadAfter.map((l) => l.toFixed(2)).join(' ')} after`);
  for (const target of result.targets) {
    const runners = Object.keys(target.medians);
    lines.push('', `${target.name} (${target.uri}): medians of ${target.rounds} interleaved rounds, ${target.ops} operations of each type`);
    const head = ['operation', 'measure', ...runners];
    if (target.medians.kit && target.medians.driver) head.push('kit/driver');
    if (target.medians.mongosh && target.medians.driver) head.push('mongosh/driver');
    const rows = [head];
    for (const type of TYPES) {
      for (const [measure, key, digits] of [['wall ms/op', 'wallMsPerOp', 3], ['CPU µs/op', 'cpuUsPerOp', 0]]) {
        const row = [type, measure, ...runners.map((r) => target.medians[r][type][key].toFixed(digits))];
        if (target.medians.kit && target.medians.driver) row.push((target.medians.kit[type][key] / target.medians.driver[type][key]).toFixed(3));
        if (target.medians.mongosh && target.medians.driver) row.push((target.medians.mongosh[type][key] / target.medians.driver[type][key]).toFixed(3));
        rows.push(row);
      }
    }
    lines.push(table(rows));
  }
  if (result.ratio !== undefined) {
    lines.push('', `kit shell client CPU / driver: worst operation ${result.cpuRatio.toFixed(3)}, all four together ${result.meanCpuRatio.toFixed(3)} (goal ≤ ${GOALS.cpu})`);
    lines.push(`harness/driver ratio: ${result.ratio.toFixed(3)}`);
  }
  return lines.join('\n');
}

function parseCli(argv) {
  const options = { targets: [{ name: 'instant' }], ops: 3000, rounds: 3, runners: RUNNERS };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i];
    if (arg === '--uri') {
      const v = value();
      const eq = v.indexOf('=');
      options.targets.push(eq > 0 && !v.startsWith('mongodb') ? { name: v.slice(0, eq), uri: v.slice(eq + 1) } : { name: 'server', uri: v });
    } else if (arg === '--ops') options.ops = Number(value());
    else if (arg === '--server-ops') options.serverOps = Number(value());
    else if (arg === '--rounds') options.rounds = Number(value());
    else if (arg === '--runners') options.runners = value().split(',');
    else if (arg === '--no-instant') options.noInstant = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (options.noInstant) options.targets = options.targets.filter((t) => t.uri);
  if (options.serverOps) options.targets.forEach((t) => { if (t.uri) t.ops = options.serverOps; });
  return options;
}

if (require.main === module) {
  if (process.argv[2] === '--driver-loop') {
    const vars = JSON.parse(process.env.SHELL_COST_VARS);
    driverLoop({ uri: process.env.SHELL_COST_URI, n: vars.N, warmup: vars.WARMUP, dbName: vars.DB_NAME })
      .catch((err) => { process.stderr.write(`${err.stack}\n`); process.exit(1); });
  } else {
    const options = parseCli(process.argv.slice(2));
    measureShellCost({ ...options, log: (line) => process.stderr.write(`${line}\n`) })
      .then((result) => { process.stdout.write(`${formatShellCost(result)}\n`); })
      .catch((err) => { process.stderr.write(`shell-cost: ${err.message}\n`); process.exitCode = 1; });
  }
}

module.exports = { measureShellCost, formatShellCost, OPS_SCRIPT, GOALS };
