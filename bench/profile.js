'use strict';
// Where the kit's shell spends its CPU per operation: the calibration script in the kit's shell
// under `node --cpu-prof`, against the instant server (in a process of its own), its samples
// summed by what they ran: the kit's own code (API layer, lean path), the rewritten script,
// BSON, the driver (the borrowed connection's message stream, the session pool), Node's sockets
// and streams, its other internals, the native send (the kernel's loopback delivery, taken in
// the sender's write call), garbage collection, start-up (loading and compiling modules) and the
// time the main thread waited for the server (idle). The profile samples the main thread only:
// what the process spends on other threads (V8's compiler and collector) and in the kernel while
// the thread waits is the difference between process.cpuUsage() and the busy samples.
// usage: node bench/profile.js [ops]   (or through npm run bench)
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { shellInvocation } = require('../orchestrator/run/shells');
const { trackChild, cleanupAll } = require('../orchestrator/processes');
const { KIT_DATABASES } = require('../orchestrator/config');
const { startInstantServerProcess } = require('./instant-server');

const SCRIPT = path.join(__dirname, '..', 'orchestrator', 'run', 'calibration-ops.js');
const TYPES = 4;

/** What a sampled frame ran, by its script's URL and function name. */
function categoryOf({ url, functionName }) {
  if (functionName === '(idle)') return 'idle: waiting for the server';
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'native, outside any JS function';
  if (functionName === 'writeBuffer') return 'native send (the kernel\'s loopback delivery)';
  if (/kit-shell\/api\/lean\.js$/.test(url)) return 'the kit: its lean path';
  if (/kit-shell\//.test(url)) return 'the kit: its API layer and evaluator';
  if (/calibration-ops\.js$/.test(url)) return 'the script, as the rewriter made it';
  if (/node_modules\/bson\//.test(url)) return 'BSON';
  if (/node_modules\/mongodb\//.test(url)) return 'the driver (message stream, sessions)';
  if (/node_modules\/@babel|async-rewriter/.test(url)) return 'the rewriter (Babel)';
  if (/^node:internal\/modules|^node:internal\/fs|^node:fs|^node:path|node_modules\//.test(url) || /^(internalModule|readFileUtf8|wrapSafe|compileFunction)/.test(functionName)) return 'start-up: loading and compiling modules';
  if (/^node:(net|internal\/stream_base_commons|internal\/streams|stream)/.test(url)) return 'Node: sockets and streams';
  if (/^node:/.test(url)) return 'Node: timers, promises, other internals';
  return 'native builtins (promises, microtasks, property access)';
}

/** Self time per category of a .cpuprofile: { total, byCategory: Map(category → µs) }. */
function summariseProfile(profile) {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byCategory = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] || 0;
    total += us;
    const category = categoryOf(frames.get(id));
    byCategory.set(category, (byCategory.get(category) ?? 0) + us);
  });
  return { total, byCategory };
}

/** Runs the calibration in the kit's shell under --cpu-prof; resolves to { summary, line, ops }. */
async function profileKitShell({ ops = 20000, warmup = 2000 } = {}) {
  const instant = await startInstantServerProcess();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-profile-'));
  try {
    const { command, args, env, cwd } = shellInvocation({ shell: 'kit', uri: instant.uri, file: SCRIPT, vars: { OPS: ops, WARMUP: warmup, DB_NAME: KIT_DATABASES.calibration } });
    const child = trackChild(spawn(command, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`the kit's shell exited with code ${code} under --cpu-prof: ${stderr.trim().split('\n').pop()}`);
    const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    const line = JSON.parse(stdout.split('\n').find((l) => l.startsWith('{"scenario":"harness"')));
    return { summary: summariseProfile(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))), line, ops: (ops + warmup) * TYPES };
  } finally {
    await instant.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The profile as a table: per category, ms, share of the busy samples, µs per operation. */
function formatProfile({ summary, line, ops }) {
  const rows = [...summary.byCategory].sort((a, b) => b[1] - a[1]);
  const busy = rows.filter(([c]) => !c.startsWith('idle')).reduce((n, [, us]) => n + us, 0);
  const timedOps = line.ops * TYPES;
  const cpuPerOp = Object.values(line.cpuUs).reduce((a, b) => a + b, 0) / timedOps;
  const width = Math.max(...rows.map(([c]) => c.length));
  const lines = [
    `the kit's shell under node --cpu-prof, calibration-ops.js on the instant server, ${ops.toLocaleString('en-US')} operations (${timedOps.toLocaleString('en-US')} timed): self time of the main thread's samples`,
    `${'what ran'.padEnd(width)}  ${'ms'.padStart(7)}  ${'busy %'.padStart(6)}  µs/op`,
    ...rows.map(([category, us]) => `${category.padEnd(width)}  ${(us / 1000).toFixed(0).padStart(7)}  ${(category.startsWith('idle') ? '' : (us / busy * 100).toFixed(1)).padStart(6)}  ${(us / ops).toFixed(1).padStart(5)}`),
    `process.cpuUsage() over the timed loops: ${cpuPerOp.toFixed(1)} µs per operation; the main thread's busy samples: ${(busy / ops).toFixed(1)} µs per operation; the rest is other threads (V8's compiler and collector) and the kernel while the thread waits (reading replies)`,
  ];
  return lines.join('\n');
}

if (require.main === module) {
  profileKitShell({ ops: Number(process.argv[2] || 20000) }).then((p) => console.log(formatProfile(p)), (err) => {
    console.error(`profile: ${err.message}`);
    process.exitCode = 1;
  }).finally(() => cleanupAll());
}

module.exports = { profileKitShell, formatProfile, summariseProfile };
