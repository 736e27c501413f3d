'use strict';
// Scenarios are folders under shell/, each holding everything about its article: scenario.json,
// the scripts, published.json (tables and findings), any baseline module, its tests and README.
// The kit holds no list of their names. scenarioProblems(dir) is the one contract check: the
// loader runs it before a run (a mistyped finding fails in a second, not after a long run) and
// the tests run it on every folder.
const fs = require('node:fs');
const path = require('node:path');
const { ScenarioError, UsageError } = require('./errors');
const { scenarioSchemaProblems, publishedSchemaProblems, schemas } = require('./schemas');
const { deepFreeze } = require('./analysis/verdict');

const SIZE_NAMES = ['smoke', 'quick', 'article'];
/** --size: the budget's own choice (auto, the default) or one of the sizes each descriptor lists. */
const SIZE_CHOICES = ['auto', ...SIZE_NAMES];
/** The server kinds a scenario may declare, as its schema lists them. */
const SERVER_KINDS = schemas.scenario.properties.servers.propertyNames.enum;
/** The header every script and baseline module starts with (genny requires Description, Owner, Keywords). */
const HEADER_FIELDS = ['Article:', 'Measures:', 'Faithful:', 'Changes:', 'Writes:', 'Sizes:'];
/** How far into a file its header may run (the longest, many-keys/update.js, lists two dozen changes). */
const HEADER_LINES = 100;

function readJson(file, problems, what) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    problems.push(`${what}: ${err.code === 'ENOENT' ? 'missing' : err.message}`);
    return null;
  }
}

/**
 * What a descriptor's schema (schemas/scenario.schema.json, which says every field) cannot say,
 * checked against its folder: its name, its scripts, module and README, and the sizes its steps read.
 */
function descriptorProblems(descriptor, dir) {
  const problems = [];
  const need = (cond, what) => { if (!cond) problems.push(what); };
  need(descriptor.name === path.basename(dir), 'name must equal the folder name');
  for (const step of descriptor.steps || []) {
    if (typeof step.script === 'string') need(fs.existsSync(path.join(dir, step.script)), `step ${step.name}: script ${step.script} not found`);
    for (const size of SIZE_NAMES) {
      for (const param of step.params || []) {
        need(Number.isInteger(descriptor.sizes?.[size]?.[param]), `sizes.${size}.${param} is missing`);
      }
    }
  }
  need(fs.existsSync(path.join(dir, 'README.md')), 'README.md is missing');
  if (typeof descriptor.baseline?.module === 'string') {
    need(fs.existsSync(path.join(dir, descriptor.baseline.module)), `baseline module ${descriptor.baseline.module} not found in the scenario's folder`);
  }
  return problems;
}

/**
 * A published.json's problems: its schema (schemas/published.schema.json: records, findings and
 * the thresholds each check needs), then what it must agree on with the code and the descriptor.
 */
