'use strict';
// Whether the network, not the server, decided a step's figure. Every acknowledged operation a
// script times waits for one round trip to the server; the server record's roundTripMs is the
// median of its pings (servers/deployment.js measureRoundTrip). Where that round trip is more
// than half of the time each operation took, the figure measures the distance to the server more
// than the server: on Atlas from another region, or through any slow link. Pure: it reads records
// and says so; the verdicts attach it as the reason 'network-decided' { roundTripMs, share }.
const { fieldInfo, spanMs } = require('../results/fields');

/** More than this share of an operation's time in its round trip, and the network decided it. */
const NETWORK_DECIDES = 0.5;

/** An unacknowledged (w:0) record: its writes waited for no answer, so one round trip (the barrier after them) is all it holds. */
function unacknowledged(record) {
  return /^w:\s*0$/.test(String(record.writeConcern ?? '')) || record.unacknowledged?.outcome === 'honoured';
}

/**
 * How much of a step's time per operation one round trip is.
 * @param server the server's record ({ roundTripMs })
 * @param records the step's measurement records on that server
 * @param options timeField: the timed field the finding is decided on (hrMs, ms, seconds,
 *   appliedHrMs, ... or a mean latency such as meanUs, already per operation); opsField: the field
 *   counting the operations each record timed, each one round trip (ops, queries, batches for a
 *   bulk load, comments, ...)
 * @returns { roundTripMs, perOpMs, share (of perOpMs, at most 1), decided (share > 0.5),
 *   roundTrips, ms } or null where it cannot be said (no round trip recorded, no timed operation)
 */
function networkShare(server, records, { timeField = 'hrMs', opsField = 'ops' } = {}) {
  const roundTripMs = server?.roundTripMs;
  if (!Number.isFinite(roundTripMs) || roundTripMs < 0) return null;
  const latency = fieldInfo(timeField).clock === 'latency';
  let ms = 0;
  let roundTrips = 0;
  for (const record of records || []) {
    const value = record?.[timeField];
    if (!Number.isFinite(value)) continue;
    const ops = Number(record[opsField]);
    if (latency) {
      // a mean per operation (µs): weighted by the operations it is the mean of
      const weight = ops > 0 ? ops : 1;
      ms += (fieldInfo(timeField).unit === 'µs' ? value / 1000 : value) * weight;
      roundTrips += weight;
      continue;
    }
    const span = spanMs(timeField, value);
    if (span === null || !(ops > 0)) continue;
    // a step of several shells at once: each waited for its own round trips through the same span
    ms += span * (Number(record.workers) > 1 ? Number(record.workers) : 1);
    // w:0 writes are sent without waiting: the round trip lands once, on the barrier after them
    roundTrips += unacknowledged(record) ? 1 : ops;
  }
  if (!(roundTrips > 0)) return null;
  const perOpMs = ms / roundTrips;
  // a round trip measured apart can exceed an operation's mean by its jitter: the share stops at all of it
  const share = perOpMs > 0 ? Math.min(1, roundTripMs / perOpMs) : 1;
  return { roundTripMs, perOpMs, share, decided: share > NETWORK_DECIDES, roundTrips, ms };
}

/** The verdict's reason where the network decided it ({ code, roundTripMs, share }), else null. */
function networkReason(result) {
  if (!result?.decided) return null;
  return { code: 'network-decided', roundTripMs: result.roundTripMs, share: result.share };
}

module.exports = { networkShare, networkReason, NETWORK_DECIDES };
