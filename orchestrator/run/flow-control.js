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

const number = (v) => (v === undefined || v === null ? null : Number(v));

/** Whether the kit can read a server's flow control: a MongoDB replica set (Atlas of that shape too). */
function readsFlowControl(server) {
  if (server?.product !== 'MongoDB') return false;
  const shape = server.atlas?.shape ?? topologyKey(server);
  return shape === 'replicaSet';
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

/** The primary's flow control now, or null where the server has none to read or will not say. */
async function readFlowControl(client, server) {
  if (!readsFlowControl(server)) return null;
  try {
    return flowControlOf(await client.db('admin').command({ serverStatus: 1 }, { readPreference: 'primary' }));
  } catch {
    return null; // a user without clusterMonitor: the step goes on, said by its record lacking the field
  }
}

/**
 * What flow control did between two readings: { engaged (the primary was lagged at either end or
 * became lagged between them), laggedTimes (isLaggedCount's growth), laggedMs, waitedMs (the time
 * writes spent waiting for a ticket, timeAcquiringMicros' growth), enabled, before, after }, or
 * null where either reading is missing.
 */
function flowControlDuring(before, after) {
  if (!before || !after) return null;
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

/** What a step's measurement and block records carry where flow control engaged during it: { engaged, waitedMs, laggedTimes }. */
function flowControlMark(during) {
  return during?.engaged ? { engaged: true, waitedMs: during.waitedMs, laggedTimes: during.laggedTimes } : null;
}

module.exports = { readsFlowControl, flowControlOf, readFlowControl, flowControlDuring, flowControlMark };