function publishedProblems(published, descriptor) {
  // a finding is named by its id, where it has one, not by its place in the list
  const named = (p) => p.replace(/^findings\[(\d+)\]/, (m, i) => (typeof published.findings?.[i]?.id === 'string' ? `finding ${published.findings[i].id}` : m));
  const problems = publishedSchemaProblems(published).map((p) => `published.json: ${named(p)}`);
  const need = (cond, what) => { if (!cond) problems.push(`published.json: ${what}`); };
  const { CHECK_KINDS, kindOf } = require('./analysis/checks');
  const { ruleProblem } = require('./analysis/rules');
  const ids = new Set();
  for (const f of Array.isArray(published.findings) ? published.findings : []) {
    need(!ids.has(f?.id), `finding id ${f?.id} is repeated`);
    ids.add(f?.id);
    need(!f?.check?.kind || CHECK_KINDS.includes(f.check.kind), `finding ${f.id}: check.kind ${f.check?.kind} is not one the verdicts know (${CHECK_KINDS.join(', ')})`);
    // every ratio must be able to say "does not hold": a threshold table without a failing side is refused here
    const rule = f?.check ? ruleProblem({ ...f.check, figure: f.figure }) : null;
    need(!rule, `finding ${f.id}: ${rule}`);
    // an article's claim is judged at its size: its rule says what the article claimed, from its words
    const kind = kindOf(f?.check?.kind);
    const decides = Boolean(kind?.decides);
    need(!decides || typeof f.reasoning === 'string', `finding ${f.id}: say in reasoning, from the article's own words, what it claimed and so what its rule holds it to`);
    need(f?.source === 'kit' || !kind?.saysFigure || f.check.says, `finding ${f.id}: an article's claim says what it claimed of its figure (check.says: order, about), not a direction alone`);
    need(f?.clock === undefined || f.check?.field === undefined, `finding ${f.id}: a finding with a clock is decided on clock.decides; its check names no field of its own`);
  }
  for (const [kind, entry] of Object.entries(descriptor.servers || {})) {
    for (const id of Object.keys(entry?.cannotTest || {})) need(ids.has(id), `servers.${kind}.cannotTest names finding ${id}, which published.json does not have`);
  }
  return problems;
}

/**
 * How a scenario grows under --size auto (scaling): every size variable either varies with the
 * fraction of the article (vary: its least value, or the values its script accepts) or stays
 * the article's (fixed, with why: a finding depends on it); each step's operations (ops),
 * where each costs more as the size grows what it grows with (grows, with why), and where its
 * parts (a table's cells) each cost something of their own how many there are (parts), in the
 * size variables; and where a step's own lines time parts of different sizes (figures), how to
 * read its growth from them; the probe's sizes; the smallest size each finding needs (findings); and the steps
 * whose timed figures a verdict uses, with the shortest span it may use and the variable that
 * lengthens it (spans).
 */
