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
const { oneMongosUri, withUriOptions } = require('../servers/reach');
const { throughMongos } = require('../results/records');
const { redactUri } = require('../servers/spec');

const SCRIPT = path.join(__dirname, 'round-trip-ops.js');

/** The URI of the connection the scripts' timed writes take: one mongos, one connection, retryable writes off. */
function scriptConnectionUri(uri, { viaMongos }) {
  return withUriOptions(viaMongos ? oneMongosUri(uri) : uri, { maxPoolSize: '1', retryWrites: 'false' });
}

/**
 * { roundTripMs, roundTripVia, roundTripBy, hopMs (through mongos), driverRoundTripMs } for the
 * server record, or { roundTripVia: 'the driver', roundTripNote } where the shell could not.
 * @param server the started server with what describeServer read (uri, name, topology, roundTripMs)
 */
async function scriptRoundTrip({ server, shell, lean, pings, database, logFile }) {
  const viaMongos = throughMongos(server);
  const driver = Number.isFinite(server.roundTripMs) ? { driverRoundTripMs: server.roundTripMs } : {};
  try {
    const { measurements } = await runShellScript({
      shell, lean, uri: scriptConnectionUri(server.uri, { viaMongos }), file: SCRIPT, vars: { PINGS: pings, DB_NAME: database }, server: server.name, logFile,
    });
    const line = measurements.find((m) => m.scenario === 'round-trip');
    if (!line || !Number.isFinite(line.roundTripMs)) throw new Error('the script printed no round trip');
    return {
      roundTripMs: line.roundTripMs,
      roundTripVia: `${shell === 'kit' ? 'the kit\'s shell' : shell}, on the scripts' own kind of connection${viaMongos ? ' to one mongos' : ''}`,
      roundTripBy: line.roundTripBy,
      ...(viaMongos ? { hopMs: Number.isFinite(line.hopMs) ? line.hopMs : null } : {}),
      ...driver,
    };
  } catch (err) {
    return { roundTripVia: 'the driver', roundTripNote: `the ${shell === 'kit' ? 'kit\'s ' : ''}shell could not time it (${redactUri(String(err?.message || err).split('\n')[0])}): a ping through the driver stands${viaMongos ? ', and the hop inside the cluster is not measured' : ''}` };
  }
}

module.exports = { scriptRoundTrip, scriptConnectionUri };
