'use strict';
// Two runs side by side (`orchestrate compare`), made once into a Comparison: plain data that
// the views only render (report/compare.js). Each run comes as its RunModel (run-model.js), the
// one the report renders: the same aggregation of repeats, the same verdicts, the same records
// each table draws; here each finding's figure in A is held against its figure in B, and each
// cell of the scenarios' tables likewise. Every row carries the test that decided it, by name,
// and a status: changed, same or cannot tell. A change is called as criterion.rs calls one: the
// test passes (here after Holm's correction across the rows tested together, so ten findings
// compared at once do not call one by chance in three comparisons of identical runs) and the
// whole interval of B/A lies past the noise allowed.
const path = require('node:path');
const { fingerprintOf, machineDifferences } = require('../results/machine');
const { UsageError } = require('../errors');
const { decidesByMeasurement } = require('./checks');
const { changeTest, repeatsTest, holm, TEST_NAME } = require('./change');
const { COMPARISON_RULE, CHANGED, SAME, CANNOT_TELL } = require('./rules');


const percent = (noise) => `±${Math.round(noise * 100)}%`;

/**
 * The tests a row is decided by, each named from the rule's own figures: Welch's t where both
 * runs give the figure a standard error (their paired rounds, or the spread across runs where the
 * history gives it), Welch's t on the repeats where both runs were repeated (each repeat a run),
 * and otherwise the margin the user allows. A change needs both the test, after Holm's correction
 * across the rows tested together, and an interval of B/A wholly past the noise band (criterion.rs).
 */
const TESTS = {
  welch: (rule) => `${TEST_NAME} (both runs' standard errors, with the spread between runs where the history gives it; Welch–Satterthwaite degrees of freedom): changed where p < ${rule.p} after Holm's correction across the findings compared and the whole ${Math.round((1 - rule.p) * 100)}% interval of B/A lies past ${percent(rule.noise)}; the same where that interval lies within ${percent(rule.noise)}; otherwise cannot tell`,
  repeats: (rule) => `Welch's t on the difference of the repeats' mean logs (each repeat a run, so the spread between runs alone; Welch–Satterthwaite degrees of freedom): changed where p < ${rule.p} after Holm's correction across the cells so tested and the whole ${Math.round((1 - rule.p) * 100)}% interval of B/A lies past ${percent(rule.noise)}; the same where it lies within ${percent(rule.noise)}; otherwise cannot tell`,
  margin: (rule) => `B/A against the ${percent(rule.noise)} margin allowed (--noise), where a run holds one reading and so no measure of its own noise: changed past it, the same within it`,
};

const testOf = (kind, rule, figures = {}) => ({ kind, name: TESTS[kind](rule), ...figures });
const withinNoise = (x, rule) => Math.abs(x - 1) <= rule.noise;

/**
 * A verdict's figures that a comparison shows and tests: its status and estimate, or null where
 * there is none. Where the history gave the verdict the spread between comparable runs
 * (acrossRuns, with τ²), the run's standard error includes it: a run's figure differs from the
 * truth by its own pairs' noise and by its run's effect, se² + τ², on the across-runs df.
 */
function estimateOf(v) {
  if (!v) return null;
  // the Verdict's estimate as it was made (analysis/verdict.js): every figure finite or null already
  const { ratio, lo, hi, n, se, df, clock, runs, acrossRuns: across } = v.estimate;
  const base = { status: v.status, ratio, lo, hi, n, se, df, clock, ...(runs ? { runs } : {}) };
  if (!across || !Number.isFinite(across.df)) return base;
  if (Number.isFinite(across.tau2) && Number.isFinite(se)) return { ...base, se: Math.sqrt(se ** 2 + across.tau2), df: across.df, acrossRuns: true };
  if (Number.isFinite(across.se)) return { ...base, se: Math.max(se ?? 0, across.se), df: across.df, acrossRuns: true };
  return base;
}

/** A tested row's status from its interval and its p (Holm-adjusted where tested with others). */
function decide({ lo, hi }, p, rule) {
  if (p < rule.p && (lo > 1 + rule.noise || hi < 1 - rule.noise)) return CHANGED;
  return lo >= 1 - rule.noise && hi <= 1 + rule.noise ? SAME : CANNOT_TELL;
}

/**
 * One finding's figure in A against B: { factor (B/A of the two ratios), lo, hi (its interval,
 * where tested), test, status }. The test is Welch's t on the difference of the log-ratios
 * (change.js) where both verdicts have a standard error; the margin where either is one reading.
 * pAdjusted: the test's p after Holm's correction across the findings compared with it (a finding
 * compared alone: its own p).
 */
function compareFinding(va, vb, rule = COMPARISON_RULE, pAdjusted = null) {
  if (!Number.isFinite(va?.ratio) || !Number.isFinite(vb?.ratio) || va.ratio <= 0) {
    return { factor: null, lo: null, hi: null, test: null, status: CANNOT_TELL };
  }
  const welch = changeTest(va, vb);
  if (welch) {
    const { factor, lo, hi, z, t, df, p } = welch;
    const pHolm = pAdjusted ?? p;
    return { factor, lo, hi, test: testOf('welch', rule, { z, t, df, p, pHolm }), status: decide(welch, pHolm, rule) };
  }
  const factor = vb.ratio / va.ratio;
  return { factor, lo: null, hi: null, test: testOf('margin', rule, { noise: rule.noise }), status: withinNoise(factor, rule) ? SAME : CHANGED };
}

