'use strict';
// The views of a Comparison (analysis/comparison.js): compare.md and one chart per scenario, its
// exporters (outputs.js: { format, render(comparison) → [{ file, bytes }] }). They say what the
// Comparison holds, with the test that decided each row, and judge nothing themselves.
const { runSizeText } = require('./sizes');
const { toMarkdown } = require('./tables');
const { markdownText: md } = require('./escape');
const { renderChart } = require('./charts');
const { formatValue } = require('./format');
const { estimateText } = require('../analysis/verdict-words');
const { CHANGED, SAME, CANNOT_TELL } = require('../analysis/rules');
const { oneFile } = require('./outputs');

/** Each test's short name in a row; its full name is said once, above the tables. */
const SHORT = { welch: 'Welch\'s t', repeats: 'Welch\'s t on the repeats', margin: 'margin' };

/** The noise band in words: "±10%". */
const band = (noise) => `±${Math.round(noise * 100)}%`;

const pValue = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(p < 0.01 ? 3 : 2)}`);

/** The test that decided a row, with its figures: "Welch's t: t = 2.31, 12.4 df, p = 0.04, after Holm's correction p = 0.40", "margin ±10%". */
function testCell(test) {
  if (!test) return '–';
  if (test.kind === 'welch' || test.kind === 'repeats') {
    const holm = Number.isFinite(test.pHolm) && test.pHolm !== test.p ? `, after Holm's correction ${pValue(test.pHolm)}` : '';
    return `${SHORT[test.kind]}: t = ${test.t.toFixed(2)}, ${test.df.toFixed(1)} df, ${pValue(test.p)}${holm}`;
  }
  if (test.kind === 'margin') return `${SHORT.margin} ${band(test.noise)}`;
  return SHORT[test.kind];
}

/** A status as a table cell: a change in bold. */
const statusCell = (status) => (status === CHANGED ? { markdown: `**${CHANGED}**` } : status);

/** B/A of a row, with its interval where the test gives one: "×0.42 (0.35–0.51)". */
function factorCell({ factor, lo, hi }) {
  if (!Number.isFinite(factor)) return '–';
  return `×${factor.toFixed(2)}${Number.isFinite(lo) && Number.isFinite(hi) ? ` (${lo.toFixed(2)}–${hi.toFixed(2)})` : ''}`;
}

/** The tests named once: those the rows use, in the Comparison's own words. */
function testsParagraph(comparison) {
  const used = new Set([...comparison.findings, ...comparison.scenarios.flatMap((s) => s.cells)].map((r) => r.test?.kind).filter(Boolean));
  return [...used].map((kind) => `- **${SHORT[kind]}**: ${md(comparison.tests[kind])}.`).join('\n');
}

function findingsSection(comparison) {
  const { findings, counts } = comparison;
  if (!findings.length) return [];
  const rows = findings.map((f) => [
    `${f.scenario} · ${f.claim}`, f.a ? `${f.a.status}, ${estimateText(f.a)}` : '–', f.b ? `${f.b.status}, ${estimateText(f.b)}` : '–',
    factorCell(f), statusCell(f.status), testCell(f.test), f.verdictMoved ? { markdown: '**verdict moved**' } : '',
  ]);
  return [
    '## Verdicts',
    `Each finding's verdict and figure (the ratio, its 95% interval and the pairs it rests on) in A and in B, and B/A of the two figures with its interval where the test gives one. ${counts.findings.changed} figure(s) changed; ${counts.findings.verdictsMoved} verdict(s) moved.`,
    toMarkdown({ header: ['finding', 'A', 'B', 'B/A', 'status', 'decided by', ''], rows }),
  ];
}

const sizeWords = (sizes, passes) => `${sizes ? Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(' ') : 'unknown sizes'}, ${passes ?? '?'} pass(es)`;

