'use strict';
// The pure parts of the trade-candles scripts, run in a VM context as mongosh would run them:
// the ticker list both scripts must share, the read test's query plan ("the same queries in
// the same order" on every server) and the latency summary.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { stampedBlock } = require('../../../scripts/stamp');

const DIR = path.resolve(__dirname, '..');


const LOAD = fs.readFileSync(path.join(DIR, 'load.js'), 'utf8');
const READ = fs.readFileSync(path.join(DIR, 'read.js'), 'utf8');

/** The text between `// --- name ...` and `// --- end name ---` in a script. */
function block(source, name) {
  const m = new RegExp(`// --- ${name}[^\\n]*\\n([\\s\\S]*?)// --- end ${name} ---`).exec(source);
  assert.ok(m, `no "${name}" block`);
  return m[1];
}

function mulberry(source) {
  const m = /function mulberry32\(a\) \{[\s\S]*?\n\}\n/.exec(source);
  assert.ok(m, 'no mulberry32');
  return m[0];
}

/** The read script's pure functions in a fresh context where Math.random throws. */
function readFunctions() {
  const context = vm.createContext({});
  vm.runInContext('Math.random = function () { throw new Error("the plan must not use Math.random"); };', context);
  vm.runInContext(`var PLAN_SEED = ${/var PLAN_SEED = (\d+);/.exec(READ)[1]};\n${mulberry(READ)}${stampedBlock(READ, 'candle-tickers')}${block(READ, 'query plan')}`, context);
  return context;
}

const ARTICLE = { tickers: 3600, minutes: 390, tickerSample: 200, tickerQueries: 10000, intervals: 10, intervalRepeats: 10, intervalMaxMinutes: 30, dayQueries: 5 };
const SMOKE = { tickers: 10, minutes: 390, tickerSample: 5, tickerQueries: 10, intervals: 3, intervalRepeats: 2, intervalMaxMinutes: 30, dayQueries: 1 };

