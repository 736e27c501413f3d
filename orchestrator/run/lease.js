'use strict';
// Two runs against one server at once would ruin each other's numbers. A run holds a lease in
// the kit's own database while it works on a server and renews it; a run that died stops renewing,
// so its lease lapses instead of holding the server forever. The lease database is the kit's like
// any other: released, it is dropped unless another run's lease is still in it.
//
// The lease is one document, { _id: 'server' }, taken by an upsert that matches it only where it
// has lapsed or is this run's own: where another run holds it, the upsert's insert collides on
// _id (11000, duplicate key) and the run is refused. The server does not retry such an upsert
// itself (its query is not an equality on _id alone), and a lapsed lease taken by two runs at
// once goes to one of them: the other's update, retried after the write conflict, no longer
// matches and collides in turn. Expiry is judged by the clocks of the machines the runs are on.
const os = require('node:os');
const { ServerBusyError, UsageError } = require('../errors');
const { KIT_DATABASES, DB_PREFIX } = require('../config');
const { isRefused, refusalText } = require('./ownership');
const { isTierRefusal } = require('../servers/atlas');
const { connectReaching } = require('../servers/reach');

const LEASE_DB = KIT_DATABASES.lease;
const TTL_MS = 30000;
const DUPLICATE_KEY = 11000;
// a database being dropped by a run that released the last lease (DatabaseDropPending), or a
// collection dropped under an update (QueryPlanKilled): gone in a moment, so the grab is tried again
const PASSING = new Set([215, 175]);

function wait(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

async function acquireLease(client, { serverName, runId, ttlMs = TTL_MS, onLost = (line) => process.stderr.write(`warning: ${line}\n`) }) {
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
  for (let attempt = 1; ; attempt++) {
    try {
      await grab();
      break;
    } catch (err) {
      if (isRefused(err)) {
        // an Atlas tier's refusal is no missing privilege: no role would change it
        if (isTierRefusal(err)) throw new UsageError(`server '${serverName}' refused the kit its lease database ${LEASE_DB} (${refusalText(err)}): run the kit on an M10 or larger cluster`);
        throw new UsageError(`server '${serverName}' refused the kit its lease database ${LEASE_DB} (${refusalText(err)}): the user needs readWrite on ${LEASE_DB}, on ${KIT_DATABASES.calibration} and on each scenario's ${DB_PREFIX}* database, or readWriteAnyDatabase`);
      }
      if (PASSING.has(err.code) && attempt < 5) { await wait(200 * attempt); continue; }
      if (err.code !== DUPLICATE_KEY) throw err;
      const lease = await leases.findOne({ _id: 'server' });
      // released between the collision and this read: try again
      if (!lease && attempt < 5) continue;
      if (!lease) throw err;
      throw new ServerBusyError(`server '${serverName}' is in use by run ${lease.runId} (${lease.holder}), last seen ${lease.heartbeatAt.toISOString()}; its lease lapses at ${lease.expiresAt.toISOString()} unless that run renews it`);
    }
  }
  let lost = false;
  const renew = () => grab().catch(async (err) => {
    // a run held up past the lease's lapse (a machine asleep) finds another run holding it
    if (err.code !== DUPLICATE_KEY || lost) return;
    lost = true;
    const other = await leases.findOne({ _id: 'server' }).catch(() => null);
    onLost(`server '${serverName}': run ${other?.runId ?? 'another run'} took this run's lapsed lease; both now run on it, so the numbers from here on may disturb each other`);
  });
  const timer = setInterval(renew, ttlMs / 3);
  timer.unref();
  return {
    release: async () => {
      clearInterval(timer);
      await leases.deleteOne({ _id: 'server', runId }).catch(() => {});
      // nothing left to guard: the kit leaves no database of its own behind. A run that takes a
      // lease between the count and the drop loses it to the drop, and its own renewal, within
      // a third of the lease's life, puts it back (its first grab is retried past the drop).
      const others = await leases.countDocuments({}).catch(() => 1);
      if (others === 0) {
        // a readWrite user may drop the collection but not the database; a database left
        // without collections is gone
        await db.dropDatabase().catch((err) => (isRefused(err) ? leases.drop() : undefined)).catch(() => {});
      }
    },
  };
}

/**
 * Leases every server the kit did not start, for the whole run, before anything else happens:
 * a busy server refuses the run at once. Resolves to a function that releases them all.
 */
async function leaseUserServers(specs, { runId, serverSelectionTimeoutMs }) {
  const held = [];
  const releaseAll = async () => {
    for (const h of held.splice(0)) {
      await h.lease.release();
      await h.client.close().catch(() => {});
    }
  };
  try {
    for (const spec of specs.filter((s) => s.kind === 'uri')) {
      const client = await connectReaching(spec.uri, { serverSelectionTimeoutMS: serverSelectionTimeoutMs });
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
