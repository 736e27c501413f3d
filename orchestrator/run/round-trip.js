'use strict';
// The round trip the scripts see, for a user's server: timed in the shell the run's scripts run
// in (the kit's, its lean path as the run has it, or mongosh), on a connection like the one their
// timed writes take (run/round-trip-ops.js): one mongos of a cluster, held as the scripts hold
// theirs (servers/reach.js oneMongosUri, the rule of their unacknowledged writes block), one
// connection, retryable writes off. A ping through the orchestrator's own driver client adds the
// driver's cost per call (which the kit's lean path does not pay) and may reach another mongos
// than the scripts'; mongos answers a ping itself, so the hop inside the cluster is in no ping.
// Where the shell cannot time it (a user who may not write the lease database), the driver's
// ping stands, and the record says why.
const path = require('node:path');
const { runShellScript } = require('./shells');
const { ConnectionString } = require('mongodb-connection-string-url');
const { oneMongosUri, withUriOptions, resolveSrvUri } = require('../servers/reach');
const { throughMongos } = require('../results/records');
const { redactUri } = require('../servers/spec');
const { ScriptError } = require('../errors');

const SCRIPT = path.join(__dirname, 'round-trip-ops.js');

/** The URI of the connection the scripts' timed writes take: one mongos, one connection, retryable writes off. */
function scriptConnectionUri(uri, { viaMongos }) {
  return withUriOptions(viaMongos ? oneMongosUri(uri) : uri, { maxPoolSize: '1', retryWrites: 'false' });
}

/**
 * Whether the round trip goes through the mongos the timed connections use, where it may not:
 * null where it does (a host list: oneMongosUri keeps its first host, for the round trip and for
 * every timed connection of the scripts alike; a load balancer; an SRV record of one host), else
 * { same: false, mongos (how many the SRV record lists, null where it could not be resolved
 * again), why }. A mongodb+srv URI with srvMaxHosts=1 has each connection keep one of the hosts
 * its SRV record lists, drawn at random when it is resolved (resolve-mongodb-srv's shuffle, as
 * mongosh resolves it; the driver's resolveSRVRecord shuffles alike), so the round trip's
 * connection and each timed connection may reach different mongos, at different distances.
 * @param resolve resolveSrvUri (servers/reach.js), or a test's
 */
async function mongosOfRoundTrip(uri, { viaMongos }, resolve = resolveSrvUri) {
  if (!viaMongos) return null;
  let cs;
  try { cs = new ConnectionString(uri); } catch { return null; }
  if (!cs.isSRV || cs.searchParams.get('loadBalanced') === 'true') return null;
  let mongos = null;
  try {
    const all = new ConnectionString(uri);
    all.searchParams.delete('srvMaxHosts');
    mongos = new ConnectionString(await resolve(all.toString())).hosts.length;
  } catch { /* not resolved again: how many is not said */ }
  if (mongos === 1) return null;
  return {
    same: false,
    mongos,
    why: `a mongodb+srv URI: each connection keeps one of the ${mongos ?? 'several'} mongos its SRV record lists, drawn at random (srvMaxHosts=1), so the round trip and each timed connection may reach different mongos`,
  };
}

/**
 * { roundTripMs, roundTripVia, roundTripBy, hopMs (through mongos), driverRoundTripMs,
 * roundTripMongos (mongosOfRoundTrip's, where it may not be the timed connections' mongos) } for the
 * server record, or { roundTripVia: 'the driver', roundTripNote } where the shell could not.
 * @param server the started server with what describeServer read (uri, name, topology, roundTripMs)
 */
async function scriptRoundTrip({ server, shell, lean, pings, database, logFile, resolve = resolveSrvUri }) {
  const viaMongos = throughMongos(server);
  const which = await mongosOfRoundTrip(server.uri, { viaMongos }, resolve);
  const mongos = which ? { roundTripMongos: which } : {};
  const driver = Number.isFinite(server.roundTripMs) ? { driverRoundTripMs: server.roundTripMs, ...mongos } : { ...mongos };
  try {
    const { measurements } = await runShellScript({
      shell, lean, uri: scriptConnectionUri(server.uri, { viaMongos }), file: SCRIPT, vars: { PINGS: pings, DB_NAME: database }, server: server.name, logFile,
    });
    const line = measurements.find((m) => m.scenario === 'round-trip');
    if (!line || !Number.isFinite(line.roundTripMs)) throw new ScriptError('the script printed no round trip', { script: SCRIPT, server: server.name });
    return {
      roundTripMs: line.roundTripMs,
      roundTripVia: `${shell === 'kit' ? 'the kit\'s shell' : shell}, on the scripts' own kind of connection${viaMongos ? ' to one mongos' : ''}`,
      roundTripBy: line.roundTripBy,
      ...(viaMongos ? { hopMs: Number.isFinite(line.hopMs) ? line.hopMs : null } : {}),
      ...driver,
    };
  } catch (err) {
    return { ...mongos, roundTripVia: 'the driver', roundTripNote: `the ${shell === 'kit' ? 'kit\'s ' : ''}shell could not time it (${redactUri(String(err?.message || err).split('\n')[0])}): a ping through the driver stands${viaMongos ? ', and the hop inside the cluster is not measured' : ''}` };
  }
}

module.exports = { scriptRoundTrip, scriptConnectionUri, mongosOfRoundTrip };
