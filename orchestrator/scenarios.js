'use strict';
// Scenarios are folders under shell/ with a scenario.json; the kit holds no list of their names.
const fs = require('node:fs');
const path = require('node:path');
const { ScenarioError, UsageError } = require('./errors');

const SIZE_NAMES = ['smoke', 'quick', 'article'];
const REPEATS = ['once', 'passes'];
const CHART_TYPES = ['line', 'bar'];

/** Every way a descriptor breaks the contract, collected so a test can report them all at once. */
function descriptorProblems(descriptor, dir) {
  const problems = [];
  const need = (cond, what) => { if (!cond) problems.push(what); };
  need(typeof descriptor.name === 'string' && descriptor.name === path.basename(dir),
    'name must equal the folder name');
  need(typeof descriptor.title === 'string', 'title is missing');
  need(descriptor.article && typeof descriptor.article.title === 'string', 'article.title is missing');
  need(typeof descriptor.database === 'string' && descriptor.database.startsWith('classics_'),
    'database must start with classics_');
  need(Array.isArray(descriptor.collections) && descriptor.collections.length > 0, 'collections is missing');
  need(Array.isArray(descriptor.steps) && descriptor.steps.length > 0, 'steps is missing');
  for (const step of descriptor.steps || []) {
    need(typeof step.name === 'string', 'a step has no name');
    need(REPEATS.includes(step.repeat), `step ${step.name}: repeat must be one of ${REPEATS.join(', ')}`);
    need(typeof step.script === 'string' && fs.existsSync(path.join(dir, step.script)),
      `step ${step.name}: script ${step.script} not found`);
    need(step.constants === undefined || (typeof step.constants === 'object' && Object.values(step.constants).every((v) => ['number', 'string', 'boolean'].includes(typeof v))),
      `step ${step.name}: constants must map names to numbers, strings or booleans`);
    need(step.workers === undefined || step.workers === 'cores' || (Number.isInteger(step.workers) && step.workers > 0),
      `step ${step.name}: workers must be "cores" or a whole number`);
    for (const size of SIZE_NAMES) {
      for (const param of step.params || []) {
        need(descriptor.sizes && descriptor.sizes[size] && Number.isInteger(descriptor.sizes[size][param]),
          `sizes.${size}.${param} is missing`);
      }
    }
  }
  for (const size of SIZE_NAMES) {
    need(descriptor.sizes && descriptor.sizes[size] && Number.isInteger(descriptor.sizes[size].passes),
      `sizes.${size}.passes is missing`);
  }
  need(typeof descriptor.published === 'string' && fs.existsSync(path.join(dir, descriptor.published)), 'published data is missing from the scenario\'s folder');
  need(Array.isArray(descriptor.tables), 'tables is missing');
  for (const table of descriptor.tables || []) {
    need(table.title && table.row && table.group && Array.isArray(table.columns), `table ${table.title}: needs title, row, group and columns`);
  }
  need(Array.isArray(descriptor.charts), 'charts is missing');
  for (const chart of descriptor.charts || []) {
    need(/^[a-z0-9-]+$/.test(chart.id || ''), `chart ${chart.title}: id must be lower-case letters, digits and dashes`);
    need(CHART_TYPES.includes(chart.type), `chart ${chart.id}: type must be one of ${CHART_TYPES.join(', ')}`);
  }
  need(fs.existsSync(path.join(dir, 'README.md')), 'README.md is missing');
  if (descriptor.baseline !== undefined) {
    const b = descriptor.baseline;
    need(b && typeof b.server === 'string' && typeof b.label === 'string' && typeof b.module === 'string',
      'baseline needs server, label and module');
    need(b && typeof b.module === 'string' && fs.existsSync(path.join(dir, b.module)), `baseline module ${b && b.module} not found in the scenario's folder`);
  }
  return problems;
}

function loadScenario(dir, root) {
  const file = path.join(dir, 'scenario.json');
  let descriptor;
  try {
    descriptor = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ScenarioError(`${file}: ${err.message}`);
  }
  const problems = descriptorProblems(descriptor, dir);
  if (problems.length) throw new ScenarioError(`${file}: ${problems.join('; ')}`);
  return {
    ...descriptor,
    dir,
    scriptPath: (step) => path.join(dir, step.script),
    loadPublished: () => JSON.parse(fs.readFileSync(path.join(dir, descriptor.published), 'utf8')),
    baselinePath: descriptor.baseline ? path.join(dir, descriptor.baseline.module) : null,
  };
}

/**
 * Every scenario folder under shellDir, sorted by name. A folder whose descriptor breaks the
 * contract is kept aside with its problems, so one broken folder does not stop the others.
 */
function discoverScenarios(shellDir, root = path.dirname(shellDir)) {
  const found = fs.readdirSync(shellDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(shellDir, e.name, 'scenario.json')))
    .map((e) => e.name)
    .sort();
  const scenarios = [];
  const broken = [];
  for (const name of found) {
    try {
      scenarios.push(loadScenario(path.join(shellDir, name), root));
    } catch (err) {
      broken.push({ name, problem: err.message });
    }
  }
  scenarios.broken = broken;
  return scenarios;
}

/**
 * The scenarios a user named, or all that are sound; an unknown name is a UsageError, a named
 * scenario that breaks the contract a ScenarioError saying what is missing.
 */
function selectScenarios(all, names, warn = () => {}) {
  const broken = all.broken || [];
  if (!names || names.length === 0) {
    broken.forEach((b) => warn(`skipping scenario ${b.name}: ${b.problem}`));
    return all;
  }
  return names.map((name) => {
    const found = all.find((s) => s.name === name);
    if (found) return found;
    const bad = broken.find((b) => b.name === name);
    if (bad) throw new ScenarioError(bad.problem);
    throw new UsageError(`unknown scenario '${name}' (known: ${[...all.map((s) => s.name), ...broken.map((b) => b.name)].sort().join(', ')})`);
  });
}

module.exports = { discoverScenarios, selectScenarios, descriptorProblems, SIZE_NAMES };
