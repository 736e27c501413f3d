'use strict';
// A started mongod (--replSet) made a replica set of one member, as mongodb-memory-server's
// MongoMemoryReplSet makes one (MongoMemoryReplSet._initReplSet, 11.3): replSetInitiate with the
// same configuration (the member at the host it listens on, writeConcernMajorityJournalDefault on
// a journaled engine, electionTimeoutMillis 5000), over a direct connection, then a wait until the
// member is primary. The kit drives this itself rather than through MongoMemoryReplSet, for the
// reasons servers/mongod.js gives for driving MongoInstance rather than MongoMemoryServer (which
// MongoMemoryReplSet runs one of per member): the process tracked from the moment it exists, a
// start that takes too long stopped, its own download budget, its version checked.
//
// The URI it gives names the set (replicaSet=), not directConnection=true: that is how an
// application reaches a replica set, and the driver then treats the server as one (it selects the
// primary for every operation, retries writes with a txnNumber, gossips $clusterTime). With
// directConnection=true the driver would add $readPreference: primaryPreferred to every command
// it sends a non-standalone (lib/cmap/connection.js, prepareCommand), a field no production client
// of a replica set sends.
const { MongoClient } = require('mongodb');
const { ServerStartError } = require('../errors');

/** The set's name (mongod's --replSet, the URI's replicaSet=). */
const REPLICA_SET_NAME = 'classics-rs';

/** How often the member's state is asked while it becomes primary. */
const POLL_MS = 100;

/** The configuration MongoMemoryReplSet initiates a set of one member with. */
function replicaSetConfig(host) {
  return {
    _id: REPLICA_SET_NAME,
    members: [{ _id: 0, host }],
    writeConcernMajorityJournalDefault: true,
    settings: { electionTimeoutMillis: 5000 },
  };
}

/** The set's URI: the member, and the set's name. */
function replicaSetUri(host) {
  return `mongodb://${host}/?replicaSet=${REPLICA_SET_NAME}`;
}

/**
 * Initiates the set on the mongod at uri (listening at host) and waits, within budgetMs, until it
 * is primary. A data folder kept by --keep-data holds a set initiated on another port: its
 * configuration is taken again with this host (replSetReconfig force, as MongoMemoryReplSet does
 * for an "already initialized" set). Resolves to the set's URI; rejects with one line that says
 * what refused (`what` names the server: FerretDB behind the stand-in cannot be a replica set).
 */
async function startReplicaSet({ uri, host, config, budgetMs, what }) {
  const client = new MongoClient(uri, { directConnection: true, serverSelectionTimeoutMS: config.serverSelectionTimeoutMs });
  const deadline = Date.now() + budgetMs;
  try {
    const admin = client.db('admin');
    try {
      await admin.command({ replSetInitiate: replicaSetConfig(host) });
    } catch (err) {
      if (err.codeName !== 'AlreadyInitialized' && err.code !== 23) {
        throw new ServerStartError(`${what} did not become a replica set: replSetInitiate was refused (${String(err.errmsg || err.message).split('\n')[0]})`);
      }
      const { config: kept } = await admin.command({ replSetGetConfig: 1 });
      kept.members = [{ ...kept.members[0], host }];
      kept.version = (kept.version || 1) + 1;
      await admin.command({ replSetReconfig: kept, force: true });
    }
    for (;;) {
      const hello = await admin.command({ hello: 1 }).catch(() => ({}));
      if (hello.isWritablePrimary && hello.setName === REPLICA_SET_NAME) return replicaSetUri(host);
      if (Date.now() > deadline) {
        throw new ServerStartError(`${what} did not become primary of its replica set within ${Math.round(budgetMs / 1000)} s (CLASSICS_MONGOD_START_TIMEOUT_MS)`);
      }
      await new Promise((resolve) => { setTimeout(resolve, POLL_MS); });
    }
  } finally {
    await client.close().catch(() => {});
  }
}

module.exports = { REPLICA_SET_NAME, replicaSetConfig, replicaSetUri, startReplicaSet };
