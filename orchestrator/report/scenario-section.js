'use strict';
// One scenario's part of the report as data, from its part of the run model: what it ran at
// against the article's size, per server its notes, tables and count checks, and its charts
// (their configs and what a page prints under them). summary.md and report.html each write it
// in their own form (summary-md.js, html.js); neither reads the other's.
const { sizeText: scaledSizeText } = require('../sizing/describe');
const { pivotTable, tableGroups } = require('./tables');
const { scenarioCharts } = require('./charts');
const { formatValue } = require('./format');
const { markdownText } = require('./escape');

// text from results.jsonl (a server's words, a script's output, names), placed in markdown as text
const md = markdownText;

function sizeText(params) {
  return Object.entries(params).filter(([k]) => k !== 'passes').map(([k, v]) => `${k}=${v}`).join(', ');
}

function noteValue(value) {
  if (value && typeof value === 'object') return [value.outcome, value.reason].filter(Boolean).join(': ');
  return String(value);
}

const said = (text) => ({ say: text });

/** The steps a scenario runs once (its setup, its load), as a table block (blocks.js), or null. */
function onceStepTable(scenario, records) {
  const once = new Set(scenario.steps.filter((s) => s.repeat === 'once').map((s) => s.name));
  const rows = records.filter((r) => once.has(r.step));
  if (!rows.length) return null;
  return {
    table: {
      header: ['step', 'collection', 'ms', 'hr ms', 'count', 'size'],
      rows: rows.map((r) => [r.step, r.collection ?? '–', formatValue(r.ms, 'int'), formatValue(r.hrMs, 'fixed1'), formatValue(r.count, 'int'), formatValue(r.size, 'int')]),
    },
    align: ['left', 'left', 'right', 'right', 'right', 'right'],
  };
}

/** The scenario's notes (its descriptor's labels, the records' values) as a list block, or null. */
function notesFor(scenario, records) {
  const items = (scenario.notes || []).map((note) => {
    const values = [...new Set(records.filter((r) => r[note.field] !== undefined && r[note.field] !== null).map((r) => noteValue(r[note.field])))];
    return values.length ? [said(`${note.label}: `), values.join('; ')] : null;
  }).filter(Boolean);
  return items.length ? { list: items } : null;
}

/** What the collections' counts said after every step, as a block, or null. */
function countCheckText(records) {
  const checked = records.filter((r) => r.countOk !== undefined);
  const bad = checked.filter((r) => r.countOk === false);
  if (!checked.length) return null;
  if (!bad.length) return { lines: [[said(`Counts: after every step each collection held exactly the documents the scripts wrote (${checked.length} checks).`)]] };
  return {
    lead: [{ strong: said('Count mismatches') }, said(' (collection count vs the scripts\' inserts minus removes):')],
    list: bad.map((r) => [`${r.step} ${r.pass}, ${r.collection}: ${r.count} counted, ${r.expectedCount} expected`]),
  };
}

/** What the scenario declares it cannot test on this kind of server, and why, as a block, or null. */
function declaredLimits(scenario, server, published) {
  const { kind } = server.deployment;
  const cannot = Object.entries(scenario.servers?.[kind]?.cannotTest || {});
  if (!cannot.length) return null;
  const claim = (id) => (published.findings || []).find((f) => f.id === id)?.claim || id;
  return { lead: [said('What this scenario cannot test on '), kind, said(', as it declares:')], list: cannot.map(([id, why]) => [said(`${claim(id)}: ${why}`)]) };
}

/**
 * What the scenario says about its numbers on this kind of server in this topology (its
 * descriptor's servers.KIND.topologies, KIND without a compressor where it names none of its own).
 */
function topologyNoteFor(scenario, server) {
  const { kind } = server.deployment;
  const entry = scenario.servers?.[kind]?.topologies ? scenario.servers[kind] : scenario.servers?.[String(kind).split(':')[0]];
  const topologies = entry?.topologies || {};
  // an old record's words ("replica set (1 member)") or a new record's key
  return topologies[server.deployment.topology] || '';
}

/** Whether a scenario's tables or charts show the server's own time (serverMs). */
function showsServerTime(scenario) {
  return scenario.tables.some((t) => t.columns.some((c) => c.field === 'serverMs')) || scenario.charts.some((c) => c.y === 'serverMs');
}