describe('trade-candles scripts', () => {
  const f = readFunctions();

  it('load.js and read.js share the same ticker generator', () => {
    assert.equal(stampedBlock(LOAD, 'candle-tickers'), stampedBlock(READ, 'candle-tickers'));
    assert.equal(mulberry(LOAD), mulberry(READ));
  });

  it('draws 3,600 distinct 1-5 letter symbols, the same on every call and a prefix at smaller sizes', () => {
    const symbols = Array.from(f.tickerSymbols(3600));
    assert.equal(symbols.length, 3600);
    assert.equal(new Set(symbols).size, 3600);
    assert.ok(symbols.every((s) => /^[A-Z]{1,5}$/.test(s)), 'symbols are 1-5 capital letters');
    assert.deepEqual(Array.from(f.tickerSymbols(3600)), symbols);
    assert.deepEqual(Array.from(f.tickerSymbols(10)), symbols.slice(0, 10));
    const fourLetters = symbols.filter((s) => s.length === 4).length / symbols.length;
    assert.ok(fourLetters > 0.45 && fourLetters < 0.65, `most symbols have 4 letters, as NASDAQ's (${fourLetters})`);
  });

  for (const [name, p] of [['article', ARTICLE], ['smoke', SMOKE]]) {
    describe(`the query plan at the ${name} size`, () => {
      const plan = Array.from(f.queryPlan(p), (q) => ({ ...q }));
      const byType = (type) => plan.filter((q) => q.query === type);

      it('is the article\'s order: every ticker query, then the intervals, then the whole day', () => {
        assert.equal(plan.length, p.tickerQueries + p.intervals * p.intervalRepeats + p.dayQueries);
        const order = plan.map((q) => q.query).filter((t, i, all) => i === 0 || all[i - 1] !== t);
        assert.deepEqual(order, ['byTicker', 'timeRange', 'day']);
      });

      it('queries a sample of TICKER_SAMPLE distinct tickers, MINUTES candles each', () => {
        const tickers = new Set(byType('byTicker').map((q) => q.ticker));
        assert.ok(tickers.size <= p.tickerSample && tickers.size >= Math.min(p.tickerSample, p.tickerQueries) * 0.8, `${tickers.size} tickers queried`);
        const known = new Set(f.tickerSymbols(p.tickers));
        assert.ok([...tickers].every((t) => known.has(t)));
        assert.ok(byType('byTicker').every((q) => q.expected === p.minutes));
      });

      it('repeats INTERVALS intervals of 1-30 minutes inside the session, each expecting every ticker per minute', () => {
        const ranges = byType('timeRange');
        const distinct = ranges.slice(0, p.intervals);
        for (let r = 1; r < p.intervalRepeats; r++) {
          assert.deepEqual(ranges.slice(r * p.intervals, (r + 1) * p.intervals), distinct, `repeat ${r + 1} is the same intervals`);
        }
        for (const q of distinct) {
          assert.ok(q.minutes >= 1 && q.minutes <= p.intervalMaxMinutes && q.from >= 0 && q.from + q.minutes <= p.minutes, JSON.stringify(q));
          assert.equal(q.expected, q.minutes * p.tickers);
        }
      });

      it('reads the whole day DAY_QUERIES times', () => {
        assert.equal(byType('day').length, p.dayQueries);
        assert.ok(byType('day').every((q) => q.expected === p.tickers * p.minutes));
      });

      it('is the same plan on every call, whatever SEED and Math.random do', () => {
        assert.deepEqual(Array.from(f.queryPlan(p), (q) => ({ ...q })), plan);
      });
    });
  }

  describe('the cache cut for the little-memory rerun', () => {
    const cut = vm.createContext({});
    vm.runInContext(block(READ, 'cache cut'), cut);
    const MB = 1024 * 1024;

    it('cuts a cache larger than CACHE_MB (a mongod\'s default on a machine with RAM to spare)', () => {
      assert.deepEqual({ ...cut.cacheCutDecision(7.5 * 1024 * MB, 256) }, { cut: true, reason: null });
      assert.equal(cut.cacheCutDecision(256 * MB + 1, 256).cut, true);
    });

    it('says "not applied: the cache was already this small" where it is no larger (mongod on 1.5 GB: 256 MB)', () => {
      for (const bytes of [256 * MB, 200 * MB]) {
        const d = cut.cacheCutDecision(bytes, 256);
        assert.equal(d.cut, false);
        assert.equal(d.reason, `the cache was already this small (${bytes} bytes configured, ${256 * MB} asked for), so the little-memory reads ran with the same cache as the own-memory ones`);
      }
    });

    it('decides the cut once, before any read, without sending it; a cut only follows an applied decision', () => {
      const decide = /function lowMemoryPlan\(mb\) \{[\s\S]*?\n\}\n/.exec(READ)[0];
      assert.doesNotMatch(decide, /setParameter/, 'deciding sends nothing');
      assert.match(decide, /if \(!decision\.cut\) return \{ outcome: 'not applied', reason: decision\.reason, previousBytes: previousBytes \};/);
      const set = /function setMemory\(run\) \{[\s\S]*?\n\}\n/.exec(READ)[0];
      assert.match(set, /run === 'little-memory' && !cacheIsCut && lowMemory\.outcome === 'applied'/);
    });
  });

  it('summarises latencies: the mean and nearest-rank percentiles of the sorted samples', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    const s = f.latencySummary(samples);
    assert.deepEqual({ ...s }, { queries: 100, meanUs: 50.5, p50Us: 50, p95Us: 95, p99Us: 99, minUs: 1, maxUs: 100 });
    assert.deepEqual(samples[0], 100, 'the samples are not sorted in place');
    const one = f.latencySummary([1234.56]);
    assert.deepEqual([one.meanUs, one.p50Us, one.p99Us], [1234.6, 1234.6, 1234.6]);
  });
});

/** The paired rounds and paired servers blocks in a context of their own, as one server's script sees them. */
function pairing(partner, self) {
  const context = vm.createContext({ PARTNER: partner, SERVER_NAME: self, calls: [] });
  vm.runInContext(`${stampedBlock(LOAD, 'paired-rounds')}${stampedBlock(LOAD, 'paired-servers')}
    partnerTurn = function (round, variant, announce) { calls.push({ round: round, variant: variant, announce: announce }); return Boolean(PARTNER); };`, context);
  return context;
}
const plain = (x) => JSON.parse(JSON.stringify(x));

/**
 * Both servers' scripts run against each other as the kit answers them: each runs its blocks in
 * its order, a block starting only once the partner's block it waits for has ended (the kit marks
 * a server's n-th block line of a round). Returns the blocks in the order they ran, or throws
 * where neither can go on (a wait that would never be answered).
 */
