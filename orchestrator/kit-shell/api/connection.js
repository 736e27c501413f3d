'use strict';
// Opening a connection as mongosh does: the URI normalised by mongosh's own @mongosh/arg-parser
// (directConnection=true for a single host, serverSelectionTimeoutMS=2000 unless given), the
// client options mongosh's connection layer (@mongodb-js/devtools-connect) adds that change
// behaviour (IPv4 first for "localhost", partial trust chains, the system's CA certificates beside
// Node's for TLS), a mongodb+srv URI resolved as it resolves one (through the operating system's
// resolver first, Node's after), and its fail-fast connect: a refused or unresolvable host fails
// at once with the network error, as in mongosh, instead of a MongoServerSelectionError after the
// whole selection timeout. What mongosh adds for OIDC, proxies and client-side encryption is not
// here, nor its second try without the system's certificates after a certificate error.
const dns = require('node:dns');
const { MongoClient } = require('mongodb');
const { ConnectionString } = require('mongodb-connection-string-url');
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

// devtools-connect's fast-failure test: errors that no amount of waiting will fix
const FAST_FAILURE_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'ENETUNREACH', 'EINVAL'];
function isFastFailure(error) {
  if (!error || typeof error !== 'object') return false;
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
 * The system's resolver, then Node's: os-dns-native's withNodeFallback, which asks the operating
 * system (getaddrinfo's res_query, so /etc/resolv.conf, nsswitch and a corporate resolver as every
 * other program sees them) and, where that fails, Node's c-ares; Node's alone where the native
 * module cannot load.
 */
function systemResolver() {
  try {
    return require('os-dns-native').withNodeFallback;
  } catch {
    return dns;
  }
}

/**
 * A mongodb+srv URI as the mongodb:// URI its SRV and TXT records name, resolved as mongosh
 * resolves it (devtools-connect's resolveMongodbSrv: resolve-mongodb-srv over the system's
 * resolver); srvMaxHosts keeps that many of the hosts. Any other URI as it is.
 * @param resolver { resolveSrv, resolveTxt } in Node's callback style
 */
async function resolveSrvUri(connectionString, resolver = systemResolver()) {
  if (!/^mongodb\+srv:\/\//i.test(connectionString)) return connectionString;
  return require('resolve-mongodb-srv')(connectionString, { dns: resolver });
}

/** Whether a resolved URI (or the options beside it) asks for TLS: tls=true, ssl=true. */
function usesTls(connectionString, driverOptions = {}) {
  if (driverOptions.tls === true || driverOptions.ssl === true) return true;
  try {
    const params = new ConnectionString(connectionString).searchParams;
    return ['tls', 'ssl'].some((k) => String(params.get(k)).toLowerCase() === 'true');
  } catch {
    return false;
  }
}

/**
 * The certificate authorities a TLS connection trusts, as mongosh's: the system's store merged
 * with Node's own and any tlsCAFile the URI names (devtools-proxy-support's systemCA, on the
 * system-ca package); null where the connection uses no TLS.
 */
async function trustedCAs(connectionString, driverOptions = {}) {
  if (!usesTls(connectionString, driverOptions)) return null;
  const { systemCA } = require('@mongodb-js/devtools-proxy-support');
  let tlsCAFile = driverOptions.tlsCAFile;
  try { tlsCAFile ??= new ConnectionString(connectionString).searchParams.get('tlsCAFile') || undefined; } catch { /* the driver says what is wrong */ }
  const { ca } = await systemCA({ ca: driverOptions.ca, tlsCAFile });
  return ca;
}

/** A connected MongoClient for a normalised connection string and driver options. */
async function openClient({ connectionString, driverOptions }) {
  const uri = await resolveSrvUri(connectionString);
  const ca = await trustedCAs(uri, driverOptions);
  const client = new MongoClient(uri, {
    ...driverOptions,
    ...(ca ? { ca } : {}),
    allowPartialTrustChain: true,
    lookup: ipv4FirstLookup,
    driverInfo: DRIVER_INFO,
  });
  await connectFailFast(client);
  return client;
}

module.exports = { connectionInfo, openClient, isFastFailure, resolveSrvUri, trustedCAs, usesTls };
