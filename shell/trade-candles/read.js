// mongo-classics · trade-candles · read.js
// Article:  "Тестирование быстрой MongoDB – TokuMX в условиях, близких к реальности", umputun,
//           5 April 2014, https://p.umputun.com/2014/04/05/tokumx-testing/ (also
//           http://habrahabr.ru/post/217617). MongoDB 2.4/2.6 "out of the box" (MMAPv1, which
//           compressed nothing) against TokuMX, two 2-CPU VMs with 1 GB RAM.
// Measures: the article's read test on the day of candles load.js wrote, three query types in
//           the article's order, each query timed on its own from the find to the last candle
//           received: mean, p50, p95 and p99 latency in microseconds per type.
//             1 by ticker:  find({ ticker }).sort({ time: 1 }), a ticker's day (MINUTES candles)
//             2 time range: find({ time: { $gte, $lt } }), every ticker's candles in an interval
//             3 whole day:  find({ date }), all candles of the day
//           Then the article's little-memory rerun: the same queries again with the server's
//           cache cut to CACHE_MB, where the script may and can do that (see Changes); the
//           reads by ticker of both runs in paired rounds (below). Beside each query type, the
//           pages WiredTiger read into its cache for it (collStats wiredTiger.cache "pages read
//           into cache" of the candles' table): the reads that missed the cache, the only ones
//           that read a block from the file and decompress it.
// Writes:   none: this script only reads (load.js wrote, acknowledged).
// Faithful: 10,000 queries by ticker drawn from a random sample of 200 tickers; 10 random time
//           intervals, each queried many times; then the whole day; microseconds averaged per
//           query type; "the same queries in the same order" on every server: the query plan
//           comes from a generator with a fixed seed (PLAN_SEED), independent of SEED and of
//           Math.random, so it holds even without --seed (SEED draws only the rounds' order).
//           The rerun with little memory.
// Changes:  - The article does not say how long its intervals were, how often each was repeated,
//             how often the whole day was read, or whether its time-range queries were for one
//             ticker; here an interval is 1..INTERVAL_MAX_MINUTES minutes (30) across all
//             tickers, each of INTERVALS intervals runs INTERVAL_REPEATS times, round-robin, and
//             the whole day is read DAY_QUERIES times.
//           - Every query's returned count is checked against the count the generator implies
//             (MINUTES per ticker, TICKERS per minute of an interval, TICKERS x MINUTES for the
//             day): the article saw TokuMX silently cut answers short, and a check by count is
//             what catches that. The check is outside the timed region and printed per type.
//           - Percentiles beside the article's mean, from an HdrHistogram (hdr-histogram-js)
//             where the shell can load it, as the kit runs it; pasted into a bare mongosh, from
//             the sorted samples (percentilesFrom says which). new Date() sums (ms) beside
//             performance.now() (hrMs, and the microsecond figures).
//           - Little memory: the article shrank its VMs' RAM. A script cannot; it can shrink the
//             WiredTiger cache at run time (setParameter wiredTigerEngineRuntimeConfig
//             cache_size) and restore the previous size after, and does so only when
//             SERVER_OWNED_BY_KIT is true (a server the kit started and will throw away). On a
//             user's server (a paste leaves SERVER_OWNED_BY_KIT false), or a server with no
//             WiredTiger cache (FerretDB), the rerun still runs, labelled as not low-memory,
//             and the JSON says why. Even with the cache cut, the operating system's page
//             cache still holds the data files on a machine with RAM to spare, so a cache miss
//             costs a copy and a decompression, not the disk read the article's 1 GB VMs paid.
//             The cut never goes below 256 MB, mongod's own floor for its cache
//             (wiredTigerCacheSizeGB 0.25): smaller caches can wedge eviction. Where the cache
//             already is no larger (mongod's default is the larger of half of RAM less 1 GB and
//             256 MB, so 256 MB on a 1.5 GB machine or container), the cut is "not applied: the
//             cache was already this small" and both runs read with the same cache. The JSON line
//             says how the data and indexes (collStats size + totalIndexSize) compare with the
//             cache (dataPerCache); where they do not outgrow it, little memory is not little.
//           - What the two runs are: MongoDB keeps a collection's data uncompressed in the
//             WiredTiger cache and decompresses a block only when a read misses the cache and
//             fetches it from the file. The own-memory run comes right after load.js, with every
//             page it wrote still in the cache: its reads decompress nothing, whatever the
//             compressor (its pages read into the cache are ~0, and say so). The little-memory
//             run, where the data outgrows the cut cache, is the one whose reads miss it: the
//             kit's zstd question about reads is decided there, never on the own-memory run.
//           - Paired rounds (the paired rounds block): the article's two runs were one reading
//             each. The reads by ticker, the findings' reads, are cut into ROUNDS rounds, each
//             an own-memory and a little-memory block of the same queries (the round's share of
//             the plan's, roundShares), in the order roundOrders draws from SEED. Before an
//             own-memory block the cache gets its size back and each of its tickers is read once,
//             untimed, so it reads from the cache as the article's first run did; before a
//             little-memory block the cache is cut (where it may be) and, untimed, shrinks under
//             WiredTiger's eviction trigger (95% of the cut, above which reads evict for
//             themselves). A cut cache starts a block with what the block before left in it: the
//             mirrored rounds put each run first equally often. Each block prints its own line
//             (round, rounds, position, latencies, pages read into the cache per query); each
//             run's line gives all its blocks' samples and sums. The time-range and whole-day
//             reads compare nothing within a server: each run's, in turn, before the first block.
//           - Warm-up (WARMUP, true unless set false): before round 1, a warm-up round (round 0, in
//             round 1's order, both servers' blocks where paired) reads round 1's queries once in
//             each run, each block set up, timed and printed like the others with warmup true and
//             counted in no run's line: round 1 no longer pays alone for the connection's first
//             cursors, the shell's first decoding and the server's first plans. Reads change no
//             state.
//           - Paired with another server (PARTNER, SERVER_NAME: the paired servers block, as the
//             kit does for its zstd questions), both servers' blocks take turns in one drawn
//             order while both run; the other reads run in this server's first turn.
//           - Cursors are counted with itcount(): every candle fetched and decoded, none held.
//           - Runs in its own database (DB_NAME, prefix classics_); a JSON line per block, query
//             type and run.
// Sizes:    TICKERS and MINUTES as load.js wrote them; TICKER_QUERIES over a TICKER_SAMPLE of
//           tickers (article: 10,000 over 200); INTERVALS (10) x INTERVAL_REPEATS; DAY_QUERIES;
//           CACHE_MB, the cache for the little-memory rerun (256, a quarter of the article's
//           1 GB VMs, below the ~380 MB of candles; raised to 256 if set lower; 0 skips the rerun);
//           ROUNDS (8) paired rounds; WARMUP (true: a warm-up round first); PARTNER and SERVER_NAME
//           (null: pasted alone, nothing waits).

