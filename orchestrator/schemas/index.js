'use strict';
// The file formats as JSON Schemas (draft 2020-12), checked at the door with ajv: scenario.json
// and published.json when the scenarios are loaded, each results.jsonl record when a run is
// read. The schemas are the contract an article's author and a tool read; this module only
// compiles them and says what breaks them in words, one line each.
const Ajv2020 = require('ajv/dist/2020');
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

let ajv = null;
const compiled = {};

/** A schema's validator, compiled the first time it is asked for (a report needs only the records'). */
function validator(name) {
  if (!ajv) {
    // verbose: an error carries the schema it broke, whose description says what was wanted;
    // strictRequired off: a threshold's anyOf requires keys the check's own properties define
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });
  }
  if (!compiled[name]) {
    if (name === 'scenario') compiled[name] = ajv.compile(scenarioSchema);
    else if (name === 'published') compiled[name] = ajv.compile(publishedSchema);
    else if (name === 'verdicts') compiled[name] = ajv.compile(verdictSchema);
    else {
      // the file's top-level allOf picks a record's type for a tool that reads a whole line; here
      // each type is compiled alone, as the record's type asks (compiling the root compiles them all)
      if (!ajv.getSchema(resultsSchema.$id)) ajv.addSchema((({ allOf, ...defs }) => defs)(resultsSchema));
      compiled[name] = ajv.getSchema(`${resultsSchema.$id}#/$defs/${name}`);
    }
  }
  return compiled[name];
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
  const validate = validator('scenario');
  return validate(descriptor) ? [] : problemsOf(validate.errors, scenarioSchema);
}

/** Every way a published.json breaks its schema, or []. */
function publishedSchemaProblems(published) {
  const validate = validator('published');
  return validate(published) ? [] : problemsOf(validate.errors, publishedSchema);
}

/** Every way a verdicts.json (its parsed array) breaks its schema, or []. */
function verdictsSchemaProblems(verdicts) {
  const validate = validator('verdicts');
  return validate(verdicts) ? [] : problemsOf(validate.errors, verdictSchema);
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
  const validate = validator(record.type);
  return validate(record) ? null : problemsOf(validate.errors, resultsSchema)[0];
}

module.exports = {
  scenarioSchemaProblems, publishedSchemaProblems, verdictsSchemaProblems, recordProblem, SCHEMA_VERSION, RECORD_TYPES, problemsOf,
  schemas: { scenario: scenarioSchema, published: publishedSchema, results: resultsSchema, verdict: verdictSchema },
};
