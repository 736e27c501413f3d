'use strict';
// Walks every scenario under shell/ and collects every broken rule before failing once, so one
// run lists all that is missing (genny's workload linter does the same).
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { descriptorProblems, SIZE_NAMES } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');

const { shellDir, root } = resolveConfig();
const HEADER_FIELDS = ['Article:', 'Measures:', 'Faithful:', 'Changes:', 'Sizes:'];
const dirs = fs.readdirSync(shellDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(shellDir, e.name));

/** The defaults a script gives its size variables: `if (typeof X === 'undefined') var X = 123;` */
function scriptDefaults(source) {
  const defaults = {};
  for (const m of source.matchAll(/if \(typeof (\w+) === 'undefined'\) var \1 = (-?\d+);/g)) defaults[m[1]] = Number(m[2]);
  return defaults;
}

describe('scenario folders', () => {
  it('finds at least one scenario', () => assert.ok(dirs.length >= 1));

  it('every descriptor honours the contract', () => {
    const problems = [];
    for (const dir of dirs) {
      const file = path.join(dir, 'scenario.json');
      if (!fs.existsSync(file)) { problems.push(`${path.basename(dir)}: no scenario.json`); continue; }
      const d = JSON.parse(fs.readFileSync(file, 'utf8'));
      problems.push(...descriptorProblems(d, dir).map((p) => `${d.name}: ${p}`));
    }
    assert.deepEqual(problems, []);
  });

  it('every script starts with the header fields', () => {
    const missing = [];
    for (const dir of dirs) {
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.js') && f !== 'sql-baseline.js')) {
        const head = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').slice(0, 60).join('\n');
        for (const field of HEADER_FIELDS) if (!head.includes(`// ${field}`)) missing.push(`${path.basename(dir)}/${file}: ${field}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('a script pasted unchanged runs the article\'s size: its defaults equal sizes.article', () => {
    const mismatches = [];
    for (const dir of dirs) {
      const d = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
      for (const step of d.steps) {
        const defaults = scriptDefaults(fs.readFileSync(path.join(dir, step.script), 'utf8'));
        for (const param of step.params || []) {
          if (defaults[param] !== d.sizes.article[param]) {
            mismatches.push(`${d.name}/${step.script}: ${param} defaults to ${defaults[param]}, sizes.article has ${d.sizes.article[param]}`);
          }
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('every size is no larger than the article\'s', () => {
    const over = [];
    for (const dir of dirs) {
      const d = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
      for (const size of SIZE_NAMES) {
        for (const [k, v] of Object.entries(d.sizes[size])) if (v > d.sizes.article[k]) over.push(`${d.name}: ${size}.${k}`);
      }
    }
    assert.deepEqual(over, []);
  });
});