if (typeof TICKERS === 'undefined') var TICKERS = 3600;
if (typeof MINUTES === 'undefined') var MINUTES = 390;
if (typeof TICKER_QUERIES === 'undefined') var TICKER_QUERIES = 10000;
if (typeof TICKER_SAMPLE === 'undefined') var TICKER_SAMPLE = 200;
if (typeof INTERVALS === 'undefined') var INTERVALS = 10;
if (typeof INTERVAL_REPEATS === 'undefined') var INTERVAL_REPEATS = 10;
if (typeof INTERVAL_MAX_MINUTES === 'undefined') var INTERVAL_MAX_MINUTES = 30;
if (typeof DAY_QUERIES === 'undefined') var DAY_QUERIES = 5;
if (typeof CACHE_MB === 'undefined') var CACHE_MB = 256;
if (typeof SERVER_OWNED_BY_KIT === 'undefined') var SERVER_OWNED_BY_KIT = false;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_trade_candles';
if (typeof PASS === 'undefined') var PASS = null;
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;
if (typeof SERVER_NAME === 'undefined') var SERVER_NAME = null;

db = db.getSiblingDB(DB_NAME);
// two servers' blocks take turns in one order drawn from one seed
if (PARTNER && SEED === null) throw new Error('PARTNER ' + PARTNER + ' is set without a SEED: the paired servers must draw one order');

// mongod's own floor for its cache (wiredTigerCacheSizeGB 0.25); a smaller one can wedge eviction
var CACHE_FLOOR_MB = 256;
var cacheMb = CACHE_MB > 0 ? Math.max(CACHE_MB, CACHE_FLOOR_MB) : 0;

var DAY = '2014-03-28';
var SESSION_OPEN = new Date('2014-03-28T13:30:00Z').getTime();
var PLAN_SEED = 20140330; // the date on the article's charts; never SEED, so every server gets the same plan

// <<< block: mulberry32 (stamped by npm run stamp from shell/_blocks/mulberry32.js; edit there)
// mulberry32: a small, fast generator, good enough to make a run repeatable from a seed.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
// >>> block: mulberry32

// <<< block: candle-tickers (stamped by npm run stamp from shell/_blocks/candle-tickers.js; edit there)
// Tickers: in trade-candles' load.js and read.js, so both name the same symbols.
// The same symbols on every run and server, whatever SEED is: the read test queries them by name.
function tickerSymbols(count) {
  var next = mulberry32(20140328);
  var letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  var seen = {};
  var symbols = [];
  while (symbols.length < count) {
    var u = next();
    // roughly the mix of US listings: few 1-2 letter symbols, most of 3 (NYSE) or 4 (NASDAQ)
    var length = u < 0.01 ? 1 : u < 0.07 ? 2 : u < 0.40 ? 3 : u < 0.95 ? 4 : 5;
    var symbol = '';
    for (var k = 0; k < length; k++) symbol += letters[Math.floor(next() * 26)];
    if (seen[symbol]) continue;
    seen[symbol] = true;
    symbols.push(symbol);
  }
  return symbols;
}
// >>> block: candle-tickers

