'use strict';
// summary.md and the charts of a run, from results.jsonl alone (and the scenarios' descriptors
// and published data), so `orchestrate report DIR` gives what the run itself wrote.
const fs = require('node:fs');
const path = require('node:path');
const { writeFileAtomic } = require('../fs-atomic');
const { readRun, sizesOf } = require('../results/reader');
const { sizesSection, runSizeText } = require('./sizes');
const { sizeText: scaledSizeText } = require('../sizing/describe');
const { pivotTable, toMarkdown, tableGroups } = require('./tables');
const { chartConfig, renderChart } = require('./charts');
const { formatValue, formatBytes, markdownText } = require('./format');
const { verdictsForScenario, verdictsMarkdown } = require('./verdicts');
const { writeHtmlReport } = require('./html');
const { aggregateRepeats } = require('../results/repeats');
const { serverKind } = require('../results/records');

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
    `Started ${run.startedAt}; ${runSizeText(run.params)}; seed ${run.params.seed ?? 'none (Math.random, as the articles)'}.`,
    `Kit ${run.kit?.version} (commit ${run.kit?.commit ?? 'unknown'}), Node ${run.node}, driver ${run.driver}, mongosh ${run.mongosh}. Timings taken in **${shellName(run.params.shell || run.shell)}**${(run.params.shell || run.shell) === 'kit' ? ` (the unchanged scripts with mongosh's semantics${{ on: ', the single-document writes and reads on its lean path', off: ', its lean path off: every call through the driver' }[run.params.lean] ?? ''}; \`--shell mongosh\` runs them in mongosh)` : ''}.`,
    `Machine: ${m.cores} × ${m.cpu}, ${formatBytes(m.memoryBytes)} memory, ${m.platform}.`,
    `Parameters: scenarios ${run.params.scenarios.join(', ')}; workers ${run.params.workers ?? '–'}; ${(run.params.repeat || 1) > 1 ? `each scenario run ${run.params.repeat} times per server${run.params.warmup ? ' after a warm-up run that is not counted' : ''}, tables showing the median [min–max, coefficient of variation] and charts the min–max band` : 'one run per scenario and server'}; overrides ${Object.entries(run.params.overrides || {}).map(([k, v]) => `${k}=${v}`).join(' ') || 'none'}; keep data ${run.params.keepData ? 'yes' : 'no'}.`,
    '',
    '| server | what | version | storage | started by the kit |',
    '|---|---|---|---|---|',
    ...servers.map((s) => `| ${s.server} | ${s.description} | ${s.product} ${s.version} | ${s.engine ?? '–'} | ${s.startedByKit ? 'yes' : 'no'} |`),
  ];
  // what a server warned of at start-up (FerretDB 2: a DocumentDB other than the one it was built for)
  const warned = servers.flatMap((s) => (s.warnings || []).map((w) => `- ${s.server} warned at start-up: ${markdownText(w)}`));
  if (warned.length) lines.push('', ...warned);
  return lines.join('\n');
}

/** What each shell adds per operation on each server, so the server's time can be told from the shell's. */
function calibrationTable(calibrations, run) {
  if (!calibrations.length) return '';
  const shells = [...new Set(calibrations.flatMap((c) => c.shells || []))];
  const compiled = calibrations.some((c) => (c.anchors || []).includes('compiled'));
  const first = calibrations[0];
  const intro = `The same operations timed as the scripts time them (a clock read around each call), by a plain loop on the Node driver${compiled ? ', by a compiled client (the same loop in C on libmongoc, as the articles\' clients were compiled; built by `npm run bench`)' : ''} and in ${shells.map((s) => (s === 'kit' ? 'the kit\'s own shell' : s)).join(' and in ')}, ${first.ops} of each, ${first.rounds} interleaved rounds, on each server before its scenarios. This run's timings were taken in **${shellName(run.params.shell || first.shell)}**${run.params.lean === 'off' ? ' with its lean path off (`--lean off`: every call through the driver)' : ''}. A ratio near 1 means the times below are the server's; above 1, part of each operation is the shell's.`;
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
  const body = rows.map((r) => `| ${r.step} | ${r.collection ?? '–'} | ${formatValue(r.ms, 'int')} | ${formatValue(r.hrMs, 'fixed1')} | ${formatValue(r.count, 'int')} | ${formatValue(r.size, 'int')} |`);
  return [header, ...body].join('\n');
}

function notesFor(scenario, records) {
  return (scenario.notes || []).map((note) => {
    const values = [...new Set(records.filter((r) => r[note.field] !== undefined && r[note.field] !== null).map((r) => noteValue(r[note.field])))];
    return values.length ? `- ${note.label}: ${markdownText(values.join('; '))}` : null;
  }).filter(Boolean).join('\n');
}

function countCheckText(records) {
  const checked = records.filter((r) => r.countOk !== undefined);
  const bad = checked.filter((r) => r.countOk === false);
  if (!checked.length) return '';
  if (!bad.length) return `Counts: after every step each collection held exactly the documents the scripts wrote (${checked.length} checks).`;
  return `**Count mismatches** (collection count vs the scripts' inserts minus removes):\n${bad.map((r) => `- ${r.step} ${r.pass}, ${r.collection}: ${r.count} counted, ${r.expectedCount} expected`).join('\n')}`;
}

