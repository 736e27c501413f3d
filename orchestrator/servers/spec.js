'use strict';
// Server specs as a user writes them on the command line, parsed before anything starts.
const path = require('node:path');
const { ConnectionString } = require('mongodb-connection-string-url');
const { UsageError } = require('../errors');
const { isBelowFloor, NEEDS } = require('./versions');

/**
 * URI options that name a file (the Node.js driver 7's: lib/connection_string.js). The kit's
 * driver resolves a relative path from the user's folder, but mongosh runs from the kit's folder:
 * each is made absolute, from the folder the command was run in, before the URI goes anywhere.
 */
const FILE_OPTIONS = ['tlsCAFile', 'tlsCertificateKeyFile', 'tlsCRLFile'];

/**
 * The older ssl* spellings: the Node.js driver 7 (the kit's and mongosh's) refuses every one of
 * them in a URI ("option sslca is not supported", lib/connection_string.js), so the kit says
 * which tls option to write instead, before anything starts.
 */
const SSL_SPELLINGS = {
  sslca: 'tlsCAFile',
  sslcafile: 'tlsCAFile',
  sslcrl: 'tlsCRLFile',
  sslcrlfile: 'tlsCRLFile',
  sslpemkeyfile: 'tlsCertificateKeyFile',
  sslcert: 'tlsCertificateKeyFile (one PEM file with the certificate and its key)',
  sslkey: 'tlsCertificateKeyFile (one PEM file with the certificate and its key)',
  sslpemkeypassword: 'tlsCertificateKeyFilePassword',
  sslpass: 'tlsCertificateKeyFilePassword',
  sslallowinvalidcertificates: 'tlsAllowInvalidCertificates',
  sslallowinvalidhostnames: 'tlsAllowInvalidHostnames',
  sslvalidate: 'tlsAllowInvalidCertificates (its opposite)',
};

/**
 * The URI with every file option made absolute from cwd, the rest of it untouched; ssl*
 * spellings refused.
 */
function resolveUriFiles(name, uri, cwd) {
  for (const key of new ConnectionString(uri).searchParams.keys()) {
    const instead = SSL_SPELLINGS[key.toLowerCase()];
    if (instead) {
      throw new UsageError(`server '${name}': URI option ${key} is not one the Node.js driver 7 takes (the kit's and mongosh's driver): write ${instead} instead`);
    }
  }
  const q = uri.indexOf('?');
  if (q < 0) return uri;
  const fileOptions = new Set(FILE_OPTIONS.map((o) => o.toLowerCase()));
  const decode = (text) => decodeURIComponent(text.replace(/\+/g, ' '));
  const pairs = uri.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0 || !fileOptions.has(decode(pair.slice(0, eq)).toLowerCase())) return pair;
    const file = decode(pair.slice(eq + 1));
    if (!file || path.isAbsolute(file)) return pair;
    return `${pair.slice(0, eq)}=${encodeURIComponent(path.resolve(cwd, file)).replace(/%2F/g, '/')}`;
  });
  return `${uri.slice(0, q)}?${pairs.join('&')}`;
}

const ACCEPTED = 'embedded, mongod, mongod@VERSION, mongod:zstd, mongod-rs (and mongod-rs@VERSION, mongod-rs:zstd), ferretdb, ferretdb-pg, ferretdb2, or NAME=mongodb://HOST...';

/**
 * The topologies a kit-started mongod can have: a standalone (`mongod`), or a replica set of one
 * member (`mongod-rs`), today's production shape. They differ in more than the URI: a standalone
 * journals every table (WiredTiger's useTableLogging), so the record store rewrites a changed
 * document whole, where a replica-set member writes a diff; and a replica set's default write
 * concern (5.0 and later) is w:majority.
 */
const TOPOLOGIES = { mongod: 'standalone', 'mongod-rs': 'replicaSet' };

/** @param cwd the folder relative file paths in a URI are read from: the user's */
function parseServerSpec(text, { cwd = process.cwd() } = {}) {
  const spec = String(text).trim();
  if (spec === 'embedded') return { kind: 'embedded', name: 'embedded', spec };
  if (spec === 'ferretdb') return { kind: 'ferretdb', backend: 'sqlite', name: 'ferretdb', spec };
  if (spec === 'ferretdb-pg') return { kind: 'ferretdb', backend: 'postgresql', name: 'ferretdb-pg', spec };
  if (spec === 'ferretdb2') return { kind: 'ferretdb2', name: 'ferretdb2', spec };
  // mongod:zstd creates collections with the zstd block compressor, today's stand-in for TokuMX
  const mongod = /^(mongod(?:-rs)?)(?:@(\d+\.\d+\.\d+(?:-[\w.]+)?))?(?::(zstd|snappy|zlib|none))?$/.exec(spec);
  if (mongod) {
    const [, base, version, compressor] = mongod;
    if (version && isBelowFloor(version)) throw new UsageError(`server spec '${spec}' asks for MongoDB ${version}: ${NEEDS}`);
    return { kind: 'mongod', topology: TOPOLOGIES[base], version: version || null, compressor: compressor || null, name: spec, spec };
  }
  const named = /^([A-Za-z0-9_.-]+)=(.*)$/s.exec(spec);
  if (named) {
    const [, name, uri] = named;
    if (!/^mongodb(\+srv)?:\/\//.test(uri)) {
      throw new UsageError(`server '${name}': '${redactUri(uri)}' is not a mongodb:// or mongodb+srv:// URI`);
    }
    try {
      // eslint-disable-next-line no-new
      new ConnectionString(uri);
    } catch (err) {
      throw new UsageError(`server '${name}': malformed URI ${redactUri(uri)} (${err.message})`);
    }
    const resolved = resolveUriFiles(name, uri, cwd);
    return { kind: 'uri', name, uri: resolved, spec: `${name}=${redactUri(resolved)}` };
  }
  throw new UsageError(`unknown server spec '${redactUri(spec)}' (accepted: ${ACCEPTED})`);
}

/** Parses every spec and refuses two servers of one name (their results would mix). */
function parseServerSpecs(texts) {
  const specs = (texts && texts.length ? texts : ['embedded']).map((text) => parseServerSpec(text));
  const seen = new Set();
  for (const s of specs) {
    if (seen.has(s.name)) throw new UsageError(`two servers are named '${s.name}': give each a NAME=`);
    seen.add(s.name);
  }
  return specs;
}

/** The URI with any password replaced, for every line the kit prints or writes. */
function redactUri(uri) {
  return String(uri).replace(/^(mongodb(?:\+srv)?:\/\/[^:/@]*):[^@/]*@/, '$1:****@');
}

module.exports = { parseServerSpec, parseServerSpecs, redactUri, ACCEPTED, TOPOLOGIES };