// --- query plan: pure, so a unit test can check its shape ---
/** The queries of one pass, in order: [{ query, ticker? , from?, minutes?, expected }]. */
function queryPlan(p) {
  var next = mulberry32(PLAN_SEED);
  var symbols = tickerSymbols(p.tickers);
  // a random sample of distinct tickers (partial Fisher-Yates)
  var pool = symbols.slice();
  var sampleSize = Math.min(p.tickerSample, pool.length);
  for (var s = 0; s < sampleSize; s++) {
    var j = s + Math.floor(next() * (pool.length - s));
    var swap = pool[s]; pool[s] = pool[j]; pool[j] = swap;
  }
  var sample = pool.slice(0, sampleSize);
  var plan = [];
  for (var q = 0; q < p.tickerQueries; q++) {
    plan.push({ query: 'byTicker', ticker: sample[Math.floor(next() * sample.length)], expected: p.minutes });
  }
  var intervals = [];
  for (var i = 0; i < p.intervals; i++) {
    var minutes = Math.min(p.minutes, 1 + Math.floor(next() * p.intervalMaxMinutes));
    var from = Math.floor(next() * (p.minutes - minutes + 1));
    intervals.push({ query: 'timeRange', from: from, minutes: minutes, expected: minutes * p.tickers });
  }
  for (var r = 0; r < p.intervalRepeats; r++) plan.push.apply(plan, intervals);
  for (var d = 0; d < p.dayQueries; d++) plan.push({ query: 'day', expected: p.tickers * p.minutes });
  return plan;
}

/** Mean and nearest-rank percentiles of latencies in microseconds. */
function latencySummary(samples) {
  var sorted = samples.slice().sort(function (a, b) { return a - b; });
  var rank = function (p) { return sorted[Math.max(0, Math.ceil(p / 100 * sorted.length) - 1)]; };
  var sum = sorted.reduce(function (n, v) { return n + v; }, 0);
  var r1 = function (v) { return Math.round(v * 10) / 10; };
  return {
    queries: sorted.length,
    meanUs: r1(sum / sorted.length),
    p50Us: r1(rank(50)), p95Us: r1(rank(95)), p99Us: r1(rank(99)),
    minUs: r1(sorted[0]), maxUs: r1(sorted[sorted.length - 1])
  };
}
// --- end query plan ---

/**
 * Percentiles from an HdrHistogram (hdr-histogram-js, 3 significant digits) where the shell can
 * load it (the kit runs mongosh from its own folder, whose node_modules has it); pasted into a
 * bare mongosh, the nearest-rank percentiles of the sorted samples. The output says which.
 */
function histogramSummary(samples) {
  var hdr = null;
  try { hdr = require('hdr-histogram-js'); } catch (e) { /* pasted: no npm packages to load */ }
  if (!hdr) return Object.assign(latencySummary(samples), { percentilesFrom: 'sorted samples (nearest rank)' });
  var h = hdr.build({ numberOfSignificantValueDigits: 3 });
  samples.forEach(function (us) { h.recordValue(Math.max(1, Math.round(us))); });
  var r1 = function (v) { return Math.round(v * 10) / 10; };
  var min = Math.min.apply(null, samples);
  var max = Math.max.apply(null, samples);
  // a histogram reports a bucket's highest value, which can pass the true maximum by up to 0.1%
  // (3 significant digits): percentiles are kept within the samples' own range
  var at = function (p) { return r1(Math.min(max, Math.max(min, h.getValueAtPercentile(p)))); };
  var summary = {
    queries: samples.length,
    meanUs: r1(samples.reduce(function (n, v) { return n + v; }, 0) / samples.length),
    p50Us: at(50), p95Us: at(95), p99Us: at(99),
    minUs: r1(min), maxUs: r1(max),
    percentilesFrom: 'hdr-histogram-js'
  };
  if (typeof h.destroy === 'function') h.destroy();
  return summary;
}

function filterOf(q) {
  if (q.query === 'byTicker') return { ticker: q.ticker };
  if (q.query === 'timeRange') {
    return { time: { $gte: new Date(SESSION_OPEN + q.from * 60000), $lt: new Date(SESSION_OPEN + (q.from + q.minutes) * 60000) } };
  }
  return { date: DAY };
}

function cursorOf(q) {
  var cursor = db.candles.find(filterOf(q));
  return q.query === 'byTicker' ? cursor.sort({ time: 1 }) : cursor;
}

// --- little memory ---
/**
 * The connection's read preference (the URI's: the run's), for the commands that read a figure
 * beside the timed reads: a command goes to the primary unless it names one, where the timed
 * finds go where the connection's read preference sends them, so the cache counters name it too
 * and come from the same kind of member as the reads they count.
 */
function readOptions() {
  var mongo = db.getMongo();
  return typeof mongo.getReadPref === 'function' ? { readPreference: mongo.getReadPref() } : {};
}

