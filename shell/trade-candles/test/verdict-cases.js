'use strict';
// Crafted measurements for each finding of trade-candles, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js runs every
// scenario's cases through the same path a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, UNTESTABLE } = require('../../../orchestrator/report/verdicts');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

const loads = (byEngine) => Object.entries(byEngine).flatMap(([engine, v]) => [
  { server: engine, step: 'load', collection: 'candles', blockCompressor: engine, ms: v.ms ?? 100, storagePlusIndexBytes: v.bytes ?? 100 },
  { server: engine, step: 'read', run: 'own-memory', query: 'byTicker', meanUs: v.us ?? 100 },
]);
const lowMemory = (ratio, outcome = 'applied', dataPerCache = 1.5) => [
  { step: 'read', run: 'own-memory', query: 'timeRange', meanUs: 1000, lowMemory: null },
  { step: 'read', run: 'little-memory', query: 'timeRange', meanUs: 1000 * ratio, lowMemory: { outcome, reason: 'why', dataPerCache } },
];

/** finding → outcome → { records, server? (the verdict's, default the records' own), measured? (a pattern its text must match) } */
const cases = {
  'zstd-smaller': {
    [HOLDS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 60 }, snappy: { bytes: 75 } }), measured: /0\.60×.*snappy \(today's default\) \(snappy\): 0\.75×/ },
    [FAILS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 98 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 92 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ snappy: {}, zstd: { bytes: 60 } }), measured: /mongod:none --server mongod:zstd/ },
  },
  'zstd-writes-faster': {
    [HOLDS]: { server: 'all servers', records: loads({ none: { ms: 1000 }, zstd: { ms: 700 } }) },
    [FAILS]: { server: 'all servers', records: loads({ none: { ms: 1000 }, zstd: { ms: 1200 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { ms: 1000 }, zstd: { ms: 930 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ zstd: { ms: 70 } }) },
  },
  'zstd-reads-slower': {
    [HOLDS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 150 } }) },
    [FAILS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 101 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 107 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ none: { us: 100 } }) },
  },
  'little-memory-slower': {
    [HOLDS]: { records: lowMemory(2) },
    [FAILS]: { records: lowMemory(1.05) },
    [INCONCLUSIVE]: { records: lowMemory(1.3) },
    [UNTESTABLE]: { records: lowMemory(2, 'not applied'), measured: /cannot cut this server's cache \(lowMemory.outcome: not applied\); measured instead: 2\.00×/ },
  },
};

/** Findings the size leaves untested where the feature is there: [finding, records, pattern]. */
const tooSmall = [
  ['little-memory-slower', lowMemory(2, 'applied', 0.01), /too small: the data and indexes fit in the smallest cache/],
];

module.exports = { cases, tooSmall, loads };