function scenarioSection(part) {
  const out = [`## ${part.scenario}: A on ${md(part.serverA)}, B on ${md(part.serverB)}`];
  const { sizes } = part;
  if (sizes.differ) out.push(`**The sizes differ** (A: ${md(sizeWords(sizes.a, sizes.passesA))}; B: ${md(sizeWords(sizes.b, sizes.passesB))}): most ratios below say more about the size than about the servers.`);
  if (!part.cells.length) return [...out, '_No cell measured in both runs._'];
  const rows = part.cells.map((c) => [c.label, formatValue(c.a.value, c.format), formatValue(c.b.value, c.format), `×${c.ratio.toFixed(2)}`, statusCell(c.status), testCell(c.test)]);
  return [...out, toMarkdown({ header: ['cell', 'A', 'B', 'B/A', 'status', 'decided by'], rows }), `![${part.scenario}](${chartFile(part)})`];
}

const chartFile = (part) => `compare-${part.scenario}.png`;

/** compare.md: the two runs, the tests, the findings, then each scenario's cells. */
function compareMarkdown(comparison) {
  const { a, b } = comparison;
  const parts = [
    `# ${md(a.name)} (A) against ${md(b.name)} (B)`,
    ...(comparison.machines?.line ? [`**${md(comparison.machines.line)}.**`] : []),
    `A: ${runSizeText(a.params)}; kit ${md(a.commit ?? '?')}, ${md(a.startedAt)}. B: ${runSizeText(b.params)}; kit ${md(b.commit ?? '?')}, ${md(b.startedAt)}.`,
    `A row is **changed**, the **same** or **cannot tell** by the test it names under "decided by":\n\n${testsParagraph(comparison)}`,
    ...findingsSection(comparison),
    ...comparison.scenarios.flatMap(scenarioSection),
  ];
  return `${parts.join('\n\n')}\n`;
}

const BAR_COLOURS = { [CHANGED]: '#e15759', [CANNOT_TELL]: '#bab0ac', [SAME]: '#4e79a7' };
const MAX_BARS = 40;

/** A scenario's cells as bars of B/A from 1 on a log scale, coloured by status: a chart config. */
function compareChartConfig(part) {
  const shown = part.cells.slice(0, MAX_BARS);
  return {
    type: 'bar',
    data: {
      labels: shown.map((c) => c.label),
      // from 1, so a bar's length and side say how far and which way
      datasets: [{ label: 'B/A', data: shown.map((c) => [1, c.ratio]), backgroundColor: shown.map((c) => BAR_COLOURS[c.status]) }],
    },
    options: {
      animation: false,
      indexAxis: 'y',
      plugins: {
        title: { display: true, text: `${part.scenario}: B/A per cell (${part.serverB} / ${part.serverA}); red changed, grey cannot tell, blue the same`, font: { size: 16 } },
        legend: { display: false },
      },
      scales: { x: { type: 'logarithmic', title: { display: true, text: 'B/A (log scale; 1 = unchanged)' } } },
    },
  };
}

/** The PNG of each scenario's chart, where it has cells in both runs. */
async function compareCharts(comparison) {
  const out = [];
  for (const part of comparison.scenarios.filter((p) => p.cells.length)) {
    const height = Math.max(300, 90 + 22 * Math.min(part.cells.length, MAX_BARS));
    out.push({ file: chartFile(part), bytes: await renderChart(compareChartConfig(part), { width: 1000, height }) });
  }
  return out;
}

/** The Comparison's exporters, in the order written: compare.md, then a chart per scenario with cells in both runs. */
const COMPARE_EXPORTERS = [
  oneFile('compare.md', compareMarkdown),
  { format: 'charts', render: compareCharts },
];

/** The line the command prints: what changed, by which test. */
function compareSummaryLine(comparison) {
  const { cells, findings } = comparison.counts;
  const noise = band(comparison.rule.noise);
  const by = (counts, kind) => counts.byTest[kind] || 0;
  return `${findings.changed} finding(s) changed (${by(findings, 'welch')} by ${SHORT.welch} on the log-ratios after Holm's correction and past ${noise}, ${by(findings, 'margin')} past ${noise}); `
    + `${by(cells, 'margin')} cell(s) changed past ${noise}, ${by(cells, 'repeats')} by ${SHORT.repeats}`;
}

module.exports = { COMPARE_EXPORTERS, compareMarkdown, compareChartConfig, compareSummaryLine };
