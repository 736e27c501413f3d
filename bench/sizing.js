#!/usr/bin/env node
'use strict';
// How well --size auto predicts: for every scenario and server of a run, the size it chose, the
// time predicted and the time its steps took, against the bars (each scenario within 0.5 to 2×
// its prediction, at most 1.5× the budget); then each step against its own model's prediction
// (within ±25%), since a scenario's sum can hide two steps wrong in opposite directions. Either runs the kit first, with the arguments given
// (`node bench/sizing.js --server ferretdb-pg --budget 90s`, any run option), or reads finished
// runs (`node bench/sizing.js reports/runs/<run>`). Timings on a shared machine are noisy: run it
// where nothing else runs, and more than once, before quoting it.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { readRun, stepTimeOf, hasResults } = require('../orchestrator/results/reader');
const { discoverScenarios } = require('../orchestrator/scenarios');
const { resolveConfig } = require('../orchestrator/config');
const { sizeText, percent } = require('../orchestrator/sizing/describe');
const { formatDuration } = require('../orchestrator/sizing/duration');
const { stepMs } = require('../orchestrator/sizing/planner');

/** The bar each step is held to: within this fraction of its prediction, either way. */
const STEP_BAR = 0.25;

/** Each step of a size record against its model: [{ step, runs, predictedS, actualS, ratio }]. */
function stepRows(data, record) {
  return Object.entries(record.model?.steps || {}).map(([step, model]) => {
    const done = data.steps.filter((s) => s.scenario === record.scenario && s.server === record.server && s.step === step && !s.warmup);
    const repeats = new Set(done.map((s) => s.repeat ?? 0)).size || 1;
    const runs = done.length / repeats;
    const predictedS = (runs * stepMs(model, record.sizes)) / 1000;
    const actualS = done.reduce((n, s) => n + s.scriptMs, 0) / repeats / 1000;
    return { step, runs, predictedS, actualS, ratio: done.length && predictedS > 0 ? actualS / predictedS : null };
  });
}

const BIN = path.join(__dirname, '..', 'bin', 'orchestrate.js');

function tableOf(dir, scenarios) {
  const data = readRun(dir);
  const lines = [
    `### ${path.basename(dir)}: ${data.run.params.servers.join(', ')}, budget ${data.run.params.budgetSeconds ? formatDuration(data.run.params.budgetSeconds) : `none (--size ${data.run.params.size})`}`,
    '',
    '| scenario | server | size | of the article | probes s | predicted s | actual s | actual / predicted | within 0.5–2× | ≤ 1.5 × budget |',
    '|---|---|---|---:|---:|---:|---:|---:|---|---|',
  ];
  let probes = 0;
  for (const record of data.sizes) {
    const scenario = scenarios.find((s) => s.name === record.scenario);
    const actual = stepTimeOf(data, record.scenario, record.server);
    const actualS = actual ? actual.ms / 1000 : null;
    const ratio = actualS !== null && record.predictedSeconds ? actualS / record.predictedSeconds : null;
    probes += record.probeSeconds || 0;
    lines.push(`| ${record.scenario} | ${record.server} | ${scenario ? sizeText(scenario, record.sizes) : JSON.stringify(record.sizes)} | ${percent(record.fraction)} | ${record.probeSeconds?.toFixed(1) ?? '–'} | ${record.predictedSeconds?.toFixed(1) ?? '–'} | ${actualS?.toFixed(1) ?? '–'} | ${ratio === null ? '–' : `×${ratio.toFixed(2)}`} | ${ratio === null ? '–' : ratio >= 0.5 && ratio <= 2 ? 'yes' : '**no**'} | ${actualS === null || !record.budgetSeconds ? '–' : actualS <= 1.5 * record.budgetSeconds ? 'yes' : '**no**'} |`);
  }
  lines.push('', `Each step against its own model's prediction (within ±${STEP_BAR * 100}%):`, '',
    '| scenario | server | step | runs | predicted s | actual s | actual / predicted | within ±25% |', '|---|---|---|---:|---:|---:|---:|---|');
  for (const record of data.sizes) {
    for (const row of stepRows(data, record)) {
      const within = row.ratio === null ? '–' : Math.abs(row.ratio - 1) <= STEP_BAR ? 'yes' : '**no**';
      lines.push(`| ${record.scenario} | ${record.server} | ${row.step} | ${row.runs} | ${row.predictedS.toFixed(1)} | ${row.actualS.toFixed(1)} | ${row.ratio === null ? '–' : `×${row.ratio.toFixed(2)}`} | ${within} |`);
    }
  }
  const steps = data.steps.reduce((n, s) => n + s.scriptMs, 0) / 1000;
  lines.push('', `Whole run: ${data.end ? formatDuration(data.end.wallMs / 1000) : 'unfinished'}; the scenarios' steps ${formatDuration(steps)}, their probes ${formatDuration(probes)}; the rest is start-up, calibration, stats reads, baselines and rendering. Machine: ${data.run.machine?.cores} × ${data.run.machine?.cpu}.`);
  return lines.join('\n');
}

function main(argv) {
  const scenarios = discoverScenarios(resolveConfig().shellDir);
  const dirs = argv.filter((a) => !a.startsWith('-') && hasResults(a));
  if (!dirs.length) {
    const out = path.join(resolveConfig().runsDir, `sizing-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const run = spawnSync(process.execPath, [BIN, ...argv, '--out', out], { stdio: 'inherit' });
    if (!fs.existsSync(path.join(out, 'results.jsonl'))) return run.status || 1;
    dirs.push(out);
  }
  for (const dir of dirs) console.log(`\n${tableOf(dir, scenarios)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
