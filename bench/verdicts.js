#!/usr/bin/env node
'use strict';
// npm run bench:verdicts: how stable the verdicts are. It runs the scenarios that decide findings
// on a server twice, once with the machine to itself and once with a process keeping one core
// busy beside it (at the same sizes: the loaded run takes the quiet run's), and prints for each
// finding both verdicts, both intervals and whether they agree, by a test on the difference of the
// two log-ratios (z, with both runs' standard errors: analysis/change.js). Only findings judged in
// both runs count (one the run cannot test, by its server or by construction, agrees with itself
// and says nothing). A finding that moves between holds and does not hold is a finding the kit
// cannot decide on a busy machine: the goal is none.
// A benchmark, not a test: it takes two main jobs' worth of the scenarios' time.
//   node bench/verdicts.js [--server SPEC] [--budget 4m] [scenario...]
//                                                    (by default the scenarios that can decide a finding
//                                                     on SPEC's kind, as their scenario.json says; the
//                                                     loaded run repeats those the quiet run decided)
//   node bench/verdicts.js QUIET_RUN                 (a finished run, the main job's say: the loaded
//                                                     run repeats the scenarios it decided, at its sizes)
//   node bench/verdicts.js QUIET_RUN LOADED_RUN      (the table of two finished runs)
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { hasResults } = require('../orchestrator/results/reader');
const { discoverScenarios } = require('../orchestrator/scenarios');
const { resolveConfig } = require('../orchestrator/config');
const { readRunModel } = require('../orchestrator/analysis/run-model');
const { findingsAt } = require('../orchestrator/sizing/planner');
const { parseServerSpec } = require('../orchestrator/servers/spec');
const { serverKind } = require('../orchestrator/results/records');
const { estimateText } = require('../orchestrator/analysis/verdict-words');
const { HOLDS, WEAKER, FAILS, TESTED } = require('../orchestrator/analysis/rules');
const { changeTest } = require('../orchestrator/analysis/change');
const { UsageError, ClassicsError } = require('../orchestrator/errors');

const BIN = path.join(__dirname, '..', 'bin', 'orchestrate.js');

/**
 * Whether a scenario can decide any of its findings on a kind of server at the article's size,
 * as its scenario.json and published.json say (servers.<kind>.cannotTest, a check that is
 * published only, a finding across servers where paired): the planner's own question.
 */
function decidesOn(scenario, kind) {
  const { decidable, tooSmall } = findingsAt(scenario, scenario.loadPublished().findings, kind, scenario.sizes.article, { paired: Boolean(scenario.pairedServers) });
  return decidable.length + tooSmall.length > 0;
}

/**
 * The scenarios a run on this server spec may decide findings of: on the kind the spec names,
 * or, where the spec does not say what will answer (embedded, a URI), on any kind the scenario
 * declares. The others decide nothing, and are not run.
 */
function decidingScenarios(scenarios, spec) {
  const parsed = parseServerSpec(spec);
  // the kinds scenario.json keys its servers by: ferretdb, ferretdb-pg, ferretdb2, mongod, mongod:zstd
  const kind = { ferretdb: parsed.name, ferretdb2: 'ferretdb2', mongod: serverKind({ spec: parsed.spec, product: 'MongoDB' }) }[parsed.kind] ?? null;
  // a compressor's kind a scenario does not declare is its mongod's
  const kindsOf = (s) => (kind ? [s.servers?.[kind] ? kind : kind.split(':')[0]] : Object.keys(s.servers || {}));
  return scenarios.filter((s) => kindsOf(s).some((k) => decidesOn(s, k))).map((s) => s.name);
}

/** The scenarios of a finished run that judged at least one finding (its RunModel's verdicts). */
function decidedIn(model) {
  return [...new Set(model.verdicts.filter((v) => TESTED.includes(v.status)).map((v) => v.scenario))];
}

function option(argv, name, fallback) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
}

/** One run of the kit, with a busy core beside it where loaded; returns its folder. */
async function runKit(args, out, { loaded }) {
  // a spinning process on one core: the other core is the kit's and the server's, as on a shared VM
  const busy = loaded ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : null;
  try {
    const run = spawnSync(process.execPath, [BIN, ...args, '--out', out], { stdio: 'inherit' });
    if (!hasResults(out)) throw new ClassicsError(`the ${loaded ? 'loaded' : 'quiet'} run wrote no results (exit ${run.status})`);
  } finally {
    if (busy) busy.kill('SIGKILL');
  }
  return out;
}

/** The quiet run's sizes of the chosen scenarios as --set options (model: its RunModel), so the loaded run does the same work. */
function pinnedSizes(model, chosen) {
  const { data } = model;
  const sets = new Map();
  for (const record of data.sizes.filter((r) => chosen.includes(r.scenario))) for (const [k, v] of Object.entries(record.sizes)) sets.set(k, v);
  return [...sets].flatMap(([k, v]) => ['--set', `${k}=${v}`]);
}

/** Whether two statuses sit either side of "no effect": the claim held (or held, weaker) in one and did not in the other. */
const flips = (a, b) => (a === FAILS && [HOLDS, WEAKER].includes(b)) || (b === FAILS && [HOLDS, WEAKER].includes(a));