/** What the scenario declares it cannot test on this kind of server, and why. */
function declaredLimits(scenario, server, published) {
  const kind = serverKind(server);
  const cannot = Object.entries(scenario.servers?.[kind]?.cannotTest || {});
  if (!cannot.length) return '';
  const claim = (id) => (published.findings || []).find((f) => f.id === id)?.claim || id;
  return `What this scenario cannot test on ${kind}, as it declares:\n${cannot.map(([id, why]) => `- ${claim(id)}: ${why}`).join('\n')}`;
}

function chartSubtitle(chart, sizeLabel, sameScale) {
  const marked = chart.type === 'bar' ? 'hatched' : 'dashed';
  return sameScale ? `measured (solid) and article (${marked})` : `measured at ${sizeLabel} (solid, left axis); article at its own size (${marked}, right axis)`;
}

/** What DocumentDB's collStats estimates (count × average size from PostgreSQL's statistics); storageSize is the relation's own size. */
const ESTIMATED_FIELDS = ['size', 'avgObjSize'];

/**
 * The line a chart adds where it draws sizes a server estimated (DocumentDB's are PostgreSQL's
 * statistics, which jump when autovacuum analyzes the table): a curve of them must not be read as
 * the data growing or shrinking. null where every value drawn was measured.
 */
function estimatedNote(chart, records) {
  if (!ESTIMATED_FIELDS.includes(chart.y)) return null;
  const servers = [...new Set(records.filter((r) => Number.isFinite(r[chart.y]) && r.sizesEstimated === true).map((r) => r.server))];
  return servers.length ? `${servers.join(', ')}: ${chart.y} is the server's estimate, which jumps when PostgreSQL re-analyzes the table` : null;
}

/** A scenario's records, with --repeat one per cell: the median of the runs, with its spread (for tables, charts and verdicts alike). */
function scenarioRecords(scenario, measurements) {
  return aggregateRepeats(measurements.filter((r) => r.scenario === scenario.name), scenario, scenario.loadPublished().findings || []);
}

/** Whether a scenario's tables or charts show the server's own time (serverMs). */
function showsServerTime(scenario) {
  return scenario.tables.some((t) => t.columns.some((c) => c.field === 'serverMs')) || scenario.charts.some((c) => c.y === 'serverMs');
}

async function renderScenario({ scenario, records, run, runData, serverRecords, outDir }) {
  const published = scenario.loadPublished();
  const measured = new Map();
  for (const s of serverRecords) {
    const rs = records.filter((r) => r.server === s.server);
    if (rs.length) measured.set(s.server, rs);
  }
  // the sizes each server ran at (with --size-per-server they may differ)
  const ranAt = [...measured.keys()].map((server) => ({ server, sizes: sizesOf(runData, scenario.name, server) })).filter((x) => x.sizes);
  const article = Object.fromEntries(Object.entries(scenario.sizes.article).filter(([k]) => k !== 'passes'));
  const passes = run.params.passes?.[scenario.name];
  const sameScale = ranAt.length > 0 && ranAt.every((x) => Object.entries(article).every(([k, v]) => x.sizes[k] === v)) && passes === scenario.sizes.article.passes;
  const distinct = [...new Set(ranAt.map((x) => JSON.stringify(x.sizes)))];
  const named = run.params.size !== 'auto';
  const sizeLabel = named ? `the ${run.params.size} size` : 'the size the budget allowed';
  const passText = `${passes} pass${passes === 1 ? '' : 'es'}`;
  const ranText = distinct.length <= 1
    ? `${named ? `the **${run.params.size}** size` : 'the size the budget allowed'} (${ranAt.length ? sizeText(ranAt[0].sizes) : sizeText(scenario.sizes[run.params.size] || {})}, ${passText})`
    : `sizes of their own (${ranAt.map((x) => `${x.server}: ${scaledSizeText(scenario, x.sizes)}`).join('; ')}; ${passText})`;
  const parts = [
    `## ${scenario.name}: ${scenario.title}`,
    `Article: “${scenario.article.title}” (${scenario.article.site}, ${scenario.article.year}). Published on ${published.server}.`,
    sameScale
      ? `Run at the article's size (${sizeText(scenario.sizes.article)}).`
      : `Run at ${ranText}; the article's columns are at its own size (${sizeText(scenario.sizes.article)}): compare shapes and ratios, not absolute values.`,
  ];
  const files = [];
  for (const [server, rs] of measured) {
    const s = serverRecords.find((x) => x.server === server);
    parts.push(`### ${server}: ${s.product} ${s.version}${s.engine ? ` on ${s.engine}` : ''}`);
    const declared = declaredLimits(scenario, s, published);
    if (declared) parts.push(declared);
    const notes = notesFor(scenario, rs);
    if (notes) parts.push(notes);
    const once = onceStepTable(scenario, rs);
    if (once) parts.push(once);
    for (const table of scenario.tables) {
      parts.push(`**${table.title}**`, toMarkdown(pivotTable(table, rs, published.records, tableGroups(scenario, table))));
    }
    const counts = countCheckText(rs);
    if (counts) parts.push(counts);
    // where the scenario shows the server's own time (its scripts read it around their timed loops)
    if (showsServerTime(scenario) && !rs.some((r) => Number.isFinite(r.serverMs))) {
      parts.push('Server-side time: this server keeps no per-collection latency ($collStats latencyStats), so only the client\'s times are shown.');
    }
  }
  if (!measured.size) parts.push('_No measurement of this scenario was recorded._');
  for (const chart of scenario.charts) {
    const file = `${scenario.name}-${chart.id}.png`;
    // a chart of what only some servers measure (server-side time) is drawn where one did
    if (chart.optional && ![...measured.values()].flat().some((r) => Number.isFinite(r[chart.y]))) continue;
    const config = chartConfig({
      spec: chart, measured, published: published.records, groups: chart.groups || scenario.collections, sameScale,
      subtitle: chartSubtitle(chart, sizeLabel, sameScale),
    });
    if (!config.data.datasets.length) continue; // nothing measured and nothing published to draw
    if (!config.data.datasets.some((d) => d.label.startsWith('article'))) {
      config.options.plugins.subtitle.text = `measured at ${sizeLabel}; the article printed no figure for this chart`;
    }
    const estimated = estimatedNote(chart, [...measured.values()].flat());
    if (estimated) config.options.plugins.subtitle.text = [config.options.plugins.subtitle.text, estimated];
    writeFileAtomic(path.join(outDir, file), await renderChart(config));
    files.push(file);
    parts.push(`![${chart.title}](${file})`);
  }
  return { markdown: parts.join('\n\n'), files };
}

