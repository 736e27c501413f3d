'use strict';
// Crafted measurements for each finding of trade-candles, one set per outcome it can come to (holds,
// does not hold, inconclusive, cannot be tested here): test/unit/verdicts.test.js cuts each into
// paired rounds (test/helpers/blocks.js) and runs them through the analysis a report takes.
const fs = require('node:fs');
const path = require('node:path');
const { HOLDS, FAILS, INCONCLUSIVE, NEEDS_SIZE, UNTESTABLE } = require('../../../orchestrator/analysis/rules');

const publishedData = () => JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'published.json'), 'utf8'));

// one server per block compressor: its load (acknowledged in `ack` ms, durable in `ms` ms: the
// checkpoint inside the clock), its reads with its own memory (all cached, alike for every
// compressor, whatever `us` says) and with little memory (`us`, missing the cache `pages` times a query)
const loads = (byEngine) => Object.entries(byEngine).flatMap(([engine, v]) => [
  // times ten times the figures given, so each of the eight blocks spans more than a step's minimum
  { server: engine, step: 'load', collection: 'candles', blockCompressor: engine, ms: (v.ack ?? 500) * 10, durableMs: (v.ms ?? 1000) * 10, storagePlusIndexBytes: v.bytes ?? 100 },
  { server: engine, step: 'read', run: 'own-memory', query: 'byTicker', meanUs: 100, cachePagesPerQuery: 0 },
  { server: engine, step: 'read', run: 'little-memory', query: 'byTicker', meanUs: v.us ?? 100, cachePagesPerQuery: v.pages ?? 12.5 },
]);
// one server's reads with its own memory and with the cache cut: the reads by ticker `ratio` times
// slower with little memory, missing the cache `pages` times a query (the article's 200 tickers
// touch nearly every page); the time-range reads, whose 10 intervals stay in even the cut cache,
// alike in both runs and missing it no more
const lowMemory = (ratio, outcome = 'applied', dataPerCache = 1.5, reason = 'why', pages = 180) => [
  { step: 'read', run: 'own-memory', query: 'byTicker', meanUs: 1000, cachePagesPerQuery: 0, lowMemory: null },
  { step: 'read', run: 'own-memory', query: 'timeRange', meanUs: 50000, cachePagesPerQuery: 0, lowMemory: null },
  { step: 'read', run: 'little-memory', query: 'byTicker', meanUs: 1000 * ratio, cachePagesPerQuery: pages, lowMemory: { outcome, reason, dataPerCache } },
  { step: 'read', run: 'little-memory', query: 'timeRange', meanUs: 50000, cachePagesPerQuery: 0, lowMemory: { outcome, reason, dataPerCache } },
];
// why read.js's lowerCacheTo did not cut the cache of a mongod whose default cache already is 256 MB (a 1.5 GB machine)
const ALREADY_SMALL = 'the cache was already this small (268435456 bytes configured, 268435456 asked for), so the little-memory reads ran with the same cache as the own-memory ones';

/** finding → outcome → { records, server?, sizes?, expect? ({ ratio ±2%, clock, also, reasons: codes }) } */
const cases = {
  'zstd-smaller': {
    [HOLDS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 60 }, snappy: { bytes: 75 } }), expect: { ratio: 0.6, also: [0.75] } },
    [FAILS]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 98 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { bytes: 100 }, zstd: { bytes: 92 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ snappy: {}, zstd: { bytes: 60 } }), expect: { reasons: ['needs-other-engine'] } },
  },
  'zstd-writes-faster': {
    // decided on the time to durability (durableMs), not on the acknowledged inserts (both 500 ms here)
    [HOLDS]: { server: 'all servers', records: loads({ none: { ms: 1000 }, zstd: { ms: 700 } }), expect: { ratio: 0.7, clock: 'durable' } },
    [FAILS]: { server: 'all servers', records: loads({ none: { ms: 1000, ack: 600 }, zstd: { ms: 1200, ack: 300 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { ms: 1000 }, zstd: { ms: 930 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ zstd: { ms: 70 } }) },
  },
  'zstd-reads-slower': {
    // decided on the little-memory reads (the own-memory ones are alike on both: all cached)
    [HOLDS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 150 } }), expect: { ratio: 1.5, clock: 'latency' } },
    [FAILS]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 101 } }) },
    [INCONCLUSIVE]: { server: 'all servers', records: loads({ none: { us: 100 }, zstd: { us: 107 } }) },
    [UNTESTABLE]: { server: 'all servers', records: loads({ none: { us: 100 } }) },
  },
  'little-memory-slower': {
    // decided on the reads by ticker, which missed the cache: the time-range reads, alike in both runs, are not used
    [HOLDS]: { records: lowMemory(2), expect: { ratio: 2 } },
    [FAILS]: { records: lowMemory(1.05) },
    [INCONCLUSIVE]: { records: lowMemory(1.3) },
    // two identical runs are never compared: the cut that changed nothing is said, with why
    [UNTESTABLE]: { records: lowMemory(1.01, 'not applied', 1.5, ALREADY_SMALL), expect: { reasons: ['requirement-unmet'], ratio: 1.01 } },
  },
};

/** Findings the size leaves untested where the feature is there: [finding, records, reason codes, { server (default the records'), sizes (default the article's), status (default cannot be tested here) }]. */
const tooSmall = [
  // the data fits in the cut cache: a larger size lifts it
  ['little-memory-slower', lowMemory(2, 'applied', 0.01), ['requirement-unmet'], { status: NEEDS_SIZE }],
  // the cache was cut and the data outgrew it, yet the reads by ticker hardly missed it (a small
  // sample of tickers, whose pages stay cached): a slowdown there would not be the cache's
  ['little-memory-slower', lowMemory(2, 'applied', 1.5, 'why', 0.2), ['requirement-unmet']],
  // the quick size on mongod: the data fits in even the cut cache, so no read misses it, and
  // zstd's reads cannot be slower for its compression (a difference would be noise)
  ['zstd-reads-slower', loads({ none: { us: 100, pages: 0 }, zstd: { us: 130, pages: 0 } }), ['requirement-unmet'], { server: 'all servers' }],
  // zstd's reads missed the cache, the uncompressed server's did not: nothing to compare
  ['zstd-reads-slower', loads({ none: { us: 100, pages: 0.4 }, zstd: { us: 130, pages: 12.5 } }), ['requirement-unmet'], { server: 'all servers' }],
];

/** The count fields a block holds its share of. */
const counts = ['candles', 'queries'];

module.exports = { cases, tooSmall, counts, loads, lowMemory };