function productOf() {
  try {
    var build = db.adminCommand({ buildInfo: 1 });
    if (build.ferretdbVersion || build.ferretdb) return 'FerretDB ' + (build.ferretdbVersion || build.ferretdb.version);
    return 'MongoDB ' + build.version;
  } catch (e) { return 'unknown server'; }
}

/** serverStatus' wiredTiger.cache, or null where there is none (FerretDB). */
function wiredTigerCache() {
  try {
    var wt = db.getSiblingDB('admin').runCommand({ serverStatus: 1 }, readOptions()).wiredTiger;
    return wt && wt.cache ? wt.cache : null;
  } catch (e) { return null; }
}

function configuredCacheBytes() {
  var cache = wiredTigerCache();
  return cache ? Number(cache['maximum bytes configured']) : null;
}

/**
 * The pages and bytes WiredTiger has read into its cache from the candles' table file since
 * mongod started (collStats wiredTiger.cache), or null where there is no WiredTiger (FerretDB).
 * The table holds the collection's documents, the blocks the block compressor compresses
 * (indexes have prefix compression of their own, not the block compressor).
 */
function cacheReads() {
  try {
    var stats = db.runCommand({ collStats: 'candles' }, readOptions());
    var cache = stats.ok && stats.wiredTiger && stats.wiredTiger.cache;
    if (cache && cache['pages read into cache'] !== undefined) {
      return { pages: Number(cache['pages read into cache']), bytes: Number(cache['bytes read into cache']) };
    }
  } catch (e) { /* collStats refused */ }
  return null;
}

/** The candles' data and indexes in bytes (collStats), to set beside the cache. */
function dataBytes() {
  try {
    var stats = db.runCommand({ collStats: 'candles' }, readOptions());
    if (stats.ok) return Number(stats.size) + Number(stats.totalIndexSize);
  } catch (e) { /* collStats refused */ }
  return null;
}

// --- cache cut: pure, so a unit test can check the decision ---
/**
 * Whether cutting the cache to mb would change it: { cut, reason }. mongod's default cache is
 * the larger of 50% of (RAM - 1 GB) and 256 MB, so on a machine or container of 1.5 GB or less it
 * already is the 256 MB the cut asks for: setting it again changes nothing, and both runs would
 * read with the same cache.
 */
function cacheCutDecision(previousBytes, mb) {
  var targetBytes = mb * 1024 * 1024;
  if (previousBytes <= targetBytes) {
    return {
      cut: false,
      reason: 'the cache was already this small (' + previousBytes + ' bytes configured, ' + targetBytes + ' asked for), so the little-memory reads ran with the same cache as the own-memory ones'
    };
  }
  return { cut: true, reason: null };
}
// --- end cache cut ---

/**
 * Whether the little-memory reads may and can have the WiredTiger cache cut to mb here, decided
 * once before any read, without cutting it: { outcome ('applied' where it may, until a cut the
 * server refuses says otherwise, else 'not applied'), reason, previousBytes }.
 */
function lowMemoryPlan(mb) {
  var product = productOf();
  if (!SERVER_OWNED_BY_KIT) {
    return { outcome: 'not applied', reason: 'the kit did not start this server (' + product + '): its cache size is its owner\'s setting, so the reads ran with the memory it has' };
  }
  var previousBytes = configuredCacheBytes();
  if (!previousBytes) {
    return { outcome: 'not applied', reason: product + ' has no WiredTiger cache to resize (serverStatus has no wiredTiger.cache), so the reads ran with the memory it has' };
  }
  var decision = cacheCutDecision(previousBytes, mb);
  if (!decision.cut) return { outcome: 'not applied', reason: decision.reason, previousBytes: previousBytes };
  return {
    outcome: 'applied',
    reason: 'WiredTiger cache cut from ' + previousBytes + ' to ' + mb * 1024 * 1024 + ' bytes before each little-memory block, and restored before each own-memory one; the OS page cache still holds the data files, so a miss is a copy and a decompression, not the disk read of the article\'s 1 GB VMs',
    previousBytes: previousBytes, product: product
  };
}

/**
 * The data and indexes against the cache asked for, cut or not (dataBytes, dataPerCache), read
 * as the little-memory run first starts, once the own-memory reads have run: where the data do
 * not outgrow the cache, little memory is not little.
 */
function measureData(lowMemory, mb) {
  var bytes = dataBytes();
  var cacheBytes = mb * 1024 * 1024;
  lowMemory.dataBytes = bytes;
  lowMemory.dataPerCache = bytes !== null ? Math.round(bytes / cacheBytes * 1000) / 1000 : null;
  if (lowMemory.outcome === 'applied' && lowMemory.dataPerCache !== null && lowMemory.dataPerCache < 1) {
    lowMemory.reason += '; the data and indexes (' + bytes + ' bytes) fit in it ' + (Math.round(cacheBytes / bytes * 10) / 10) + ' times over, so the reads ran from the cache all the same';
  }
}

