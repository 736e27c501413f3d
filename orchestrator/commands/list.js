'use strict';
// `orchestrate list [scenario...]`: every scenario and its sizes, read from the descriptors, the
// one place sizes live beside the scripts' own defaults (the article's).
const { discoverScenarios, selectScenarios, SIZE_NAMES } = require('../scenarios');

function sizeTable(scenario) {
  const names = [...new Set(SIZE_NAMES.flatMap((size) => Object.keys(scenario.sizes[size])))];
  const order = ['article', 'quick', 'smoke'].filter((s) => SIZE_NAMES.includes(s));
  const rows = [['variable', ...order], ...names.map((n) => [n, ...order.map((size) => {
    const v = scenario.sizes[size][n];
    return v === undefined ? '–' : v.toLocaleString('en-US');
  })])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `  ${r.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')}`);
}

/** How --size auto scales the scenario: what varies, what stays the article's and why, what each finding needs. */
function autoLines(scenario) {
  const { vary, fixed = {}, findings = {} } = scenario.scaling;
  const lines = [`  auto (the default): scales ${Object.keys(vary).join(', ')} to fit --budget, up to the article's`];
  for (const [name, why] of Object.entries(fixed)) lines.push(`    ${name} stays ${scenario.sizes.article[name].toLocaleString('en-US')}: ${why}`);
  for (const [id, need] of Object.entries(findings)) {
    lines.push(`    ${id} needs ${Object.entries(need.atLeast).map(([k, v]) => `${k} ≥ ${v.toLocaleString('en-US')}`).join(', ')}`);
  }
  return lines;
}

/** What `list --json` prints of a scenario: the same facts as the table, as data. */
function scenarioData(s) {
  const { vary, fixed = {}, findings = {} } = s.scaling;
  return {
    name: s.name, title: s.title, article: s.article, sizes: s.sizes, steps: s.steps.map(({ name, script, repeat, params = [] }) => ({ name, script, repeat, params })),
    auto: { vary: Object.keys(vary), fixed, findings },
  };
}

function register(program, { config, log, setResult }) {
  program.command('list [scenario...]')
    .description('list the scenarios, their sizes (the article\'s, quick and smoke) and how --size auto scales them')
    .option('--json', 'print them as JSON: [{ name, title, article, sizes, steps, auto }], and broken: [{ name, problem }]')
    .action((names, opts) => {
      const all = discoverScenarios(config.shellDir);
      const chosen = names.length ? selectScenarios(all, names) : all;
      const broken = names.length ? [] : all.broken;
      if (opts.json) {
        log(JSON.stringify({ scenarios: chosen.map(scenarioData), broken }, null, 2));
        setResult(broken.length ? 1 : 0);
        return;
      }
      for (const s of chosen) {
        log(`${s.name}: ${s.title}`);
        log(`  ${s.article.title} (${s.article.site}, ${s.article.year}) ${s.article.url || ''}`.trimEnd());
        sizeTable(s).forEach((line) => log(line));
        autoLines(s).forEach((line) => log(line));
      }
      for (const b of broken) log(`${b.name}: BROKEN: ${b.problem}`);
      setResult(broken.length ? 1 : 0);
    });
}

module.exports = { register };
