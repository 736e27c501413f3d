'use strict';
// Two runs against one server at once would ruin each other's numbers. A run holds a lease in
// the kit's own database while it works on a server and renews it; a run that died stops renewing,
// so its lease lapses instead of holding the server forever. The lease database is the kit's like
// any other: released, it is dropped unless another run's lease is still in it.
const os = require('node:os');
const { ServerBusyError } = require('../errors');
const { KIT_DATABASES } = require('../config');

const LEASE_DB = KIT_DATABASES.lease;
const TTL_MS = 30000;

async function acquireLease(client, { serverName, runId, ttlMs = TTL_MS }) {
  const db = client.db(LEASE_DB);
  const leases = db.collection('leases');
  const holder = `${os.hostname()} pid ${process.pid}`;
  const grab = async () => {
    const now = new Date();
    await leases.updateOne(
      { _id: 'server', $or: [{ expiresAt: { $lt: now } }, { runId }] },
      { $set: { runId, holder, heartbeatAt: now, expiresAt: new Date(now.getTime() + ttlMs) } },
      { upsert: true },
    );
  };
  try {
    await grab();
  } catch (err) {
    if (err.code !== 11000) throw err;
    const lease = await leases.findOne({ _id: 'server' });
    throw new ServerBusyError(`server '${serverName}' is in use by run ${lease.runId} (${lease.holder}), last seen ${lease.heartbeatAt.toISOString()}; its lease lapses at ${lease.expiresAt.toISOString()} unless that run renews it`);
  }
  const timer = setInterval(() => { grab().catch(() => {}); }, ttlMs / 3);
  timer.unref();
  return {
    release: async () => {
      clearInterval(timer);
      await leases.deleteOne({ _id: 'server', runId }).catch(() => {});
      // nothing left to guard: the kit leaves no database of its own behind
      const others = await leases.countDocuments({}).catch(() => 1);
      if (others === 0) await db.dropDatabase().catch(() => db.collection('leases').drop().catch(() => {}));
    },
  };
}

/**
 * Leases every server the kit did not start, for the whole run, before anything else happens:
 * a busy server refuses the run at once. Resolves to a function that releases them all.
 */
async function leaseUserServers(specs, { runId, serverSelectionTimeoutMs }) {
  const { MongoClient } = require('mongodb');
  const held = [];
  const releaseAll = async () => {
    for (const h of held.splice(0)) {
      await h.lease.release();
      await h.client.close().catch(() => {});
    }
  };
  try {
    for (const spec of specs.filter((s) => s.kind === 'uri')) {
      const client = new MongoClient(spec.uri, { serverSelectionTimeoutMS: serverSelectionTimeoutMs });
      try {
        held.push({ client, lease: await acquireLease(client, { serverName: spec.name, runId }) });
      } catch (err) {
        await client.close().catch(() => {});
        throw err;
      }
    }
  } catch (err) {
    await releaseAll();
    throw err;
  }
  return releaseAll;
}

module.exports = { acquireLease, leaseUserServers, LEASE_DB };
