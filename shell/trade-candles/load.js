// mongo-classics · trade-candles · load.js
// Article:  "Тестирование быстрой MongoDB – TokuMX в условиях, близких к реальности", umputun,
//           5 April 2014, https://p.umputun.com/2014/04/05/tokumx-testing/ (also
//           http://habrahabr.ru/post/217617). MongoDB 2.4/2.6 "out of the box" (MMAPv1, which
//           compressed nothing) against TokuMX, two 2-CPU VMs with 1 GB RAM.
// Measures: the article's write test: one trading day of 1-minute trade candles (1.4M documents
//           of about 270 bytes) written into a collection that carries 3 secondary indexes, one
//           simple and two compound; the time until the data is in and indexed, and, where the
//           script may force one, until it is durable (a checkpoint inside the clock). The data
//           and index sizes come from collStats after the step (the orchestrator reads them).
// Writes:   the article does not say how it wrote; the drivers of 2014 (MongoClient, since late
//           2012) acknowledged every write by default, so the loads here are acknowledged
//           insertMany calls (w:1), and the time is until the server has them.
// Faithful: one day, 1.4M candles (3,600 tickers x 390 one-minute candles of a 9:30-16:00
//           session = 1,404,000), an average BSON size near the article's 270 bytes (measured
//           with bsonsize() on every candle and printed), 3 extra indexes: one simple, two
//           compound. Indexes exist before the first insert: the author loads a day at a time
//           into a collection that keeps every earlier day ("data is never deleted"), so a
//           daily load always pays index maintenance as it goes; building them afterwards is
//           possible only on an empty collection, and would hide the index-maintenance cost
//           that is TokuMX's selling point (fractal-tree indexes).
//           The indexes serve the read test (read.js):
//             { time: 1 }               simple:   time-range queries across all tickers
//             { ticker: 1, time: 1 }    compound: a ticker's candles in time order
//             { date: 1, ticker: 1 }    compound: all candles of a day, grouped by ticker (and,
//                                                 in a collection of many days, a ticker's day)
// Changes:  - The article gives neither the candle's fields nor its tickers. A candle here is
//             ticker, exchange, currency, date, time, open, high, low, close, volume, vwap,
//             trades, change, changePct, bid, ask and an ObjectId _id: a typical
//             vendor-feed candle, and what brings one to ~270 bytes. Tickers are 1-5 letter
//             symbols drawn from a fixed generator (the same list on every run, which the read
//             test relies on), 1-3 letters on NYSE/AMEX and 4-5 on NASDAQ, as US listings
//             were; prices walk randomly from a per-ticker start, volume follows the usual
//             intraday U shape.
//           - The article does not say how it wrote. Candles go in minute by minute (every
//             ticker's 09:30 candle, then 09:31, ...), the order a day's feed produces them, in
//             insertMany batches of BATCH (1,000): a day's bulk load, not 1.4M round trips.
//             Building a batch is not timed; each insertMany is timed with new Date() and
//             performance.now() and the times are summed (ms, hrMs). The indexes are built on the
//             empty collection before the first block, untimed (indexMs beside): the load is the
//             candles going in and being indexed, not three empty indexes being made.
//           - Each insertMany names its write concern, { w: 1 }: a write that names none gets
//             the server's default, w:majority on a replica set of 5.0 and later and on Atlas,
//             which waits for a majority of members and the journal, where 2014's w:1 did not.
//           - Runs in its own database (DB_NAME, prefix classics_) and drops only its own
//             collection first, so a paste never touches a user's data.
//           - Durable: WiredTiger keeps what is written uncompressed in its cache and compresses a
//             block only when it writes it to the table's file, at a checkpoint (every 60 s) or
//             an eviction; a load timed until its inserts are acknowledged times no compression
//             at all. So on a server the kit started (SERVER_OWNED_BY_KIT) the load is timed on
//             to durability: after each block's last insertMany (below), a checkpoint forced by
//             fsync, inside the block's clock (durableMs, durableHrMs; checkpointMs alone beside):
//             ROUNDS checkpoints in all where the article's load would have had one at its end,
//             each writing the block's new pages and the index pages it touched. fsync without lock
//             returns once WiredTiger has checkpointed (commands/fsync.cpp, flushAllFiles; the
//             session cache's waitUntilDurable forces the checkpoint, of everything on a standalone,
//             which has no stable timestamp to stop at). The article
//             does not say how it timed its writes; ms and hrMs stay the time until the inserts
//             were acknowledged. Elsewhere (a user's server, where a checkpoint is the owner's
//             to force, or FerretDB, which has no fsync) durableMs is not recorded, and says why.
//           - Sizes: WiredTiger writes a collection's file at checkpoints, so sizes read right
//             after a load can lag; read after the checkpoint above, they do not.
//           - Paired rounds (the paired rounds block): the kit's zstd questions compare the load
//             of two servers, so the day goes in as ROUNDS blocks of minutes (roundShares of
//             MINUTES: every ticker's candles of the block's minutes, the same candles on every
//             server with the same SEED), each timed alone, from its first insertMany to its
//             checkpoint, and printed as a line of its own (round, rounds, position). Paired with
//             another server (PARTNER, SERVER_NAME: the paired servers block), the two servers'
//             blocks take turns in one drawn order while both run, so a round's two blocks are
//             minutes apart at most and see the same machine; both hold k-1 shares of the day
//             when their blocks of round k start. The JSON line of the whole load gives the sums
//             of its blocks' times; the waits between blocks are in none of them.
//           - Warm-up (WARMUP, true unless set false): before round 1, a warm-up round (round 0, in
//             round 1's order, both servers' blocks where paired), whose block loads round 1's
//             share of minutes, with its checkpoint, into a collection of its own
//             (candles_warmup, the same indexes), from candles drawn apart from the day's (so
//             the day stays what SEED draws), timed and printed with warmup true, counted in no
//             sum, then dropped (untimed): round 1 no longer pays alone for the connection's first
//             batches, the server's insert and checkpoint paths and its caches, and the day's
//             collection, whose sizes the zstd question compares, holds only the day.
//           - Prints a JSON line per block and one for the load; SEED swaps Math.random for a
//             seeded generator so prices and volumes repeat (default: Math.random), and draws
//             the rounds' order. The ticker list never depends on SEED. Paired, both servers
//             are given one SEED, so they load the same candles (their ObjectIds aside).
// Sizes:    TICKERS symbols x MINUTES one-minute candles (the article's 1.4M = 3,600 x 390);
//           ROUNDS (8) blocks; WARMUP (true: a warm-up block first); PARTNER and SERVER_NAME
//           (null: pasted alone, nothing waits).

