'use strict';
// Reaching a server as mongosh reaches it, for the kit's own clients and its shell alike: a
// mongodb+srv URI resolved as mongosh's connection layer resolves it (devtools-connect's
// resolveMongodbSrv: resolve-mongodb-srv over os-dns-native, the operating system's resolver first
// and Node's after), and TLS trusting the system's CA certificates beside Node's
// (devtools-proxy-support's systemCA, on the system-ca package). Where only the system's resolver
// reaches the DNS (a corporate network, a VPN's split DNS), Node's alone, which the driver uses,
// cannot resolve an Atlas name.
const dns = require('node:dns');
const { MongoClient } = require('mongodb');
const { ConnectionString } = require('mongodb-connection-string-url');

/** os-dns-native's withNodeFallback (the system's resolver, then Node's); Node's alone where the native module cannot load. */
function systemResolver() {
  try {
    return require('os-dns-native').withNodeFallback;
  } catch {
    return dns;
  }
}

/**
 * A mongodb+srv URI as the mongodb:// URI its SRV and TXT records name (srvMaxHosts keeps that
 * many of the hosts); any other URI as it is.
 * @param resolver { resolveSrv, resolveTxt } in Node's callback style
 */
async function resolveSrvUri(uri, resolver = systemResolver()) {
  if (!/^mongodb\+srv:\/\//i.test(uri)) return uri;
  return require('resolve-mongodb-srv')(uri, { dns: resolver });
}

/** Whether a resolved URI (or the options beside it) asks for TLS: tls=true, ssl=true. */
function usesTls(uri, options = {}) {
  if (options.tls === true || options.ssl === true) return true;
  try {
    const params = new ConnectionString(uri).searchParams;
    return ['tls', 'ssl'].some((k) => String(params.get(k)).toLowerCase() === 'true');
  } catch {
    return false;
  }
}

/**
 * The certificate authorities a TLS connection trusts, as mongosh's: the system's store merged
 * with Node's own and any tlsCAFile the URI names; null where the connection uses no TLS.
 */
async function trustedCAs(uri, options = {}) {
  if (!usesTls(uri, options)) return null;
  const { systemCA } = require('@mongodb-js/devtools-proxy-support');
  let tlsCAFile = options.tlsCAFile;
  try { tlsCAFile ??= new ConnectionString(uri).searchParams.get('tlsCAFile') || undefined; } catch { /* the driver says what is wrong */ }
  const { ca } = await systemCA({ ca: options.ca, tlsCAFile });
  return ca;
}

/** { uri, options } for a MongoClient that reaches the server as mongosh would. */
async function reachable(uri, options = {}) {
  const resolved = await resolveSrvUri(uri);
  const ca = await trustedCAs(resolved, options);
  return { uri: resolved, options: ca ? { ...options, ca } : options };
}

/** A MongoClient (not yet connected) for a user's URI, reached as mongosh reaches it. */
async function reachingClient(uri, options = {}) {
  const reached = await reachable(uri, options);
  return new MongoClient(reached.uri, reached.options);
}

module.exports = { resolveSrvUri, usesTls, trustedCAs, reachable, reachingClient, systemResolver };
