'use strict';
// Whether the network, not the server, could have made a step's figure, and so a verdict's ratio.
// The server record's roundTripMs is the round trip the scripts see (servers/round-trip.js: timed
// in the kit's shell, on the scripts' own mongos), and through mongos hopMs is the hop inside the
// cluster, mongos to the shard and back. What each timed operation waits for:
//
// - an acknowledged operation (a w:1 write, a read): one round trip, and through mongos the hop too;
// - an unacknowledged (w:0) write on a mongod: nothing; the barrier after the writes, one round trip;
// - a w:0 write through mongos: the hop. mongos sends a w:0 write on to the shard as w:1
//   ("Mongos needs to send to the shard with w > 0 so it will be able to see the writeErrors":
//   upgradeWriteConcern, src/mongo/s/write_ops/batch_write_op.cpp) and finishes it before it
//   reads the next request on the connection, so each waits one hop; the barrier, one round trip.
//
// Where what the operations waited for is more than half of the time they took, the figure
// measures distance more than the server: on Atlas from another region, through a slow link, or
// across the hop inside a cluster. Pure: it reads records and says so; the verdicts take the
// reason 'network-decided' and are inconclusive where it fires (withNetwork). Where the hop was
// not measured (the lease database could not be written) it is not taken for 0 ms: unless the
// round trips alone decide, whether the network decided cannot be told, and the verdicts take
// the reason 'hop-unmeasured' and are inconclusive too.
const { fieldInfo, spanMs } = require('../results/fields');
const { throughMongos } = require('../results/records');
const { DECIDED, INCONCLUSIVE } = require('./rules');

/** More than this share of an operation's time in what it waited for on the network, and the network could have made it. */
const NETWORK_DECIDES = 0.5;

/** An unacknowledged (w:0) record: its writes waited for no answer from the server the client reached. */
function unacknowledged(record) {
  return /^w:\s*0$/.test(String(record.writeConcern ?? '')) || record.unacknowledged?.outcome === 'honoured';
}

/**
 * What a step's operations waited for on the network, against their time.
 * @param server the server's record ({ roundTripMs, hopMs, topology })
 * @param records the step's measurement records on that server
 * @param options timeField: the timed field the finding is decided on (hrMs, ms, seconds,
 *   appliedHrMs, ... or a mean latency such as meanUs, already per operation); opsField: the field
 *   counting the operations each record timed (ops, queries, batches for a bulk load, ...)
 * @returns { roundTripMs, hopMs (null where not through mongos or not measured), viaMongos,
 *   hopUnmeasured, perOpMs, waitedMs (per operation), share (at most 1), decided (share > 0.5),
 *   roundTrips, hops: [{ between, ms, count, upgraded (the w:0 writes mongos sent on as w:1) }],
 *   ms } or null where it cannot be said (no round trip recorded, no timed operation)
 */
function networkShare(server, records, { timeField = 'hrMs', opsField = 'ops' } = {}) {
  const roundTripMs = server?.roundTripMs;
  if (!Number.isFinite(roundTripMs) || roundTripMs < 0) return null;
  const viaMongos = throughMongos(server);
  const hopMs = viaMongos && Number.isFinite(server.hopMs) && server.hopMs >= 0 ? server.hopMs : null;
  const latency = fieldInfo(timeField).clock === 'latency';
  let ms = 0;
  let operations = 0;
  let roundTrips = 0;
  let hops = 0;
  let upgraded = 0;
  for (const record of records || []) {
    const value = record?.[timeField];
    if (!Number.isFinite(value)) continue;
    const ops = Number(record[opsField]);
    if (latency) {
      // a mean per operation (µs): weighted by the operations it is the mean of; a read waits for its answer
      const weight = ops > 0 ? ops : 1;
      ms += (fieldInfo(timeField).unit === 'µs' ? value / 1000 : value) * weight;
      operations += weight;
      roundTrips += weight;
      if (viaMongos) hops += weight;
      continue;
    }
    const span = spanMs(timeField, value);
    if (span === null || !(ops > 0)) continue;
    // a step of several shells at once: each waited for its own through the same span
    const shells = Number(record.workers) > 1 ? Number(record.workers) : 1;
    ms += span * shells;
    operations += ops;
    if (!unacknowledged(record)) {
      roundTrips += ops;
      if (viaMongos) hops += ops;
    } else {
      // sent without waiting: the barrier after them is one round trip; through mongos each write still waits one hop
      roundTrips += 1;
      if (viaMongos) {
        hops += ops;
        upgraded += ops;
      }
    }
  }
  if (!(operations > 0)) return null;
  // an unmeasured hop is not 0 ms: what is known (the round trips) is a floor of the share, and
  // the hop the operations also waited for may make up the rest (hopUnknown)
  const waitedMs = roundTrips * roundTripMs + hops * (hopMs ?? 0);
  const perOpMs = ms / operations;
  // a round trip measured apart can exceed an operation's mean by its jitter: the share stops at all of it
  const share = ms > 0 ? Math.min(1, waitedMs / ms) : 1;
  const hopUnknown = viaMongos && hopMs === null && hops > 0;
  const hopList = [{ between: viaMongos ? 'the client and mongos' : 'the client and the server', ms: roundTripMs, count: roundTrips }];
  if (viaMongos) hopList.push({ between: 'mongos and the shards', ms: hopMs, count: hops, upgraded });
  return {
    roundTripMs, hopMs, viaMongos, hopUnmeasured: viaMongos && hopMs === null, perOpMs, waitedMs: waitedMs / operations,
    share, decided: share > NETWORK_DECIDES, undecidable: hopUnknown && !(share > NETWORK_DECIDES), roundTrips, hops: hopList, ms,
    ...(hopUnknown && server.roundTripNote ? { hopWhy: server.roundTripNote } : {}),
    // a mongodb+srv URI: the round trip's mongos need not be the timed connections' (run/round-trip.js)
    ...(viaMongos && server.roundTripMongos?.same === false ? { mongosMayDiffer: server.roundTripMongos.why } : {}),
  };
}

