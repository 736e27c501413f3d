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

/**
 * The kind of server a server record describes, as scenario descriptors name kinds (ferretdb,
 * ferretdb-pg, mongod, mongod:zstd...): FerretDB whatever the spec (a mongod spec whose binary
 * serves FerretDB, as the kit's test stand-in does, is FerretDB); else from the spec where it names
 * one, else (embedded, or a user's server) from what the server said it is.
 */
function serverKind(server) {
  if (server.product === 'FerretDB') return /postgres/i.test(server.engine || '') ? 'ferretdb-pg' : 'ferretdb';
  const spec = String(server.spec || '').replace(/@[^:]*/, '');
  if (/^(ferretdb|ferretdb-pg|mongod)(:\w+)?$/.test(spec)) return spec;
  if (server.product === 'MongoDB') return 'mongod';
  return null;
}

module.exports = { matches, recordsOf, serverKind };
