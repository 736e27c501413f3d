'use strict';
// The file formats as JSON Schemas (draft 2020-12), checked at the door with ajv: scenario.json
// and published.json when the scenarios are loaded, each results.jsonl record when a run is
// read. The schemas are the contract an article's author and a tool read; this module only
// compiles them and says what breaks them in words, one line each.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { resolveConfig } = require('../config');
const scenarioSchema = require('./scenario.schema.json');
const publishedSchema = require('./published.schema.json');
const resultsSchema = require('./results.schema.json');
const verdictSchema = require('./verdict.schema.json');

/**
 * The version of results.schema.json this kit writes (the run record's schemaVersion) and reads
 * up to. A change that an older kit would misread (a field renamed, a type changed, a meaning
 * changed) raises it; a field added does not.
 */
const SCHEMA_VERSION = 1;

/** The record types of results.jsonl, as results.schema.json lists them. */
const RECORD_TYPES = resultsSchema.properties.type.enum;

/** ajv's options for every validator here: the schemas are strict; a threshold's anyOf requires keys its check's own properties define. */
const STRICT = { strict: true, strictRequired: false, allowUnionTypes: true };

/** Every validator by name: the two descriptors', verdicts.json's, and one per record type (each compiled alone: compiling the root compiles them all). */
const REFS = {
  scenario: 'scenario',
  published: 'published',
  verdicts: 'verdicts',
  ...Object.fromEntries(RECORD_TYPES.map((type) => [type, `${resultsSchema.$id}#/$defs/${type}`])),
};

/** A fresh ajv holding every schema under its REFS name. The results file's top-level allOf picks a record's type for a tool that reads a whole line; here each type is compiled alone. */
function ajvWithSchemas(options) {
  // required here, not above: a start whose validators are kept loads only ajv's runtime helpers
  const Ajv2020 = require('ajv/dist/2020');
  const ajv = new Ajv2020({ ...STRICT, ...options });
  ajv.addSchema(scenarioSchema, 'scenario');
  ajv.addSchema(publishedSchema, 'published');
  ajv.addSchema(verdictSchema, 'verdicts');
  ajv.addSchema((({ allOf, ...defs }) => defs)(resultsSchema));
  return ajv;
}

/**
 * The validators that say only whether a value is sound, as ajv's standalone code, compiled once
 * and kept on disk. Compiling the schemas took about 0.4 s of CPU at every start of the kit (a fifth
 * of a small run's own CPU time, most of `orchestrate --help`'s); the kept code loads in about
 * 20 ms. The file's name is the hash of ajv's version and the schemas' text, so a schema edited is
 * compiled afresh; it is written whole (a rename), and a cache that cannot be written only costs
 * the time. The code is the kit's own, generated from the kit's own schemas, in the kit's own
 * folder (config.js: under node_modules/.cache, as the kit's shell keeps its rewritten scripts).
 */