function scalingProblems(descriptor, published) {
  const problems = [];
  const need = (cond, what) => { if (!cond) problems.push(`scaling: ${what}`); };
  const s = descriptor.scaling;
  if (!s || typeof s !== 'object') return []; // the schema says it is missing
  const article = descriptor.sizes?.article || {};
  const names = Object.keys(article).filter((k) => k !== 'passes');
  const vary = s.vary || {};
  const fixed = s.fixed || {};
  need(Object.keys(vary).length > 0, 'vary is empty: name the variables that scale with the budget');
  for (const name of names) {
    need(name in vary || name in fixed, `${name} is in neither vary nor fixed`);
    need(!(name in vary && name in fixed), `${name} is in both vary and fixed`);
  }
  for (const name of [...Object.keys(vary), ...Object.keys(fixed)]) need(names.includes(name), `${name} is not a size variable of sizes.article`);
  for (const [name, decl] of Object.entries(vary)) {
    if (!names.includes(name)) continue;
    need(decl && typeof decl === 'object', `vary.${name} must be an object ({} or { least } or { values })`);
    if (decl?.least !== undefined) need(Number.isInteger(decl.least) && decl.least >= 1 && decl.least <= article[name], `vary.${name}.least must be a whole number from 1 to the article's ${article[name]}`);
    if (decl?.values !== undefined) {
      const v = decl.values;
      need(Array.isArray(v) && v.length > 0 && v.every((x, i) => Number.isInteger(x) && x >= 1 && (i === 0 || x > v[i - 1])) && v.at(-1) === article[name],
        `vary.${name}.values must be whole numbers in ascending order ending at the article's ${article[name]}`);
    }
  }
  for (const [name, why] of Object.entries(fixed)) need(typeof why === 'string' && why.length > 0, `fixed.${name}: say why it must not scale`);
  for (const [name, v] of Object.entries(s.probe || {})) {
    need(name in vary, `probe.${name}: only varying variables are probed at other sizes`);
    need(Number.isInteger(v) && v >= (vary[name]?.least ?? 1) && v <= article[name] && (!vary[name]?.values || vary[name].values.includes(v)),
      `probe.${name} must be one of its allowed values, at most the article's`);
  }
  const { parseExpression } = require('./sizing/expression');
  const expressionProblem = (what, text) => {
    try {
      const e = parseExpression(text);
      // ROUNDS, the paired rounds a step's comparisons are cut into, prices what each block costs
      const unknown = [...e.names].filter((n) => !names.includes(n) && n !== 'ROUNDS');
      if (unknown.length) return `${what} names ${unknown.join(', ')}, not a size variable or ROUNDS`;
      return Number.isFinite(e.evaluate({ ROUNDS: descriptor.rounds ?? 8, ...article })) ? null : `${what} is not a number at the article's size`;
    } catch (err) {
      return `${what}: ${err.message}`;
    }
  };
  const stepNames = (descriptor.steps || []).map((st) => st.name);
  for (const name of stepNames) {
    const decl = s.steps?.[name];
    if (!decl) { problems.push(`scaling: steps.${name} is missing: its operations (ops) in the size variables`); continue; }
    const opsProblem = expressionProblem(`steps.${name}.ops`, decl.ops);
    if (opsProblem) problems.push(`scaling: ${opsProblem}`);
    if (decl.grows !== undefined) {
      const growsProblem = expressionProblem(`steps.${name}.grows`, decl.grows);
      if (growsProblem) problems.push(`scaling: ${growsProblem}`);
      need(typeof decl.why === 'string' && decl.why.length > 0, `steps.${name}.grows: say why each operation costs more as the size grows (why)`);
    }
    if (decl.figures !== undefined) {
      const f = decl.figures;
      need(decl.grows !== undefined, `steps.${name}.figures: only a step that declares its growth (grows) reads it from its figures`);
      need(f && typeof f.field === 'string' && (f.where === undefined || typeof f.where === 'object'), `steps.${name}.figures needs the timed field of its lines (field), and may select them (where)`);
      for (const key of ['ops', 'grows']) {
        try { parseExpression(f?.[key]); } catch (err) { problems.push(`scaling: steps.${name}.figures.${key}: ${err.message}`); }
      }
    }
    if (decl.parts !== undefined) {
      const partsProblem = expressionProblem(`steps.${name}.parts`, decl.parts);
      if (partsProblem) problems.push(`scaling: ${partsProblem}`);
    }
    if (decl.beyondCache !== undefined) {
      const b = decl.beyondCache;
      const missesProblem = expressionProblem(`steps.${name}.beyondCache.misses`, b?.misses);
      if (missesProblem) problems.push(`scaling: ${missesProblem}`);
      need(b && typeof b.run === 'string' && Number.isFinite(b.missMs) && b.missMs > 0 && typeof b.why === 'string' && b.why.length > 0,
        `steps.${name}.beyondCache needs the run it costs (run), the pages it misses (misses), what a miss costs in ms (missMs) and why`);
      need(b && (published?.findings || []).some((f) => f.id === b.finding), `steps.${name}.beyondCache.finding: the finding whose run it costs (a server that cannot test it pays nothing beyond the cache)`);
    }
  }
  for (const name of Object.keys(s.steps || {})) need(stepNames.includes(name), `steps.${name}: no step of that name`);
  const ids = new Set((published?.findings || []).map((f) => f.id));
  for (const [id, decl] of Object.entries(s.findings || {})) {
    need(ids.has(id), `findings.${id}: published.json has no finding of that id`);
    need(decl && typeof decl.why === 'string' && decl.why.length > 0, `findings.${id}: say why it needs that size (why)`);
    need(decl?.atLeast && Object.keys(decl.atLeast).length > 0, `findings.${id}: atLeast names no size variable`);
    for (const [name, v] of Object.entries(decl?.atLeast || {})) {
      need(names.includes(name) && Number.isInteger(v) && v <= article[name], `findings.${id}.atLeast.${name} must be a size variable and a whole number no larger than the article's`);
    }
  }
  for (const [name, decl] of Object.entries(s.spans || {})) {
    const step = (descriptor.steps || []).find((st) => st.name === name);
    need(step, `spans.${name}: no step of that name`);
    need(typeof decl?.field === 'string', `spans.${name}.field: the timed field of its lines a verdict uses`);
    if (decl?.minMs !== undefined) need(Number.isInteger(decl.minMs) && decl.minMs > 0, `spans.${name}.minMs must be a whole number of ms`);
    if (decl?.raise !== undefined) need(decl.raise in vary && (step?.params || []).includes(decl.raise), `spans.${name}.raise must be a varying variable of that step`);
  }
  return problems;
}