if (typeof TICKERS === 'undefined') var TICKERS = 3600;
if (typeof MINUTES === 'undefined') var MINUTES = 390;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_trade_candles';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof SERVER_OWNED_BY_KIT === 'undefined') var SERVER_OWNED_BY_KIT = false;
if (typeof ROUNDS === 'undefined') var ROUNDS = 8;
if (typeof WARMUP === 'undefined') var WARMUP = true;
if (typeof PARTNER === 'undefined') var PARTNER = null;
if (typeof SERVER_NAME === 'undefined') var SERVER_NAME = null;

db = db.getSiblingDB(DB_NAME);
// two servers' blocks take turns in one order drawn from one seed, and load the same candles
if (PARTNER && SEED === null) throw new Error('PARTNER ' + PARTNER + ' is set without a SEED: the paired servers must draw one order and one day of candles');

var BATCH = 1000;
// mongosh has bsonsize(); the legacy mongo shell had Object.bsonsize()
var bsonSizeOf = typeof bsonsize === 'function' ? bsonsize : Object.bsonsize;
// Friday 28 March 2014, the last session before the article's tests (its charts are dated the
// 30th); New York was on EDT, so 09:30 was 13:30 UTC.
var DAY = '2014-03-28';
var SESSION_OPEN = new Date('2014-03-28T13:30:00Z').getTime();

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
var random = SEED === null ? Math.random : mulberry32(SEED);
// the warm-up's candles come from a generator of their own, so the day's are those SEED draws
var warmUpRandom = SEED === null ? Math.random : mulberry32(SEED + 1);

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

function round(value, places) {
  var f = Math.pow(10, places);
  return Math.round(value * f) / f;
}