/**
 * The verdict's reason where the network could have made it ({ code, roundTripMs, share, hops,
 * side }); where it cannot be told because the operations waited for a hop inside the cluster
 * that was not measured, { code: 'hop-unmeasured', roundTripMs, share (the round trips' alone, a
 * floor), hops, why (the server record's roundTripNote, where it says why) }; else null.
 */
function networkReason(result, side = null) {
  if (result?.undecidable) {
    return {
      code: 'hop-unmeasured', roundTripMs: result.roundTripMs, share: result.share, hops: result.hops,
      ...(result.hopWhy ? { why: result.hopWhy } : {}), ...(side ? { side } : {}),
      ...(result.mongosMayDiffer ? { mongosMayDiffer: result.mongosMayDiffer } : {}),
    };
  }
  if (!result?.decided) return null;
  return {
    code: 'network-decided', roundTripMs: result.roundTripMs, share: result.share,
    ...(result.viaMongos ? { hopMs: result.hopMs, hops: result.hops } : {}), ...(side ? { side } : {}),
    ...(result.mongosMayDiffer ? { mongosMayDiffer: result.mongosMayDiffer } : {}),
  };
}

/**
 * The network's reason for a check on one server: each of its own sides (a baseline's records are
 * not this server's) is weighed apart, on the deciding clock, and the side where the network
 * weighs most speaks for the verdict; a ratio of two sides the network made half of is the
 * network's. Null where no side's share is over half, or where nothing can be said.
 * @param sides [{ label, records }] the records of each side the verdict rests on
 */
function networkOfSides(server, sides, { timeField, opsField = 'ops' }) {
  let worst = null;
  // a side the network decided speaks first; then one an unmeasured hop leaves open; then the largest share
  const weight = (r) => (r.decided ? 2 : r.undecidable ? 1 : 0);
  for (const { label, records } of sides) {
    const result = networkShare(server, records, { timeField, opsField });
    if (result && (!worst || weight(result) > weight(worst.result) || (weight(result) === weight(worst.result) && result.share > worst.result.share))) worst = { label, result };
  }
  return worst ? networkReason(worst.result, worst.label || null) : null;
}

/**
 * A decision with the network's reason: a verdict that would hold or not hold is inconclusive,
 * the network named first; one already inconclusive keeps its status and says the network too.
 */
function withNetwork(decided, reason) {
  if (!reason) return decided;
  if (DECIDED.includes(decided.status)) return { status: INCONCLUSIVE, reasons: [reason, ...decided.reasons] };
  return { ...decided, reasons: [...decided.reasons, reason] };
}

const msText = (ms) => `${Number(ms).toLocaleString('en-US', { maximumFractionDigits: 2 })} ms`;

/** The network reason's words: what each operation waited for, and its share of the time. */
function networkText(r) {
  const share = `${Math.round(r.share * 100)}% of the time per operation${r.side ? ` (${r.side})` : ''}`;
  if (!r.hops) return `the network, not the server, could have made it: the round trip (${msText(r.roundTripMs)}) is ${share}`;
  const inside = r.hops.find((h) => h.between === 'mongos and the shards');
  const hop = inside?.ms === null || inside?.ms === undefined ? 'the hop from mongos to the shards (not measured)' : `the hop from mongos to the shards (${msText(inside.ms)})`;
  const upgraded = inside?.upgraded ? `, which each w:0 write waits for too (w:1 from mongos to the shards),` : '';
  return `the network, not the server, could have made it: the round trip to mongos (${msText(r.roundTripMs)}) and ${hop}${upgraded} are ${share}${mongosText(r)}`;
}

/** Where the round trip's mongos need not be the timed connections' (a mongodb+srv URI): said after the figures. */
const mongosText = (r) => (r.mongosMayDiffer ? `; the round trip was timed through one mongos, and ${r.mongosMayDiffer.replace(/^a mongodb\+srv URI: /, 'with a mongodb+srv URI ')}` : '');

/** The hop-unmeasured reason's words: what is known, and why the rest is not. */
function hopUnmeasuredText(r) {
  const count = r.hops?.find((h) => h.between === 'mongos and the shards')?.count;
  const share = `${Math.round(r.share * 100)}% of the time per operation${r.side ? ` (${r.side})` : ''}`;
  return `whether the network made it cannot be told: every operation through mongos waited for the hop from mongos to the shards${Number.isFinite(count) ? ` (${count.toLocaleString('en-US')} times)` : ''}, which was not measured${r.why ? ` (${r.why})` : ''}; the round trip to mongos alone (${msText(r.roundTripMs)}) is ${share}, and the hop could be the rest${mongosText(r)}`;
}

module.exports = {
  hopUnmeasuredText, networkShare, networkReason, networkOfSides, withNetwork, networkText, NETWORK_DECIDES,
};
