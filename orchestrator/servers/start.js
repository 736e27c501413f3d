'use strict';
// Starts (or reaches) the server a spec names and says what it is.
const debug = require('debug')('classics:servers');
const { connectReaching } = require('./reach');
const { UsageError, ServerStartError, SERVER_CODES, serverCodes } = require('../errors');
const { onCleanup } = require('../processes');
const { startMongod, checkMongodSpec } = require('./mongod');
const { startFerretDB, startFerretDB2, ferretdb2Missing } = require('./ferretdb');
const { postgresMissing } = require('./postgres');
const { pingServer } = require('./ping');
const { redactUri } = require('./spec');
const { compatibilityLine } = require('./versions');
const { describeDeployment, mongodStartupWarnings, measureRoundTrip, clientSettings } = require('./deployment');
const { describeAtlas, throttledTierLine } = require('./atlas');
const { healthCheck } = require('./health');
const { storeOf } = require('./store-settings');


/**
 * ctx: { config, logDir, log, keepDir, progress } where keepDir, when set, is a folder for the
 * server's data that outlives the run (--keep-data), so --resume can start the server again over
 * it, and progress the display a mongod's download shows on (none where it is left out).
 *
 * embedded, the first of these that can be had: a mongod; FerretDB 2 on PostgreSQL with
 * DocumentDB (ferretdb2: finds by _id through the index, as mongod does); FerretDB 1.24 on
 * PostgreSQL (its updates and deletes by integer _id scan the collection); on SQLite (scans too,
 * and far slower). One line says which, and why not the ones before it.
 */
async function startEmbedded(ctx) {
  const fs = require('node:fs');
  const path = require('node:path');
  // resuming a kept embedded server: start the kind whose data is there
  if (ctx.keepDir && fs.existsSync(path.join(ctx.keepDir, 'ferretdb2'))) {
    const server = await startFerretDB2({ ...ctx, name: 'embedded' });
    ctx.log(`embedded: ${server.description}, over the data this run kept`);
    return server;
  }
  if (ctx.keepDir && fs.existsSync(path.join(ctx.keepDir, 'ferretdb'))) {
    const backend = fs.existsSync(path.join(ctx.keepDir, 'postgres')) ? 'postgresql' : 'sqlite';
    const server = await startFerretDB({ ...ctx, backend, name: 'embedded' });
    ctx.log(`embedded: ${server.description}, over the data this run kept`);
    return server;
  }
  const why = [];
  try {
    const mongod = await startMongod({ config: ctx.config, keepDir: ctx.keepDir, logDir: ctx.logDir, name: 'embedded', progress: ctx.progress });
    ctx.log(`embedded: ${mongod.description} from mongodb-memory-server`);
    return mongod;
  } catch (err) {
    why.push(`no mongod could be started (${err.reason || err.message})`);
  }
  const missing = ferretdb2Missing(ctx.config);
  if (missing) {
    why.push(`ferretdb2 is not here (${missing})`);
  } else {
    try {
      const server = await startFerretDB2({ ...ctx, name: 'embedded' });
      ctx.log(`embedded: ${server.description}, because ${why.join('; ')}`);
      return server;
    } catch (err) {
      why.push(`ferretdb2 did not start (${err.message})`);
    }
  }
  const backend = postgresMissing(ctx.config) ? 'sqlite' : 'postgresql';
  const server = await startFerretDB({ ...ctx, backend, name: 'embedded' });
  ctx.log(`embedded: ${server.description}, because ${why.join('; ')}`);
  return server;
}

async function startServer(spec, ctx) {
  let server;
  switch (spec.kind) {
    case 'embedded': server = await startEmbedded(ctx); break;
    case 'mongod': server = await startMongod({ ...ctx, version: spec.version, compressor: spec.compressor, topology: spec.topology, name: spec.name }); break;
    case 'ferretdb': server = await startFerretDB({ ...ctx, backend: spec.backend, name: spec.name }); break;
    case 'ferretdb2': server = await startFerretDB2({ ...ctx, name: spec.name }); break;
    case 'uri': server = { uri: spec.uri, description: redactUri(spec.uri), started: false, stop: async () => {} }; break;
    default: throw new ServerStartError(`no way to start a server of kind ${spec.kind}`);
  }
  const unregister = onCleanup(() => server.stop());
  const stop = async () => { unregister(); await server.stop(); };
  debug('%s up at %s', spec.name, redactUri(server.uri));
  return { ...server, name: spec.name, spec: spec.spec, kind: spec.kind, stop, health: healthCheck(server) };
}

/**
 * Before anything is started, a typo or a server that cannot be had should not cost a run: every
 * URI server must answer, with a version the kit's driver can talk to, every mongod spec must
 * be one that can be had (MONGOMS_SYSTEM_BINARY's version, or a download for this system), and
 * ferretdb2 must be installed (as root, by npm run setup) and the kit run as root. An Atlas
 * tier that rations operations (M0, Flex) is refused in one line.
 */