function playPair(variants, rounds, seed, { names = ['mongod:none', 'mongod:zstd'], warmup = false } = {}) {
  const sides = names.map((name, i) => {
    const ctx = pairing(names[1 - i], name);
    const runs = plain(ctx.roundsToRun(ctx.serverRounds(variants, rounds, seed), warmup));
    const mine = runs.flatMap((run, at) => run.order.map((b, p) => ({ ...b, round: run.round, at, index: p })).filter((b) => b.server === name));
    return { name, ctx, runs, mine, next: 0, counts: {} };
  });
  const marks = new Set();
  const ran = [];
  for (;;) {
    const ready = sides.find((side) => {
      const b = side.mine[side.next];
      if (!b) return false;
      const wait = side.ctx.partnerBlockBefore(side.runs, b.at, b.index);
      return !wait || marks.has(`${wait.round}:${wait.variant}`);
    });
    if (!ready) break;
    const b = ready.mine[ready.next++];
    ran.push({ server: b.server, variant: b.variant, round: b.round });
    ready.counts[b.round] = (ready.counts[b.round] || 0) + 1;
    marks.add(`${b.round}:${ready.name}#${ready.counts[b.round]}`);
  }
  const left = sides.filter((side) => side.next < side.mine.length);
  if (left.length) throw new Error(`stuck: ${left.map((side) => `${side.name} at block ${side.next + 1}`).join(', ')}`);
  return { ran, runs: sides[0].runs };
}

