'use strict';
// A server as a reader knows it: its real engine, version and topology, from the server record a
// run wrote to results.jsonl, never the alias the kit started it under ("embedded").

/** "v2.7.0" -> "2.7"; "15.18 (Debian 15.18-0+deb12u1)" -> "15.18"; "8.2.6" stays. */
function shortVersion(version, { keepPatch = false } = {}) {
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(version || ''));
  if (!m) return version ? String(version) : '';
  return keepPatch && m[3] !== undefined ? `${m[1]}.${m[2]}.${m[3]}` : `${m[1]}.${m[2]}`;
}

/** The store under FerretDB: "DocumentDB 1.0" (2.x), "PostgreSQL 15.18" or "SQLite" (1.x). */
function ferretdbBackend(server) {
  const documentdb = /DocumentDB\s+(\d+\.\d+)/.exec(server.backendVersion || server.engine || '');
  if (documentdb) return `DocumentDB ${documentdb[1]}`;
  const postgres = /PostgreSQL\s+(\d+(?:\.\d+)?)/.exec(server.engine || '');
  if (postgres) return `PostgreSQL ${postgres[1]}`;
  if (/sqlite/i.test(server.engine || server.spec || '')) return 'SQLite';
  return null;
}

/** A mongod's topology and block compressor: "standalone, zstd", "replica set". */
function mongodShape(server) {
  const spec = String(server.spec || server.server || '');
  const topology = server.topology || (/-rs\b|replica/i.test(spec) || server.setName ? 'replica set' : 'standalone');
  const compressor = server.compressor || /:(zstd|snappy|zlib|none)\b/.exec(spec)?.[1] || null;
  return [topology, compressor].filter(Boolean).join(', ');
}

/**
 * "FerretDB 2.7 / DocumentDB 1.0", "FerretDB 1.24 / PostgreSQL 15.18", "MongoDB 8.2.6
 * standalone, zstd", "PostgreSQL 15.18"; the record's own name where it says nothing more.
 */
function serverDisplayName(server) {
  if (!server) return 'unknown server';
  if (server.product === 'FerretDB') {
    const backend = ferretdbBackend(server);
    return `FerretDB ${shortVersion(server.version)}${backend ? ` / ${backend}` : ''}`;
  }
  if (server.product === 'MongoDB') return `MongoDB ${shortVersion(server.version, { keepPatch: true })} ${mongodShape(server)}`;
  if (server.product) return `${server.product} ${shortVersion(server.version)}`.trim();
  return server.server || 'unknown server';
}

module.exports = { serverDisplayName };
