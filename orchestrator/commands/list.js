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

function register(program, { config, log, setResult }) {
  program.command('list [scenario...]')
    .description('list the scenarios and their sizes (the article\'s, quick and smoke)')
    .action((names) => {
      const all = discoverScenarios(config.shellDir);
      const chosen = names.length ? selectScenarios(all, names) : all;
      for (const s of chosen) {
        log(`${s.name}: ${s.title}`);
        log(`  ${s.article.title} (${s.article.site}, ${s.article.year}) ${s.article.url || ''}`.trimEnd());
        sizeTable(s).forEach((line) => log(line));
      }
      for (const b of names.length ? [] : all.broken) log(`${b.name}: BROKEN: ${b.problem}`);
      setResult(!names.length && all.broken.length ? 1 : 0);
    });
}

module.exports = { register };