async function checkReachable(specs, config) {
  for (const spec of specs.filter((s) => s.kind === 'ferretdb2')) {
    const missing = ferretdb2Missing(config);
    if (missing) throw new UsageError(`server '${spec.name}': ${missing}`);
  }
  for (const spec of specs.filter((s) => s.kind === 'mongod')) {
    try {
      await checkMongodSpec(spec, config);
    } catch (err) {
      throw new UsageError(`server '${spec.name}': ${err.reason || err.message}`);
    }
  }
  for (const spec of specs.filter((s) => s.kind === 'uri')) {
    try {
      await pingServer(spec.uri, config.serverSelectionTimeoutMs);
    } catch (err) {
      const tooOld = compatibilityLine(`server '${spec.name}' at ${redactUri(spec.uri)}`, err);
      if (tooOld) throw new UsageError(tooOld);
      const what = serverCodes(err).includes(SERVER_CODES.AuthenticationFailed) ? 'refused the credentials' : `did not answer within ${config.serverSelectionTimeoutMs / 1000} s`;
      throw new UsageError(`server '${spec.name}' at ${redactUri(spec.uri)} ${what}: ${err.message.split('\n')[0]}`);
    }
    const refused = await refusalOf(spec, config);
    if (refused) throw new UsageError(refused);
  }
}

/**
 * What FerretDB says of itself at start-up (getLog startupWarnings): the backend it runs on, and
 * its warnings (FerretDB 2 warns where the DocumentDB installed is not the one it was built for).
 * { backendVersion, warnings }, or nothing where it keeps no such log.
 */
async function ferretdbStartup(admin) {
  let lines;
  try {
    lines = (await admin.command({ getLog: 'startupWarnings' })).log || [];
  } catch {
    return {};
  }
  const messages = lines.map((line) => { try { return JSON.parse(line).msg; } catch { return String(line); } }).filter(Boolean);
  // "Powered by FerretDB v2.7.0 and DocumentDB 1.0.0 (PostgreSQL 18.6)."
  const powered = messages.map((m) => /^Powered by FerretDB \S+ and (.+?)\.?$/.exec(m)).find(Boolean);
  const warnings = messages.filter((m) => /\b(requires|may not|not supported|deprecated|warning)\b/i.test(m));
  return { ...(powered ? { backendVersion: powered[1] } : {}), ...(warnings.length ? { warnings } : {}) };
}

/** What mongod warned of at start-up, as FerretDB's warnings are kept: { warnings }, or nothing. */
async function mongodWarnings(admin) {
  const warnings = await mongodStartupWarnings(admin);
  return warnings.length ? { warnings } : {};
}

/**
 * The server's handshake answer: `hello` (MongoDB 4.4.2 and later, FerretDB), else the legacy
 * `isMaster` every server the driver takes still answers. Its maxWireVersion is the protocol
 * version the driver checks against its own range (mongodb 7.9, lib/cmap/connect.js
 * checkSupportedServer), which mongod's hello appends from its WireSpec
 * (src/mongo/db/repl/replication_info.cpp, CmdHello: incomingExternalClient.maxWireVersion).
 */
async function handshake(admin) {
  try {
    return await admin.command({ hello: 1 });
  } catch {
    return admin.command({ isMaster: 1 });
  }
}

/**
 * Version, wire version, storage engine and flavour, read through the driver; the deployment
 * (topology, Atlas's tier, a replica set's members, the default read and write concerns); what
 * the URI asks of every client (retryWrites, the read preference); and the round trip to it
 * through the driver (roundTripMs; a user's server's is timed again in the kit's shell, as the
 * scripts see it: servers/round-trip.js).
 * @param pings how many pings the round trip is the median of (config.roundTripPings)
 */
async function describeServer(client, server, { pings = 11 } = {}) {
  const admin = client.db('admin');
  const build = await admin.command({ buildInfo: 1 });
  const hello = await handshake(admin).catch(() => ({}));
  let engine = null;
  try {
    const status = await admin.command({ serverStatus: 1 });
    engine = status.storageEngine?.name || null;
  } catch { /* FerretDB answers only part of serverStatus */ }
  const ferretdb = build.ferretdbVersion || (build.ferretdb && build.ferretdb.version) || null;
  // Atlas is a user's server: one the kit started is not asked
  const atlas = ferretdb || server.started ? null : await describeAtlas(admin, server.uri);
  const roundTripMs = await measureRoundTrip(admin, pings);
  const product = ferretdb ? 'FerretDB' : 'MongoDB';
  return {
    product,
    version: ferretdb || build.version,
    // a number (MongoDB 8.2: 27), not the version string
    wireVersion: Number.isInteger(hello.maxWireVersion) ? hello.maxWireVersion : null,
    engine: engine || server.backend || null,
    // the topology (standalone, replica set, sharded, Atlas), the default concerns, the allocator setting
    ...await describeDeployment(admin, hello, server, atlas),
    // what the URI asks of every client, the scripts' too: retryable writes, the read preference
    ...clientSettings(client, hello),
    ...(roundTripMs === null ? {} : { roundTripMs }),
    ...(ferretdb ? await ferretdbStartup(admin) : await mongodWarnings(admin)),
    // what its store promises about a write, read back from it: a mongod's journal, FerretDB's PostgreSQL
    store: await storeOf(admin, { product, server, hello }),
  };
}

/**
 * The one line that refuses a user's server before anything starts, or null: an Atlas tier
 * whose operations are rationed (M0, Flex) would have every figure be the ration's.
 */
async function refusalOf(spec, config) {
  let client;
  try {
    client = await connectReaching(spec.uri, { serverSelectionTimeoutMS: config.serverSelectionTimeoutMs });
    return throttledTierLine(spec.name, await describeAtlas(client.db('admin'), spec.uri));
  } catch {
    return null; // the ping said it answers; a server that will not say is measured
  } finally {
    await client?.close().catch(() => {});
  }
}

module.exports = { startServer, checkReachable, describeServer };
