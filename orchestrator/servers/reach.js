'use strict';
// Reaching a server as mongosh reaches it, for the kit's own clients and its shell alike
// (mongosh's connection layer, @mongodb-js/devtools-connect's connectMongoClient):
//
// - a mongodb+srv URI resolved through the operating system's resolver first and Node's after
//   (resolveMongodbSrv: resolve-mongodb-srv over os-dns-native's withNodeFallback). Where only the
//   system's resolver reaches the DNS (a corporate network, a VPN's split DNS), Node's alone, which
//   the driver uses, cannot resolve an Atlas name; where the native resolver cannot load, Node's
//   alone is asked, and a name it cannot resolve says so;
// - TLS trusting the system's CA certificates beside Node's and any tlsCAFile (devtools-proxy-
//   support's systemCA), and, where that connection fails on a certificate error, once more with
//   the URI's own CA alone (devtools-connect retries "after a TLS error" with useSystemCA off);
// - allowPartialTrustChain: a chain that ends at an intermediate certificate the client trusts is
//   accepted, as mongosh's merged options set it for every client.
const dns = require('node:dns');
const debug = require('debug')('classics:servers');
const { MongoClient } = require('mongodb');
const { ConnectionString } = require('mongodb-connection-string-url');
const { refusedAtOnce } = require('./versions');

let resolverWhy = null;
/**
 * os-dns-native's withNodeFallback (the system's resolver, then Node's); Node's alone where the
 * native module cannot load, and resolverProblem() then says why.
 */
function systemResolver() {
  try {
    const { withNodeFallback } = require('os-dns-native');
    resolverWhy = null;
    return withNodeFallback;
  } catch (err) {
    resolverWhy = `the system's resolver could not be loaded (${String(err?.message || err).split('\n')[0]}), so Node's alone was asked`;
    debug(resolverWhy);
    return dns;
  }
}

/** Why the system's resolver is not in use, or null where it is (or no SRV name was resolved yet). */
function resolverProblem() {
  return resolverWhy;
}

/**
 * A mongodb+srv URI as the mongodb:// URI its SRV and TXT records name (srvMaxHosts keeps that
 * many of the hosts); any other URI as it is. A name that cannot be resolved where the system's
 * resolver could not load says so in its error.
 * @param resolver { resolveSrv, resolveTxt } in Node's callback style
 */
async function resolveSrvUri(uri, resolver = systemResolver()) {
  if (!/^mongodb\+srv:\/\//i.test(uri)) return uri;
  try {
    return await require('resolve-mongodb-srv')(uri, { dns: resolver });
  } catch (err) {
    if (resolver === dns && resolverWhy) err.message = `${err.message} (${resolverWhy})`;
    throw err;
  }
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

/**
 * { uri, options } for a MongoClient that reaches the server as mongosh would. systemCA: false
 * leaves the system's certificates out (the URI's tlsCAFile, or Node's, alone), as mongosh's
 * second try after a certificate error does.
 */
async function reachable(uri, options = {}, { systemCA = true } = {}) {
  const resolved = await resolveSrvUri(uri);
  const ca = systemCA ? await trustedCAs(resolved, options) : null;
  return { uri: resolved, options: { ...options, allowPartialTrustChain: true, ...(ca ? { ca } : {}) } };
}

// Node's certificate verification errors (the X509_V_ERR names Node gives err.code): the ones
// devtools-connect's isPotentialTLSCertificateError retries on, with the system's store left out
const CERTIFICATE_ERRORS = /^(UNABLE_TO_(GET_ISSUER_CERT(_LOCALLY)?|GET_CRL|DECRYPT_(CERT|CRL)_SIGNATURE|DECODE_ISSUER_PUBLIC_KEY|VERIFY_LEAF_SIGNATURE)|(CERT|CRL)_(SIGNATURE_FAILURE|NOT_YET_VALID|HAS_EXPIRED|REVOKED|UNTRUSTED|REJECTED|CHAIN_TOO_LONG)|ERROR_IN_(CERT|CRL)_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|INVALID_CA|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE|HOSTNAME_MISMATCH|OUT_OF_MEM)$/;

/** Whether an error (or one it wraps) is a TLS certificate that was not trusted. */
function isCertificateError(err, seen = new Set()) {
  if (!err || typeof err !== 'object' || seen.has(err)) return false;
  seen.add(err);
  if (typeof err.code === 'string' && CERTIFICATE_ERRORS.test(err.code)) return true;
  if (Array.isArray(err.errors) && err.errors.some((e) => isCertificateError(e, seen))) return true;
  if (err.reason?.servers instanceof Map && [...err.reason.servers.values()].some((d) => isCertificateError(d?.error, seen))) return true;
  return isCertificateError(err.cause, seen);
}

/**
 * Connects a client for a user's URI as mongosh does: where the connection with the system's
 * certificates beside the URI's CA fails on a certificate error, once more with the URI's CA
 * alone. connect(client) does the connecting (the driver's, or the shell's fail-fast one).
 * Resolves to the connected client.
 */
async function connectReaching(uri, options = {}, connect = (client) => refusedAtOnce(client, (c) => c.connect())) {
  const attempt = async (reached) => {
    const client = new MongoClient(reached.uri, reached.options);
    try {
      return await connect(client);
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  };
  const first = await reachable(uri, options);
  try {
    return await attempt(first);
  } catch (err) {
    if (!usesTls(first.uri, options) || !isCertificateError(err)) throw err;
    debug('a certificate error with the system\'s CA certificates beside the URI\'s; once more with the URI\'s alone: %s', err.message);
    // the first error says what the system's certificates did not trust, if the second fails too
    return attempt(await reachable(uri, options, { systemCA: false })).catch(() => { throw err; });
  }
}

/**
 * The URI held to one mongos, as the scripts' unacknowledged writes block holds theirs: a
 * mongodb+srv URI keeps one of the hosts DNS lists (srvMaxHosts=1), a host list its first host; a
 * load balancer's URI is as it is (one connection is one mongos there).
 */
function oneMongosUri(uri) {
  const cs = new ConnectionString(uri);
  if (cs.searchParams.get('loadBalanced') === 'true') return uri;
  if (cs.isSRV) cs.searchParams.set('srvMaxHosts', '1');
  else cs.hosts = cs.hosts.slice(0, 1);
  return cs.toString();
}

/** The URI with these options set (replacing any of the same name). */
function withUriOptions(uri, options) {
  const cs = new ConnectionString(uri);
  for (const [k, v] of Object.entries(options)) cs.searchParams.set(k, String(v));
  return cs.toString();
}

/**
 * The URI of one member of a replica set, reached alone: the user's URI (a mongodb+srv one
 * resolved first, its TXT options kept) with that host and directConnection=true, its
 * credentials, TLS and replicaSet as they were. srvMaxHosts and srvServiceName belong to SRV alone.
 */
async function memberUri(uri, host, resolve = resolveSrvUri) {
  const cs = new ConnectionString(await resolve(uri));
  cs.hosts = [host];
  for (const k of ['srvMaxHosts', 'srvServiceName']) cs.searchParams.delete(k);
  cs.searchParams.set('directConnection', 'true');
  return cs.toString();
}

/** A client connected to one member alone (memberUri), as connectReaching connects any. */
async function connectMember(uri, host, options = {}) {
  return connectReaching(await memberUri(uri, host), options);
}

module.exports = {
  memberUri, connectMember, resolveSrvUri, usesTls, trustedCAs, connectReaching, isCertificateError, systemResolver, resolverProblem, oneMongosUri, withUriOptions,
};