/** Writes summary.md and every chart into runDir; returns what it wrote and any problems. */
async function renderRunReport(runDir, scenarios) {
  const runData = readRun(runDir);
  const { run, servers: serverRecords, measurements, failures, calibrations, steps, end, problems } = runData;

  const parts = [`# mongo-classics run ${path.basename(runDir)}`, describeRun(run, serverRecords)];
  const runScenarios = run.params.scenarios.map((n) => scenarios.find((s) => s.name === n)).filter(Boolean);
  const recordsOf = new Map(runScenarios.map((s) => [s.name, scenarioRecords(s, measurements)]));
  const verdicts = verdictsMarkdown(runScenarios.flatMap((s) => verdictsForScenario(s, recordsOf.get(s.name), (server) => sizesOf(runData, s.name, server))));
  if (verdicts) parts.push(verdicts);
  const calibration = calibrationTable(calibrations, run);
  if (calibration) parts.push(calibration);
  const callPaths = callPathTable(steps, run);
  if (callPaths) parts.push(callPaths);
  const sizes = sizesSection(runData, runScenarios);
  if (sizes) parts.push(sizes);
  if (!end) parts.push('**This run did not finish**: what follows is what it recorded before it stopped.');
  else if (end.status === 'interrupted') parts.push(`**This run was interrupted** (${end.signal}): what follows is what it recorded before.`);
  for (const { from } of runData.resumes.filter((r) => r.from)) parts.push(`**Resumed** after ${from.afterStep ? [from.afterStep.server, from.afterStep.scenario, from.afterStep.step, from.afterStep.pass ? `pass ${from.afterStep.pass}` : null].filter(Boolean).join(' · ') : 'its start'} (it had ended: ${from.ended}).`);
  const shared = steps.filter((st) => st.otherRuns?.length);
  if (shared.length) parts.push(`**Another run of the kit shared this machine** during ${shared.length} timed step(s) (${[...new Set(shared.flatMap((st) => st.otherRuns.map((o) => o.runId)))].join(', ')}): their numbers may be disturbed.`);
  const files = [];
  for (const name of run.params.scenarios) {
    const scenario = scenarios.find((s) => s.name === name);
    if (!scenario) { parts.push(`## ${name}\n\n_This kit has no scenario named ${name}; its results are in results.jsonl._`); continue; }
    const out = await renderScenario({ scenario, records: recordsOf.get(name), run, runData, serverRecords, outDir: runDir });
    parts.push(out.markdown);
    files.push(...out.files);
  }
  if (failures.length) {
    parts.push('## Failures', ...failures.map((f) => `- ${[f.server, f.scenario, f.step, f.pass ? `pass ${f.pass}` : null].filter(Boolean).join(' · ')}: ${f.error}`));
  }
  if (problems.length) parts.push('## Problems reading results.jsonl', ...problems.map((p) => `- ${p}`));
  const markdown = `${parts.join('\n\n')}\n`;
  writeFileAtomic(path.join(runDir, 'summary.md'), markdown);
  const html = writeHtmlReport(runDir, markdown, `mongo-classics run ${path.basename(runDir)}`);
  return { files: ['summary.md', html, ...files], problems, failures: failures.length };
}

module.exports = { renderRunReport, estimatedNote };
