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
//             performance.now() and the times are summed (ms, hrMs).
//           - Each insertMany names its write concern, { w: 1 }: a write that names none gets
//             the server's default, w:majority on a replica set of 5.0 and later and on Atlas,
//             which waits for a majority of members and the journal, where 2014's w:1 did not.
//           - Runs in its own database (DB_NAME, prefix classics_) and drops only its own
//             collection first, so a paste never touches a user's data.
//           - Durable: WiredTiger keeps what is written uncompressed in its cache and compresses a
//             block only when it writes it to the table's file, at a checkpoint (every 60 s) or
//             an eviction; a load timed until its inserts are acknowledged times no compression
//             at all. So on a server the kit started (SERVER_OWNED_BY_KIT) the load is timed on
//             to durability: after the last insertMany, a checkpoint forced by fsync, inside the
//             clock (durableMs, durableHrMs; checkpointMs alone beside). fsync without lock
//             returns once WiredTiger has checkpointed (commands/fsync.cpp, flushAllFiles; the
//             session cache's waitUntilDurable forces the checkpoint, of everything on a standalone,
//             which has no stable timestamp to stop at). The article
//             does not say how it timed its writes; ms and hrMs stay the time until the inserts
//             were acknowledged. Elsewhere (a user's server, where a checkpoint is the owner's
//             to force, or FerretDB, which has no fsync) durableMs is not recorded, and says why.
//           - Sizes: WiredTiger writes a collection's file at checkpoints, so sizes read right
//             after a load can lag; read after the checkpoint above, they do not.
//           - Prints one JSON line for the orchestrator; SEED swaps Math.random for a seeded
//             generator so prices and volumes repeat (default: Math.random). The ticker list
//             never depends on SEED.
// Sizes:    TICKERS symbols x MINUTES one-minute candles (the article's 1.4M = 3,600 x 390).

if (typeof TICKERS === 'undefined') var TICKERS = 3600;
if (typeof MINUTES === 'undefined') var MINUTES = 390;
if (typeof DB_NAME === 'undefined') var DB_NAME = 'classics_trade_candles';
if (typeof PROGRESS === 'undefined') var PROGRESS = false;
if (typeof SEED === 'undefined') var SEED = null;
if (typeof SERVER_OWNED_BY_KIT === 'undefined') var SERVER_OWNED_BY_KIT = false;

db = db.getSiblingDB(DB_NAME);

var BATCH = 1000;
// mongosh has bsonsize(); the legacy mongo shell had Object.bsonsize()
var bsonSizeOf = typeof bsonsize === 'function' ? bsonsize : Object.bsonsize;
// Friday 28 March 2014, the last session before the article's tests (its charts are dated the
// 30th); New York was on EDT, so 09:30 was 13:30 UTC.
var DAY = '2014-03-28';
var SESSION_OPEN = new Date('2014-03-28T13:30:00Z').getTime();

// mulberry32: small, fast and good enough to make a run repeatable.
function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6D2B79F5) | 0;
    var t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
var random = SEED === null ? Math.random : mulberry32(SEED);

// --- tickers: identical in load.js and read.js (a unit test holds them equal) ---
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
// --- end tickers ---

function round(value, places) {
  var f = Math.pow(10, places);
  return Math.round(value * f) / f;
}