/** The share of the cache above which WiredTiger's reads evict for themselves (eviction_trigger, 95 by default: dist/api_data.py). */
var EVICTION_TRIGGER = 0.95;
/** The longest the script waits for the cache to shrink to its cut size before a block's clock starts. */
var SHRINK_WAIT_MS = 30000;

/**
 * Cuts the cache to mb (lowMemory says it may), then waits, untimed, until WiredTiger's eviction
 * has brought what the cache holds under its trigger, so the block's reads do not pay for the
 * shrink itself: { shrinkMs, shrunk }. A cut the server refuses makes lowMemory 'not applied'.
 */
function cutCache(lowMemory, mb) {
  var res;
  try {
    res = db.adminCommand({ setParameter: 1, wiredTigerEngineRuntimeConfig: 'cache_size=' + mb + 'M' });
  } catch (e) {
    res = { ok: 0, errmsg: e.message };
  }
  var nowBytes = configuredCacheBytes();
  if (!res.ok || nowBytes !== mb * 1024 * 1024) {
    lowMemory.outcome = 'not applied';
    lowMemory.reason = lowMemory.product + ' refused cache_size=' + mb + 'M (' + (res.errmsg || 'cache is ' + nowBytes + ' bytes') + '), so the reads ran with the memory it has';
    return null;
  }
  lowMemory.cacheBytes = nowBytes;
  var started = Date.now();
  var cache = wiredTigerCache();
  while (cache && Number(cache['bytes currently in the cache']) > nowBytes * EVICTION_TRIGGER && Date.now() - started < SHRINK_WAIT_MS) {
    sleep(20);
    cache = wiredTigerCache();
  }
  return { shrinkMs: Date.now() - started, shrunk: Boolean(cache) && Number(cache['bytes currently in the cache']) <= nowBytes * EVICTION_TRIGGER };
}

/** Gives the cache back its own size. */
function restoreCache(lowMemory) {
  db.adminCommand({ setParameter: 1, wiredTigerEngineRuntimeConfig: 'cache_size=' + lowMemory.previousBytes });
  lowMemory.restored = configuredCacheBytes() === lowMemory.previousBytes;
  if (!lowMemory.restored) print('WARNING: the cache could not be restored to ' + lowMemory.previousBytes + ' bytes');
}
// --- end little memory ---

// <<< block: paired-rounds (stamped by npm run stamp from shell/_blocks/paired-rounds.js; edit there)
// Paired rounds: in every script that cuts an article's loop into paired blocks.
// One reading per side decides nothing on a machine that drifts (another process, a cache
// warming, a checkpoint): each comparison is timed in ROUNDS rounds, each holding one block of
// every variant compared, an equal share of the article's loop, in an order drawn per round
// (Abedi and Brecht's randomized multiple interleaved trials, ICPE 2017). Rounds come in mirrored
// twos, a drawn order and then the same order backwards, so each variant runs first and last
// equally often and the order cancels out of the paired ratios. SEED fixes the draw; without it
// each run draws its own. With PARTNER set (the orchestrator's conductor sets it: the SQL
// baseline, or the same script on another server), a round also holds the partner's block: the
// script prints a turn line where the partner's block falls and waits until the conductor has
// marked it done in this database's `turns` collection. Pasted alone, PARTNER is null and no
// round waits.

