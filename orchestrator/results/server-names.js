'use strict';
// A server's real name, from what results.jsonl recorded of it (its `server` record), so the
// report, summary.md, the charts and verdicts.png say "FerretDB 2.7 / DocumentDB 1.0 on
// PostgreSQL 18.6" where the run only knew it as `embedded`. Reading the record: the versions are
// the server's own strings (its buildInfo, FerretDB's log line), parsed here, once, where the
// record is read; the run model (analysis/run-model.js) gives each server its names as fields,
// and the views render those.

/** "v2.7.0" or "8.2.6" → "2.7" / "8.2.6": FerretDB by major.minor (its patch says nothing of the engine), MongoDB in full. */
function shortVersion(version, full = false) {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(version || ''));
  if (!m) return String(version || '').trim();
  return full && m[3] !== undefined ? `${m[1]}.${m[2]}.${m[3]}` : `${m[1]}.${m[2]}`;
}

/** "PostgreSQL 18.6 (Debian 18.6-3) with DocumentDB 1.0-0" → "PostgreSQL 18.6". */
function postgresOf(text) {
  const m = /PostgreSQL (\d+(?:\.\d+)?)/.exec(String(text || ''));
  return m ? `PostgreSQL ${m[1]}` : null;
}

/**
 * The block compressor a mongod's collections were created with: the server record's field, else
 * its spec's last part (mongod:zstd, as the user wrote it), never a word of its description.
 */
function compressorOf(server) {
  if (server.compressor) return server.compressor;
  const fromSpec = /:(zstd|snappy|zlib|none)$/.exec(String(server.spec || ''));
  return fromSpec ? fromSpec[1] : null;
}

/**
 * Standalone, or a replica set where the record says so (a topology or a set name): the run
 * model's words for it (analysis/run-model.js), else the record's own.
 */
function topologyOf(server) {
  if (server.topology) return server.deployment?.words ?? String(server.topology);
  if (server.setName || server.replicaSet) return `replica set ${server.setName || server.replicaSet}`;
  if (/-rs\b|replica/i.test(String(server.spec || ''))) return 'replica set';
  // a server the kit started is a standalone unless it says otherwise; of a user's, nothing is known
  return server.startedByKit ? 'standalone' : null;
}

function ferretdbName(server) {
  const version = shortVersion(server.version);
  // FerretDB 2 runs on DocumentDB: "DocumentDB 1.0.0 (PostgreSQL 18.6)"
  const documentdb = /DocumentDB (\d+\.\d+)/.exec(`${server.backendVersion || ''} ${server.engine || ''}`);
  const postgres = postgresOf(server.backendVersion) || postgresOf(server.engine);
  if (documentdb) return `FerretDB ${version} / DocumentDB ${documentdb[1]}${postgres ? ` on ${postgres}` : ''}`;
  if (postgres) return `FerretDB ${version} on ${postgres}`;
  if (/sqlite/i.test(String(server.engine || ''))) return `FerretDB ${version} on SQLite`;
  return `FerretDB ${version}${server.engine ? ` on ${server.engine}` : ''}`;
}

function mongodbName(server) {
  const parts = [`MongoDB ${shortVersion(server.version, true)}`];
  const topology = topologyOf(server);
  const compressor = compressorOf(server);
  const tail = [topology, compressor === 'none' ? 'uncompressed' : compressor].filter(Boolean);
  return `${parts[0]}${tail.length ? ` ${tail.join(', ')}` : ''}`;
}

/**
 * The engine and topology a server record names, e.g. "FerretDB 2.7 / DocumentDB 1.0 on
 * PostgreSQL 18.6", "FerretDB 1.24 on PostgreSQL 15.18", "MongoDB 8.2.6 standalone, zstd",
 * "PostgreSQL 15.18 (SQL baseline)". Falls back to the kit's name for the server where the
 * record says nothing of what answered.
 */
function serverDisplayName(server) {
  if (!server) return 'unknown server';
  if (server.product === 'FerretDB') return ferretdbName(server);
  if (server.product === 'MongoDB') return mongodbName(server);
  if (server.product === 'PostgreSQL') return `PostgreSQL ${shortVersion(server.version)}${server.baselineFor ? ' (SQL baseline)' : ''}`;
  if (server.product) return `${server.product} ${server.version || ''}`.trim();
  return server.description || server.server || 'unknown server';
}

/**
 * The name with the kit's alias said once beside it, where the alias differs from the name:
 * "FerretDB 2.7 / DocumentDB 1.0 on PostgreSQL 18.6 (embedded)".
 */
function serverNameWithAlias(server) {
  const name = serverDisplayName(server);
  // a SQL baseline says what it is in its name already
  return server?.server && server.server !== name && !server.baselineFor ? `${name} (${server.server})` : name;
}

module.exports = { serverDisplayName, serverNameWithAlias };
