'use strict';
// The probe behind --size auto: a scenario's own steps, in order, on the server at a few small
// sizes (sizing/planner.js nextProbeSizes chooses each from the ones before), each step timed
// as the run times it (its scriptMs), in the scenario's own database, dropped after each probe.
// Nothing a probe measures is a result: its times go into the size record's model, its
// measurements nowhere.
const fs = require('node:fs');
const path = require('node:path');
const { ScriptRewriter } = require('../kit-shell/rewrite');
const { splitLiteralVars } = require('../kit-shell/literal-vars');
const { claimDatabase, markDatabase, dropOwnedDatabase } = require('./ownership');
const { runStepScript, scenarioPlan, stepVars, workersStartMs, safeFileName, roundsOf } = require('./steps');
const { nextProbeSizes, spanMsOf, probeWorkMs } = require('../sizing/planner');
const { checkAgainst, keptWhen, deviationText } = require('./probe-store');
const { parseExpression } = require('../sizing/expression');
const { matches } = require('../results/records');

/** The --set values that name this scenario's size variables: the planner keeps them as given. */
function pinnedSizes(scenario, overrides = {}) {
  return Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== 'passes' && k in scenario.sizes.article));
}

/** The known wait in a parallel step's time (its shells' start), which no size changes. */
function fixedStepMs(scenario, workers) {
  return Object.fromEntries(scenario.steps.filter((s) => s.workers).map((s) => [s.name, workersStartMs(s.workers === 'cores' ? workers : s.workers)]));
}

/**
 * What a scenario's probes depend on besides the machine, the server and the kit, and that no
 * budget changes: the shell and its client path, the parallel steps' shells, the paired rounds
 * and their warm-up, the seed, the sizes --set pins, the baseline beside the steps, and whether
 * the scripts may change the server's settings. Kept probes are reused only where all are the same.
 */
function probeInputs(scenario, server, options, partner = null) {
  return {
    shell: options.shell ?? null,
    lean: options.shell === 'kit' ? options.lean || 'on' : null,
    workers: options.workers ?? null,
    rounds: roundsOf(scenario, options),
    warmupBlocks: options.warmupBlocks !== false,
    seed: options.seed ?? null,
    pinned: pinnedSizes(scenario, options.overrides),
    baseline: partner ? scenario.baseline?.server ?? 'baseline' : null,
    ownedByKit: Boolean(server.started),
  };
}

/**
 * A step's timed figures as its scaling declaration reads them (figures: which lines, their
 * timed field, and each one's operations and growth in its own fields): [{ ms, ops, grows }].
 */
function figuresOf(decl, measurements) {
  if (!decl) return [];
  const ops = parseExpression(decl.ops);
  const grows = parseExpression(decl.grows);
  // a paired round's block (a line that names its round) is a share of a line counted already: at
  // a probe's size it holds an update or two, whose noise the fit would read as growth
  return measurements.filter((m) => !Number.isInteger(m.round) && matches(m, { where: decl.where })).flatMap((m) => {
    const ms = spanMsOf(decl.field, m[decl.field]);
    try {
      return ms === null ? [] : [{ ms, ops: ops.evaluate(m), grows: grows.evaluate(m) }];
    } catch {
      return []; // a line without the fields (a refused cell) says nothing of the growth
    }
  });
}

/**
 * Each side's median counted block (warm-ups left out) of a step whose spans are declared, on the
 * span's field: { side: ms }, a side named by the step's variants (its partner's lines, the SQL
 * baseline's, name theirs), where the planner holds each to its floor. A partner's line that has
 * no such field is timed on its own clock (ms: the SQL side waits for every insert).
 */