// A standard normal draw (Box-Muller) for the price walk, from a generator rand.
function gaussian(rand) {
  var u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

var symbols = tickerSymbols(TICKERS);
var tickers = symbols.map(function (symbol) {
  var price = round(Math.exp(Math.log(2) + random() * Math.log(200)), 2); // $2..$400, log-uniform
  return {
    symbol: symbol,
    exchange: symbol.length >= 4 ? 'NASDAQ' : (random() < 0.9 ? 'NYSE' : 'AMEX'),
    previousClose: price,
    price: price,
    volume: Math.exp(Math.log(100) + random() * Math.log(1000)) // 100..100,000 shares a minute
  };
});

/** Ticker t's candle of a minute, its price walking on from t.price, drawn from rand. */
function candle(t, minute, rand) {
  var open = t.price;
  var close = Math.max(0.01, round(open * (1 + 0.0015 * gaussian(rand)), 2));
  var high = round(Math.max(open, close) * (1 + 0.001 * rand()), 2);
  var low = Math.max(0.01, round(Math.min(open, close) * (1 - 0.001 * rand()), 2));
  // more trading at the open and the close than at midday
  var x = minute / Math.max(1, MINUTES - 1);
  var volume = Math.max(1, Math.round(t.volume * (0.5 + 4 * (x - 0.5) * (x - 0.5)) * (0.3 + 1.4 * rand())));
  t.price = close;
  return {
    _id: new ObjectId(),
    ticker: t.symbol,
    exchange: t.exchange,
    currency: 'USD',
    date: DAY,
    time: new Date(SESSION_OPEN + minute * 60000),
    open: open,
    high: high,
    low: low,
    close: close,
    volume: volume,
    vwap: round(low + (high - low) * (0.25 + 0.5 * rand()), 4),
    trades: Math.max(1, Math.round(volume / (50 + 150 * rand()))),
    change: round(close - t.previousClose, 2),
    changePct: round((close - t.previousClose) / t.previousClose * 100, 2),
    bid: Math.max(0.01, round(close - 0.01, 2)),
    ask: round(close + 0.01, 2)
  };
}

var INDEXES = [
  { key: { time: 1 }, why: 'time-range queries' },
  { key: { ticker: 1, time: 1 }, why: 'a ticker\'s candles in time order' },
  { key: { date: 1, ticker: 1 }, why: 'all candles of the day' }
];

// the drivers of 2014 acknowledged each write (w:1): named here, so that a cluster whose default
// is w:majority (a replica set of 5.0 and later, Atlas) times the same acknowledgement
var ACKNOWLEDGED = { writeConcern: { w: 1 } };

/**
 * A checkpoint forced by fsync, timed, where this run may force one: { outcome: 'forced', ms,
 * hrMs } ('not forced' on a server the kit did not start, 'refused' where the server has no
 * fsync), each with its reason.
 */
function timedCheckpoint() {
  if (!SERVER_OWNED_BY_KIT) {
    return { outcome: 'not forced', reason: 'the kit did not start this server, so the script forces no checkpoint: on WiredTiger, which writes (and compresses) its files every 60 s, the sizes on disk may lag' };
  }
  var res;
  var startedAt = new Date();
  var start = performance.now();
  try {
    res = db.adminCommand({ fsync: 1 });
  } catch (e) {
    res = { ok: 0, errmsg: e.message };
  }
  var hr = performance.now() - start;
  var wall = Math.abs(new Date() - startedAt);
  if (!res.ok) return { outcome: 'refused', reason: 'fsync was refused (' + res.errmsg + '), so no checkpoint was timed and the sizes on disk may lag' };
  return { outcome: 'forced', reason: 'a checkpoint forced by fsync after each block\'s last insert, inside its clock', ms: wall, hrMs: hr };
}

var rounds = Math.max(1, Math.min(ROUNDS, MINUTES));
var runs = roundsToRun(serverRounds(['load'], rounds, SEED), WARMUP);
var minuteShares = roundShares(MINUTES, rounds);
var shareOf = function (run) { return minuteShares[Math.max(0, run.round - 1)]; };

var total = TICKERS * MINUTES;
var batches = runs.reduce(function (n, run) { return n + Math.ceil((shareOf(run)[1] - shareOf(run)[0]) * TICKERS / BATCH); }, 0);
var progressEvery = Math.max(1, Math.floor(batches / 100));
var batchNumber = 0;
var inserted = 0;
var bsonBytes = 0;
// the first checkpoint's outcome stands for the load: a server that refused one has no fsync
var durable = null;

// Set up, untimed: the collection emptied and its indexes built on it while empty (the author's
// collection kept every earlier day, so a daily load always paid their upkeep).
db.candles.drop();
db.createCollection('candles');
var indexStarted = performance.now();
INDEXES.forEach(function (index) { db.candles.createIndex(index.key); });
var indexMs = performance.now() - indexStarted;

/**
 * One block: every ticker's candles of the minutes [from, to), in insertMany batches, then a
 * checkpoint where one may be forced. The day's (into candles), or with warmUp the warm-up's
 * (into candles_warmup, from their own tickers' walk and generator), which joins no count or sum.
 */
function loadBlock(from, to, warmUp) {
  var target = warmUp ? warmUp.collection : db.candles;
  var walk = warmUp ? warmUp.tickers : tickers;
  var rand = warmUp ? warmUpRandom : random;
  var block = { ms: 0, hrMs: 0, inserted: 0, batches: 0, startedAt: Date.now() };
  var batch = [];
  var flush = function () {
    var startDate = new Date(); var t0 = performance.now();
    var res = target.insertMany(batch, ACKNOWLEDGED);
    block.hrMs += performance.now() - t0;
    block.ms += new Date() - startDate;
    block.inserted += Object.keys(res.insertedIds).length;
    if (!warmUp) for (var b = 0; b < batch.length; b++) bsonBytes += bsonSizeOf(batch[b]);
    batch = [];
    block.batches++;
    batchNumber++;
    if (PROGRESS && batchNumber % progressEvery === 0) print(JSON.stringify({ progress: batchNumber, of: batches }));
  };
  for (var minute = from; minute < to; minute++) {
    for (var i = 0; i < TICKERS; i++) {
      batch.push(candle(walk[i], minute, rand));
      if (batch.length === BATCH) flush();
    }
  }
  if (batch.length) flush();
  // Durable: each block goes on until a checkpoint has written (and compressed) its candles,
  // inside its clock, where this run may force one (the warm-up's too; its outcome decides nothing)
  if (durable === null || durable.outcome === 'forced') {
    var checkpoint = timedCheckpoint();
    if (!warmUp && (durable === null || checkpoint.outcome !== 'forced')) durable = { outcome: checkpoint.outcome, reason: checkpoint.reason, ms: 0, hrMs: 0 };
    if (checkpoint.outcome === 'forced') {
      block.checkpointMs = checkpoint.ms;
      block.checkpointHrMs = checkpoint.hrMs;
      if (!warmUp) {
        durable.ms += checkpoint.ms;
        durable.hrMs += checkpoint.hrMs;
      }
    }
  }
  block.endedAt = Date.now();
  if (!warmUp) inserted += block.inserted;
  return block;
}

/** The warm-up block's collection, made as the day's (its indexes first), and its tickers' own price walk. */
function warmUpTarget() {
  db.candles_warmup.drop();
  db.createCollection('candles_warmup');
  INDEXES.forEach(function (index) { db.candles_warmup.createIndex(index.key); });
  return { collection: db.candles_warmup, tickers: tickers.map(function (t) { return Object.assign({}, t); }) };
}

meetPartner(0);
var blocks = [];
runs.forEach(function (run, at) {
  run.order.forEach(function (entry, p) {
    if (entry.server !== SERVER_NAME) return; // the partner's block, on its own server
    awaitPartner(runs, at, p);
    var share = shareOf(run);
    var warmUp = run.warmup ? warmUpTarget() : null;
    var block = loadBlock(share[0], share[1], warmUp);
    var forced = block.checkpointMs !== undefined;
    if (!run.warmup) blocks.push(block);
    // a line per block, the moment it ends (the orchestrator keeps it as a paired sample)
    print(JSON.stringify({
      scenario: 'trade-candles', step: 'load', collection: run.warmup ? 'candles_warmup' : 'candles', round: run.round, rounds: rounds, position: p + 1,
      warmup: run.warmup || undefined,
      fromMinute: share[0], minutes: share[1] - share[0], inserted: block.inserted, batches: block.batches,
      ms: block.ms, hrMs: Math.round(block.hrMs * 1000) / 1000,
      durableMs: forced ? block.ms + block.checkpointMs : undefined,
      durableHrMs: forced ? Math.round((block.hrMs + block.checkpointHrMs) * 1000) / 1000 : undefined,
      checkpointMs: forced ? block.checkpointMs : undefined,
      startedAt: block.startedAt, endedAt: block.endedAt
    }));
    if (warmUp) db.candles_warmup.drop();
  });
});
meetPartner(rounds + 1);

var sum = function (field) { return blocks.reduce(function (n, b) { return n + (b[field] || 0); }, 0); };
var milliseconds = sum('ms');
var hrMilliseconds = sum('hrMs');
var avgBsonSize = inserted ? Math.round(bsonBytes / inserted * 10) / 10 : null;
var forcedAll = durable.outcome === 'forced';
var sizesRead = forcedAll ? 'read after the checkpoint that ended the load\'s last block (fsync)' : 'read right after the load: ' + durable.reason;
// the collStats command, as the article's shell's stats() was and as the orchestrator reads it
// (mongosh's stats() goes through $collStats, whose size on FerretDB counts the indexes too)
var stats;
try { stats = db.runCommand({ collStats: 'candles' }); } catch (e) { stats = { ok: 0 }; }
if (!stats.ok) stats = db.candles.stats();
// the command's sizes may come back as Long or Int32: make them plain numbers before adding
var sizes = { size: Number(stats.size), storageSize: Number(stats.storageSize), totalIndexSize: Number(stats.totalIndexSize) };
print('candles ' + inserted + ' (' + TICKERS + ' tickers x ' + MINUTES + ' minutes), average BSON size ' + avgBsonSize + ' bytes');
print('load ' + milliseconds + ' ms (' + Math.round(inserted / (milliseconds / 1000)) + ' candles/s) in ' + rounds + ' blocks, 3 indexes built before the load');
print(forcedAll
  ? 'durable after ' + (milliseconds + durable.ms) + ' ms (the ' + rounds + ' checkpoints ' + durable.ms + ' ms)'
  : 'durable: not timed (' + durable.reason + ')');
print('data ' + sizes.size + ' bytes, storage ' + sizes.storageSize + ' bytes, indexes ' + sizes.totalIndexSize + ' bytes (' + sizesRead + ')');
print('');

print(JSON.stringify({
  scenario: 'trade-candles', step: 'load', collection: 'candles',
  // the sums of the blocks' insertMany calls (the article's clock), the indexes' build on the empty collection apart
  ms: milliseconds, hrMs: Math.round(hrMilliseconds * 1000) / 1000, indexMs: Math.round(indexMs * 1000) / 1000,
  candlesPerSecond: milliseconds > 0 ? Math.round(inserted / (milliseconds / 1000)) : null,
  tickers: TICKERS, minutes: MINUTES, batchSize: BATCH, batches: batchNumber, rounds: rounds, seed: SEED,
  avgBsonSize: avgBsonSize,
  // the article's size measure, data + indexes; the orchestrator adds collStats' own fields
  storagePlusIndexBytes: sizes.storageSize + sizes.totalIndexSize,
  indexList: INDEXES.map(function (index) { return JSON.stringify(index.key) + ' for ' + index.why; }).join('; '),
  indexesBuilt: 'before the load', writeConcern: 'w:1', sizesRead: sizesRead,
  // until every block was written (and compressed) by its checkpoint, where the script may force one
  durableMs: forcedAll ? milliseconds + durable.ms : undefined,
  durableHrMs: forcedAll ? Math.round((hrMilliseconds + durable.hrMs) * 1000) / 1000 : undefined,
  checkpointMs: forcedAll ? durable.ms : undefined,
  durable: { outcome: durable.outcome, reason: durable.reason },
  inserted: inserted, removed: 0
}));
