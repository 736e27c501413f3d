'use strict';
// summary.md, report.html, verdicts.png and the charts of a run, from results.jsonl alone (and
// the scenarios' descriptors and published data), so `orchestrate report DIR` gives what the run
// itself wrote. The run is read once, into the report model (model.js); every view is drawn from it.
const fs = require('node:fs');
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { sizesOf } = require('../results/reader');
const { sizesSection, runSizeText } = require('./sizes');
const { sizeText: scaledSizeText } = require('../sizing/describe');
const { pivotTable, toMarkdown, tableGroups } = require('./tables');
const { renderScenarioCharts, scenarioCharts, captionMarkdown } = require('./charts');
const { formatValue, formatBytes } = require('./format');
const { markdownText } = require('./escape');

// text from results.jsonl (a server's words, a script's output, names), placed in markdown as text
const md = markdownText;
const { writeHtmlReport } = require('./html');
const { verdictsMarkdown } = require('./verdicts-markdown');
const { serverKind, throughMongos, topologyKey, topologyWords } = require('../results/records');
const { buildReportModel } = require('./model');
const { serverDisplayName, serverNameWithAlias } = require('./server-names');
const { matrixMarkdown } = require('./matrix-markdown');
const { writeVerdictsPng } = require('./verdicts-png');
const { ruleText } = require('./verdict-words');
const { writeExports } = require('../export');
const { findingOfScenarios } = require('../export/verdicts-json');

function sizeText(params) {
  return Object.entries(params).filter(([k]) => k !== 'passes').map(([k, v]) => `${k}=${v}`).join(', ');
}

function noteValue(value) {
  if (value && typeof value === 'object') return [value.outcome, value.reason].filter(Boolean).join(': ');
  return String(value);
}