/**
 * Companions that could not run as declared: each must be a server spec the kit takes, of a kind
 * the scenario declares in servers, and the two must make a pair by its pairedServers.
 */
function companionProblems(descriptor) {
  const decl = descriptor.companions;
  if (!decl || !Array.isArray(decl.servers)) return [];
  const { parseServerSpec } = require('./servers/spec');
  const { serverPairs } = require('./run/pairs');
  const problems = [];
  const specs = [];
  for (const text of decl.servers) {
    try {
      const spec = parseServerSpec(text);
      specs.push(spec);
      if (!(spec.name in (descriptor.servers || {}))) problems.push(`companions: ${text} is not a kind the scenario declares in servers`);
    } catch (err) {
      problems.push(`companions: ${err.message}`);
    }
  }
  if (specs.length === 2 && !serverPairs(descriptor, specs.map((spec) => ({ spec }))).length) {
    problems.push(`companions: ${decl.servers.join(' and ')} are no pair by pairedServers${descriptor.pairedServers ? '' : ' (the scenario declares none)'}`);
  }
  return problems;
}

/** Scripts (and a baseline module) that lack header fields (the blocks they share are held to their sources by npm run stamp -- --check). */
function scriptProblems(descriptor, dir) {
  const problems = [];
  const files = [...new Set([...(descriptor.steps || []).map((s) => s.script), descriptor.baseline?.module].filter(Boolean))]
    .filter((f) => fs.existsSync(path.join(dir, f)));
  for (const file of files) {
    const head = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').slice(0, HEADER_LINES).join('\n');
    const missing = HEADER_FIELDS.filter((field) => !head.includes(`// ${field}`));
    if (missing.length) problems.push(`${file}: header lacks ${missing.join(' ')}`);
  }
  return problems;
}

/** The defaults a script gives its size variables: `if (typeof X === 'undefined') var X = 123;` */
function scriptDefaults(source) {
  const defaults = {};
  for (const m of source.matchAll(/if \(typeof (\w+) === 'undefined'\) var \1 = (-?\d+);/g)) defaults[m[1]] = Number(m[2]);
  return defaults;
}

/** Sizes live in the descriptor and the scripts' defaults alone: a pasted script runs the article's size. */
function sizeProblems(descriptor, dir) {
  const problems = [];
  for (const step of descriptor.steps || []) {
    if (!fs.existsSync(path.join(dir, step.script || ''))) continue;
    const defaults = scriptDefaults(fs.readFileSync(path.join(dir, step.script), 'utf8'));
    for (const param of step.params || []) {
      if (defaults[param] !== descriptor.sizes?.article?.[param]) {
        problems.push(`${step.script}: ${param} defaults to ${defaults[param]}, sizes.article has ${descriptor.sizes?.article?.[param]}`);
      }
    }
  }
  for (const size of SIZE_NAMES) {
    for (const [k, v] of Object.entries(descriptor.sizes?.[size] || {})) {
      if (v > descriptor.sizes.article[k]) problems.push(`sizes.${size}.${k} is larger than the article's`);
    }
  }
  return problems;
}