/**
 * A repeated cell's readings on a log scale from its spread ({ min, max, cv (the repeats'
 * spread over their mean, population form), n }) and its value (their median): two repeats
 * exactly from their min and max; more, their mean log taken as the median's log and their log
 * spread as a lognormal's, √ln(1 + cv²·n/(n − 1)).
 */
function logReadings(value, spread) {
  if (!spread || !(spread.n >= 2) || !(spread.min > 0) || !(value > 0)) return null;
  if (spread.n === 2) return { logMean: (Math.log(spread.min) + Math.log(spread.max)) / 2, logSd: (Math.log(spread.max) - Math.log(spread.min)) / Math.SQRT2, k: 2 };
  return { logMean: Math.log(value), logSd: Math.sqrt(Math.log(1 + (spread.cv ** 2 * spread.n) / (spread.n - 1))), k: spread.n };
}

/**
 * One cell's value in A against B ({ value, spread }): { ratio (B/A), lo, hi, test, status }. Both
 * repeated: Welch's t on the repeats (each a run: change.js repeatsTest); else the margin.
 * pAdjusted: as compareFinding's, across the cells so tested.
 */
function compareCell(a, b, rule = COMPARISON_RULE, pAdjusted = null) {
  const ratio = b.value / a.value;
  const test = repeatsTest(logReadings(a.value, a.spread), logReadings(b.value, b.spread));
  if (test) {
    const { lo, hi, t, df, p } = test;
    const pHolm = pAdjusted ?? p;
    return { ratio, lo, hi, test: testOf('repeats', rule, { t, df, p, pHolm }), status: decide(test, pHolm, rule) };
  }
  return { ratio, test: testOf('margin', rule, { noise: rule.noise }), status: withinNoise(ratio, rule) ? SAME : CHANGED };
}

/**
 * Rows decided again with their p-values adjusted by Holm's method across those tested (kind):
 * decideRow(row, pAdjusted) gives the row's figures decided at that p.
 */
function withHolm(rows, kind, decideRow) {
  const adjusted = holm(rows.map((r) => (r.test?.kind === kind ? r.test.p : null)));
  return rows.map((r, i) => (adjusted[i] === null ? r : { ...r, ...decideRow(r, adjusted[i]) }));
}

/** The server of a run (its RunModel) to compare: the one named, or the run's only one (baselines aside). */
function chooseServer(model, scenario, named) {
  const servers = [...model.scenarioModels.get(scenario.name).measured.keys()].filter((s) => s !== scenario.baseline?.server);
  const run = path.basename(model.dir);
  if (named) {
    if (!servers.includes(named)) throw new UsageError(`${run} has no server '${named}' for ${scenario.name} (it has: ${servers.join(', ') || 'none'})`);
    return named;
  }
  if (servers.length !== 1) throw new UsageError(`${run} ran ${scenario.name} on ${servers.length} servers (${servers.join(', ')}): name one with --server-a/--server-b`);
  return servers[0];
}

/**
 * Every measured cell of a scenario's tables on one server, from the records each table draws in
 * the run model (sm: its scenario model; the records its tables select): Map(key → { key, label,
 * format, value, spread }).
 */
function cellsOf(sm, server) {
  const out = new Map();
  for (const { spec: table, servers } of sm.tables) {
    for (const r of servers.get(server)?.selected || []) {
      for (const col of table.columns.filter((c) => !c.publishedOnly)) {
        if (!Number.isFinite(r[col.field])) continue;
        const key = JSON.stringify([table.title, r[table.row], r[table.group], col.field]);
        const label = `${table.title.split(':')[0].split('(')[0].trim()} · ${r[table.row]} · ${r[table.group]} · ${col.label}`;
        if (!out.has(key)) out.set(key, { key, label, format: col.format, value: r[col.field], spread: r.spread?.[col.field] ?? null });
      }
    }
  }
  return out;
}

/**
 * Whether two runs (readRun's answers) ran on one machine, by their fingerprints' ids: { a, b (the
 * fingerprints), same, differences (in words), line: where they differ, the line compare says
 * first, else null }. Absolute times from two machines are not comparable; the shapes are.
 */
function machinesCompared(a, b) {
  const fa = fingerprintOf(a.run);
  const fb = fingerprintOf(b.run);
  const same = fa.id === fb.id;
  const differences = same ? [] : machineDifferences(fa, fb);
  const line = same ? null : `A and B ran on different machines (${differences.join('; ')}): compare the shapes — each finding's status and ratios of ratios — not absolute times`;
  return { a: fa, b: fb, same, differences, line };
}

/** A run's facts a comparison names: its folder's name, its parameters, its kit's commit and its start. */
const runFacts = (data) => ({ name: path.basename(data.dir), params: data.run.params, commit: data.run.kit?.commit ?? null, startedAt: data.run.startedAt });