let quick = null;
function quickValidators() {
  if (quick) return quick;
  const ajvVersion = require('ajv/package.json').version;
  const key = crypto.createHash('sha256')
    .update(JSON.stringify([ajvVersion, STRICT, REFS, scenarioSchema, publishedSchema, verdictSchema, resultsSchema])).digest('hex').slice(0, 32);
  const dir = resolveConfig().validatorCache;
  const file = path.join(dir, `validators-${key}.js`);
  let code = null;
  try { code = fs.readFileSync(file, 'utf8'); } catch { /* not kept yet */ }
  if (code === null) {
    const standalone = require('ajv/dist/standalone').default;
    code = standalone(ajvWithSchemas({ code: { source: true, lines: false, optimize: true } }), REFS);
    try {
      fs.mkdirSync(dir, { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, code);
      fs.renameSync(temp, file);
    } catch { /* no cache: the next start compiles again */ }
  }
  // the standalone code requires ajv's runtime helpers: resolved from here, where ajv is installed
  const mod = { exports: {} };
  // eslint-disable-next-line no-new-func
  new Function('require', 'module', 'exports', code)(require, mod, mod.exports);
  quick = mod.exports;
  return quick;
}

/**
 * The validators whose errors say what is wrong (verbose: an error carries the schema it broke,
 * whose description says what was wanted; every error, not the first), compiled only once a value
 * is refused: a sound value never needs them.
 */
let full = null;
function fullValidator(name) {
  full ??= ajvWithSchemas({ allErrors: true, verbose: true });
  return full.getSchema(REFS[name]);
}

/** A value checked against the validator `name`: null where sound, else ajv's errors (verbose, all of them). */
function schemaErrors(name, value) {
  if (quickValidators()[name](value)) return null;
  const validate = fullValidator(name);
  return validate(value) ? null : validate.errors;
}

/** "/steps/0/repeat" → "steps[0].repeat"; the root → "". */
function fieldPath(instancePath) {
  return instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, p) => (/^\d+$/.test(p) ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');
}

const shown = (v) => (typeof v === 'string' ? `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"` : JSON.stringify(v));

/** Each subschema of a schema → the subschema it sits in, so an error's schema can be walked up. */
const parentsOf = new WeakMap();
function parents(root) {
  if (!parentsOf.has(root)) {
    const map = new Map();
    const walk = (node) => {
      for (const child of Object.values(node)) {
        if (child && typeof child === 'object') { map.set(child, node); walk(child); }
      }
    };
    walk(root);
    parentsOf.set(root, map);
  }
  return parentsOf.get(root);
}

/**
 * A field's description from the nearest schema above the one that required it (a check's
 * `then` requires tolerance; the check's own properties say what tolerance is).
 */
function describedAbove(root, schema, name) {
  const map = parents(root);
  for (let node = schema; node; node = map.get(node)) {
    const description = node.properties?.[name]?.description;
    if (description) return description;
  }
  return null;
}

/** One ajv error in words, naming the field (root: the schema it was checked against). */
function errorText(e, root) {
  const at = fieldPath(e.instancePath);
  const field = (name) => (at ? `${at}.${name}` : name);
  // a key that is not one of the names allowed there (a server kind, a topology)
  if (e.propertyName !== undefined && e.keyword === 'enum') {
    return `${field(e.propertyName)}: not ${e.parentSchema?.description || 'a name allowed here'} (${e.params.allowedValues.join(', ')})`;
  }
  switch (e.keyword) {
    case 'required': {
      const wanted = e.parentSchema?.properties?.[e.params.missingProperty]?.description ?? describedAbove(root, e.parentSchema, e.params.missingProperty);
      return `${field(e.params.missingProperty)} is missing${wanted ? `: ${wanted}` : ''}`;
    }
    case 'additionalProperties':
      return `${field(e.params.additionalProperty)} is not a field ${at ? `of ${at}` : 'of this file'}${e.parentSchema?.properties ? ` (its fields: ${Object.keys(e.parentSchema.properties).join(', ')})` : ''}`;
    case 'enum':
      return `${at || 'the value'} ${shown(e.data)} is not one of ${e.params.allowedValues.join(', ')}`;
    case 'const':
      return `${at || 'the value'} must be ${shown(e.params.allowedValue)}`;
    case 'type':
      return `${at || 'the value'} must be ${[].concat(e.params.type).join(' or ')}, not ${shown(e.data)}`;
    case 'anyOf':
    case 'oneOf':
      return `${at || 'the value'}: ${e.parentSchema?.description || e.message}`;
    default:
      return `${at || 'the value'} ${e.message}${e.data !== undefined && typeof e.data !== 'object' ? ` (${shown(e.data)})` : ''}`;
  }
}

/**
 * What an ajv answer says, one line per problem: an anyOf or oneOf that failed is said once, by
 * its description, not by each of its branches; an if/then is said by what its then wanted.
 */
function problemsOf(errors, root) {
  const failed = (errors || []).filter((e) => ['anyOf', 'oneOf'].includes(e.keyword)).map((e) => `${e.schemaPath}/`);
  return [...new Set((errors || [])
    // an if or a propertyNames is said by the error inside it (what then wanted, which name)
    .filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames' && !failed.some((p) => e.schemaPath.startsWith(p)))
    .map((e) => errorText(e, root)))];
}

/** Every way a scenario.json breaks its schema, or []. */
function scenarioSchemaProblems(descriptor) {
  const errors = schemaErrors('scenario', descriptor);
  return errors ? problemsOf(errors, scenarioSchema) : [];
}

/** Every way a published.json breaks its schema, or []. */
function publishedSchemaProblems(published) {
  const errors = schemaErrors('published', published);
  return errors ? problemsOf(errors, publishedSchema) : [];
}

/** Every way a verdicts.json (its parsed array) breaks its schema, or []. */
function verdictsSchemaProblems(verdicts) {
  const errors = schemaErrors('verdicts', verdicts);
  return errors ? problemsOf(errors, verdictSchema) : [];
}

/**
 * What is wrong with one results.jsonl record, in words naming its first broken field, or null
 * for a sound one (or one of a type this kit does not know: unknownType says so).
 */
function recordProblem(record) {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return 'it is not a JSON object';
  if (!RECORD_TYPES.includes(record.type)) {
    return `its type ${shown(record.type)} is not one this kit knows (${RECORD_TYPES.join(', ')})`;
  }
  const errors = schemaErrors(record.type, record);
  return errors ? problemsOf(errors, resultsSchema)[0] : null;
}

module.exports = {
  scenarioSchemaProblems, publishedSchemaProblems, verdictsSchemaProblems, recordProblem, SCHEMA_VERSION, RECORD_TYPES, problemsOf,
  schemas: { scenario: scenarioSchema, published: publishedSchema, results: resultsSchema, verdict: verdictSchema },
};