/**
 * A scenario's part of the report (sm: its part of the run model; run: the run's header; servers:
 * the run's server records): { scenario, published, intro (text) and introMarkdown (the size's
 * name in bold), servers: [{ server, name, tables, declared, notes, once, counts, serverTime }]
 * (declared, notes, once, counts and serverTime as blocks: blocks.js),
 * charts (each chart's config and caption, not drawn) }.
 */
function scenarioSection(sm, run, serverRecords) {
  const { scenario, published } = sm;
  // keyed by the server's real name, so tables, charts' legends and headings say what answered
  const names = new Map(serverRecords.map((s) => [s.server, s.name]));
  const taken = new Set();
  for (const s of serverRecords) {
    if (taken.has(names.get(s.server))) names.set(s.server, `${names.get(s.server)} (${s.server})`);
    taken.add(names.get(s.server));
  }
  const measured = new Map();
  const serverOf = new Map();
  for (const s of serverRecords) {
    // each server's records as the run model picked them (run-model.js), never picked again here
    const rs = sm.measured.get(s.server);
    if (rs?.length) { measured.set(names.get(s.server), rs); serverOf.set(names.get(s.server), s); }
  }
  // the sizes each server ran at (with --size-per-server they may differ), and whether at the article's
  const { ran: ranAt, passes, atArticleSize: sameScale } = sm;
  const distinct = [...new Set(ranAt.map((x) => JSON.stringify(x.sizes)))];
  const named = run.params.size !== 'auto';
  const passText = `${passes} pass${passes === 1 ? '' : 'es'}`;
  // said as text on the page and as markdown in summary.md (esc: how the run's own words are
  // placed; strong: how a size's name stands out)
  const ranText = (esc, strong) => (distinct.length <= 1
    ? `${named ? `the ${strong(esc(run.params.size))} size` : 'the size the budget allowed'} (${esc(ranAt.length ? sizeText(ranAt[0].sizes) : sizeText(scenario.sizes[run.params.size] || {}))}, ${passText})`
    : `sizes of their own (${ranAt.map((x) => esc(`${names.get(x.server)}: ${scaledSizeText(scenario, x.sizes)}`)).join('; ')}; ${passText})`);
  const introOf = (esc, strong) => (sameScale
    ? `Run at the article's size (${sizeText(scenario.sizes.article)}).`
    : `Run at ${ranText(esc, strong)}; the article's figures are at its own size (${sizeText(scenario.sizes.article)}): compare shapes and ratios, not absolute values.`);
  const section = {
    scenario, published, intro: introOf(String, String), introMarkdown: introOf(md, (x) => `**${x}**`), servers: [],
    // one y axis each, normalised where the sizes differ; the caption (rule, what differs) under each
    charts: scenarioCharts(sm, serverRecords),
  };
  for (const [name, rs] of measured) {
    const s = serverOf.get(name);
    const entry = { server: s.server, name, tables: [], declared: [], notes: [], counts: null, serverTime: null, once: null };
    const declared = declaredLimits(scenario, s, published);
    if (declared) entry.declared.push(declared);
    // what the scenario says of its numbers in this server's topology (a standalone journals whole documents)
    const topologyNote = topologyNoteFor(scenario, s);
    if (topologyNote) entry.notes.push({ lines: [[said(topologyNote)]] });
    const notes = notesFor(scenario, rs);
    if (notes) entry.notes.push(notes);
    entry.once = onceStepTable(scenario, rs);
    for (const { spec: table, servers, article } of sm.tables) {
      entry.tables.push({ title: table.title, ...pivotTable(table, servers.get(s.server).selected, article.selected, tableGroups(scenario, table)) });
    }
    entry.counts = countCheckText(rs);
    // where the scenario shows the server's own time (its scripts read it around their timed loops)
    if (showsServerTime(scenario) && !rs.some((r) => Number.isFinite(r.serverMs))) {
      entry.serverTime = { lines: [[said('Server-side time: this server keeps no per-collection latency ($collStats latencyStats), so only the client\'s times are shown.')]] };
    }
    section.servers.push(entry);
  }
  return section;
}

module.exports = { scenarioSection, topologyNoteFor, sizeText };