describe('trade-candles in paired rounds', () => {
  it('load.js and read.js share the paired rounds and paired servers blocks', () => {
    for (const name of ['paired-rounds', 'paired-servers']) assert.equal(stampedBlock(LOAD, name), stampedBlock(READ, name));
  });

  it('alone (PARTNER null): each round holds this server\'s variants only, in mirrored pairs of rounds, and nothing waits', () => {
    const ctx = pairing(null, null);
    const orders = plain(ctx.serverRounds(['own-memory', 'little-memory'], 8, 7));
    assert.equal(orders.length, 8);
    for (const order of orders) assert.deepEqual(order.map((b) => b.variant).sort(), ['little-memory', 'own-memory']);
    for (let r = 1; r < 8; r += 2) assert.deepEqual(orders[r], orders[r - 1].slice().reverse());
    ctx.awaitPartner(ctx.roundsToRun(orders, true), 3, 1);
    ctx.meetPartner(0);
    assert.deepEqual(plain(ctx.calls), []);
  });

  it('paired: both servers draw the same order of every block of both, whichever each is', () => {
    for (const variants of [['load'], ['own-memory', 'little-memory']]) {
      const a = plain(pairing('mongod:zstd', 'mongod:none').serverRounds(variants, 8, 42));
      const b = plain(pairing('mongod:none', 'mongod:zstd').serverRounds(variants, 8, 42));
      assert.deepEqual(a, b);
      for (const order of a) assert.equal(order.length, 2 * variants.length);
      // every block's place averages the middle of its round, over the mirrored pairs of rounds
      const n = 2 * variants.length;
      for (const server of ['mongod:none', 'mongod:zstd']) {
        for (const variant of variants) {
          const places = a.map((order) => order.findIndex((x) => x.server === server && x.variant === variant));
          assert.equal(places.reduce((x, y) => x + y, 0), (8 * (n - 1)) / 2, `${server} ${variant}: ${places}`);
        }
      }
    }
  });

  for (const [variants, seed, warmup] of [[['load'], 3, false], [['load'], 3, true], [['own-memory', 'little-memory'], 11, false], [['own-memory', 'little-memory'], 2014, true], [['own-memory'], 5, true]]) {
    it(`two servers' blocks run one at a time, in the drawn order, and neither waits for ever (${variants.join(', ')}, seed ${seed}${warmup ? ', a warm-up round first' : ''})`, () => {
      const { ran, runs } = playPair(variants, 8, seed, { warmup });
      const drawn = runs.flatMap((run) => run.order.map((b) => ({ server: b.server, variant: b.variant, round: run.round })));
      assert.deepEqual(ran, drawn);
      assert.equal(ran[0].round, warmup ? 0 : 1);
    });
  }

  it('with a warm-up, runs round 0 first in round 1\'s order, then the rounds as drawn', () => {
    const ctx = pairing('mongod:zstd', 'mongod:none');
    const orders = plain(ctx.serverRounds(['own-memory', 'little-memory'], 8, 7));
    const runs = plain(ctx.roundsToRun(orders, true));
    assert.deepEqual(runs.map((r) => [r.round, r.warmup]), [[0, true], ...orders.map((_, i) => [i + 1, false])]);
    assert.deepEqual(runs[0].order, orders[0]);
    assert.deepEqual(plain(ctx.roundsToRun(orders, false)).map((r) => r.round), [1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('waits for the partner\'s last block before this one: in its round, else the round before (the warm-up\'s too); announced; a meeting by name', () => {
    const ctx = pairing('b', 'a');
    const runs = [{ round: 0, order: [{ server: 'b' }, { server: 'a' }] }, { round: 1, order: [{ server: 'a' }, { server: 'b' }, { server: 'b' }, { server: 'a' }] }, { round: 2, order: [{ server: 'a' }, { server: 'b' }] }];
    assert.equal(ctx.partnerBlockBefore(runs.slice(1), 0, 0), null, 'the first block of the first round waits for nothing (the meeting before it does)');
    assert.deepEqual(plain(ctx.partnerBlockBefore(runs, 1, 0)), { round: 0, variant: 'b#1' }, 'round 1\'s first waits for the warm-up\'s last');
    assert.deepEqual(plain(ctx.partnerBlockBefore(runs, 1, 3)), { round: 1, variant: 'b#2' });
    assert.deepEqual(plain(ctx.partnerBlockBefore(runs, 2, 0)), { round: 1, variant: 'b#2' });
    ctx.awaitPartner(runs, 1, 3);
    ctx.meetPartner(9);
    assert.deepEqual(plain(ctx.calls), [{ round: 1, variant: 'b#2', announce: true }, { round: 9, variant: 'b#meet', announce: true }]);
  });

  it('reads the tickers of a block once each, and joins a run\'s blocks into its line', () => {
    const f = vm.createContext({});
    vm.runInContext(block(READ, 'reads in rounds'), f);
    assert.deepEqual(Array.from(f.tickersOf([{ ticker: 'B' }, { ticker: 'A' }, { ticker: 'B' }])), ['B', 'A']);
    const part = (us, pages) => ({ samples: [us], ms: 1, hrMs: us / 1000, returned: 390, expected: 390, mismatches: 0, firstMismatch: null, cacheReads: pages === null ? null : { pages, bytes: pages * 10 } });
    const joined = plain(f.joinResults([part(100, 2), part(300, 4)]));
    assert.deepEqual(joined, { samples: [100, 300], ms: 2, hrMs: 0.4, returned: 780, expected: 780, mismatches: 0, firstMismatch: null, cacheReads: { pages: 6, bytes: 60 } });
    assert.equal(f.joinResults([part(100, 2), part(300, null)]).cacheReads, null, 'no count where a block had none');
  });

  it('cuts the day into ROUNDS blocks of minutes that cover it once', () => {
    const ctx = pairing(null, null);
    const shares = plain(ctx.roundShares(390, 8));
    assert.deepEqual(shares.map(([a, b]) => b - a), [49, 49, 49, 49, 49, 49, 48, 48]);
    assert.equal(shares[0][0], 0);
    assert.equal(shares.at(-1)[1], 390);
  });
});

describe('trade-candles verdicts', () => {
  const { analyseScenario } = require('../../../orchestrator/analysis/analyse');
  const { verdictsTable } = require('../../../orchestrator/report/verdicts-table');
  const { blocksMarkdown } = require('../../../orchestrator/report/blocks');
  const { discoverScenarios } = require('../../../orchestrator/scenarios');
  const { loads } = require('./verdict-cases');
  const scenario = discoverScenarios(path.resolve(DIR, '..')).find((s) => s.name === 'trade-candles');

  it('shows TokuMX as published only and marks the kit\'s own questions in the table', () => {
    const { verdicts } = analyseScenario(scenario, { measurements: loads({ none: {}, zstd: { bytes: 60 } }).map((r) => ({ scenario: 'trade-candles', ...r })) });
    const md = blocksMarkdown([verdictsTable(verdicts, (v) => scenario.loadPublished().findings.find((f) => f.id === v.finding))]);
    assert.match(md, /\| trade-candles \| TokuMX stored the day smaller than MongoDB \| the article's \| \*\*published only\*\* \| – \| – \| 1\.60× \| TokuMX cannot be run today/);
    assert.match(md, /\| trade-candles \| \*the kit's question, not the article's:\* compressed \(zstd\) data and indexes are smaller/);
  });
});
