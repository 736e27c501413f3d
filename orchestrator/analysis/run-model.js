'use strict';
// The model of one run, built once from what results/ read: the run's facts, its servers with
// their deployment said once, per scenario its records (repeats aggregated), the sizes each
// server ran at with one "at the article's size" flag, the records each table and chart of it
// draws, and the verdicts. Every view (report/, export/) renders from this model: none reads
// results.jsonl, selects records or judges again (hyperfine's exporters over one result set).
const { readRun, sizesOf, stepTimeOf } = require('../results/reader');
const { matches, valueAt, serverKind, topologyKey, topologyWords, throughMongos } = require('../results/records');
const { serverDisplayName, serverNameWithAlias } = require('../results/server-names');
const { fingerprintOf } = require('../results/machine');
const { analyseRun } = require('./analyse');
const { runHistory } = require('./history');


/**
 * A server record with its deployment said once (its kind as descriptors name kinds, its
 * topology's key and words, whether it answered through mongos) and its names: `name`, what
 * answered ("FerretDB 2.7 / DocumentDB 1.0 on PostgreSQL 18.6"), and `nameWithAlias`, with the
 * kit's name for it beside where that differs ("… (embedded)").
 */
function withDeployment(record) {
  const deployed = {
    ...record,
    deployment: { kind: serverKind(record), topology: topologyKey(record), words: topologyWords(record), throughMongos: throughMongos(record) },
  };
  return { ...deployed, name: serverDisplayName(deployed), nameWithAlias: serverNameWithAlias(deployed) };
}

/**
 * The records a table or chart draws, from one source of records (a server's, the article's):
 * all of them (a normalisation's baseline cell may lie outside the spec), those of the spec's
 * step and `where` (selected), and of those the ones its `drawOnly` rules keep (drawn) and leave
 * out (left, per rule: a "little memory" read where the cache was not cut is a second "own
 * memory" read).
 */
function selectionOf(spec, records) {
  const rules = spec.drawOnly || [];
  const selected = records.filter((r) => matches(r, spec));
  const left = rules.map(() => []);
  const drawn = selected.filter((r) => rules.every((rule, i) => {
    if (!matches(r, { where: rule.where }) || valueAt(r, rule.field) === rule.equals) return true;
    left[i].push(r);
    return false;
  }));
  return { all: records, selected, drawn, left };
}

/** Each table and chart of a scenario with what it draws: per server (measured: Map server → records) and the article's. */
function drawnOf(scenario, measured, published) {
  const of = (spec) => ({ spec, servers: new Map([...measured].map(([server, records]) => [server, selectionOf(spec, records)])), article: selectionOf(spec, published) });
  return { tables: scenario.tables.map(of), charts: scenario.charts.map(of) };
}

/**
 * Whether every server that records its sizes ran the scenario at the article's sizes and passes
 * (ran: [{ server, sizes }]; passes: the run's for the scenario): then the values are drawn and
 * tabled as recorded, beside the article's. A server that records none (the SQL stand-in beside
 * log-inserts) ran at the others'.
 */
function atArticleSize(scenario, ran, passes) {
  const { passes: articlePasses, ...article } = scenario.sizes.article;
  return ran.length > 0 && ran.every((x) => Object.entries(article).every(([k, v]) => x.sizes[k] === v)) && passes === articlePasses;
}

/**
 * The article's side of a scenario alone, as `orchestrate figures` draws it: no server measured,
 * the records each table and chart draws from the article's.
 */
function articleModel(scenario) {
  const published = scenario.loadPublished();
  return { scenario, published, measured: new Map(), ran: [], passes: undefined, atArticleSize: true, ...drawnOf(scenario, new Map(), published.records || []) };
}

/**
 * One scenario of a run: { scenario (its descriptor), published, records (aggregated), measured
 * (Map server → its records, servers in the run's order), ran ([{ server, sizes }] each measured
 * server's sizes, where known), passes, atArticleSize, tables, charts, sizeRows }.
 */
function scenarioModel(scenario, data, records) {
  const published = scenario.loadPublished();
  const measured = new Map();
  for (const s of data.servers) {
    const rs = records.filter((r) => r.server === s.server);
    if (rs.length) measured.set(s.server, rs);
  }
  const ran = [...measured.keys()].map((server) => ({ server, sizes: sizesOf(data, scenario.name, server) })).filter((x) => x.sizes);
  const passes = data.run.params.passes?.[scenario.name];
  return {
    scenario, published, records, measured, ran, passes, atArticleSize: atArticleSize(scenario, ran, passes), ...drawnOf(scenario, measured, published.records || []),
    sizeRows: sizeRowsOf(data, scenario),
  };
}

/** A scenario's rows of the "Sizes and time" section: per server with a size record or steps, its size record, sizes and step time. */
function sizeRowsOf(data, scenario) {
  const { name } = scenario;
  const servers = [...new Set([...data.sizes.filter((r) => r.scenario === name).map((r) => r.server), ...data.steps.filter((s) => s.scenario === name).map((s) => s.server)])];
  return servers.map((server) => ({
    scenario, server, record: data.sizes.find((r) => r.scenario === name && r.server === server) || null, sizes: sizesOf(data, name, server), actual: stepTimeOf(data, name, server),
  }));
}

/** The published finding a verdict is of, from the scenarios' published.json. */
const findingOfScenarios = (scenarios) => (v) => scenarios.find((s) => s.name === v.scenario)?.loadPublished().findings.find((f) => f.id === v.finding);

/**
 * The model of a run as read (data: readRun's answer): { dir, data (the run's records by type,
 * servers with their deployment), scenarios (the descriptors of those it ran, in its order),
 * scenarioModels: Map name → scenarioModel, recordsOf: Map name → aggregated records, verdicts
 * (frozen Verdicts), contention, findingOf(verdict), sizesOf(scenario, server) }.
 */
function buildRunModel(data, scenarios, history = null) {
  const read = { ...data, servers: data.servers.map(withDeployment) };
  const { scenarios: ran, recordsOf, verdicts, contention } = analyseRun(read, scenarios, { history });
  const scenarioModels = new Map(ran.map((s) => [s.name, scenarioModel(s, read, recordsOf.get(s.name))]));
  return {
    dir: data.dir, data: read, scenarios: ran, scenarioModels, recordsOf, verdicts, contention, findingOf: findingOfScenarios(scenarios),
    // the machine it ran on (its fingerprint, derived from its header's machine for a run from before), named on the page
    machine: fingerprintOf(data.run),
    sizesOf: (scenario, server) => sizesOf(read, scenario, server),
  };
}

/** One history per store and scenarios, so runs side by side share what it analysed. */
const histories = new WeakMap();
function historyOf(store, scenarios) {
  if (!histories.has(store)) histories.set(store, new WeakMap());
  const byScenarios = histories.get(store);
  if (!byScenarios.has(scenarios)) byScenarios.set(scenarios, runHistory(store, scenarios));
  return byScenarios.get(scenarios);
}

/**
 * The model of the run in a folder: read once, analysed once. history: the history store
 * (results/history.js openHistory), optional: with it, a verdict whose finding the store holds in
 * enough comparable runs is decided across them (analysis/across-runs.js); without it, within-run.
 */
function readRunModel(dir, scenarios, history = null) {
  return buildRunModel(readRun(dir), scenarios, history ? historyOf(history, scenarios) : null);
}

module.exports = { readRunModel, articleModel, scenarioModel, withDeployment, selectionOf, findingOfScenarios, atArticleSize, valueAt };