/** The findings of one scenario, A's verdict against B's. */
function findingRows(scenario, [sa, sb], [analysedA, analysedB], rule) {
  const rows = [];
  for (const f of scenario.loadPublished().findings || []) {
    if (!decidesByMeasurement(f)) continue;
    const pick = (analysed, server) => analysed.verdicts.find(({ identity: id }) => id.scenario === scenario.name && id.finding === f.id && (id.scope === 'all-servers' || id.server === server));
    const va = pick(analysedA, sa);
    const vb = pick(analysedB, sb);
    if (!va && !vb) continue;
    const [ea, eb] = [estimateOf(va), estimateOf(vb)];
    rows.push({
      scenario: scenario.name, finding: f.id, claim: f.claim, a: ea, b: eb,
      ...compareFinding(ea, eb, rule), verdictMoved: Boolean(va && vb && va.status !== vb.status),
    });
  }
  return rows;
}

/** One scenario's cells, A's against B's (their run models), with the sizes each ran at. */
function scenarioPart(scenario, [a, b], [sa, sb], rule) {
  const ca = cellsOf(a.scenarioModels.get(scenario.name), sa);
  const cb = cellsOf(b.scenarioModels.get(scenario.name), sb);
  const cells = [];
  for (const [key, cellA] of ca) {
    const cellB = cb.get(key);
    if (!cellB || cellA.value === 0) continue;
    cells.push({
      key, label: cellA.label, format: cellA.format,
      a: { value: cellA.value, spread: cellA.spread }, b: { value: cellB.value, spread: cellB.spread },
      ...compareCell(cellA, cellB, rule),
    });
  }
  const sizes = {
    a: a.sizesOf(scenario.name, sa), b: b.sizesOf(scenario.name, sb),
    passesA: a.data.run.params.passes?.[scenario.name] ?? null, passesB: b.data.run.params.passes?.[scenario.name] ?? null,
  };
  sizes.differ = JSON.stringify(sizes.a) !== JSON.stringify(sizes.b) || sizes.passesA !== sizes.passesB;
  return { scenario: scenario.name, serverA: sa, serverB: sb, sizes, cells };
}

/** How many rows of a list changed, in all and by the test that decided each. */
function changedCounts(rows) {
  const changed = rows.filter((r) => r.status === CHANGED);
  const byTest = {};
  for (const r of changed) byTest[r.test.kind] = (byTest[r.test.kind] || 0) + 1;
  return { changed: changed.length, byTest };
}

/**
 * The Comparison of run B against run A (each its RunModel: run-model.js readRunModel, read with
 * the history store of kept runs where a verdict should have the spread between comparable runs,
 * so that two quiet runs that differ by no more than runs of that finding do are not called
 * changed) over the scenarios both ran: { a, b (each run's facts), rule, tests (each test's name),
 * findings, scenarios: [{ scenario, serverA, serverB, sizes, cells }], counts }. serverA/serverB
 * name the server of each run where it ran several; noise is the margin the user allows;
 * scenarios, the descriptors the run models were read with, give the scenarios' order.
 */
function buildComparison({ a, b, scenarios, serverA = null, serverB = null, noise = COMPARISON_RULE.noise }) {
  const rule = Object.freeze({ ...COMPARISON_RULE, noise });
  // the scenarios both ran, in the kit's order (scenarios: the descriptors the run models were read with)
  const common = scenarios.filter((s) => a.scenarioModels.has(s.name) && b.scenarioModels.has(s.name));
  if (!common.length) throw new UsageError('the two runs have no scenario in common');
  const findings = [];
  const parts = [];
  for (const scenario of common) {
    const servers = [chooseServer(a, scenario, serverA), chooseServer(b, scenario, serverB)];
    findings.push(...findingRows(scenario, servers, [a, b], rule));
    parts.push(scenarioPart(scenario, [a, b], servers, rule));
  }
  // Holm's correction across the findings tested at once, and across the repeated cells
  const decidedFindings = withHolm(findings, 'welch', (r, p) => compareFinding(r.a, r.b, rule, p));
  const flat = parts.flatMap((part) => part.cells.map((cell) => ({ part, cell })));
  const decidedCells = withHolm(flat.map((x) => x.cell), 'repeats', (c, p) => compareCell(c.a, c.b, rule, p));
  const decidedParts = parts.map((part) => ({ ...part, cells: decidedCells.filter((_, i) => flat[i].part === part) }));
  const cells = decidedCells;
  return {
    a: runFacts(a.data), b: runFacts(b.data), machines: machinesCompared(a.data, b.data), rule,
    tests: Object.fromEntries(Object.keys(TESTS).map((kind) => [kind, TESTS[kind](rule)])),
    findings: decidedFindings, scenarios: decidedParts,
    counts: { cells: changedCounts(cells), findings: { ...changedCounts(decidedFindings), verdictsMoved: decidedFindings.filter((f) => f.verdictMoved).length } },
  };
}

module.exports = { buildComparison, machinesCompared, compareFinding, compareCell, estimateOf, COMPARISON_RULE, CHANGED, SAME, CANNOT_TELL };