/**
 * Both runs' verdicts side by side, as a markdown table, with each one's z, and counts: how many
 * findings judged in both runs kept their status, how many lie within their intervals of each
 * other (|z| ≤ 1.96), and how many moved between holds and does not hold.
 */
function stabilityTable(quietDir, loadedDir, scenarios) {
  // each run's verdicts within itself, as its report made them (no history: the two runs are compared here)
  const quiet = readRunModel(quietDir, scenarios).verdicts;
  const loaded = readRunModel(loadedDir, scenarios).verdicts;
  const lines = [
    '| finding | server | alone | beside a busy core | z | same verdict | moved between holds and does not hold |',
    '|---|---|---|---|---:|---|---|',
  ];
  let flipped = 0;
  let same = 0;
  let within = 0;
  let tested = 0;
  const left = [];
  // the findings of the scenarios both runs ran (a main job's quiet run holds scenarios that decide nothing here)
  const both = new Set(loaded.map((v) => v.scenario));
  for (const q of quiet.filter((v) => both.has(v.scenario))) {
    const l = loaded.find((v) => v.finding === q.finding && v.scenario === q.scenario && v.server === q.server);
    // judged in both runs, or it says nothing of stability
    if (!l || !TESTED.includes(q.status) || !TESTED.includes(l.status)) { left.push(`${q.finding} (${q.status}${l ? `; ${l.status}` : ''})`); continue; }
    tested += 1;
    const test = changeTest(q, l);
    const flip = flips(q.status, l.status);
    if (flip) flipped += 1;
    if (l.status === q.status) same += 1;
    if (test && Math.abs(test.z) <= 1.96) within += 1;
    lines.push(`| ${q.scenario} · ${q.finding} | ${q.server} | ${q.status}, ${estimateText(q)} | ${l.status}, ${estimateText(l)} | ${test ? test.z.toFixed(2) : '–'} | ${l.status === q.status ? 'yes' : 'no'} | ${flip ? '**yes**' : 'no'} |`);
  }
  return { table: lines.join('\n'), flipped, same, within, of: tested, left };
}

async function main(argv) {
  const scenarios = discoverScenarios(resolveConfig().shellDir);
  const dirs = argv.filter((a) => hasResults(a));
  let quietDir;
  let loadedDir;
  if (dirs.length === 2) {
    [quietDir, loadedDir] = dirs;
  } else if (dirs.length === 1) {
    // the loaded run repeats the scenarios the finished run decided findings of, on its server, at its sizes and rounds
    [quietDir] = dirs;
    const model = readRunModel(quietDir, scenarios);
    const quiet = model.data;
    const server = option(argv, '--server', quiet.run.params.servers?.[0] ?? 'embedded');
    const chosen = decidedIn(model);
    if (!chosen.length) throw new UsageError(`${quietDir} decided no finding: there is nothing to repeat beside a busy core`);
    const rounds = Object.values(quiet.run.params.rounds || {});
    const roundsArgs = rounds.length && rounds.every((r) => r === rounds[0]) ? ['--rounds', String(rounds[0])] : [];
    loadedDir = await runKit([...chosen, '--server', server, '--size', 'article', ...roundsArgs, ...pinnedSizes(model, chosen)], path.join(path.dirname(path.resolve(quietDir)), `${path.basename(quietDir)}-loaded`), { loaded: true });
  } else {
    const server = option(argv, '--server', 'embedded');
    const budget = option(argv, '--budget', '4m');
    const named = argv.filter((a, i) => !a.startsWith('-') && !['--server', '--budget'].includes(argv[i - 1]));
    const chosen = named.length ? named : decidingScenarios(scenarios, server);
    if (!chosen.length) throw new UsageError(`no scenario can decide a finding on ${server}`);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const root = path.join(resolveConfig().runsDir, `verdicts-${stamp}`);
    fs.mkdirSync(root, { recursive: true });
    quietDir = await runKit([...chosen, '--server', server, '--budget', budget], path.join(root, 'quiet'), { loaded: false });
    // the loaded run repeats only what the quiet run decided (embedded, say, may decide less than a mongod would)
    const model = readRunModel(quietDir, scenarios);
    const decided = decidedIn(model);
    if (!decided.length) throw new UsageError(`the quiet run ${quietDir} decided no finding: there is nothing to repeat beside a busy core`);
    loadedDir = await runKit([...decided, '--server', server, '--size', 'article', ...pinnedSizes(model, decided)], path.join(root, 'loaded'), { loaded: true });
  }
  const { table, flipped, same, within, of, left } = stabilityTable(quietDir, loadedDir, scenarios);
  console.log(`\nVerdicts alone (${path.basename(quietDir)}) and beside a busy core (${path.basename(loadedDir)}), the findings judged in both runs; z: the difference of their log-ratios over both standard errors:\n\n${table}\n`);
  if (left.length) console.log(`Not judged in both runs, so not counted: ${left.join(', ')}.`);
  console.log(`${same} of ${of} verdicts the same; ${within} of ${of} within their intervals of each other (|z| ≤ 1.96); ${flipped} moved between holds and does not hold (goal: 0).`);
  return flipped ? 1 : 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
    console.error(`bench:verdicts: ${err.message}`);
    process.exitCode = 1;
  });
}

module.exports = { stabilityTable, flips, decidingScenarios, decidedIn };
