'use strict';
// `orchestrate compare RUN_A RUN_B`: two runs of the same scenarios side by side (other servers,
// versions or days), cell by cell of each scenario's tables, with the ratio B/A, and a flag where
// the change is larger than the noise the user allows (the runs hold no repeats to measure it).
const fs = require('node:fs');
const { writeFileAtomic } = require('../fs-atomic');
const path = require('node:path');
const { readRun, sizesOf } = require('../results/reader');
const { runSizeText } = require('./sizes');
const { toMarkdown } = require('./tables');
const { markdownText: md } = require('./escape');
const { matches } = require('../results/records');
const { renderChart } = require('./charts');
const { formatValue } = require('./format');
const { UsageError } = require('../errors');
const { aggregateRepeats } = require('../results/repeats');
const { analyseRun } = require('../analysis/analyse');
const { estimateText } = require('./verdict-words');
const { changeTest, CHANGE_P, TEST_NAME } = require('../analysis/change');

/**
 * Whether a finding's figure moved between two verdicts: where both rest on paired rounds, by a
 * test on the difference of their log-ratios with both runs' standard errors (analysis/change.js:
 * each run's own noise decides); where either is one reading (a run recorded before pairing), B/A
 * past the noise the user allows. Returns { moved, test (the change test, or null) }.
 */
function verdictMoved(va, vb, noise) {
  if (!Number.isFinite(va?.ratio) || !Number.isFinite(vb?.ratio)) return { moved: false, test: null };
  const test = changeTest(va, vb);
  if (test) return { moved: test.changed, test };
  return { moved: Math.abs(vb.ratio / va.ratio - 1) > noise, test: null };
}

/** A change test in a cell: "t = 2.31, 12.4 df, p = 0.04". */
const testText = (t) => (t ? `t = ${t.t.toFixed(2)}, ${t.df.toFixed(1)} df, p ${t.p < 0.001 ? '< 0.001' : `= ${t.p.toFixed(t.p < 0.01 ? 3 : 2)}`}` : '–');

/** The findings of the common scenarios, A's verdict beside B's, as markdown rows: { rows, moved }. */
function verdictRows(common, analysedA, analysedB, serverOf, noise) {
  const rows = [];
  let moved = 0;
  for (const scenario of common) {
    const [sa, sb] = serverOf(scenario);
    for (const f of scenario.loadPublished().findings || []) {
      if (f.check.kind === 'publishedOnly') continue;
      const pick = (analysed, server) => analysed.verdicts.find((v) => v.scenario === scenario.name && v.finding === f.id && (v.server === server || v.server === 'all servers'));
      const va = pick(analysedA, sa);
      const vb = pick(analysedB, sb);
      if (!va && !vb) continue;
      const { moved: flag, test } = verdictMoved(va, vb, noise);
      const statusMoved = va && vb && va.status !== vb.status;
      if (flag || statusMoved) moved += 1;
      rows.push([
        `${scenario.name} · ${f.claim}`, va ? `${va.status}, ${estimateText(va)}` : '–', vb ? `${vb.status}, ${estimateText(vb)}` : '–',
        va && vb && Number.isFinite(va.ratio) && Number.isFinite(vb.ratio) ? `×${(vb.ratio / va.ratio).toFixed(2)}` : '–',
        testText(test),
        [statusMoved ? '**verdict moved**' : '', flag ? '**figure changed**' : ''].filter(Boolean).join(', '),
      ]);
    }
  }
  return { rows, moved };
}

/** The server of a run to compare: the one named, or the run's only one (baselines aside). */
function chooseServer(run, scenario, named) {
  const servers = [...new Set(run.measurements.filter((m) => m.scenario === scenario.name).map((m) => m.server))]
    .filter((s) => s !== scenario.baseline?.server);
  if (named) {
    if (!servers.includes(named)) throw new UsageError(`${path.basename(run.dir)} has no server '${named}' for ${scenario.name} (it has: ${servers.join(', ') || 'none'})`);
    return named;
  }
  if (servers.length !== 1) throw new UsageError(`${path.basename(run.dir)} ran ${scenario.name} on ${servers.length} servers (${servers.join(', ')}): name one with --server-a/--server-b`);
  return servers[0];
}

/** Every measured cell of a scenario's tables: { key, label, value }. */
function cells(scenario, records) {
  const out = new Map();
  for (const table of scenario.tables) {
    for (const r of records.filter((x) => matches(x, table))) {
      for (const col of table.columns.filter((c) => !c.publishedOnly)) {
        if (!Number.isFinite(r[col.field])) continue;
        const label = `${table.title.split(':')[0].split('(')[0].trim()} · ${r[table.row]} · ${r[table.group]} · ${col.label}`;
        const key = JSON.stringify([table.title, r[table.row], r[table.group], col.field]);
        if (!out.has(key)) out.set(key, { key, label, value: r[col.field], format: col.format, spread: r.spread?.[col.field] });
      }
    }
  }
  return out;
}

