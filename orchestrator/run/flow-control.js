'use strict';
// Flow control, read before and after each timed step on a replica set's primary. Since 4.2 a
// primary whose majority commit point lags by more than a share of flowControlTargetLagSeconds
// makes every write take a ticket first, and hands out fewer tickets each second while the lag
// lasts: a write's clock (the send clock and the applied clock alike) then includes waiting for
// the secondaries. serverStatus' flowControl section says so (FlowControl::generateSection,
// src/mongo/db/storage/flow_control.cpp: enabled, targetRateLimit, timeAcquiringMicros,
// locksPerKiloOp, sustainerRate, isLagged, isLaggedCount, isLaggedTimeMicros; "serverStatus",
// flowControl, in the MongoDB manual). Through mongos there is none to read (each shard's primary
// keeps its own, and mongos's serverStatus has no such section); a standalone replicates nothing.
const { topologyKey } = require('../results/records');
const { SERVER_CODES, serverCode } = require('../errors');

/**
 * Why flow control is not known where serverStatus is refused for want of a privilege
 * (Unauthorized, code 13): serverStatus needs the serverStatus action on the cluster, which
 * clusterMonitor grants and readWrite or readWriteAnyDatabase do not (role_graph_builtin_roles.cpp).
 */
const NOT_PERMITTED = 'unknown (not permitted: serverStatus needs the clusterMonitor role)';

const number = (v) => (v === undefined || v === null ? null : Number(v));

/**
 * Why the kit cannot read a server's flow control, or null where it can (a MongoDB replica set,
 * Atlas of that shape too): a server with no replication has none to engage, and through mongos
 * each shard's primary keeps its own, which mongos's serverStatus does not hold.
 */
function flowControlUnread(server) {
  if (server?.product !== 'MongoDB') return { engaged: false, why: 'a server without replication has no flow control' };
  const shape = server.atlas?.shape ?? topologyKey(server);
  if (shape === 'replicaSet') return null;
  if (shape === 'sharded') return { engaged: null, why: 'through mongos: each shard\'s primary keeps its own flow control, which mongos does not report' };
  return { engaged: false, why: 'a standalone replicates nothing, so flow control never engages' };
}

/** A serverStatus answer's flowControl section as numbers, or null where it has none. */
function flowControlOf(status) {
  const f = status?.flowControl;
  if (!f || typeof f !== 'object') return null;
  return {
    enabled: f.enabled === true,
    isLagged: f.isLagged === true,
    isLaggedCount: number(f.isLaggedCount),
    isLaggedTimeMicros: number(f.isLaggedTimeMicros),
    timeAcquiringMicros: number(f.timeAcquiringMicros),
    targetRateLimit: number(f.targetRateLimit),
  };
}

/**
 * The primary's flow control now (flowControlOf's numbers), or where it cannot be read, why:
 * { engaged, why } (flowControlUnread's, or the refusal of a user without clusterMonitor).
 */
async function readFlowControl(client, server) {
  const unread = flowControlUnread(server);
  if (unread) return unread;
  try {
    return flowControlOf(await client.db('admin').command({ serverStatus: 1 }, { readPreference: 'primary' }))
      ?? { engaged: null, why: 'serverStatus has no flowControl section (a server before 4.2)' };
  } catch (err) {
    // told apart by the code: a missing privilege, or another refusal named by the server's code name
    if (serverCode(err) === SERVER_CODES.Unauthorized) return { engaged: null, why: NOT_PERMITTED };
    const said = err?.codeName || (serverCode(err) === null ? String(err?.message || err).split('\n')[0] : `code ${serverCode(err)}`);
    return { engaged: null, why: `unknown (serverStatus refused: ${said})` };
  }
}

/**
 * What flow control did between two readings: { engaged (the primary was lagged at either end or
 * became lagged between them), laggedTimes (isLaggedCount's growth), laggedMs, waitedMs (the time
 * writes spent waiting for a ticket, timeAcquiringMicros' growth), enabled, before, after };
 * where a reading could not be made, { engaged (false where it cannot engage, null where not
 * known), why }; null where either reading is missing.
 */
function flowControlDuring(before, after) {
  if (!before || !after) return null;
  // a reading that could not be made: what it says, whichever end it was
  const unread = [before, after].find((r) => r.why);
  if (unread) return { engaged: unread.engaged, why: unread.why };
  const grew = (field) => (Number.isFinite(before[field]) && Number.isFinite(after[field]) ? Math.max(0, after[field] - before[field]) : null);
  const laggedTimes = grew('isLaggedCount');
  const laggedMicros = grew('isLaggedTimeMicros');
  const waitedMicros = grew('timeAcquiringMicros');
  return {
    engaged: before.isLagged || after.isLagged || laggedTimes > 0,
    enabled: after.enabled,
    laggedTimes,
    laggedMs: laggedMicros === null ? null : laggedMicros / 1000,
    waitedMs: waitedMicros === null ? null : waitedMicros / 1000,
    before,
    after,
  };
}

/**
 * What a step's measurement and block records carry: where flow control engaged during it
 * { engaged: true, waitedMs, laggedTimes }; where it could not be known (through mongos, a user
 * without serverStatus) { engaged: null, why }, so that a verdict resting on the step's writes
 * says so (analysis/replication.js); nothing where it did not engage or cannot.
 */
function flowControlMark(during) {
  if (during?.engaged) return { engaged: true, waitedMs: during.waitedMs, laggedTimes: during.laggedTimes };
  if (during && during.engaged === null) return { engaged: null, why: during.why };
  return null;
}

module.exports = { NOT_PERMITTED, flowControlUnread, flowControlOf, readFlowControl, flowControlDuring, flowControlMark };
