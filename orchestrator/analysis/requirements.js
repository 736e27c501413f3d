'use strict';
// What a finding needs before its figure can say anything: its preconditions (published.json's
// requires: a field some record must carry, or reach) and the size it needs (the scenario's
// scaling.findings), each unmet one a reason; and the status they leave: "needs a larger size"
// where a larger size lifts every one, else "cannot be tested here".
const { valueAt } = require('../results/records');
const { nameInWords } = require('../results/fields');
const { pick } = require('./pairing');
const { NEEDS_SIZE, UNTESTABLE } = require('./rules');

/**
 * A finding's precondition (requires): a field some record must carry with a value (equals), or
 * reach (atLeast), else the finding cannot be tested here. A threshold holds for every server among
 * the records and every record of each. Returns reasons (none where it is met).
 */
function unmet(requires, all) {
  if (!requires) return [];
  if (Array.isArray(requires)) return requires.flatMap((r) => unmet(r, all));
  const records = requires.where ? pick(all, requires.where) : all;
  const carrying = records.filter((r) => valueAt(r, requires.field) !== undefined && valueAt(r, requires.field) !== null);
  const values = carrying.map((r) => valueAt(r, requires.field));
  const label = requires.label || nameInWords(requires.field);
  // a requirement a larger size meets (sizeBound: data that must outgrow a cache) leaves the finding waiting for that size
  const reason = (text) => [{ code: 'requirement-unmet', requirement: requires.code || requires.field, text, ...(requires.sizeBound ? { sizeBound: true } : {}) }];
  if (!values.length) return reason(`${requires.unrecorded || requires.else} (no ${label} recorded)`);
  if (requires.atLeast !== undefined) {
    const servers = [...new Set(carrying.map((r) => r.server))];
    const short = servers.map((server) => ({ server, least: Math.min(...carrying.filter((r) => r.server === server).map((r) => valueAt(r, requires.field))) }))
      .filter((s) => !(s.least >= requires.atLeast));
    if (!short.length) return [];
    const shown = short.map((s) => `${s.least}${servers.length > 1 ? ` on ${s.server}` : ''}`).join(', ');
    return reason(`${requires.else} (${label} ${shown}, ${requires.of || 'the article\'s'} ${requires.atLeast})`);
  }
  if (values.some((v) => v === requires.equals)) return [];
  const why = requires.because ? [...new Set(carrying.map((r) => valueAt(r, requires.because)).filter(Boolean))] : [];
  return reason(`${requires.else} (${label}: ${[...new Set(values)].join(', ')}${why.length ? `: ${why.join('; ')}` : ''})`);
}

/**
 * The size a finding needs (the scenario's scaling.findings) against the size the server ran:
 * reasons, with what would reach it where the run's size record says (the --budget the planner
 * priced it at, or the fixed size the run was given).
 */
function sizeTooSmall(finding, descriptor, sizes, sizeRecord = null) {
  const need = descriptor?.scaling?.findings?.[finding.id];
  if (!need?.atLeast || !sizes) return [];
  const short = Object.entries(need.atLeast).filter(([k, v]) => Number.isFinite(sizes[k]) && sizes[k] < v).map(([name, v]) => ({ name, value: sizes[name], need: v }));
  if (!short.length) return [];
  const planned = sizeRecord?.findings?.tooSmall?.find((t) => t.id === finding.id);
  const reach = sizeRecord?.size && sizeRecord.size !== 'auto' ? { size: sizeRecord.size }
    : planned ? { budgetSeconds: Number.isFinite(planned.budgetSeconds) ? planned.budgetSeconds : null } : {};
  return [{ code: 'size-too-small', short, why: need.why, ...reach }];
}

/** Whether a finding's untestable reasons are all lifted by a larger size (a larger --budget). */
const sizeBound = (reasons) => reasons.length > 0 && reasons.every((r) => r.code === 'size-too-small' || (r.code === 'requirement-unmet' && r.sizeBound));

/**
 * A verdict's status where it was measured but cannot be tested: needs a larger size where every
 * reason is one a larger size lifts, else cannot be tested here.
 */
const untestedStatus = (reasons) => (sizeBound(reasons) ? NEEDS_SIZE : UNTESTABLE);

module.exports = { unmet, sizeTooSmall, untestedStatus };
