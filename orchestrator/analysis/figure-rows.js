'use strict';
// Every measured number of a run in long format, one row per figure (what results.csv holds): where
// it comes from (run, scenario, server, step, pass, repeat), which variant of the step it
// measured, at which size, which sample (a paired round's block) and what it is: its field, value,
// unit and clock, the unit and clock from the one field table (results/fields.js).
const { fieldInfo } = require('../results/fields');
const { identityFields } = require('../results/repeats');
const { sizesOf } = require('../results/reader');

const COLUMNS = ['run', 'scenario', 'server', 'step', 'pass', 'repeat', 'variant', 'size', 'sample', 'clock', 'field', 'value', 'unit'];

/** Numbers a record carries in columns of their own, not as rows: its pass, its repeat, its round (sample). */
const IN_COLUMNS = new Set(['pass', 'repeat', 'round']);

/**
 * The fields that say which variant a line measured: the step's declared `variants` first, then
 * the fields the scenario's tables, charts and findings select and place it by (method, schema,
 * mode, layout, perBlog, collection, second...), less those with columns of their own.
 */
function variantFieldsOf(scenario) {
  if (!scenario) return () => [];
  const findings = scenario.loadPublished().findings || [];
  const identity = [...identityFields(scenario, findings)].filter((f) => !['scenario', 'server', 'step', 'pass'].includes(f));
  const byStep = new Map((scenario.steps || []).map((s) => [s.name, [...new Set([...(s.variants || []), ...identity])]]));
  return (step) => byStep.get(step) || identity;
}

/** "method=save;collection=log" from the variant fields a record has. */
function variantText(record, fields) {
  return fields.filter((f) => record[f] !== undefined && record[f] !== null && typeof record[f] !== 'object').map((f) => `${f}=${record[f]}`).join(';');
}

/** Every number in a record, nested objects' by dotted names (lowMemory.dataBytes); arrays are left out. */
function numbersOf(value, prefix = '') {
  const out = [];
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'number' && Number.isFinite(v)) out.push([name, v]);
    else if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) out.push(...numbersOf(v, name));
  }
  return out;
}

/** The size a scenario ran at on a server as "TOTAL=1000;COMMENT_LEN=1000" (a baseline: the size of the servers it stood beside). */
function sizeTextOf(data, record) {
  const sizes = sizesOf(data, record.scenario, record.server) ?? (record.forServers?.length ? sizesOf(data, record.scenario, record.forServers[0]) : null);
  return sizes ? Object.entries(sizes).map(([k, v]) => `${k}=${v}`).join(';') : '';
}

/**
 * The rows of one run: a row per number of each measurement and block record, but the numbers
 * that name the record's variant or have a column of their own.
 */
function rowsOf({ label, data }, scenarios) {
  const variantFields = new Map();
  const rows = [];
  for (const record of data.records.filter((r) => r.type === 'measurement' || r.type === 'block')) {
    if (!variantFields.has(record.scenario)) variantFields.set(record.scenario, variantFieldsOf(scenarios.find((s) => s.name === record.scenario)));
    const fields = variantFields.get(record.scenario)(record.step);
    const common = {
      run: label, scenario: record.scenario, server: record.server, step: record.step ?? '', pass: record.pass ?? '', repeat: record.repeat ?? '',
      variant: variantText(record, fields), size: sizeTextOf(data, record), sample: record.type === 'block' ? record.round : '',
    };
    for (const [field, value] of numbersOf(record)) {
      if (IN_COLUMNS.has(field) || fields.includes(field)) continue;
      const { unit, clock } = fieldInfo(field);
      rows.push({ ...common, clock: clock ?? '', field, value, unit: unit ?? '' });
    }
  }
  return rows;
}

module.exports = { COLUMNS, IN_COLUMNS, rowsOf, variantFieldsOf };