function describeRun(run, servers) {
  const m = run.machine || {};
  const lines = [
    `Started ${md(run.startedAt)}; ${runSizeText(run.params)}; seed ${run.params.seed === undefined || run.params.seed === null ? 'none (Math.random, as the articles)' : md(run.params.seed)}.`,
    `Kit ${md(run.kit?.version)} (commit ${md(run.kit?.commit ?? 'unknown')}), Node ${md(run.node)}, driver ${md(run.driver)}, mongosh ${md(run.mongosh)}. Timings taken in **${md(shellName(run.params.shell || run.shell))}**${(run.params.shell || run.shell) === 'kit' ? ` (the unchanged scripts with mongosh's semantics${{ on: ', the single-document writes and reads on its lean path', off: ', its lean path off: every call through the driver' }[run.params.lean] ?? ''}; \`--shell mongosh\` runs them in mongosh)` : ''}.`,
    `Machine: ${md(m.cores)} × ${md(m.cpu)}, ${formatBytes(m.memoryBytes)} memory, ${md(m.platform)}${m.glibc ? `, glibc ${md(m.glibc)}` : ''}${m.transparentHugePages?.enabled ? `; transparent huge pages ${md(m.transparentHugePages.enabled)} (defrag ${md(m.transparentHugePages.defrag ?? '–')})` : ''}.`,
    `Parameters: scenarios ${md(run.params.scenarios.join(', '))}; workers ${md(run.params.workers ?? '–')}; ${(run.params.repeat || 1) > 1 ? `each scenario run ${md(run.params.repeat)} times per server${run.params.warmup ? ' after a warm-up run that is not counted' : ''}, tables showing the median [min–max, coefficient of variation] and charts the min–max band` : 'one run per scenario and server'}; overrides ${md(Object.entries(run.params.overrides || {}).map(([k, v]) => `${k}=${v}`).join(' ')) || 'none'}; keep data ${run.params.keepData ? 'yes' : 'no'}.`,
    '',
    '| server | what | version | storage | started by the kit | round trip |',
    '|---|---|---|---|---|---|',
    ...servers.map((s) => `| ${md(s.server)} | ${md(s.description)} | ${md(`${s.product ?? ''} ${s.version ?? ''}`)} | ${md(s.engine ?? '–')} | ${s.startedByKit ? 'yes' : 'no'} | ${Number.isFinite(s.roundTripMs) ? `${formatValue(s.roundTripMs)} ms` : '–'} |`),
  ];
  // the topology, and what a write that names no w gets there (w:majority on a replica set)
  const deployed = servers.filter((s) => s.topology && s.product === 'MongoDB').map((s) => `- ${md(s.server)}: ${deploymentText(s)}`);
  if (deployed.length) lines.push('', ...deployed);
  // what a server warned of at start-up (FerretDB 2: a DocumentDB other than the one it was built for)
  const warned = servers.flatMap((s) => [].concat(s.warnings || []).map((w) => `- ${md(s.server)} warned at start-up: ${md(w)}`));
  if (warned.length) lines.push('', ...warned);
  return lines.join('\n');
}

/** A read preference in words: its mode, its tags, its staleness bound. */
function readPreferenceText(rp) {
  const tags = (rp.tags || []).map((t) => `{${Object.entries(t).map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
  return [rp.mode, tags.length ? `tags ${tags.join(' then ')}` : null, rp.maxStalenessSeconds ? `at most ${rp.maxStalenessSeconds} s stale` : null]
    .filter(Boolean).map(markdownText).join(', ');
}

/**
 * A MongoDB server's deployment in words, for the run's description: its topology; the default
 * write and read concerns, beside the write concern every timed write names; whether the
 * acknowledged writes were retryable; the read preference every read took; on a mongos, where
 * the collections live and the hop inside the cluster; the allocator setting. (The round trip is
 * in the servers' table.)
 */
function deploymentText(s) {
  const parts = [markdownText(topologyWords(s))];
  const wc = s.defaultWriteConcern;
  if (wc) {
    const names = `a write that names no w gets w:${markdownText(wc.w)}${wc.source ? ` (${markdownText(wc.source)} default)` : ''}`;
    // the scripts name w:0 or w:1 on every write they time since the records name topologyText
    // too; before, trade-candles' loads and many-keys' inserts named none and took this default
    parts.push(s.topologyText
      ? `${names}; every write the scripts time names its own w:0 or w:1, as the article's client did (each record's writeConcern), so the default reaches only their untimed writes`
      : `${names}, and so did the writes of this run's scripts that named none (trade-candles' loads, many-keys' inserts), whatever their records' writeConcern says`);
  }
  // on one server there is nothing to retry elsewhere and no other member to read from
  const replicated = topologyKey(s) !== 'standalone';
  if (replicated && s.defaultReadConcern?.level) parts.push(`a read that names no read concern reads ${markdownText(s.defaultReadConcern.level)}`);
  if (replicated && typeof s.retryableWrites === 'boolean') {
    parts.push(s.retryableWrites
      ? 'retryable writes on (the URI\'s retryWrites): the writes the scripts time against an unacknowledged side run on connections without them, as the articles\' clients had none; the other acknowledged writes (loads, many-keys\' inserts) carry a transaction number on both sides alike (each record\'s retryableWrites)'
      : 'no retryable writes');
  }
  if (s.readPreference?.mode && (replicated || s.readPreference.mode !== 'primary')) {
    parts.push(`every read with read preference ${readPreferenceText(s.readPreference)} (${markdownText(s.readPreference.source ?? 'the URI')}): the timed reads, the kit's sizes and counts, and the figures read beside the reads; the figures of the writes are the primary's${s.readPreference.mode === 'primary' ? '' : ', and where the reads go elsewhere the server\'s own time on the written collections is not read'}`);
  }
  if (throughMongos(s)) {
    parts.push('the kit shards none of its collections, as the articles had none: each lives whole on its database\'s primary shard, so every figure is that one shard\'s, through mongos');
    parts.push(Number.isFinite(s.hopMs)
      ? `every operation through mongos waits for the hop from mongos to the shard, ${formatValue(s.hopMs)} ms, w:0 writes too (w:1 from mongos to the shards), which the round trip to mongos does not hold`
      : 'the hop from mongos to the shard, which every operation through mongos waits for (w:0 writes too), was not measured');
  }
  if (s.allocator?.GLIBC_TUNABLES) parts.push(`started with GLIBC_TUNABLES=${markdownText(s.allocator.GLIBC_TUNABLES)}`);
  return parts.join('; ');
}

/** What each shell adds per operation on each server, so the server's time can be told from the shell's. */
function calibrationTable(calibrations, run) {
  if (!calibrations.length) return '';
  const shells = [...new Set(calibrations.flatMap((c) => c.shells || []))];
  const compiled = calibrations.some((c) => (c.anchors || []).includes('compiled'));
  const first = calibrations[0];
  const intro = `The same operations timed as the scripts time them (a clock read around each call), by a plain loop on the Node driver${compiled ? ', by a compiled client (the same loop in C on libmongoc, as the articles\' clients were compiled; built by `npm run bench`)' : ''} and in ${shells.map((s) => (s === 'kit' ? 'the kit\'s own shell' : md(s))).join(' and in ')}, ${md(first.ops)} of each, ${md(first.rounds)} interleaved rounds, on each server before its scenarios. This run's timings were taken in **${md(shellName(run.params.shell || first.shell))}**${run.params.lean === 'off' ? ' with its lean path off (`--lean off`: every call through the driver)' : ''}. A ratio near 1 means the times below are the server's; above 1, part of each operation is the shell's.`;
  // wall time only: a few hundred operations in a fresh process are mostly its JIT's CPU time
  // (results.jsonl keeps the CPU figures; npm run bench measures them at length)
  const header = [
    'server', 'operation', ...(compiled ? ['compiled ms/op'] : []), 'driver ms/op',
    ...shells.flatMap((s) => [`${shellName(s)} ms/op`, `${shellName(s)}/driver`, ...(compiled ? [`${shellName(s)}/compiled`] : [])]),
  ];
  const rows = calibrations.flatMap((c) => Object.entries(c.perOp).map(([type, v]) => {
    const compiledMs = v.anchorMs?.compiled;
    return [
      c.server, `${type} by _id`, ...(compiled ? [compiledMs === undefined ? '–' : compiledMs.toFixed(3)] : []), v.driverMs.toFixed(3),
      ...shells.flatMap((s) => (v.shellMs?.[s] === undefined ? ['–', '–', ...(compiled ? ['–'] : [])] : [
        v.shellMs[s].toFixed(3), `×${v.ratio[s].toFixed(2)}`,
        ...(compiled ? [compiledMs === undefined ? '–' : `×${(v.shellMs[s] / compiledMs).toFixed(2)}`] : []),
      ])),
    ];
  }));
  return ['### Calibration: what the shell adds', intro, toMarkdown({ header, rows })].join('\n\n');
}

/** Calls by method and path, as `insertOne 2,003; find 3 (a cursor)`. */
function callsText(counts, why = {}) {
  return Object.entries(counts).map(([method, n]) => {
    const reasons = Object.keys(why[method] || {});
    return `${method} ${formatValue(n, 'int')}${reasons.length ? ` (${reasons.join('; ')})` : ''}`;
  }).join(', ') || '–';
}

/**
 * Which client path took each step's calls in the kit's shell: its lean path (the
 * single-document writes and reads on a borrowed connection) or the driver, with why; the
 * passes of a step summed.
 */
function callPathTable(steps, run) {
  const withCalls = steps.filter((s) => s.calls);
  if (!withCalls.length) return '';
  const groups = new Map();
  for (const step of withCalls) {
    const key = `${step.server}|${step.scenario}|${step.step}`;
    const group = groups.get(key) ?? { step, paths: new Set(), lean: {}, driver: {}, why: {} };
    group.paths.add(step.calls.path);
    for (const side of ['lean', 'driver']) {
      for (const [m, n] of Object.entries(step.calls[side])) group[side][m] = (group[side][m] ?? 0) + n;
    }
    for (const [m, reasons] of Object.entries(step.calls.why)) Object.assign((group.why[m] ??= {}), reasons);
    groups.set(key, group);
  }
  const header = ['server', 'scenario', 'step', 'the single-document calls took', 'lean path calls', 'driver calls (why)'];
  const rows = [...groups.values()].map((g) => [
    g.step.server, g.step.scenario, g.step.step, [...g.paths].join(', '), callsText(g.lean), callsText(g.driver, g.why),
  ]);
  const intro = `Which client path took the scripts' calls in the kit's shell (lean: ${run.params.lean === 'off' ? 'off, `--lean off`' : 'on'}): its lean path sends the single-document writes and reads (insertOne, updateOne, replaceOne, deleteOne, findOne and their kin) on a connection borrowed from the driver's pool with the driver's own command documents; cursors, bulk writes and anything the lean path does not cover go through the driver, with the reason given.`;
  return ['### Client path', intro, toMarkdown({ header, rows })].join('\n\n');
}

function shellName(shell) {
  return shell === 'kit' ? 'kit shell' : shell || 'mongosh';
}

function onceStepTable(scenario, records) {
  const once = new Set(scenario.steps.filter((s) => s.repeat === 'once').map((s) => s.name));
  const rows = records.filter((r) => once.has(r.step));
  if (!rows.length) return '';
  const header = '| step | collection | ms | hr ms | count | size |\n|---|---|---:|---:|---:|---:|';
  const body = rows.map((r) => `| ${[r.step, r.collection ?? '–', formatValue(r.ms, 'int'), formatValue(r.hrMs, 'fixed1'), formatValue(r.count, 'int'), formatValue(r.size, 'int')].map(md).join(' | ')} |`);
  return [header, ...body].join('\n');
}

function notesFor(scenario, records) {
  return (scenario.notes || []).map((note) => {
    const values = [...new Set(records.filter((r) => r[note.field] !== undefined && r[note.field] !== null).map((r) => noteValue(r[note.field])))];
    return values.length ? `- ${note.label}: ${md(values.join('; '))}` : null;
  }).filter(Boolean).join('\n');
}

function countCheckText(records) {
  const checked = records.filter((r) => r.countOk !== undefined);
  const bad = checked.filter((r) => r.countOk === false);
  if (!checked.length) return '';
  if (!bad.length) return `Counts: after every step each collection held exactly the documents the scripts wrote (${checked.length} checks).`;
  return `**Count mismatches** (collection count vs the scripts' inserts minus removes):\n${bad.map((r) => `- ${md(`${r.step} ${r.pass}, ${r.collection}: ${r.count} counted, ${r.expectedCount} expected`)}`).join('\n')}`;
}

/** What the scenario declares it cannot test on this kind of server, and why. */
function declaredLimits(scenario, server, published) {
  const kind = serverKind(server);
  const cannot = Object.entries(scenario.servers?.[kind]?.cannotTest || {});
  if (!cannot.length) return '';
  const claim = (id) => (published.findings || []).find((f) => f.id === id)?.claim || id;
  return `What this scenario cannot test on ${md(kind)}, as it declares:\n${cannot.map(([id, why]) => `- ${claim(id)}: ${why}`).join('\n')}`;
}

/**
 * What the scenario says about its numbers on this kind of server in this topology (its
 * descriptor's servers.KIND.topologies, KIND without a compressor where it names none of its own).
 */
function topologyNoteFor(scenario, server) {
  const kind = serverKind(server);
  const entry = scenario.servers?.[kind]?.topologies ? scenario.servers[kind] : scenario.servers?.[String(kind).split(':')[0]];
  const topologies = entry?.topologies || {};
  // an old record's words ("replica set (1 member)") or a new record's key
  return topologies[topologyKey(server)] || '';
}

/** Whether a scenario's tables or charts show the server's own time (serverMs). */
function showsServerTime(scenario) {
  return scenario.tables.some((t) => t.columns.some((c) => c.field === 'serverMs')) || scenario.charts.some((c) => c.y === 'serverMs');
}

/**
 * A scenario's part of the report: its markdown for summary.md, the charts it drew (or, with
 * draw false, found already drawn in outDir) and the same as data for report.html.
 */
async function renderScenario({ scenario, records, runModel, serverRecords, outDir, draw = true }) {
  const { run } = runModel.data;
  const runData = runModel.data;
  const published = scenario.loadPublished();
  // keyed by the server's real name, so tables, charts' legends and headings say what answered
  const names = new Map(serverRecords.map((s) => [s.server, serverDisplayName(s)]));
  const taken = new Set();
  for (const s of serverRecords) {
    if (taken.has(names.get(s.server))) names.set(s.server, `${names.get(s.server)} (${s.server})`);
    taken.add(names.get(s.server));
  }
  const measured = new Map();
  const serverOf = new Map();
  for (const s of serverRecords) {
    const rs = records.filter((r) => r.server === s.server);
    if (rs.length) { measured.set(names.get(s.server), rs); serverOf.set(names.get(s.server), s); }
  }
  // the sizes each server ran at (with --size-per-server they may differ)
  const ranAt = [...serverOf.values()].map((s) => ({ server: s.server, sizes: sizesOf(runData, scenario.name, s.server) })).filter((x) => x.sizes);
  const article = Object.fromEntries(Object.entries(scenario.sizes.article).filter(([k]) => k !== 'passes'));
  const passes = run.params.passes?.[scenario.name];
  const sameScale = ranAt.length > 0 && ranAt.every((x) => Object.entries(article).every(([k, v]) => x.sizes[k] === v)) && passes === scenario.sizes.article.passes;
  const distinct = [...new Set(ranAt.map((x) => JSON.stringify(x.sizes)))];
  const named = run.params.size !== 'auto';
  const passText = `${passes} pass${passes === 1 ? '' : 'es'}`;
  // said as text on the page and as markdown in summary.md (esc: how the run's own words are placed)
  const ranText = (esc) => (distinct.length <= 1
    ? `${named ? `the ${esc(run.params.size)} size` : 'the size the budget allowed'} (${esc(ranAt.length ? sizeText(ranAt[0].sizes) : sizeText(scenario.sizes[run.params.size] || {}))}, ${passText})`
    : `sizes of their own (${ranAt.map((x) => esc(`${names.get(x.server)}: ${scaledSizeText(scenario, x.sizes)}`)).join('; ')}; ${passText})`);
  const introOf = (esc) => (sameScale
    ? `Run at the article's size (${sizeText(scenario.sizes.article)}).`
    : `Run at ${ranText(esc)}; the article's figures are at its own size (${sizeText(scenario.sizes.article)}): compare shapes and ratios, not absolute values.`);
  const intro = introOf(String);
  const parts = [
    `## ${scenario.name}: ${scenario.title}`,
    `Article: “${scenario.article.title}”${scenario.article.gloss ? ` (“${scenario.article.gloss}”)` : ''} (${scenario.article.site}, ${scenario.article.year}). Published on ${published.server}.`,
    introOf(md).replace(/^Run at the (\w+) size/, 'Run at the **$1** size'),
  ];
  const section = { intro, servers: [], charts: [] };
  for (const [name, rs] of measured) {
    const s = serverOf.get(name);
    // the kit's name for the server beside its real one, as the run's options and results.jsonl name it
    parts.push(`### ${md(s.server)}: ${md(name)}`);
    const entry = { server: s.server, name, tables: [], declared: [], notes: [], counts: '', serverTime: '', once: null };
    const declared = declaredLimits(scenario, s, published);
    if (declared) entry.declared.push(declared);
    // what the scenario says of its numbers in this server's topology (a standalone journals whole documents)
    const topologyNote = topologyNoteFor(scenario, s);
    if (topologyNote) { parts.push(topologyNote); entry.notes.push(topologyNote); }
    const notes = notesFor(scenario, rs);
    if (notes) { parts.push(notes); entry.notes.push(notes); }
    const once = onceStepTable(scenario, rs);
    if (once) { parts.push(once); entry.once = once; }
    for (const table of scenario.tables) {
      const t = pivotTable(table, rs, published.records, tableGroups(scenario, table));
      parts.push(`**${table.title}**`, toMarkdown(t));
      entry.tables.push({ title: table.title, ...t });
    }
    const counts = countCheckText(rs);
    if (counts) { parts.push(counts); entry.counts = counts; }
    // where the scenario shows the server's own time (its scripts read it around their timed loops)
    if (showsServerTime(scenario) && !rs.some((r) => Number.isFinite(r.serverMs))) {
      entry.serverTime = 'Server-side time: this server keeps no per-collection latency ($collStats latencyStats), so only the client\'s times are shown.';
      parts.push(entry.serverTime);
    }
    section.servers.push(entry);
  }
  if (!measured.size) parts.push('_No measurement of this scenario was recorded._');
  const files = [];
  // one y axis each, normalised where the sizes differ; the caption (rule, what differs) under each
  const charts = draw
    ? await renderScenarioCharts({ scenario, records, serverRecords, runData, outDir })
    : scenarioCharts({ scenario, records, serverRecords, runData }).filter((c) => fs.existsSync(path.join(outDir, c.file)));
  for (const chart of charts) {
    files.push(chart.file);
    parts.push(`![${chart.title}](${chart.file})`);
    const caption = captionMarkdown(chart);
    if (caption) parts.push(caption);
    section.charts.push({ ...chart, file: path.join(outDir, chart.file) });
  }
  return { markdown: parts.join('\n\n'), files, section };
}

/** What a reader checks only sometimes, for the appendix: [{ title, markdown }]. */
function appendixItems(runModel, scenarios) {
  const { run, servers, calibrations, steps, end, problems } = runModel.data;
  const items = [{ title: 'The run: parameters, servers, machine', markdown: describeRun(run, servers) }];
  const calibration = calibrationTable(calibrations, run);
  if (calibration) {
    const { ops, rounds } = calibrations[0];
    const caveat = `A caveat first: ${ops} operations × ${rounds} rounds in a fresh process are mostly warm-up (the JIT, the pool's first connections), so a ratio here may read below 1 or far above it; it is a rough guide to what the shell adds, not its cost (\`npm run bench\` measures that at length).`;
    items.push({ title: 'Calibration: what the shell adds', markdown: `${caveat}\n\n${calibration.replace(/^### .*\n+/, '')}` });
  }
  const callPaths = callPathTable(steps, run);
  if (callPaths) items.push({ title: 'Client path: which calls took the lean path', markdown: callPaths.replace(/^### .*\n+/, '') });
  const sizes = sizesSection(runModel.data, scenarios);
  if (sizes) items.push({ title: 'Sizes and time, and the models that chose them', markdown: sizes.replace(/^### .*\n+/, '') });
  const findingOf = findingOfScenarios(scenarios);
  const ruled = [...new Map(runModel.verdicts.map((v) => [`${v.scenario}|${v.finding}`, v])).values()].map((v) => ({ v, f: findingOf(v) })).filter(({ f }) => f);
  // what is compared and on which clock (published.json), then where each status begins, from the thresholds
  const rules = ruled.map(({ v, f }) => { const words = ruleText(f); return `- ${v.scenario} · ${f.claim}: ${f.decidedBy}${words ? ` On the scale: ${words}.` : ''}`; }).join('\n');
  if (rules) items.push({ title: 'Every rule', markdown: rules, page: true });
  // summary.md keeps every verdict with its figures as the analysis made them (verdicts.json holds
  // the same as data), for whoever checks a verdict against the records
  const recorded = verdictsMarkdown(runModel.verdicts, findingOf);
  if (recorded) items.push({ title: 'Every verdict, with its interval', markdown: `${recorded}\n\nHow each is decided:\n${rules}`, summary: true });
  if (!end) items.unshift({ title: 'This run did not finish', markdown: 'What the page shows is what it recorded before it stopped.', open: true });
  else if (end.status === 'interrupted') items.unshift({ title: `This run was interrupted (${end.signal})`, markdown: 'What the page shows is what it recorded before.', open: true });
  if (problems.length) items.push({ title: 'Problems reading results.jsonl', open: true, markdown: problems.map((p) => `- ${md(p)}`).join('\n') });
  return items;
}

/** What failed, where a run recorded failures: a section of its own, right after the verdicts. */
function failuresMarkdown(model) {
  return model.runs.filter((r) => r.data.failures.length).map((r) => [
    `## Failures${model.runs.length > 1 ? ` (${r.label})` : ''}`,
    r.data.failures.map((f) => `- ${md([f.server, f.scenario, f.step, f.pass ? `pass ${f.pass}` : null].filter(Boolean).join(' · '))}: ${md(f.error)}`).join('\n'),
  ].join('\n\n'));
}

/**
 * Writes summary.md, report.html, verdicts.png, the exports (results.csv) and, with draw, every chart into outDir for
 * one run or several side by side; returns what it wrote and any problems.
 */
async function renderReport(runDirs, scenarios, { outDir = runDirs[0], draw = runDirs.length === 1 } = {}) {
  const model = buildReportModel(runDirs.map((dir) => ({ dir })), scenarios);
  // the data first (results.csv...), so what was measured leaves the kit even if a chart cannot be drawn
  const exported = writeExports(outDir, { runs: model.runs.map((r) => ({ label: r.label, data: r.data })), scenarios, model });
  const many = model.runs.length > 1;
  const title = many ? `mongo-classics: ${model.runs.map((r) => r.label).join(', ')}` : `mongo-classics run ${model.runs[0].label}`;
  const sections = new Map();
  const files = [];
  const scenarioParts = [];
  for (const runModel of model.runs) {
    for (const name of runModel.data.run.params.scenarios) {
      const scenario = scenarios.find((s) => s.name === name);
      if (!scenario) { scenarioParts.push(`## ${md(name)}\n\n_This kit has no scenario named ${md(name)}; its results are in results.jsonl._`); continue; }
      const out = await renderScenario({
        scenario, records: runModel.recordsOf.get(name), runModel, serverRecords: runModel.data.servers, outDir: runModel.dir, draw,
      });
      sections.set(`${runModel.index}|${name}`, out.section);
      scenarioParts.push(many ? out.markdown.replace(/^## (.*)/, (m, heading) => `## ${heading} (${md(runModel.label)})`) : out.markdown);
      if (draw) files.push(...out.files);
    }
  }
  const appendix = new Map(model.runs.map((r) => [r.index, appendixItems(r, scenarios)]));
  const parts = [
    `# ${md(title)}`,
    ...model.runs.map((r) => `${many ? `**${md(r.label)}**: ` : ''}${[r.facts.date, r.facts.machine, r.facts.kit, r.facts.size, r.facts.shell].map(md).join(' · ')}${r.data.servers.length ? ` · ${r.data.servers.map((s) => md(serverNameWithAlias(s))).join(', ')}` : ''} · ${md(r.facts.busy)}.`),
    ...model.runs.flatMap((r) => r.notes.map((t) => (many ? `${md(r.label)}: ${t}` : t))),
    matrixMarkdown(model),
    ...failuresMarkdown(model),
    ...scenarioParts,
    '## Appendix',
    ...model.runs.flatMap((r) => appendix.get(r.index).filter((i) => !i.page).map((i) => `### ${md(i.title)}${many ? ` (${md(r.label)})` : ''}\n\n${i.markdown}`)),
  ];
  writeFileAtomic(path.join(outDir, 'summary.md'), `${parts.join('\n\n')}\n`);
  const html = writeHtmlReport(outDir, {
    model, title, outDir, sectionsOf: (run, name) => sections.get(`${run}|${name}`), appendixOf: (run) => appendix.get(run).filter((i) => !i.summary),
  });
  const png = writeVerdictsPng(outDir, model, title);
  const problems = model.runs.flatMap((r) => r.data.problems.map((p) => (many ? `${r.label}: ${p}` : p)));
  const failures = model.runs.reduce((n, r) => n + r.data.failures.length, 0);
  return { files: ['summary.md', html, png, ...exported, ...files], problems, failures, model };
}

/** Writes summary.md, report.html, verdicts.png and every chart into runDir; returns what it wrote and any problems. */
function renderRunReport(runDir, scenarios) {
  return renderReport([runDir], scenarios);
}

module.exports = { renderRunReport, renderReport, failuresMarkdown, topologyNoteFor };