/**
 * Every way a scenario folder breaks the contract, or [] for a sound one: its files against their
 * schemas (orchestrator/schemas/), then the checks across files (scripts, sizes, headers, blocks).
 */
function scenarioProblems(dir) {
  const problems = [];
  const descriptor = readJson(path.join(dir, 'scenario.json'), problems, 'scenario.json');
  if (!descriptor) return problems;
  // a file that breaks its schema may break what the checks across files take for granted (a
  // list that is a string): its schema has said what is wrong, so such a check says nothing more
  const across = (check) => { try { return check(); } catch { return []; } };
  problems.push(...scenarioSchemaProblems(descriptor));
  if (!descriptor || typeof descriptor !== 'object' || Array.isArray(descriptor)) return problems;
  problems.push(...across(() => descriptorProblems(descriptor, dir)));
  if (typeof descriptor.published === 'string') {
    const published = readJson(path.join(dir, descriptor.published), problems, descriptor.published);
    if (published) problems.push(...across(() => publishedProblems(published, descriptor)));
    problems.push(...across(() => scalingProblems(descriptor, published)));
  }
  problems.push(...across(() => scriptProblems(descriptor, dir)), ...across(() => sizeProblems(descriptor, dir)), ...across(() => companionProblems(descriptor)));
  return problems;
}

function loadScenario(dir) {
  const problems = scenarioProblems(dir);
  if (problems.length) throw new ScenarioError(`${path.join(dir, 'scenario.json')}: ${problems.join('; ')}`);
  const descriptor = JSON.parse(fs.readFileSync(path.join(dir, 'scenario.json'), 'utf8'));
  // the article's published.json, read once however many views and verdicts ask for it, and frozen
  // so that no reader can change what the next one reads
  let published = null;
  return {
    ...descriptor,
    dir,
    scriptPath: (step) => path.join(dir, step.script),
    loadPublished: () => {
      published ??= deepFreeze(JSON.parse(fs.readFileSync(path.join(dir, descriptor.published), 'utf8')));
      return published;
    },
    baselinePath: descriptor.baseline ? path.join(dir, descriptor.baseline.module) : null,
  };
}

/** The scenario folders under shellDir: every folder holding a scenario.json, by name. */
function scenarioDirs(shellDir) {
  let entries;
  try {
    entries = fs.readdirSync(shellDir, { withFileTypes: true });
  } catch (err) {
    throw new ScenarioError(`no folder of scenarios at ${shellDir} (${err.code})`);
  }
  return entries
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(shellDir, e.name, 'scenario.json')))
    .map((e) => path.join(shellDir, e.name))
    .sort();
}

/**
 * Every scenario folder under shellDir, sorted by name. A folder that breaks the contract is
 * kept aside with its problems, so one broken folder does not stop the others.
 */
function discoverScenarios(shellDir) {
  const scenarios = [];
  const broken = [];
  for (const dir of scenarioDirs(shellDir)) {
    try {
      scenarios.push(loadScenario(dir));
    } catch (err) {
      broken.push({ name: path.basename(dir), problem: err.message });
    }
  }
  scenarios.broken = broken;
  return scenarios;
}

/**
 * The scenarios a user named, or all that are sound; an unknown name is a UsageError, a named
 * scenario that breaks the contract a ScenarioError saying what is wrong.
 */
function selectScenarios(all, names, warn = () => {}) {
  const broken = all.broken || [];
  if (!names || names.length === 0) {
    if (!all.length) throw new ScenarioError(broken.length ? `no sound scenario to run: ${broken.map((b) => b.problem).join('; ')}` : 'no scenario folders to run');
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

module.exports = { discoverScenarios, selectScenarios, scenarioProblems, publishedProblems, scenarioDirs, SIZE_NAMES, SIZE_CHOICES, SERVER_KINDS, HEADER_FIELDS };
