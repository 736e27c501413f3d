'use strict';
// Opening a connection as mongosh does: the URI normalised by mongosh's own @mongosh/arg-parser
// (directConnection=true for a single host, serverSelectionTimeoutMS=2000 unless given), the
// client options mongosh's connection layer (@mongodb-js/devtools-connect) adds that change
// behaviour (IPv4 first for "localhost", partial trust chains, the system's CA certificates beside
// Node's for TLS), a mongodb+srv URI resolved as it resolves one (through the operating system's
// resolver first, Node's after), and its fail-fast connect: a refused or unresolvable host fails
// at once with the network error, as in mongosh, instead of a MongoServerSelectionError after the
// whole selection timeout; after a certificate error, a second try with the URI's CA alone, as
// mongosh's. What mongosh adds for OIDC, proxies and client-side encryption is not here.
const dns = require('node:dns');
const { connectReaching, isCertificateError, resolveSrvUri, trustedCAs, usesTls } = require('../../servers/reach');
const { generateConnectionInfoFromCliArgs, mapCliToDriver } = require('@mongosh/arg-parser');

const DRIVER_INFO = Object.freeze({ name: 'mongo-classics kit-shell' });

/** { connectionString, driverOptions } exactly as mongosh's Mongo constructor computes them. */
function connectionInfo(uri, { username, password } = {}) {
  let info = generateConnectionInfoFromCliArgs({ connectionSpecifier: uri });
  if (username || password) info = mapCliToDriver({ username, password }, info);
  return info;
}

function ipv4FirstLookup(hostname, options, callback) {
  return dns.lookup(hostname, { verbatim: false, ...options }, callback);
}

// devtools-connect's fast-failure test: errors that no amount of waiting will fix (a certificate
// not trusted among them, which mongosh then tries once more with the URI's CA alone)
const FAST_FAILURE_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'ENETUNREACH', 'EINVAL'];
function isFastFailure(error) {
  if (!error || typeof error !== 'object') return false;
  if (isCertificateError(error)) return true;
  if (isFastFailure(error.cause)) return true;
  if (Array.isArray(error.errors) && error.errors.some(isFastFailure)) return true;
  if (error.name === 'MongoNetworkError') return /\b(ECONNREFUSED|ENOTFOUND|ENETUNREACH|EINVAL)\b/.test(error.message);
  return FAST_FAILURE_CODES.includes(error.code);
}

/**
 * Connects client, giving up as soon as every known server has failed a heartbeat with a
 * fast-failure error (devtools-connect's connectWithFailFast), and then throwing that error.
 */
async function connectFailFast(client) {
  const failures = new Map();
  let closing = null;
  const onFailed = ({ failure, connectionId }) => {
    const servers = client.topology?.description?.servers;
    if (!servers?.has(connectionId) || !isFastFailure(failure)) return;
    failures.set(connectionId, failure);
    if ([...servers.keys()].every((s) => failures.has(s))) closing = client.close();
  };
  const onSucceeded = ({ connectionId }) => failures.delete(connectionId);
  client.on('serverHeartbeatFailed', onFailed);
  client.on('serverHeartbeatSucceeded', onSucceeded);
  try {
    await client.connect();
  } catch (err) {
    if (closing) {
      await closing;
      throw failures.values().next().value;
    }
    throw err;
  } finally {
    client.off('serverHeartbeatFailed', onFailed);
    client.off('serverHeartbeatSucceeded', onSucceeded);
  }
}

/**
 * A connected MongoClient for a normalised connection string and driver options, reached as
 * mongosh reaches it (servers/reach.js: SRV through the system's resolver, the system's CA
 * certificates, allowPartialTrustChain, and a second try with the URI's CA alone after a
 * certificate error), connected fail-fast.
 */
function openClient({ connectionString, driverOptions }) {
  return connectReaching(connectionString, { ...driverOptions, lookup: ipv4FirstLookup, driverInfo: DRIVER_INFO }, async (client) => {
    await connectFailFast(client);
    return client;
  });
}

module.exports = { connectionInfo, openClient, isFastFailure, resolveSrvUri, trustedCAs, usesTls };
