'use strict';
// Server specs as a user writes them on the command line, parsed before anything starts.
const { ConnectionString } = require('mongodb-connection-string-url');
const { UsageError } = require('../errors');

const ACCEPTED = 'embedded, mongod, mongod@VERSION, mongod:zstd, ferretdb, ferretdb-pg, or NAME=mongodb://HOST...';

function parseServerSpec(text) {
  const spec = String(text).trim();
  if (spec === 'embedded') return { kind: 'embedded', name: 'embedded', spec };
  if (spec === 'ferretdb') return { kind: 'ferretdb', backend: 'sqlite', name: 'ferretdb', spec };
  if (spec === 'ferretdb-pg') return { kind: 'ferretdb', backend: 'postgresql', name: 'ferretdb-pg', spec };
  // mongod:zstd creates collections with the zstd block compressor, today's stand-in for TokuMX
  const mongod = /^mongod(?:@(\d+\.\d+\.\d+(?:-[\w.]+)?))?(?::(zstd|snappy|zlib|none))?$/.exec(spec);
  if (mongod) return { kind: 'mongod', version: mongod[1] || null, compressor: mongod[2] || null, name: spec, spec };
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
    return { kind: 'uri', name, uri, spec: `${name}=${redactUri(uri)}` };
  }
  throw new UsageError(`unknown server spec '${redactUri(spec)}' (accepted: ${ACCEPTED})`);
}

/** Parses every spec and refuses two servers of one name (their results would mix). */
function parseServerSpecs(texts) {
  const specs = (texts && texts.length ? texts : ['embedded']).map(parseServerSpec);
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

module.exports = { parseServerSpec, parseServerSpecs, redactUri, ACCEPTED };
