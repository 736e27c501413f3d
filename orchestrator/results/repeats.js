'use strict';
// --repeat K: each scenario runs K times on a server (after a warm-up run that is recorded but
// not counted, unless --no-warmup). Reports, charts and verdicts read one record per cell: the
// median of the repeats, with min, max and the coefficient of variation in `spread`.

/** The median of numbers (the mean of the middle two for an even count). */
function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Standard deviation over mean (population), or 0 where the mean is 0. */
function coefficientOfVariation(values) {
  const mean = values.reduce((n, v) => n + v, 0) / values.length;
  if (!mean) return 0;
  const variance = values.reduce((n, v) => n + (v - mean) ** 2, 0) / values.length;
  return Math.sqrt(variance) / Math.abs(mean);
}

/**
 * The fields that say which cell a record belongs to: what the scenario's tables, charts and
 * findings select, group and place by (a pass, a collection, a blog size, a second).
 */
function identityFields(scenario, findings = []) {
  const fields = new Set(['scenario', 'server', 'step', 'pass', 'collection']);
  const addWhere = (where) => Object.keys(where || {}).forEach((f) => fields.add(f));
  for (const t of scenario.tables || []) {
    [t.row, t.group].forEach((f) => f && fields.add(f));
    addWhere(t.where);
  }
  for (const c of scenario.charts || []) {
    [c.x, c.series, c.category].forEach((f) => f && fields.add(f));
    addWhere(c.where);
  }
  for (const f of findings) {
    const c = f.check || {};
    [c.x, c.series].forEach((x) => x && fields.add(x));
    [c.where, c.num, c.den, c.grows, c.flat?.where].forEach(addWhere);
  }
  fields.delete('fromServer');
  return fields;
}

/** One record from the same cell of several runs: numbers become medians with their spread. */
function combine(group, identity) {
  const { repeat, ...first } = group[0];
  const out = { ...first, repeats: group.length, spread: {} };
  for (const [field, value] of Object.entries(first)) {
    if (identity.has(field)) continue;
    if (typeof value === 'boolean') {
      out[field] = group.every((r) => r[field] === true); // a check holds only if it held every time
      continue;
    }
    if (typeof value !== 'number') continue;
    const values = group.map((r) => r[field]).filter(Number.isFinite);
    if (values.length !== group.length) continue;
    out[field] = median(values);
    out.spread[field] = { min: Math.min(...values), max: Math.max(...values), cv: coefficientOfVariation(values), n: values.length };
  }
  return out;
}

/**
 * One record per cell from a scenario's measurements: warm-up runs dropped, and where a cell was
 * measured in several runs, each number the median with its spread. Records of a cell are
 * matched across runs by their identity, then by their order within it (a script prints its
 * lines in the same order every run); where the runs printed different numbers of lines for a
 * cell (samples once a second), the first run's lines stand alone, and onMisaligned(record) says
 * so. Single runs pass through.
 */
function aggregateRepeats(records, scenario, findings = [], { onMisaligned = () => {} } = {}) {
  const counted = records.filter((r) => !r.warmup);
  if (!counted.some((r) => Number.isInteger(r.repeat) && r.repeat > 1)) return counted;
  const identity = identityFields(scenario, findings);
  const keyOf = (r) => JSON.stringify([...identity].sort().map((f) => r[f]));
  const cells = new Map();
  for (const r of counted) {
    const key = keyOf(r);
    if (!cells.has(key)) cells.set(key, new Map());
    const byRun = cells.get(key);
    if (!byRun.has(r.repeat)) byRun.set(r.repeat, []);
    byRun.get(r.repeat).push(r);
  }
  const out = [];
  for (const byRun of cells.values()) {
    const runs = [...byRun.values()];
    const lines = runs[0].length;
    if (runs.length < 2 || !runs.every((r) => r.length === lines)) {
      // said, not silent: a verdict decided on such a cell says its repeats could not be matched
      if (runs.length >= 2) onMisaligned(runs[0][0]);
      out.push(...runs[0]);
      continue;
    }
    for (let i = 0; i < lines; i++) out.push(combine(runs.map((r) => r[i]), identity));
  }
  return out;
}

module.exports = { aggregateRepeats, median, coefficientOfVariation, identityFields };
