'use strict';
// Helpers every consumer of measurement records shares, so tables, charts, verdicts and compare
// select records the same way.

/** Whether a record belongs to a table, chart or finding: its step, and every field of its `where`. */
function matches(record, spec) {
  if (spec.step && record.step !== spec.step) return false;
  return Object.entries(spec.where || {}).every(([k, v]) => record[k] === v);
}

/** The records of one scenario on one server. */
function recordsOf(records, { scenario, server }) {
  return records.filter((r) => (!scenario || r.scenario === scenario) && (!server || r.server === server));
}

module.exports = { matches, recordsOf };
