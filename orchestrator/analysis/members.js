'use strict';
// Which member of a cluster answered the reads a verdict rests on, and what they waited for.
//
// - Where the run's read preference sends reads elsewhere than the primary (secondary,
//   secondaryPreferred, nearest), the driver picks a server for each operation: two at random
//   among those that suit it and lie in the latency window, the one with fewer operations in
//   flight (processWaitQueue, lib/sdam/topology.js, mongodb 7.9); through mongos, mongos picks a
//   shard's member for each read itself. So the timed reads of one step may have been answered by
//   different members, at different lags and on different hardware; the kit reads its sizes from
//   one member (run/stats.js statsReads, the records' statsMember), which need not be theirs; and
//   the round trip the network check weighs them against is timed on commands that go to the
//   primary. The kit cannot pin the scripts' reads to one member without changing the
//   connection their writes take too, so the verdict says so ('members-may-differ') and keeps
//   its status. primaryPreferred reads the primary while there is one.
// - Where the URI names a read concern (readConcernLevel), every read the scripts time takes it,
//   since none names its own (servers/deployment.js uriConcerns): majority and snapshot read a
//   majority-committed view, and linearizable waits for a majority to confirm the primary on
//   every read. The verdict says so ('read-concern'); local and available are what a read that
//   names none gets anyway.
const { topologyKey } = require('../results/records');

/** Read preferences whose reads may go to a member other than the primary. */
const ELSEWHERE = ['secondary', 'secondaryPreferred', 'nearest'];

/** Read concern levels that change what a read waits for, against the default (local). */
const WAITING_LEVELS = ['majority', 'linearizable', 'snapshot'];

/**
 * The reason where the reads may have been answered by different members ({ code, mode,
 * statsMember (where the records name the one the kit's sizes came from), viaMongos }), else
 * null: a standalone, a replica set of one data-bearing member, or reads on the primary.
 * @param server the server's record (readPreference, topology, members, atlas)
 * @param records the records the verdict rests on (their statsMember, where the kit pinned one)
 */
function membersMayDifferReason(server, records = []) {
  const mode = server?.readPreference?.mode;
  if (!ELSEWHERE.includes(mode)) return null;
  const shape = server.atlas?.shape ?? topologyKey(server);
  if (shape !== 'replicaSet' && shape !== 'sharded') return null;
  if (shape === 'replicaSet' && Number(server.members?.dataBearing) === 1) return null;
  const statsMember = (records || []).map((r) => r?.statsMember).find(Boolean) ?? null;
  return { code: 'members-may-differ', mode, viaMongos: shape === 'sharded', ...(statsMember ? { statsMember } : {}) };
}

/** The members-may-differ reason's words. */
function membersMayDifferText(r) {
  const picker = r.viaMongos ? 'mongos picks a shard\'s member for each read' : 'the driver picks a member for each operation';
  const sizes = r.statsMember ? `, the kit's sizes and counts came from one member (${r.statsMember}), not necessarily theirs,` : '';
  return `read preference ${r.mode}: ${picker}, so the timed reads may have been answered by different members${sizes} and the round trip beside them is the primary's`;
}

/** The reason where the timed reads took a read concern from the URI that makes them wait ({ code, level }), else null. */
function readConcernReason(server) {
  const level = server?.uriConcerns?.readConcernLevel;
  return WAITING_LEVELS.includes(level) ? { code: 'read-concern', level } : null;
}

/** The read-concern reason's words. */
function readConcernText(r) {
  const waits = r.level === 'linearizable'
    ? 'each waits for a majority of the members to confirm the primary before it answers'
    : 'each reads the majority-committed view, not the newest writes';
  return `every timed read took the URI's readConcernLevel=${r.level} (none names its own): ${waits}, which the articles' reads did not`;
}

module.exports = { membersMayDifferReason, membersMayDifferText, readConcernReason, readConcernText, ELSEWHERE, WAITING_LEVELS };
