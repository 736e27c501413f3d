'use strict';
// What replication did to the records a verdict rests on. Flow control (run/flow-control.js)
// engaged during a step: the primary's writes waited for tickets while its majority commit point
// lagged, so both clocks include waiting for the secondaries, not the primary's own work. The
// verdict keeps its status and says so, with how long the writes waited.

/** The reason where flow control engaged during any of the records' steps ({ code, steps, waitedMs }), else null. */
function flowControlReason(records) {
  const marked = (records || []).filter((r) => r?.flowControl?.engaged);
  if (!marked.length) return null;
  const steps = [...new Set(marked.map((r) => `${r.step}${r.pass ? ` pass ${r.pass}` : ''}`))];
  // a step's mark is copied onto each of its records: each step's wait counted once
  const perStep = new Map(marked.map((r) => [`${r.step}|${r.pass ?? ''}`, r.flowControl.waitedMs]));
  const waits = [...perStep.values()].filter(Number.isFinite);
  return { code: 'flow-control', steps, waitedMs: waits.length ? waits.reduce((a, b) => a + b, 0) : null };
}

/** The flow-control reason's words. */
function flowControlText(r) {
  const waited = Number.isFinite(r.waitedMs) ? `, its writes waiting ${r.waitedMs.toLocaleString('en-US', { maximumFractionDigits: 1 })} ms for tickets` : '';
  return `flow control engaged during ${r.steps.join(', ')}: the primary's majority commit point lagged, so the writes were throttled to let the secondaries catch up${waited}, and both clocks include that wait`;
}

/**
 * The reason where flow control could not be known during a step whose timed writes the verdict
 * rests on ({ code: 'flow-control-unknown', steps, why }), else null: through mongos (each
 * shard's primary keeps its own, and mongos reports none) or where serverStatus was refused. Only
 * writes wait for flow control's tickets: a record that names no write concern is a read's, and
 * does not count. The verdict keeps its status: nothing says the writes were throttled, only that
 * it cannot be told.
 */
function flowControlUnknownReason(records) {
  const unknown = (records || []).filter((r) => r?.flowControl && r.flowControl.engaged === null && r.writeConcern !== undefined);
  if (!unknown.length) return null;
  const steps = [...new Set(unknown.map((r) => `${r.step}${r.pass ? ` pass ${r.pass}` : ''}`))];
  return { code: 'flow-control-unknown', steps, why: unknown[0].flowControl.why ?? null };
}

/** The flow-control-unknown reason's words. */
function flowControlUnknownText(r) {
  return `whether flow control throttled the writes of ${r.steps.join(', ')} is not known${r.why ? ` (${r.why})` : ''}: a lagging majority commit point would have slowed them, and both clocks would hold that wait`;
}

module.exports = { flowControlReason, flowControlText, flowControlUnknownReason, flowControlUnknownText };
