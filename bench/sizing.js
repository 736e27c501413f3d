#!/usr/bin/env node
'use strict';
// How well --size auto predicts: for every scenario and server of a run, the size it chose, the
// time predicted and the time its steps took, against the issue's bars (each within 0.5 to 2×
// its prediction, at most 1.5× the budget). Either runs the kit first, with the arguments given
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