function sideSpans(step, span, lines) {
  const bySide = new Map();
  for (const line of lines) {
    if (!Number.isInteger(line.round) || line.round < 1 || line.warmup) continue;
    const ms = spanMsOf(span.field, line[span.field]) ?? spanMsOf('ms', line.ms);
    if (ms === null) continue;
    const side = (step.variants || []).map((v) => line[v]).join(' ') || 'all';
    if (!bySide.has(side)) bySide.set(side, []);
    bySide.get(side).push(ms);
  }
  const median = (list) => {
    const s = [...list].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  return Object.fromEntries([...bySide].map(([side, list]) => [side, median(list)]));
}

/**
 * Every step once (a repeating step's first pass) at these sizes: { sizes, steps: { name: { ms,
 * spanMs?, sides?, figures? } } }; stopAfter(steps), where given, is asked after each step whether
 * to stop there (a check that has seen enough).
 */
async function probeAt({ scenario, sizes, index, server, client, options, config, progress, logDir, partner = null, label = `probe ${index}`, stopAfter = null }) {
  const db = await claimDatabase(client, scenario.database, { prefix: config.dbPrefix, runId: options.runId });
  const { steps: planned } = scenarioPlan(scenario, sizes, 1);
  const steps = {};
  try {
    for (const step of planned) {
      if (options.isInterrupted?.()) break;
      progress.startStep(`${server.name} · ${scenario.name} · ${label} · ${step.name}`);
      const logFile = path.join(logDir, safeFileName(`${server.name}-${scenario.name}-probe${index}-${step.name}.log`));
      const started = Date.now();
      const vars = stepVars(step, { scenario, server, options, pass: step.passes[0] });
      // with the scenario's partner, as the run will have it: its blocks are in the step's time
      const side = partner ? await partner.openStep(step, { vars, pass: step.passes[0] }) : null;
      const { measurements } = await runStepScript({ scenario, step, server, vars, logFile, progress, options, results: null, partner: side });
      const ms = Date.now() - started;
      await markDatabase(db, options.runId); // a script may have dropped its database
      const span = scenario.scaling.spans?.[step.name];
      // the partner's blocks are figures of the step's findings too: its side is sized as the script's
      const sides = span ? sideSpans(step, span, [...measurements, ...(side?.lines || [])]) : {};
      const medians = Object.values(sides);
      const figures = figuresOf(scenario.scaling.steps[step.name].figures, measurements);
      steps[step.name] = { ms, ...(medians.length ? { spanMs: Math.min(...medians), sides } : {}), ...(figures.length ? { figures } : {}) };
      progress.endStep(`${(ms / 1000).toFixed(1)} s`);
      if (stopAfter?.(steps)) break;
    }
  } finally {
    const refused = await dropOwnedDatabase(client, scenario.database, { prefix: config.dbPrefix });
    if (refused) options.log(`${server.name} · ${scenario.name}: ${refused}`);
  }
  return { sizes, steps };
}

/** The least of the kept first probe's work a check compares: a scenario's first steps are run until they reach it. */
const CHECK_LEAST_MS = 2000;

/** A probe's work (its steps' time less their known waits) in the steps named. */
function workIn(probe, names, fixedMs) {
  return probeWorkMs({ steps: Object.fromEntries(names.map((n) => [n, probe.steps[n] ?? { ms: NaN }])) }, fixedMs);
}

/**
 * The kit's shell rewrites each script for its evaluator and keeps the rewritten text
 * (kit-shell/rewrite.js), once per machine and script; the first probe after that cache is empty
 * (a fresh clone, an edited script) would time the rewrite too: seconds beside a small probe's
 * (log-inserts' loop.js, 5.5 s on a loaded 2-core machine; its first probe's test1 took 7.3 s
 * kept against 3.5 s checked), and a kept first probe measured so would hold every later check to
 * it. So the scripts are rewritten here, as the shell would (its literal variables split off),
 * before anything is timed; a script the rewriter refuses is left for its shell to say.
 */
function rewriteScripts(scenario, options, config) {
  if (options.shell !== 'kit' || !config.kitShellCache) return;
  const rewriter = new ScriptRewriter({ cacheDir: config.kitShellCache });
  for (const file of new Set(scenario.steps.map((step) => scenario.scriptPath(step)))) {
    try {
      const { rest } = splitLiteralVars(fs.readFileSync(file, 'utf8'));
      if (rest.trim()) rewriter.rewrite(rest);
    } catch { /* its shell says what is wrong with it */ }
  }
}

/**
 * The check after the steps run so far (steps: { name: { ms } }, in the scenario's order) against
 * the kept first probe: null while they took less than CHECK_LEAST_MS in it and steps remain, else
 * { sizes, steps (their names), ms, predictedMs, deviation, within }.
 */
function checkAfter(first, steps, { fixedMs = {}, stepCount }) {
  const names = Object.keys(steps);
  if (workIn(first, names, fixedMs) < CHECK_LEAST_MS && names.length < stepCount) return null;
  return { sizes: first.sizes, steps: names, ...checkAgainst(workIn({ steps }, names, fixedMs), workIn(first, names, fixedMs)) };
}

/**
 * The check of kept probes (run/probe-store.js): their first probe's sizes (the smallest the
 * scenario allows) probed again, step by step, until the steps run so far took at least
 * CHECK_LEAST_MS in the kept first probe (or every step has run); then their work (their time less
 * the known waits) against the kept first probe's in the same steps. Both are a first run of the
 * scenario's paths on a freshly started server (a warm-up, which the fitted model leaves out), so
 * the kept probe is what the kept figures predict for it. Where the check holds, the probe stops
 * there; where it does not, it goes on through the other steps, the first probe of a fresh set.
 * Returns { probe, check: { sizes, steps, ms, predictedMs, deviation, within } }.
 */
async function checkKept({ kept, fixedMs, scenario, ...at }) {
  const first = kept.probes[0];
  let check = null;
  const stopAfter = (steps) => {
    if (check) return false; // decided, not within: the probe goes on as a fresh one
    check = checkAfter(first, steps, { fixedMs, stepCount: scenario.steps.length });
    return Boolean(check?.within);
  };
  const probe = await probeAt({ ...at, scenario, sizes: first.sizes, index: 1, label: 'check probe', stopAfter });
  return { probe, check: check ?? { sizes: first.sizes, steps: [], ...checkAgainst(null, null) } };
}

/**
 * Probes a scenario on a server until the planner has what it needs: { fixedMs, probes,
 * seconds (the probing's own time), reuse, added }. With kept probes of this machine, server, kit
 * and inputs (kept: { probes, savedAt }), one check probe first: where it lands within the
 * tolerance of the kept figures' prediction, the kept probes stand for the ones this run would
 * make, and only what the budget asks beyond them is probed (added: whether anything was);
 * otherwise the check is the first probe of a fresh set. reuse: { reused, from (when the probes
 * the plan uses were taken), check, why }, for the size record; one line to options.log says it.
 * With its partner (run/conductor.js, started for the probes and recording nothing), the steps
 * that pair with it run its blocks, as the run will. A probe that fails throws, and the scenario
 * does not run on that server.
 */
async function probeScenario({ scenario, server, client, options, config, progress, logDir, budgetSeconds, partner = null, kept = null, missing = null }) {
  const pinned = pinnedSizes(scenario, options.overrides);
  const fixedMs = fixedStepMs(scenario, options.workers);
  const probes = [];
  const started = Date.now();
  const at = { scenario, server, client, options, config, progress, logDir, partner };
  const where = `${scenario.name} on ${server.name}`;
  rewriteScripts(scenario, options, config);
  let reuse = { reused: false, from: new Date(started).toISOString(), check: null, why: missing };
  if (kept?.probes?.length && !options.isInterrupted?.()) {
    const { probe, check } = await checkKept({ kept, fixedMs, ...at });
    const secs = (ms) => (ms === null ? 'no time' : `${(ms / 1000).toFixed(2)} s`);
    const over = check.steps.length < scenario.steps.length ? ` (${check.steps.join(', ')})` : '';
    const took = `the check probe${over} took ${secs(check.ms)} against ${secs(check.predictedMs)} predicted (${deviationText(check.deviation)})`;
    if (check.within) {
      probes.push(...kept.probes);
      reuse = { reused: true, from: kept.savedAt, check, why: null };
      options.log(`${where}: kept probes from ${keptWhen(kept.savedAt)} reused: ${took}`);
    } else {
      // the check went on through every step (unless interrupted): the fresh set's first probe
      if (Object.keys(probe.steps).length === scenario.steps.length) probes.push({ ...probe, warmup: true });
      reuse = { ...reuse, check, why: `${took}: probing again` };
      options.log(`${where}: ${reuse.why}`);
    }
  }
  const kept0 = probes.length;
  for (;;) {
    if (options.isInterrupted?.()) break;
    const sizes = nextProbeSizes(scenario, { done: probes, fixedMs, budgetSeconds, pinned });
    if (!sizes) break;
    const probe = await probeAt({ ...at, sizes, index: probes.length + 1 });
    // the first runs the scenario's paths cold on this server: a warm-up the planner does not fit
    probes.push(probes.length === 0 ? { ...probe, warmup: true } : probe);
  }
  return { fixedMs, probes, seconds: (Date.now() - started) / 1000, reuse, added: !reuse.reused || probes.length > kept0 };
}

module.exports = { probeScenario, probeInputs, checkAfter, CHECK_LEAST_MS, pinnedSizes, figuresOf, sideSpans };
