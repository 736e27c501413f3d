'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, smokeRunOn, ownRunOn, verdictsOf, untestableOn, assertDeclaredUntestable } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { leftAfter } = require('../../../test/helpers/processes');
const { assertTakingTurns } = require('../../../test/helpers/pairs');

const { pairedRoundsOf } = require('../../../test/helpers/paired-rounds');

const CHARTS = ['load-time', 'size', 'latency-by-ticker', 'latency-time-range', 'latency-whole-day', 'article-findings'];

const scenario = scenarioOf(__dirname);
const { roundShares } = pairedRoundsOf(path.join(scenario.dir, 'read.js'));
/** How many of n a paired round holds, round by round, as the scripts cut them. */
const sharesOf = (n, rounds) => Array.from(roundShares(n, rounds), ([from, to]) => to - from);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`trade-candles at smoke size on ${server}`, function () {
    this.timeout(300000);
    let out;
    let run;
    // the fixture run's own rounds and sizes (test/helpers/fixture-runs.js), never constants of this suite's
    let ROUNDS;
    let SMOKE;
    let CANDLES;
    let QUERIES;
    let load;
    let reads;
    let loadBlocks;
    let readBlocks;
    let warmUps;

    const state = smokeRunOn(scenario, server);
    before(() => {
      ({ out, run } = state);
      ({ rounds: ROUNDS, sizes: SMOKE } = state.params);
      CANDLES = SMOKE.TICKERS * SMOKE.MINUTES;
      QUERIES = { byTicker: SMOKE.TICKER_QUERIES, timeRange: SMOKE.INTERVALS * SMOKE.INTERVAL_REPEATS, day: SMOKE.DAY_QUERIES };
      load = run.measurements.filter((m) => m.step === 'load');
      reads = run.measurements.filter((m) => m.step === 'read');
      // the counted blocks (rounds 1 to ROUNDS); the warm-up round's apart (round 0, warmup true)
      loadBlocks = run.blocks.filter((b) => b.step === 'load' && !b.warmup);
      readBlocks = run.blocks.filter((b) => b.step === 'read' && !b.warmup);
      warmUps = run.blocks.filter((b) => b.warmup);
    });


    it('writes one day of candles, all of them counted, with 3 indexes besides _id', () => {
      assert.equal(load.length, 1);
      const [m] = load;
      assert.equal(m.inserted, CANDLES);
      assert.equal(m.count, CANDLES, 'collStats count after the load');
      assert.equal(m.countOk, true, 'the orchestrator\'s count check');
      assert.equal(m.indexesBuilt, 'before the load');
      assert.equal(m.nindexes, 4);
    });

    it('measures the load time, the data and index sizes and the candle size near the article\'s 270 bytes', () => {
      const [m] = load;
      assert.ok(Number.isInteger(m.ms) && m.ms >= 0 && m.hrMs > 0, `load ${m.ms} ms, ${m.hrMs} hr ms`);
      assert.ok(m.candlesPerSecond > 0);
      assert.ok(m.size > 0 && m.storageSize > 0 && m.totalIndexSize > 0, 'sizes from collStats');
      assert.equal(m.storagePlusIndexBytes, m.storageSize + m.totalIndexSize);
      assert.ok(m.avgBsonSize > 250 && m.avgBsonSize < 290, `average BSON size ${m.avgBsonSize}`);
      if (server.startsWith('mongod')) assert.equal(m.blockCompressor, server.split(':')[1] || 'snappy');
      // the kit started this server, so the script times the load on to durability: a checkpoint
      // inside the clock, after which it reads the sizes
      if (server.startsWith('mongod')) {
        assert.equal(m.sizesRead, 'read after the checkpoint that ended the load (fsync)');
        assert.equal(m.durable.outcome, 'forced', m.durable.reason);
        assert.equal(m.durableMs, m.ms + m.checkpointMs);
        assert.ok(m.durableHrMs > m.hrMs, `durable after ${m.durableHrMs} ms, acknowledged after ${m.hrMs} ms`);
      } else {
        // FerretDB has no fsync: no durable time, and the record says why
        assert.match(m.sizesRead, /fsync was refused .*may lag/);
        assert.equal(m.durable.outcome, 'refused');
        assert.equal(m.durableMs, undefined);
      }
    });

    it('loads the day in ROUNDS blocks of minutes, each its own line, the load\'s line their sums', () => {
      assert.deepEqual(loadBlocks.map((b) => b.round), Array.from({ length: ROUNDS }, (_, i) => i + 1));
      assert.ok(loadBlocks.every((b) => b.rounds === ROUNDS && b.position === 1 && b.collection === 'candles'), 'alone, each round holds this server\'s block only');
      assert.deepEqual(loadBlocks.map((b) => b.minutes), sharesOf(SMOKE.MINUTES, ROUNDS));
      assert.equal(loadBlocks.reduce((n, b) => n + b.inserted, 0), CANDLES);
      const [m] = load;
      assert.equal(m.rounds, ROUNDS);
      assert.equal(m.ms, loadBlocks.reduce((n, b) => n + b.ms, 0));
      if (server.startsWith('mongod')) {
        assert.ok(loadBlocks.every((b) => b.durableMs === b.ms + b.checkpointMs), 'a checkpoint inside each block\'s clock');
        assert.equal(m.durableMs, loadBlocks.reduce((n, b) => n + b.durableMs, 0));
      } else {
        assert.ok(loadBlocks.every((b) => b.durableMs === undefined), 'FerretDB has no fsync');
      }
      for (let i = 1; i < loadBlocks.length; i++) assert.ok(loadBlocks[i].startedAt >= loadBlocks[i - 1].endedAt, 'one block after the other');
    });

    it('warms up first: a load block into a collection of its own, and a read block of each run in round 1\'s order, round 0, in no sum', () => {
      const [load0, ...reads0] = warmUps;
      assert.deepEqual([load0.step, load0.round, load0.collection], ['load', 0, 'candles_warmup']);
      assert.equal(load0.minutes, loadBlocks[0].minutes, 'round 1\'s share of minutes');
      const first = readBlocks.filter((b) => b.round === 1).sort((a, b) => a.position - b.position);
      assert.deepEqual(reads0.map((b) => [b.step, b.round, b.run, b.queries]), first.map((b) => ['read', 0, b.run, b.queries]), 'round 1\'s order and queries');
      // the day's collection holds the day alone: the warm-up's candles went into their own, since dropped
      const [m] = load;
      assert.equal(m.inserted, m.tickers * m.minutes);
      assert.equal(m.count, m.inserted);
    });

    it('reads by ticker in ROUNDS rounds, each an own-memory and a little-memory block of the same queries, in the seed\'s mirrored order', () => {
      const shares = sharesOf(SMOKE.TICKER_QUERIES, ROUNDS);
      for (let r = 1; r <= ROUNDS; r++) {
        const round = readBlocks.filter((b) => b.round === r);
        assert.deepEqual(round.map((b) => b.run).sort(), ['little-memory', 'own-memory'], `round ${r}`);
        assert.deepEqual(round.map((b) => b.position).sort(), [1, 2]);
        assert.ok(round.every((b) => b.query === 'byTicker' && b.rounds === ROUNDS && b.queries === shares[r - 1] && b.meanUs > 0));
        assert.equal(round[0].returned, round[1].returned, 'the same queries in both blocks');
        assert.ok(round.find((b) => b.run === 'own-memory').warmUpQueries >= 1, 'an own-memory block reads its tickers first, untimed');
      }
      // rounds come in mirrored twos: the order of round 2k is round 2k-1's backwards
      const order = (r) => readBlocks.filter((b) => b.round === r).sort((a, b) => a.position - b.position).map((b) => b.run);
      for (let r = 2; r <= ROUNDS; r += 2) assert.deepEqual(order(r), order(r - 1).reverse());
      for (const run of ['own-memory', 'little-memory']) {
        const line = reads.find((x) => x.run === run && x.query === 'byTicker');
        const blocks = readBlocks.filter((b) => b.run === run);
        assert.equal(line.queries, blocks.reduce((n, b) => n + b.queries, 0));
        assert.equal(line.ms, blocks.reduce((n, b) => n + b.ms, 0));
        assert.equal(line.rounds, ROUNDS);
      }
    });

    it('measures every query type with the server\'s own memory and again with little memory', () => {
      const cells = reads.map((r) => `${r.run}/${r.query}`).sort();
      assert.deepEqual(cells, ['little-memory/byTicker', 'little-memory/day', 'little-memory/timeRange',
        'own-memory/byTicker', 'own-memory/day', 'own-memory/timeRange']);
      for (const r of reads) {
        assert.equal(r.queries, QUERIES[r.query], `${r.run} ${r.query} queries`);
        assert.ok(r.meanUs > 0 && r.minUs <= r.p50Us && r.p50Us <= r.p95Us && r.p95Us <= r.p99Us && r.p99Us <= r.maxUs,
          `${r.run} ${r.query}: ${JSON.stringify(r)}`);
        assert.ok(r.minUs <= r.meanUs && r.meanUs <= r.maxUs);
        assert.ok(Number.isInteger(r.ms) && r.hrMs > 0);
      }
    });

    it('gets back exactly the candles each query should return, by the generator\'s arithmetic', () => {
      for (const r of reads) {
        assert.equal(r.countsOk, true, `${r.run} ${r.query}: ${JSON.stringify(r.firstMismatch)}`);
        assert.equal(r.mismatches, 0);
        assert.equal(r.returned, r.expected);
      }
      // the expected counts, computed here from the sizes rather than taken from the script
      for (const r of reads.filter((x) => x.query === 'byTicker')) assert.equal(r.expected, SMOKE.TICKER_QUERIES * SMOKE.MINUTES);
      for (const r of reads.filter((x) => x.query === 'day')) assert.equal(r.expected, SMOKE.DAY_QUERIES * CANDLES);
      for (const r of reads.filter((x) => x.query === 'timeRange')) {
        const n = QUERIES.timeRange;
        assert.equal(r.expected % SMOKE.TICKERS, 0, 'a whole number of minutes of every ticker');
        assert.ok(r.expected >= n * SMOKE.TICKERS && r.expected <= n * SMOKE.TICKERS * 30, `${r.expected} candles in ${n} intervals of 1-30 minutes`);
      }
    });

    it('counts the reads that missed the cache: none with the server\'s own memory right after the load', () => {
      for (const r of reads) {
        if (server.startsWith('mongod')) {
          assert.ok(Number.isInteger(r.cacheReadPages) && r.cacheReadPages >= 0 && r.cacheReadBytes >= 0, `${r.run} ${r.query}: ${r.cacheReadPages}`);
          assert.equal(r.cachePagesPerQuery, Math.round(r.cacheReadPages / r.queries * 100) / 100);
          // every page load.js wrote is still in the cache: these reads decompress nothing
          if (r.run === 'own-memory') assert.equal(r.cacheReadPages, 0, `${r.query}: ${r.cacheReadBytes} bytes read into the cache`);
        } else {
          assert.equal(r.cacheReadPages, undefined, 'FerretDB has no WiredTiger cache');
          assert.equal(r.cachePagesPerQuery, undefined);
        }
      }
      // each block counts its own: the own-memory blocks, their tickers just read, miss nothing
      for (const b of readBlocks) {
        if (!server.startsWith('mongod')) assert.equal(b.cachePagesPerQuery, undefined);
        else if (b.run === 'own-memory') assert.equal(b.cacheReadPages, 0, `round ${b.round}: ${b.cacheReadBytes} bytes read into the cache`);
      }
    });

    it('says whether the cache was cut for the little-memory run, and why not where it was not', () => {
      for (const r of reads.filter((x) => x.run === 'own-memory')) assert.equal(r.lowMemory, null);
      const little = reads.filter((x) => x.run === 'little-memory');
      for (const r of little) {
        if (server.startsWith('mongod') && r.lowMemory.previousBytes <= 256 * 1024 * 1024) {
          // mongod's default cache on a machine of 1.5 GB or less: nothing to cut
          assert.equal(r.lowMemory.outcome, 'not applied');
          assert.match(r.lowMemory.reason, /^the cache was already this small/);
        } else if (server.startsWith('mongod')) {
          assert.equal(r.lowMemory.outcome, 'applied', r.lowMemory.reason);
          assert.equal(r.lowMemory.cacheBytes, Math.max(SMOKE.CACHE_MB, 256) * 1024 * 1024, 'never below mongod\'s 256 MB floor');
          assert.equal(r.lowMemory.restored, true, 'the cache size is restored afterwards');
          assert.match(r.lowMemory.reason, /page cache/);
          assert.ok(r.lowMemory.dataPerCache > 0 && r.lowMemory.dataPerCache < 1, `smoke's candles fit the cache: ${r.lowMemory.dataPerCache}`);
        } else {
          assert.equal(r.lowMemory.outcome, 'not applied');
          assert.match(r.lowMemory.reason, /no WiredTiger cache/);
          assert.match(r.memory, /not reduced/);
        }
      }
    });

    it('writes summary.md with the measured tables beside the article\'s findings, and every chart as a real PNG', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, new RegExp(`\\| candles \\| [\\d,]+ \\| [\\d,.]+ \\| (–|[\\d,]+) \\| [\\d,]+ \\| ${CANDLES.toLocaleString('en-US')} \\| 2\\d\\d\\.\\d \\|`));
      assert.match(summary, new RegExp(`\\| 1 by ticker \\| ${QUERIES.byTicker.toLocaleString('en-US')} \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| (–|[\\d,.]+) \\| true \\|`));
      assert.match(summary, /\| 3 whole day \| (the server's own \(cache not reduced\)|WiredTiger cache 256 MB) \| 1 \|/);
      assert.match(summary, /\| 1 load time \(TokuMX 1\.4× faster\) \| 0\.71 \|\n/);
      assert.match(summary, /little memory: (not applied|applied): /);
      for (const chart of CHARTS) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `trade-candles-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('shows the article\'s TokuMX findings as published only, and the kit\'s own questions as untestable where declared', () => {
      const verdicts = verdictsOf(out, scenario.name);
      for (const f of FINDINGS.filter((x) => x.check.kind === 'publishedOnly')) {
        const v = verdicts.find((x) => x.finding === f.id);
        assert.equal(v.status, 'published only', f.id);
        assert.equal(v.server, 'the article\'s');
      }
      for (const f of FINDINGS.filter((x) => x.source === 'kit')) assert.ok(verdicts.some((v) => v.finding === f.id && v.kit === true), f.id);
      if (Object.keys(untestableOn(scenario, server)).length) assertDeclaredUntestable(scenario, verdicts, server); // none on mongod
      // smoke's candles fit the smallest cache mongod allows: too small to show a little-memory effect
      const little = verdicts.find((v) => v.finding === 'little-memory-slower');
      assert.equal(little.status, 'cannot be tested here');
    });

    it('leaves no process it started running', async () => {
      assert.deepEqual(await leftAfter(state.tag), []);
    });
  });
}

// The kit's zstd questions compare two servers of one run, an uncompressed mongod and a zstd one,
// run paired: their steps at once, their blocks taking turns. The suite runs where
// MONGOMS_SYSTEM_BINARY names a real mongod (npm run test:mongod).
describe('trade-candles at smoke size on mongod:none beside mongod:zstd, the kit\'s zstd questions', function () {
  this.timeout(600000);
  const state = ownRunOn(scenario, 'mongod:none', { args: ['--server', 'mongod:zstd'], alsoNeeds: ['mongod:zstd'] });
  const verdict = (id) => verdictsOf(state.out).find((v) => v.finding === id);

  it('exits 0 with both servers measured, paired: the same candles on both, their blocks taking turns', () => {
    assert.equal(state.result.code, 0, state.result.stderr);
    assert.deepEqual(state.run.failures, []);
    const loads = state.run.measurements.filter((m) => m.step === 'load');
    assert.deepEqual(loads.map((m) => m.blockCompressor).sort(), ['none', 'zstd']);
    assert.equal(loads[0].seed, loads[1].seed, 'one seed for both');
    assert.equal(loads[0].avgBsonSize, loads[1].avgBsonSize, 'the same candles');
    assertTakingTurns(state.run, 'load', ['mongod:none', 'mongod:zstd']);
    assertTakingTurns(state.run, 'read', ['mongod:none', 'mongod:zstd'], { perRound: 2 });
    assert.match(state.result.stdout, /mongod:none and mongod:zstd run its steps at once, their blocks taking turns/);
  });

  it('decides the write question on the two servers\' paired blocks, each timed to durability', () => {
    for (const m of state.run.measurements.filter((x) => x.step === 'load')) {
      assert.equal(m.durable.outcome, 'forced', `${m.server}: ${m.durable.reason}`);
      assert.ok(m.durableMs >= m.ms);
    }
    for (const b of state.run.blocks.filter((x) => x.step === 'load')) assert.equal(b.durableMs, b.ms + b.checkpointMs, `${b.server} round ${b.round}`);
    const v = verdict('zstd-writes-faster');
    assert.equal(v.server, 'all servers');
    assert.notEqual(v.status, 'cannot be tested here', v.reason);
    assert.deepEqual(v.servers, ['mongod:zstd', 'mongod:none']);
    assert.equal(v.clock, 'durable');
    assert.equal(v.n, state.run.run.params.rounds['trade-candles']);
    assert.equal(v.method, 't on paired log-ratios');
    assert.ok(v.lo <= v.ratio && v.ratio <= v.hi, JSON.stringify(v));
  });

  it('decides the read question only where the reads missed the cache: at smoke size they did not, and it says what it measured instead', () => {
    const v = verdict('zstd-reads-slower');
    // smoke's 3,900 candles fit in even the cut cache, so every read was a hit on both servers
    assert.equal(v.status, 'cannot be tested here');
    assert.match(v.reason, /^on mongod:zstd: the reads did not miss the cache .*; on mongod:none: /);
    assert.ok(v.reasons.every((r) => r.code === 'requirement-unmet'), JSON.stringify(v.reasons));
    assert.equal(v.clock, 'latency');
    assert.equal(v.n, state.run.run.params.rounds['trade-candles'], 'what was measured instead: the little-memory blocks paired by round all the same');
  });

  it('decides the size question on one size per server, read after the last block\'s checkpoint', () => {
    const v = verdict('zstd-smaller');
    assert.notEqual(v.status, 'cannot be tested here', v.reason);
    assert.equal(v.n, 1);
    assert.equal(v.field, 'storagePlusIndexBytes');
    assert.deepEqual(v.servers, ['mongod:zstd', 'mongod:none']);
  });
});

// The main job on a mongod: the default server brings mongod:none and mongod:zstd along for this
// scenario, paired, so the zstd questions are decided rather than "cannot be tested here".
describe('trade-candles at smoke size on the default server where it is a mongod, with its companions', function () {
  this.timeout(600000);
  const state = ownRunOn(scenario, 'embedded', { alsoNeeds: ['mongod'] });

  it('starts mongod:none and mongod:zstd beside it, says so in the size table, and runs them paired', () => {
    assert.equal(state.result.code, 0, state.result.stderr);
    const companions = state.run.servers.filter((s) => s.companionOf === 'embedded').map((s) => s.server).sort();
    assert.deepEqual(companions, ['mongod:none', 'mongod:zstd']);
    assert.match(state.result.stdout, /mongod:none and mongod:zstd: started beside embedded, a mongod, for trade-candles alone/);
    assertTakingTurns(state.run, 'load', ['mongod:none', 'mongod:zstd']);
    const v = verdictsOf(state.out).find((x) => x.finding === 'zstd-writes-faster');
    assert.ok(!v.reasons.some((r) => r.code === 'needs-other-engine'), v.reason);
    assert.equal(v.n, state.run.run.params.rounds['trade-candles']);
  });
});