// A standard normal draw (Box-Muller) for the price walk.
function gaussian() {
  var u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
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

function candle(t, minute) {
  var open = t.price;
  var close = Math.max(0.01, round(open * (1 + 0.0015 * gaussian()), 2));
  var high = round(Math.max(open, close) * (1 + 0.001 * random()), 2);
  var low = Math.max(0.01, round(Math.min(open, close) * (1 - 0.001 * random()), 2));
  // more trading at the open and the close than at midday
  var x = minute / Math.max(1, MINUTES - 1);
  var volume = Math.max(1, Math.round(t.volume * (0.5 + 4 * (x - 0.5) * (x - 0.5)) * (0.3 + 1.4 * random())));
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
    vwap: round(low + (high - low) * (0.25 + 0.5 * random()), 4),
    trades: Math.max(1, Math.round(volume / (50 + 150 * random()))),
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

db.candles.drop();
db.createCollection('candles');

var total = TICKERS * MINUTES;
var batches = Math.ceil(total / BATCH);
var progressEvery = Math.max(1, Math.floor(batches / 100));
var inserted = 0;
var bsonBytes = 0;
var milliseconds = 0;
var hrMilliseconds = 0;
var startDate;
var t0;

startDate = new Date(); t0 = performance.now();
INDEXES.forEach(function (index) { db.candles.createIndex(index.key); });
hrMilliseconds += performance.now() - t0;
milliseconds += new Date() - startDate;

// the drivers of 2014 acknowledged each write (w:1): named here, so that a cluster whose default
// is w:majority (a replica set of 5.0 and later, Atlas) times the same acknowledgement
var ACKNOWLEDGED = { writeConcern: { w: 1 } };
var batch = [];
var batchNumber = 0;
function flush() {
  startDate = new Date(); t0 = performance.now();
  var res = db.candles.insertMany(batch, ACKNOWLEDGED);
  hrMilliseconds += performance.now() - t0;
  milliseconds += new Date() - startDate;
  inserted += Object.keys(res.insertedIds).length;
  for (var b = 0; b < batch.length; b++) bsonBytes += bsonSizeOf(batch[b]);
  batch = [];
  batchNumber++;
  if (PROGRESS && batchNumber % progressEvery === 0) print(JSON.stringify({ progress: batchNumber, of: batches }));
}

for (var minute = 0; minute < MINUTES; minute++) {
  for (var i = 0; i < TICKERS; i++) {
    batch.push(candle(tickers[i], minute));
    if (batch.length === BATCH) flush();
  }
}
if (batch.length) flush();

var avgBsonSize = inserted ? Math.round(bsonBytes / inserted * 10) / 10 : null;

// Durable: the load goes on until a checkpoint has written (and compressed) every block, inside
// the clock, where this run may force one; the sizes are read after it.
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
  return { outcome: 'forced', reason: 'a checkpoint forced by fsync after the last insert, inside the clock', ms: wall, hrMs: hr };
}
var durable = timedCheckpoint();
var sizesRead = durable.outcome === 'forced' ? 'read after the checkpoint that ended the load (fsync)' : 'read right after the load: ' + durable.reason;
// the collStats command, as the article's shell's stats() was and as the orchestrator reads it
// (mongosh's stats() goes through $collStats, whose size on FerretDB counts the indexes too)
var stats;
try { stats = db.runCommand({ collStats: 'candles' }); } catch (e) { stats = { ok: 0 }; }
if (!stats.ok) stats = db.candles.stats();
// the command's sizes may come back as Long or Int32: make them plain numbers before adding
var sizes = { size: Number(stats.size), storageSize: Number(stats.storageSize), totalIndexSize: Number(stats.totalIndexSize) };
print('candles ' + inserted + ' (' + TICKERS + ' tickers x ' + MINUTES + ' minutes), average BSON size ' + avgBsonSize + ' bytes');
print('load ' + milliseconds + ' ms (' + Math.round(inserted / (milliseconds / 1000)) + ' candles/s), 3 indexes built before the load');
print(durable.outcome === 'forced'
  ? 'durable after ' + (milliseconds + durable.ms) + ' ms (the checkpoint ' + durable.ms + ' ms)'
  : 'durable: not timed (' + durable.reason + ')');
print('data ' + sizes.size + ' bytes, storage ' + sizes.storageSize + ' bytes, indexes ' + sizes.totalIndexSize + ' bytes (' + sizesRead + ')');
print('');

print(JSON.stringify({
  scenario: 'trade-candles', step: 'load', collection: 'candles',
  ms: milliseconds, hrMs: Math.round(hrMilliseconds * 1000) / 1000,
  candlesPerSecond: milliseconds > 0 ? Math.round(inserted / (milliseconds / 1000)) : null,
  tickers: TICKERS, minutes: MINUTES, batchSize: BATCH, batches: batchNumber,
  avgBsonSize: avgBsonSize,
  // the article's size measure, data + indexes; the orchestrator adds collStats' own fields
  storagePlusIndexBytes: sizes.storageSize + sizes.totalIndexSize,
  indexList: INDEXES.map(function (index) { return JSON.stringify(index.key) + ' for ' + index.why; }).join('; '),
  indexesBuilt: 'before the load', writeConcern: 'w:1', sizesRead: sizesRead,
  // until every block was written (and compressed) by a checkpoint, where the script may force one
  durableMs: durable.outcome === 'forced' ? milliseconds + durable.ms : undefined,
  durableHrMs: durable.outcome === 'forced' ? Math.round((hrMilliseconds + durable.hrMs) * 1000) / 1000 : undefined,
  checkpointMs: durable.outcome === 'forced' ? durable.ms : undefined,
  durable: { outcome: durable.outcome, reason: durable.reason },
  inserted: inserted, removed: 0
}));
