#!/usr/bin/env node
'use strict';
// npm run bench: what the kit itself adds to the numbers it prints, measured in one run.
//   1. client cost: the same operations timed as the scripts time them by a compiled client (C
//      on libmongoc, built here), a raw Node socket, a plain driver loop, the kit's shell and
//      mongosh, interleaved rounds, per operation type, wall ms/op and client CPU µs/op, on a
//      server that answers at once (bench/instant-server.js: the clients' own cost) and on each
//      server measured (bench/shell-cost.js);
//   2. orchestration: a whole smoke run's wall time against the sum of its steps;
//   3. memory: the orchestrator's peak RSS at 3 and 21 passes and at 4x the documents;
//   4. figures: re-rendering every report and chart from results.jsonl;
//   5. where the kit's shell spends its CPU per operation: a node --cpu-prof profile of its
//      calibration loops on the instant server, summed by what ran (bench/profile.js).
// Ends with `kit/compiled ratio: R`: the kit's shell's worst operation type over the compiled
// client's, wall time, on the instant server (goal ≤ 1.5, and client CPU within 1.5× the C
// client's); the line before it, `harness/driver ratio`, is the same over the bare Node driver.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { Command } = require('commander');
const { resolveConfig } = require('../orchestrator/config');
const { parseServerSpecs } = require('../orchestrator/servers/spec');
const { startServer } = require('../orchestrator/servers/start');
const { ferretdb2Missing } = require('../orchestrator/servers/ferretdb');
const { measureShellCost, formatShellCost } = require('./shell-cost');
const { profileKitShell, formatProfile } = require('./profile');
const { discoverScenarios } = require('../orchestrator/scenarios');
const { renderRunReport } = require('../orchestrator/report/render');
const { renderFigures } = require('../orchestrator/report/figures');
const { cleanupAll, installSignalHandlers, makeTempDir } = require('../orchestrator/processes');
const { readRun } = require('../orchestrator/results/reader');
const { spawn } = require('node:child_process');

const GOALS = { orchestration: 1.05, memoryBytes: 200 * 1024 * 1024, figuresMs: 3000 };

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
    .option('--server <spec>', 'server to measure beside the instant one, repeatable (default: ferretdb-pg, and ferretdb2 where it is installed)', (v, p) => p.concat([v]), [])
    .option('--ops <n>', 'operations of each type per round on the instant server, after as many untimed', Number, 10000)
    .option('--server-ops <n>', 'operations of each type per round on a real server, after as many untimed (a JIT warms up over the first thousands)', Number, 1000)
    .option('--rounds <n>', 'interleaved rounds', Number, 3)
    .option('--profile-ops <n>', 'timed operations of each type in the profiled run of the kit\'s shell', Number, 20000)
    .parse(argv);
  const opts = program.opts();
  const config = resolveConfig();
  const specs = parseServerSpecs(opts.server.length ? opts.server : ['ferretdb-pg', ...(ferretdb2Missing(config) ? [] : ['ferretdb2'])]);
  installSignalHandlers();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-bench-'));
  const servers = [];
  try {
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0].model.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log('\n== client cost: the same operations by a compiled client, a raw Node socket, the driver, the kit\'s shell and mongosh');
    const targets = [{ name: 'instant', ops: opts.ops, warmup: opts.ops }];
    for (const spec of specs) {
      const server = await startServer(spec, { config, logDir: makeTempDir('classics-bench-logs-'), log: () => {} });
      servers.push(server);
      targets.push({ name: `${spec.name} (${server.description ?? spec.name})`, uri: server.uri, ops: opts.serverOps, warmup: opts.serverOps });
    }
    const cost = await measureShellCost({ targets, rounds: opts.rounds, config });
    await Promise.all(servers.splice(0).map((s) => s.stop()));
    console.log(formatShellCost(cost));

    for (const spec of specs) {
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
    console.log('\n== where the kit\'s shell spends its CPU');
    console.log(formatProfile(await profileKitShell({ ops: opts.profileOps })));

    console.log(`\nharness/driver ratio: ${cost.ratio.toFixed(3)}`);
    console.log(`kit/compiled ratio: ${cost.compiledRatio === null ? `unavailable (${cost.compiled.reason ?? 'the compiled client did not run'})` : cost.compiledRatio.toFixed(3)}`);
    return 0;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanupAll();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv).then((code) => { process.exitCode = code; }, (err) => {
  console.error(`bench: ${err.message}`);
  process.exitCode = 1;
});
