#!/usr/bin/env node
'use strict';
// npm run bench: what the kit itself adds to the numbers it prints, measured in one run.
//   1. harness/driver: the same operations timed in mongosh as the scripts time them and by a
//      plain driver loop, interleaved rounds, per operation type;
//   2. orchestration: a whole smoke run's wall time against the sum of its steps;
//   3. memory: the orchestrator's peak RSS at 3 and 21 passes and at 4x the documents;
//   4. figures: re-rendering every report and chart from results.jsonl.
// Ends with `harness/driver ratio: R`, the worst operation type.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { Command } = require('commander');
const { MongoClient } = require('mongodb');
const { resolveConfig } = require('../orchestrator/config');
const { parseServerSpecs } = require('../orchestrator/servers/spec');
const { startServer } = require('../orchestrator/servers/start');
const { measureCalibration } = require('../orchestrator/run/calibration');
const { SHELLS } = require('../orchestrator/run/shells');
const { discoverScenarios } = require('../orchestrator/scenarios');
const { renderRunReport } = require('../orchestrator/report/render');
const { renderFigures } = require('../orchestrator/report/figures');
const { cleanupAll, installSignalHandlers, makeTempDir } = require('../orchestrator/processes');
const { readRun } = require('../orchestrator/results/reader');
const { spawn } = require('node:child_process');

const GOALS = { harness: 1.10, orchestration: 1.05, memoryBytes: 200 * 1024 * 1024, figuresMs: 3000 };

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ')).join('\n');
}

const BIN = path.join(__dirname, '..', 'bin', 'orchestrate.js');

/** Runs the orchestrate binary as a user would; resolves to { code, stderr }. */
function orchestrate(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function harness(spec, config, { ops, rounds }) {
  const logDir = makeTempDir('classics-bench-logs-');
  const server = await startServer(spec, { config, logDir, log: () => {} });
  const client = new MongoClient(server.uri);
  try {
    await client.connect();
    return await measureCalibration({ uri: server.uri, client, ops, rounds, server: spec.name, shells: SHELLS, database: config.databases.calibration, logFile: path.join(logDir, 'harness.log') });
  } finally {
    await client.close();
    await server.stop();
  }
}

async function wholeRun(scenario, spec, out, extra) {
  const started = performance.now();
  const { code, stderr } = await orchestrate([scenario.name, '--server', spec.spec, '--size', 'smoke', '--no-calibrate', '--out', out, ...extra]);
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`orchestrate ${extra.join(' ')} failed: ${stderr.trim().split('\n').pop()}`);
  const run = readRun(out);
  const stepsMs = run.steps.reduce((n, r) => n + r.scriptMs + r.statsMs, 0);
  const sizes = run.run.params.sizes[scenario.name];
  return { wallMs, stepsMs, maxRssBytes: run.end.maxRssBytes, passes: run.run.params.passes[scenario.name], size: sizes[scenario.steps[0].params[0]] };
}

async function main(argv) {
  const program = new Command('bench')
    .option('--server <spec>', 'server to measure, repeatable (default: ferretdb-pg)', (v, p) => p.concat([v]), [])
    .option('--ops <n>', 'operations of each type per round', Number, 300)
    .option('--rounds <n>', 'interleaved rounds', Number, 4)
    .parse(argv);
  const opts = program.opts();
  const config = resolveConfig();
  const specs = parseServerSpecs(opts.server.length ? opts.server : ['ferretdb-pg']);
  installSignalHandlers();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-bench-'));
  let worst = 0;
  try {
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0].model.trim()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const spec of specs) {
      console.log(`\n== ${spec.name}: harness/driver per operation (${opts.ops} ops × ${opts.rounds} interleaved rounds)`);
      const perOp = await harness(spec, config, opts);
      const rows = [['operation', 'driver ms/op', ...SHELLS.flatMap((s) => [`${s} ms/op`, `${s}/driver`]), `goal ≤ ${GOALS.harness}`]];
      for (const [type, v] of Object.entries(perOp)) {
        const ratio = v.ratio[SHELLS[0]];
        rows.push([`${type} by _id`, v.driverMs.toFixed(3), ...SHELLS.flatMap((s) => [v.shellMs[s].toFixed(3), v.ratio[s].toFixed(3)]), ratio <= GOALS.harness ? 'met' : 'MISSED']);
        worst = Math.max(worst, ratio);
      }
      console.log(table(rows));

      // the whole-run measures take a scenario that repeats a pass, as the descriptors say
      const scenarios = discoverScenarios(config.shellDir);
      const repeating = scenarios.find((s) => s.passesOption);
      const sizeVar = repeating.steps[0].params[0];
      const bigger = repeating.sizes.smoke[sizeVar] * 4;
      console.log(`\n== ${spec.name}: orchestration and memory (${repeating.name}, smoke)`);
      const runs = [
        await wholeRun(repeating, spec, path.join(work, `${spec.name}-p3`), ['--passes', '3']),
        await wholeRun(repeating, spec, path.join(work, `${spec.name}-p21`), ['--passes', '21']),
        await wholeRun(repeating, spec, path.join(work, `${spec.name}-d4`), ['--passes', '3', '--set', `${sizeVar}=${bigger}`]),
      ];
      const mrows = [['passes', sizeVar, 'run wall s', 'sum of steps s', 'wall/steps', 'peak RSS MiB']];
      for (const r of runs) {
        mrows.push([r.passes, r.size, (r.wallMs / 1000).toFixed(1), (r.stepsMs / 1000).toFixed(1), (r.wallMs / r.stepsMs).toFixed(3), (r.maxRssBytes / 2 ** 20).toFixed(1)]);
      }
      console.log(table(mrows));
      const [p3, p21, d4] = runs;
      console.log(`orchestration ratio (21 passes): ${(p21.wallMs / p21.stepsMs).toFixed(3)} (goal ≤ ${GOALS.orchestration})`);
      console.log(`peak RSS growth: ×${(p21.maxRssBytes / p3.maxRssBytes).toFixed(3)} from 3 to 21 passes, ×${(d4.maxRssBytes / p3.maxRssBytes).toFixed(3)} from ${sizeVar}=${p3.size} to ${d4.size} (goal: flat, under ${GOALS.memoryBytes / 2 ** 20} MiB)`);

      const t0 = performance.now();
      await renderRunReport(path.join(work, `${spec.name}-p21`), scenarios);
      const reportMs = performance.now() - t0;
      const t1 = performance.now();
      await renderFigures(path.join(work, 'figures'), scenarios);
      const figuresMs = performance.now() - t1;
      console.log(`re-render of a 21-pass report: ${reportMs.toFixed(0)} ms; every article figure: ${figuresMs.toFixed(0)} ms (goal: together < ${GOALS.figuresMs} ms)`);
    }
    console.log(`\nharness/driver ratio: ${worst.toFixed(3)}`);
    return 0;
  } finally {
    await cleanupAll();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv).then((code) => { process.exitCode = code; }, (err) => {
  console.error(`bench: ${err.message}`);
  process.exitCode = 1;
});