async function compareRuns({ dirA, dirB, out, scenarios, serverA, serverB, noise }) {
  const a = readRun(dirA);
  const b = readRun(dirB);
  const common = scenarios.filter((s) => a.run.params.scenarios.includes(s.name) && b.run.params.scenarios.includes(s.name));
  if (!common.length) throw new UsageError('the two runs have no scenario in common');
  fs.mkdirSync(out, { recursive: true });
  const parts = [
    `# ${path.basename(dirA)} (A) against ${path.basename(dirB)} (B)`,
    `A: ${runSizeText(a.run.params)}; kit ${a.run.kit?.commit ?? '?'}, ${a.run.startedAt}. B: ${runSizeText(b.run.params)}; kit ${b.run.kit?.commit ?? '?'}, ${b.run.startedAt}.`,
    (a.run.params.repeat || 1) > 1 && (b.run.params.repeat || 1) > 1
      ? 'Both runs were repeated: a cell is **flagged** where the ranges of its repeats in A and in B do not overlap (the runs\' own noise).'
      : `A change is **flagged** where B/A is past ±${Math.round(noise * 100)}%: without repeats in both runs there is no measure of their own noise, so this is the margin you allowed (--noise).`,
  ];
  const files = [];
  let flagged = 0;
  // the verdicts first: each finding's status and figure with its interval in A and in B
  const { rows: vRows, moved } = verdictRows(common, analyseRun(a, scenarios), analyseRun(b, scenarios),
    (scenario) => [chooseServer(a, scenario, serverA), chooseServer(b, scenario, serverB)], noise);
  if (vRows.length) {
    parts.push('## Verdicts', `Each finding's verdict and figure (the ratio, its 95% interval and the pairs it rests on) in A and in B. A figure is **changed** where ${TEST_NAME} (each run's standard error, Welch–Satterthwaite degrees of freedom) gives p < ${CHANGE_P}; where either run rests on one reading (recorded before pairing), where B/A is past ±${Math.round(noise * 100)}%. ${moved} finding(s) moved.`,
      toMarkdown({ header: ['finding', 'A', 'B', 'B/A', 'test', ''], rows: vRows }));
  }
  for (const scenario of common) {
    const sa = chooseServer(a, scenario, serverA);
    const sb = chooseServer(b, scenario, serverB);
    const findings = scenario.loadPublished().findings || [];
    const ca = cells(scenario, aggregateRepeats(a.measurements.filter((m) => m.scenario === scenario.name && m.server === sa), scenario, findings));
    const cb = cells(scenario, aggregateRepeats(b.measurements.filter((m) => m.scenario === scenario.name && m.server === sb), scenario, findings));
    const rows = [];
    const chartRows = [];
    for (const [key, cellA] of ca) {
      const cellB = cb.get(key);
      if (!cellB || cellA.value === 0) continue;
      const ratio = cellB.value / cellA.value;
      // with repeats on both sides, their own noise decides: a change is one whose ranges do not meet
      const flag = cellA.spread && cellB.spread
        ? cellB.spread.min > cellA.spread.max || cellB.spread.max < cellA.spread.min
        : Math.abs(ratio - 1) > noise;
      if (flag) flagged += 1;
      rows.push([cellA.label, formatValue(cellA.value, cellA.format), formatValue(cellB.value, cellB.format), `×${ratio.toFixed(2)}`, flag ? { markdown: '**changed**' } : '']);
      chartRows.push({ label: cellA.label, ratio, flag });
    }
    parts.push(`## ${scenario.name}: A on ${md(sa)}, B on ${md(sb)}`);
    const sizesA = sizesOf(a, scenario.name, sa);
    const sizesB = sizesOf(b, scenario.name, sb);
    const passesA = a.run.params.passes?.[scenario.name];
    const passesB = b.run.params.passes?.[scenario.name];
    if (JSON.stringify(sizesA) !== JSON.stringify(sizesB) || passesA !== passesB) {
      const text = (sizes, passes) => `${sizes ? Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(' ') : 'unknown sizes'}, ${passes ?? '?'} pass(es)`;
      parts.push(`**The sizes differ** (A: ${md(text(sizesA, passesA))}; B: ${md(text(sizesB, passesB))}): most ratios below say more about the size than about the servers.`);
    }
    if (!rows.length) { parts.push('_No cell measured in both runs._'); continue; }
    parts.push(toMarkdown({ header: ['cell', 'A', 'B', 'B/A', ''], rows }));
    const file = `compare-${scenario.name}.png`;
    const shown = chartRows.slice(0, 40);
    const config = {
      type: 'bar',
      data: {
        labels: shown.map((r) => r.label),
        datasets: [{ label: 'B/A', data: shown.map((r) => [1, r.ratio]), // from 1, so a bar's length and side say how far and which way
           backgroundColor: shown.map((r) => (r.flag ? '#e15759' : '#4e79a7')) }],
      },
      options: {
        animation: false,
        indexAxis: 'y',
        plugins: {
          title: { display: true, text: `${scenario.name}: B/A per cell (${sb} / ${sa}); red past ±${Math.round(noise * 100)}%`, font: { size: 16 } },
          legend: { display: false },
        },
        scales: { x: { type: 'logarithmic', title: { display: true, text: 'B/A (log scale; 1 = unchanged)' } } },
      },
    };
    writeFileAtomic(path.join(out, file), await renderChart(config, { width: 1000, height: Math.max(300, 90 + 22 * shown.length) }));
    files.push(file);
    parts.push(`![${scenario.name}](${file})`);
  }
  writeFileAtomic(path.join(out, 'compare.md'), `${parts.join('\n\n')}\n`);
  return { files: ['compare.md', ...files], flagged, moved };
}

module.exports = { compareRuns, verdictMoved };
