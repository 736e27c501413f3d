'use strict';
// Which MongoDB servers the kit can reach, and the one line that says why when it cannot.
//
// The kit talks to every server through the Node.js driver (its own, and mongosh's, which is the
// same mongodb 7.x package): the driver refuses a server whose maxWireVersion is below
// MIN_SUPPORTED_WIRE_VERSION (mongodb 7.x: 9, MongoDB 4.4; lib/cmap/connect.js
// checkSupportedServer and lib/sdam/topology_description.js). So no MongoDB before 4.4 can run a
// scenario, whatever starts it.
const driverWire = require('mongodb/lib/cmap/wire_protocol/constants');
const driverVersion = require('mongodb/package.json').version;
const { MongoCompatibilityError } = require('mongodb');

const MIN_SERVER_VERSION = driverWire.MIN_SUPPORTED_SERVER_VERSION;
const MIN_WIRE_VERSION = driverWire.MIN_SUPPORTED_WIRE_VERSION;

/**
 * The server release each wire version below the driver's floor came with (mongodb/specifications,
 * "Server Wire version and Feature List"; the server's src/mongo/db/wire_version.h).
 */
const RELEASE_OF_WIRE = {
  0: '2.4 or older', 1: '2.6', 2: '2.6', 3: '3.0', 4: '3.2', 5: '3.4', 6: '3.6', 7: '4.0', 8: '4.2',
};

const WHY = `the Node.js driver it and mongosh use (mongodb ${driverVersion}) refuses servers older than ${MIN_SERVER_VERSION} (wire version below ${MIN_WIRE_VERSION})`;

/** [major, minor, patch] of a version such as 7.0.14 or 8.0.0-rc1; null if it is not one. */
function versionParts(version) {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(version || ''));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] || 0)] : null;
}

/** Whether a version is older than the driver's floor (4.4 with mongodb 7.x). */
function isBelowFloor(version) {
  const parts = versionParts(version);
  const floor = versionParts(MIN_SERVER_VERSION);
  if (!parts) return false;
  return parts[0] < floor[0] || (parts[0] === floor[0] && parts[1] < floor[1]);
}

/** "the kit needs MongoDB 4.4 or later, because <the driver>" */
const NEEDS = `the kit needs MongoDB ${MIN_SERVER_VERSION} or later, because ${WHY}`;

/** "<subject> is MongoDB <version>; the kit needs 4.4 or later, because <the driver>". */
function tooOldLine(subject, version) {
  return `${subject} is MongoDB ${version}; ${NEEDS}`;
}

/** The driver's MongoCompatibilityError in an error or its causes (a server selection error's cause is the server's), or null. */
function compatibilityErrorIn(err) {
  for (let e = err, depth = 0; e && depth < 8; e = e.cause, depth += 1) {
    if (e instanceof MongoCompatibilityError) return e;
  }
  return null;
}

/**
 * The driver's refusal of a server's wire version (a MongoCompatibilityError, itself or as the
 * cause of a server selection error), turned into the kit's line about that server; null for any
 * other error. Told apart by its class; the wire versions the server reported are read from its
 * text, the only place the driver puts them (lib/cmap/connect.js checkSupportedServer and
 * lib/sdam/topology_description.js build it from the hello, which no error field keeps).
 */
function compatibilityLine(subject, err) {
  const refusal = compatibilityErrorIn(err);
  if (!refusal) return null;
  const text = String(refusal.message);
  const old = /reports (?:maximum )?wire version (\d+), but this version of the (?:Node\.js )?[Dd]river requires at least/.exec(text);
  if (old) {
    const wire = Number(old[1]);
    return tooOldLine(subject, `${RELEASE_OF_WIRE[wire] || 'older than 4.4'} (wire version ${wire})`);
  }
  const recent = /requires wire version (\d+), but this version of the driver only supports up to (\d+) \(MongoDB ([\d.]+)\)|reports minimum wire version (\d+), but this version of the Node\.js Driver requires at most (\d+) \(MongoDB ([\d.]+)\)/.exec(text);
  if (recent) {
    const [wire, max, release] = recent[1] ? recent.slice(1, 4) : recent.slice(4, 7);
    return `${subject} needs wire version ${wire}, newer than the Node.js driver the kit and mongosh use (mongodb ${driverVersion}) speaks (up to ${max}, MongoDB ${release}): update the kit's mongodb and mongosh packages`;
  }
  return null;
}

/**
 * What work(client) resolves; but where the server's first answer shows wire versions the driver
 * does not speak, the driver's own MongoCompatibilityError at that answer (its monitor's handshake
 * fails with it: lib/cmap/connect.js checkSupportedServer), which compatibilityLine reads. The
 * driver itself refuses such a server only when its server selection times out
 * (config.serverSelectionTimeoutMs), which kept a user of an old server waiting 8 s for the one
 * line that says so.
 */
function refusedAtOnce(client, work) {
  let onFailed;
  const refused = new Promise((_, reject) => {
    onFailed = ({ failure }) => { if (failure instanceof MongoCompatibilityError) reject(failure); };
    client.on('serverHeartbeatFailed', onFailed);
  });
  return Promise.race([work(client), refused]).finally(() => client.off('serverHeartbeatFailed', onFailed));
}

/**
 * The version a mongod binary's `--version` prints: "db version v7.0.14" (also "v4.2.19-11-ge2f2736",
 * "v8.0.0-rc1"). The same first line mongodb-memory-server reads in MongoBinary.getPath.
 */
function parseVersionOutput(stdout) {
  const m = /^\s*db\s+version\s+v?(\d+\.\d+\.\d+(?:-[\w.-]+)?)\s*$/im.exec(String(stdout || ''));
  return m ? m[1] : null;
}

module.exports = {
  NEEDS, MIN_SERVER_VERSION, MIN_WIRE_VERSION, RELEASE_OF_WIRE, versionParts, isBelowFloor, tooOldLine, compatibilityLine, refusedAtOnce,
  parseVersionOutput,
};