/** Numbers in [0, 1): mulberry32 from an integer seed, or Math.random without one. */
function roundsRandom(seed) {
  if (seed === null || seed === undefined) return Math.random;
  var a = seed | 0;
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The order of the variants in each of `rounds` rounds, round 1 first: [[variant, ...], ...].
 * An odd round (1, 3, ...) is a shuffle drawn from the seed; the round after it runs the same
 * order backwards; an odd count's last round is a draw of its own.
 */
function roundOrders(variants, rounds, seed) {
  var random = roundsRandom(seed === null || seed === undefined ? null : seed + 7919);
  var orders = [];
  for (var r = 0; r < rounds; r++) {
    if (r % 2 === 1) { orders.push(orders[r - 1].slice().reverse()); continue; }
    var order = variants.slice();
    for (var i = order.length - 1; i > 0; i--) {
      var j = Math.floor(random() * (i + 1));
      var swap = order[i]; order[i] = order[j]; order[j] = swap;
    }
    orders.push(order);
  }
  return orders;
}

/**
 * The rounds a script runs, in order: [{ round, order, warmup }]. With warmup, a warm-up round
 * comes first, round 0 in round 1's order: a block of every variant, run and timed like the
 * others and printed with warmup true, counted in no sum (criterion.rs and JMH run warm-up
 * iterations they do not count), so that round 1 does not pay alone for what warms up (a
 * connection's first calls, the server's caches, a collection's first pages). Each script says
 * what its warm-up blocks write and how it keeps them out of the rounds' state.
 */
function roundsToRun(orders, warmup) {
  var list = warmup ? [{ round: 0, order: orders[0], warmup: true }] : [];
  orders.forEach(function (order, r) { list.push({ round: r + 1, order: order, warmup: false }); });
  return list;
}

/** n items cut into `rounds` shares as even as can be, the first n % rounds one larger: [[from, to), ...]. */
function roundShares(n, rounds) {
  var shares = [];
  var from = 0;
  for (var r = 0; r < rounds; r++) {
    var size = Math.floor(n / rounds) + (r < n % rounds ? 1 : 0);
    shares.push([from, from + size]);
    from += size;
  }
  return shares;
}

/**
 * The partner's block of a round: with announce, a turn line the conductor acts on; then a wait,
 * polling every 20 ms (a poll a block's time cannot feel), until the conductor has put the
 * block's mark in this database's turns collection. Returns false at once without a partner.
 */
function partnerTurn(round, variant, announce) {
  if (!PARTNER) return false;
  var id = round + ':' + variant;
  if (announce) print(JSON.stringify({ turn: { round: round, variant: variant, id: id } }));
  var turns = db.getSiblingDB(DB_NAME).getCollection('turns');
  while (!turns.findOne({ _id: id })) sleep(20);
  return true;
}
// >>> block: paired-rounds

// <<< block: paired-servers (stamped by npm run stamp from shell/_blocks/paired-servers.js; edit there)
// Paired servers: in trade-candles' load.js and read.js.
// The kit's zstd questions compare two servers (mongod:zstd against mongod:none). Timed one after
// the other, a drift of the machine would land on one of them; so the kit runs this script on
// both at once, telling each the other's name (PARTNER), its own (SERVER_NAME) and one SEED, and
// their blocks take turns. Each round's blocks, both servers', run in one order drawn alike on
// both (roundOrders over every block of the round); before each of its blocks a script waits
// until the partner's last block before it in that order has ended: the kit marks the n-th block
// line a server prints in round k as `k:<server>#n` in the other's turns collection. The two meet
// (round 0, by a name of its own) before the first block, once each has set up, and again (round
// ROUNDS + 1) after the last, so neither one's set-up or summing-up runs during the other's timed
// blocks. Pasted alone (PARTNER null) a round holds this server's blocks only, and nothing waits.

/** Each round's blocks, both servers' where paired, in one drawn order: [[{ server, variant }, ...], ...]. */
function serverRounds(variants, rounds, seed) {
  var servers = PARTNER ? [SERVER_NAME, PARTNER].sort() : [SERVER_NAME];
  var blocks = [];
  servers.forEach(function (server) {
    variants.forEach(function (variant) { blocks.push({ server: server, variant: variant }); });
  });
  return roundOrders(blocks, rounds, seed);
}

/**
 * The partner's block that must have ended before this server's block at `index` (0-based) of
 * runs[at] (the rounds in the order they run, roundsToRun's, a warm-up round first where there is
 * one): its last one before it in that round, else its last one of the round before. { round,
 * variant } as partnerTurn takes them, or null where none comes before.
 */
function partnerBlockBefore(runs, at, index) {
  var partners = function (blocks) { return blocks.filter(function (b) { return b.server === PARTNER; }).length; };
  var before = partners(runs[at].order.slice(0, index));
  if (before > 0) return { round: runs[at].round, variant: PARTNER + '#' + before };
  if (at > 0) return { round: runs[at - 1].round, variant: PARTNER + '#' + partners(runs[at - 1].order) };
  return null;
}

/** Where paired, waits until the partner's block before this one has ended. */
function awaitPartner(runs, at, index) {
  if (!PARTNER) return;
  var turn = partnerBlockBefore(runs, at, index);
  if (turn) partnerTurn(turn.round, turn.variant, true);
}

/** Where paired, waits for the partner at a meeting: round 0 before the first block, ROUNDS + 1 after the last. */
function meetPartner(round) {
  if (PARTNER) partnerTurn(round, PARTNER + '#meet', true);
}
// >>> block: paired-servers

// --- reads in rounds: pure, so a unit test can check them ---
/** The distinct tickers of a block's queries, in their first order: what its warm-up reads once. */
function tickersOf(queries) {
  var seen = {};
  return queries.filter(function (q) { if (seen[q.ticker]) return false; seen[q.ticker] = true; return true; })
    .map(function (q) { return q.ticker; });
}

/**
 * One run's results from its blocks' (each { samples, ms, hrMs, returned, expected, mismatches,
 * firstMismatch, cacheReads }): samples joined, the rest summed; cacheReads only where every
 * block counted them.
 */
function joinResults(parts) {
  var joined = { samples: [], ms: 0, hrMs: 0, returned: 0, expected: 0, mismatches: 0, firstMismatch: null, cacheReads: { pages: 0, bytes: 0 } };
  parts.forEach(function (r) {
    joined.samples = joined.samples.concat(r.samples);
    joined.ms += r.ms; joined.hrMs += r.hrMs; joined.returned += r.returned; joined.expected += r.expected; joined.mismatches += r.mismatches;
    joined.firstMismatch = joined.firstMismatch || r.firstMismatch;
    if (!r.cacheReads) joined.cacheReads = null;
    else if (joined.cacheReads) { joined.cacheReads.pages += r.cacheReads.pages; joined.cacheReads.bytes += r.cacheReads.bytes; }
  });
  return joined;
}
// --- end reads in rounds ---

var plan = queryPlan({
  tickers: TICKERS, minutes: MINUTES, tickerSample: TICKER_SAMPLE, tickerQueries: TICKER_QUERIES,
  intervals: INTERVALS, intervalRepeats: INTERVAL_REPEATS, intervalMaxMinutes: INTERVAL_MAX_MINUTES, dayQueries: DAY_QUERIES
});
var TYPES = [
  { query: 'byTicker', test: '1 by ticker' },
  { query: 'timeRange', test: '2 time range' },
  { query: 'day', test: '3 whole day' }
];
var tickerQueries = plan.filter(function (q) { return q.query === 'byTicker'; });
var otherQueries = plan.filter(function (q) { return q.query !== 'byTicker'; });
var runs = cacheMb > 0 ? ['own-memory', 'little-memory'] : ['own-memory'];
var rounds = Math.max(1, Math.min(ROUNDS, tickerQueries.length));
var roundRuns = roundsToRun(serverRounds(runs, rounds, SEED), WARMUP);
var shares = roundShares(tickerQueries.length, rounds);
var shareOf = function (round) { return shares[Math.max(0, round - 1)]; };
var warmUps = shares.reduce(function (n, s) { return n + tickersOf(tickerQueries.slice(s[0], s[1])).length; }, 0);
var warmUpRound = WARMUP ? runs.length * (shares[0][1] - shares[0][0]) + tickersOf(tickerQueries.slice(shares[0][0], shares[0][1])).length : 0;
var totalQueries = (plan.length + (runs.length > 1 ? plan.length : 0)) + warmUps + warmUpRound;
var progressEvery = Math.max(1, Math.floor(totalQueries / 100));
var done = 0;

// the little-memory run's cache, decided once before any read; it is cut only before that run's reads
var lowMemory = cacheMb > 0 ? lowMemoryPlan(cacheMb) : null;
var cacheIsCut = false;
var shrink = null;
function memoryOf(run) {
  if (run !== 'little-memory') return 'the server\'s own';
  return lowMemory.outcome === 'applied' ? 'WiredTiger cache ' + cacheMb + ' MB' + (cacheMb > CACHE_MB ? ' (CACHE_MB ' + CACHE_MB + ' raised to mongod\'s floor)' : '') : 'the server\'s own (cache not reduced)';
}
/** The cache as a run reads with it: its own size for own-memory, cut (where it may be) for little-memory. */
function setMemory(run) {
  shrink = null;
  if (run === 'little-memory' && lowMemory.dataBytes === undefined) measureData(lowMemory, cacheMb);
  if (run === 'own-memory' && cacheIsCut) {
    restoreCache(lowMemory);
    cacheIsCut = false;
  } else if (run === 'little-memory' && !cacheIsCut && lowMemory.outcome === 'applied') {
    shrink = cutCache(lowMemory, cacheMb);
    cacheIsCut = shrink !== null;
  }
}

/** Times each query on its own; per query type: latency samples (µs), Date and hr sums, count checks, pages read into the cache. */
function timeQueries(queries) {
  var results = {};
  var startDate;
  var t0;
  var elapsed;
  var returned;
  // the queries run one type after another: the cache's counters are read, untimed, as each starts and ends
  var type = null;
  var cacheBefore = null;
  function endType() {
    if (type === null) return;
    var after = cacheReads();
    results[type].cacheReads = cacheBefore && after ? { pages: after.pages - cacheBefore.pages, bytes: after.bytes - cacheBefore.bytes } : null;
  }
  for (var n = 0; n < queries.length; n++) {
    var q = queries[n];
    if (q.query !== type) {
      endType();
      type = q.query;
      results[type] = { samples: [], ms: 0, hrMs: 0, returned: 0, expected: 0, mismatches: 0, firstMismatch: null, cacheReads: null };
      cacheBefore = cacheReads();
    }
    var r = results[q.query];
    var cursor = cursorOf(q);

    startDate = new Date(); t0 = performance.now();
    returned = cursor.itcount();
    elapsed = performance.now() - t0;
    r.ms += new Date() - startDate;

    r.hrMs += elapsed;
    r.samples.push(elapsed * 1000);
    r.returned += returned;
    r.expected += q.expected;
    if (returned !== q.expected) {
      r.mismatches++;
      if (!r.firstMismatch) r.firstMismatch = { filter: JSON.stringify(filterOf(q)), returned: returned, expected: q.expected };
    }
    done++;
    if (PROGRESS && done % progressEvery === 0) print(JSON.stringify({ progress: done, of: totalQueries }));
  }
  endType();
  return results;
}

/** Each of a block's tickers read once, untimed: the own-memory reads find their pages in the cache, as the article's first run did. */
function warmUp(queries) {
  var tickers = tickersOf(queries);
  tickers.forEach(function (ticker) {
    cursorOf({ query: 'byTicker', ticker: ticker }).itcount();
    done++;
    if (PROGRESS && done % progressEvery === 0) print(JSON.stringify({ progress: done, of: totalQueries }));
  });
  return tickers.length;
}

var others = {};
/** The time-range and whole-day reads, each run's in the article's order, in this server's first turn. */
function readOthers() {
  runs.forEach(function (run) {
    setMemory(run);
    others[run] = timeQueries(otherQueries);
  });
}

/** The JSON fields of a run's results for one query type. */
function resultFields(run, type, r) {
  var s = histogramSummary(r.samples);
  var perQuery = r.cacheReads ? Math.round(r.cacheReads.pages / s.queries * 100) / 100 : null;
  return {
    summary: s, perQuery: perQuery,
    fields: {
      scenario: 'trade-candles', step: 'read', pass: PASS, run: run, query: type.query,
      test: type.test + (PASS > 1 ? ' (pass ' + PASS + ')' : ''),
      queries: s.queries, meanUs: s.meanUs, p50Us: s.p50Us, p95Us: s.p95Us, p99Us: s.p99Us, minUs: s.minUs, maxUs: s.maxUs,
      percentilesFrom: s.percentilesFrom,
      ms: r.ms, hrMs: Math.round(r.hrMs * 1000) / 1000,
      returned: r.returned, expected: r.expected, mismatches: r.mismatches, countsOk: r.mismatches === 0, firstMismatch: r.firstMismatch,
      memory: memoryOf(run), lowMemory: run === 'little-memory' ? lowMemory : null, planSeed: PLAN_SEED,
      // the reads that missed the cache (and decompressed a block): left out where there is no WiredTiger
      cacheReadPages: r.cacheReads ? r.cacheReads.pages : undefined,
      cacheReadBytes: r.cacheReads ? r.cacheReads.bytes : undefined,
      cachePagesPerQuery: perQuery === null ? undefined : perQuery
    }
  };
}

var blocks = { 'own-memory': [], 'little-memory': [] };
try {
  meetPartner(0);
  var othersRead = false;
  roundRuns.forEach(function (r, at) {
    r.order.forEach(function (entry, p) {
      if (entry.server !== SERVER_NAME) return; // the partner's block, on its own server
      awaitPartner(roundRuns, at, p);
      if (!othersRead) { readOthers(); othersRead = true; }
      var run = entry.variant;
      var share = shareOf(r.round);
      var queries = tickerQueries.slice(share[0], share[1]);
      setMemory(run);
      var warmed = run === 'own-memory' ? warmUp(queries) : undefined;
      var startedAt = Date.now();
      var result = timeQueries(queries).byTicker;
      var endedAt = Date.now();
      // the warm-up round's blocks join no run's line
      if (!r.warmup) blocks[run].push(result);
      var line = resultFields(run, TYPES[0], result).fields;
      // a line per block, the moment it ends (the orchestrator keeps it as a paired sample)
      print(JSON.stringify(Object.assign(line, {
        round: r.round, rounds: rounds, position: p + 1, warmup: r.warmup || undefined, startedAt: startedAt, endedAt: endedAt,
        warmUpQueries: warmed, cacheShrinkMs: shrink ? shrink.shrinkMs : undefined, cacheShrunk: shrink ? shrink.shrunk : undefined
      })));
    });
  });
  meetPartner(rounds + 1);
} finally {
  if (cacheIsCut) restoreCache(lowMemory);
}

if (lowMemory && lowMemory.outcome === 'applied') {
  print(lowMemory.restored ? 'cache restored to ' + lowMemory.previousBytes + ' bytes' : 'WARNING: the cache could not be restored to ' + lowMemory.previousBytes + ' bytes');
}
runs.forEach(function (run) {
  if (run === 'little-memory') print('little memory: ' + lowMemory.outcome + ': ' + lowMemory.reason);
  var byType = { byTicker: joinResults(blocks[run]), timeRange: others[run].timeRange, day: others[run].day };
  var lines = [];
  TYPES.forEach(function (t) {
    var r = byType[t.query];
    if (!r || !r.samples.length) return;
    var out = resultFields(run, t, r);
    var s = out.summary;
    print(run + ', ' + t.test + ': ' + s.queries + ' queries' + (t.query === 'byTicker' ? ' in ' + blocks[run].length + ' blocks' : '') +
      ', mean ' + s.meanUs + ' us, p50 ' + s.p50Us + ' us, p95 ' + s.p95Us +
      ' us, p99 ' + s.p99Us + ' us; ' + r.returned + ' candles returned, ' + r.expected + ' expected' +
      (r.mismatches ? ' (' + r.mismatches + ' queries returned the wrong count)' : '') +
      (r.cacheReads ? '; ' + r.cacheReads.pages + ' pages read into the cache (' + out.perQuery + ' a query)' : ''));
    lines.push(t.query === 'byTicker' ? Object.assign(out.fields, { rounds: rounds }) : out.fields);
  });
  print('');
  lines.forEach(function (line) { print(JSON.stringify(line)); });
});
