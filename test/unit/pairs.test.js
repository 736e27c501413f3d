'use strict';
// The pure parts of run/pairs.js: which servers a scenario pairs, how a run groups them, which
// companions a default server brings; and the turns of a paired step, its marks written into a
// stand-in for each server's turns collection (an array: no database is mocked, the collection
// is only where the marks land).
const assert = require('node:assert/strict');
const path = require('node:path');
const { parseServerSpec } = require('../../orchestrator/servers/spec');
const {
  serverPairs, serverGroups, companionSpecs, StepMeeting, PairedStep, blockMarkId, isMeeting, sideProgress,
} = require('../../orchestrator/run/pairs');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { planLines } = require('../../orchestrator/sizing/describe');
const { planScenario } = require('../../orchestrator/sizing/planner');
const { resolveConfig } = require('../../orchestrator/config');
const { PAIRED_FIXTURE_SHELL_DIR } = require('../helpers/fixture');

const tradeCandles = discoverScenarios(resolveConfig().shellDir).find((s) => s.name === 'trade-candles');
const [candlesPair] = discoverScenarios(PAIRED_FIXTURE_SHELL_DIR);
const servers = (...texts) => texts.map((text) => ({ spec: parseServerSpec(text), name: text }));
const names = (pairs) => pairs.map((p) => p.map((s) => s.name));

describe('paired servers', () => {
  describe('which servers a scenario pairs', () => {
    it('pairs an uncompressed mongod with a zstd one, leaving snappy and other servers alone', () => {
      assert.deepEqual(names(serverPairs(tradeCandles, servers('mongod', 'mongod:zstd', 'ferretdb', 'mongod:none'))), [['mongod:none', 'mongod:zstd']]);
      assert.deepEqual(names(serverPairs(tradeCandles, servers('mongod', 'mongod:zstd'))), []);
    });

    it('pairs only specs alike but for the compressor: not across versions or topologies', () => {
      assert.deepEqual(names(serverPairs(tradeCandles, servers('mongod@7.0.3:none', 'mongod:zstd'))), []);
      assert.deepEqual(names(serverPairs(tradeCandles, servers('mongod-rs:none', 'mongod:zstd', 'mongod-rs:zstd'))), [['mongod-rs:none', 'mongod-rs:zstd']]);
      assert.deepEqual(names(serverPairs(tradeCandles, servers('mongod:none', 'mongod:zstd', 'mongod@7.0.3:none', 'mongod@7.0.3:zstd'))),
        [['mongod:none', 'mongod:zstd'], ['mongod@7.0.3:none', 'mongod@7.0.3:zstd']]);
    });

    it('pairs nothing for a scenario that declares no pair', () => {
      assert.deepEqual(serverPairs({ name: 'x' }, servers('mongod:none', 'mongod:zstd')), []);
    });

    it('groups paired servers together where the run otherwise takes them one at a time', () => {
      const specs = ['ferretdb', 'mongod:zstd', 'mongod', 'mongod:none'].map((t) => parseServerSpec(t));
      assert.deepEqual(serverGroups(specs, [tradeCandles], false).map((g) => g.map((s) => s.name)), [['ferretdb'], ['mongod:zstd', 'mongod:none'], ['mongod']]);
      assert.deepEqual(serverGroups(specs, [tradeCandles], true).map((g) => g.map((s) => s.name)), [['ferretdb', 'mongod:zstd', 'mongod', 'mongod:none']]);
      assert.deepEqual(serverGroups(specs, [], false).length, 4);
    });
  });

  describe('the companions of a default server', () => {
    const embedded = parseServerSpec('embedded');

    it('brings mongod:none and mongod:zstd beside a default server that turned out to be a mongod', () => {
      assert.deepEqual(companionSpecs(tradeCandles, { spec: embedded, kind: 'mongod' }, [embedded]).map((s) => s.name), ['mongod:none', 'mongod:zstd']);
    });

    it('brings none beside FerretDB, beside a mongod the user named, or where the run names a companion itself', () => {
      assert.deepEqual(companionSpecs(tradeCandles, { spec: embedded, kind: 'ferretdb2' }, [embedded]), []);
      const mongod = parseServerSpec('mongod');
      assert.deepEqual(companionSpecs(tradeCandles, { spec: mongod, kind: 'mongod' }, [mongod]), []);
      assert.deepEqual(companionSpecs(tradeCandles, { spec: embedded, kind: 'mongod' }, [embedded, parseServerSpec('mongod:zstd')]), []);
    });

    it('says so in the size table: both companions, why, and what they decide', () => {
      const host = {
        type: 'size', scenario: 'trade-candles', server: 'embedded', size: 'auto', sizes: { TICKERS: 3600 }, fraction: 1, budgetSeconds: 240, predictedSeconds: 100,
        findings: { decidable: ['little-memory-slower'], tooSmall: [] },
      };
      const companion = (server, other) => ({ ...host, server, companionOf: 'embedded', pairedWith: other, findings: { decidable: ['zstd-smaller', 'zstd-writes-faster', 'zstd-reads-slower', 'little-memory-slower'], tooSmall: [] } });
      const lines = planLines(tradeCandles, [host, companion('mongod:none', 'mongod:zstd'), companion('mongod:zstd', 'mongod:none')]);
      assert.match(lines[0], /^trade-candles: the largest size predicted to fit/, 'the companions share the default server\'s size; they are not sized');
      assert.ok(lines.some((l) => /^ {2}mongod:zstd {2,}/.test(l)), 'a row for each companion');
      const said = lines.filter((l) => l.includes('started beside embedded'));
      assert.deepEqual(said, ['  mongod:none and mongod:zstd: started beside embedded, a mongod, for trade-candles alone once its scenarios are done, at its size; their steps run at once, their blocks taking turns, deciding zstd-smaller, zstd-writes-faster, zstd-reads-slower (predicted: about 200 s for the two, their blocks one after the other)']);
      assert.ok(lines.includes(`    why: ${tradeCandles.companions.why}`));
    });
  });

  describe('the size of a pair', () => {
    it('is one size for both even with --size-per-server, the smaller fit', () => {
      const probe = (msPerTicker) => ({ probes: [10, 20, 40, 80].map((t) => ({ sizes: { TICKERS: t, OPS: t }, steps: { s: { ms: 100 + msPerTicker * t } } })) });
      const descriptor = {
        sizes: { article: { TICKERS: 1000, OPS: 1000, passes: 1 } },
        scaling: { vary: { TICKERS: { least: 10 }, OPS: { least: 10 } }, steps: { s: { ops: 'TICKERS' } } },
        steps: [{ name: 's', repeat: 'once' }],
      };
      const plan = (together) => planScenario({
        descriptor, budgetSeconds: 10, passes: 1, perServer: true, together,
        servers: [{ server: 'fast', probe: probe(5) }, { server: 'slow', probe: probe(50), paired: 'fast' }, { server: 'other', probe: probe(1) }],
      });
      const alone = plan([]);
      assert.ok(alone[0].sizes.TICKERS > alone[1].sizes.TICKERS);
      const paired = plan([['fast', 'slow']]);
      assert.equal(paired[0].sizes.TICKERS, paired[1].sizes.TICKERS);
      assert.equal(paired[0].sizes.TICKERS, alone[1].sizes.TICKERS);
      assert.equal(paired[2].sizes.TICKERS, alone[2].sizes.TICKERS, 'a server outside the pair keeps its own');
      assert.equal(paired[1].pairedWith, 'fast');
    });
  });

  describe('the meeting before each step', () => {
    it('pairs two sides that come to the same step', async () => {
      const m = new StepMeeting();
      const [a, b] = await Promise.all([m.arrive(0, 0), m.arrive(1, 0)]);
      assert.deepEqual([a, b], [{ paired: true }, { paired: true }]);
    });

    it('lets a side go on alone where the other has left, or will not come to its step', async () => {
      const m = new StepMeeting();
      const waiting = m.arrive(0, 1);
      // the other skipped step 1 (a resume): it arrives at step 2, and step 1 runs alone
      const later = m.arrive(1, 2);
      assert.deepEqual(await waiting, { paired: false });
      m.leave(0);
      assert.deepEqual(await later, { paired: false });
      assert.deepEqual(await m.arrive(1, 3), { paired: false });
    });
  });

  describe('the turns of a paired step', () => {
    /** A step whose marks land in two arrays, one per server's turns collection. */
    function stepWith() {
      const turns = [[], []];
      const pair = {
        names: ['mongod:none', 'mongod:zstd'], scenario: { name: 's' }, options: { log: () => {} },
        turns: (side) => ({
          insertOne: async (doc) => {
            if (turns[side].some((d) => d._id === doc._id)) throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
            turns[side].push(doc);
          },
        }),
      };
      return { step: new PairedStep(pair), turns };
    }

    it('marks a server\'s n-th block line of a round done in the other\'s turns, one worker speaking', async () => {
      const { step, turns } = stepWith();
      step.line(0, { scenario: 's', round: 1 });
      step.line(0, { scenario: 's', round: 1 });
      step.line(0, { scenario: 's', round: 2 });
      step.line(0, { scenario: 's', step: 'load' }); // the step's own line: no block
      step.line(1, { scenario: 's', round: 1, worker: 1 }); // a parallel step's other shells say nothing
      await step.chain;
      assert.deepEqual(turns[1].map((d) => [d._id, d.ok]), [['1:mongod:none#1', true], ['1:mongod:none#2', true], ['2:mongod:none#1', true]]);
      assert.deepEqual(turns[0], []);
      assert.equal(blockMarkId(2, 'mongod:none', 1), '2:mongod:none#1');
    });

    it('answers a meeting once both have asked for it, each in its own turns', async () => {
      const { step, turns } = stepWith();
      const ask = (side, round) => ({ round, variant: `${step.pair.names[1 - side]}#meet`, id: `${round}:${step.pair.names[1 - side]}#meet` });
      assert.ok(isMeeting(ask(0, 0)));
      step.turn(0, ask(0, 0));
      await step.chain;
      assert.deepEqual(turns, [[], []], 'one side alone waits');
      step.turn(1, ask(1, 0));
      await step.chain;
      assert.deepEqual(turns.map((t) => t.map((d) => d._id)), [['0:mongod:zstd#meet'], ['0:mongod:none#meet']]);
    });

    it('answers every wait of a side whose partner\'s shells are gone, now and later, with ok false, and then meets at the end', async () => {
      const { step, turns } = stepWith();
      step.turn(1, { round: 3, variant: 'mongod:none#1', id: '3:mongod:none#1' });
      const closed = step.close(0);
      step.turn(1, { round: 4, variant: 'mongod:none#1', id: '4:mongod:none#1' });
      step.turn(1, { round: 9, variant: 'mongod:none#meet', id: '9:mongod:none#meet' });
      await step.chain;
      assert.deepEqual(turns[1].map((d) => [d._id, d.ok]), [['3:mongod:none#1', false], ['4:mongod:none#1', false], ['9:mongod:none#meet', false]]);
      let done = false;
      closed.then(() => { done = true; });
      await new Promise((r) => setImmediate(r));
      assert.equal(done, false, 'a side waits for the other\'s shells to be gone before its next step');
      await step.close(1);
      await closed;
    });

    it('takes a mark written twice (a wait announced after its block ended) as done', async () => {
      const { step, turns } = stepWith();
      step.line(0, { scenario: 's', round: 1 });
      step.turn(1, { round: 1, variant: 'mongod:none#1', id: '1:mongod:none#1' });
      await Promise.all([step.close(0), step.close(1)]);
      assert.deepEqual(turns[1].map((d) => d._id), ['1:mongod:none#1']);
    });
  });

  it('shows one progress bar for the pair, labelled with both servers', () => {
    const seen = [];
    const progress = { startStep: (label) => seen.push(label), update: () => {}, endStep: () => seen.push('end') };
    sideProgress(progress, ['mongod:none', 'mongod:zstd'], 0).startStep('mongod:none · trade-candles · load');
    const quiet = sideProgress(progress, ['mongod:none', 'mongod:zstd'], 1);
    quiet.startStep('mongod:zstd · trade-candles · load');
    quiet.endStep();
    assert.deepEqual(seen, ['mongod:none with mongod:zstd · trade-candles · load']);
  });

  it('the fixture that pairs FerretDB servers declares what trade-candles declares, on kinds that run here', () => {
    assert.equal(candlesPair.scriptPath(candlesPair.steps[0]), path.join(PAIRED_FIXTURE_SHELL_DIR, 'candles-pair', 'load.js'));
    assert.deepEqual(Object.keys(candlesPair.pairedServers).sort(), Object.keys(tradeCandles.pairedServers).sort());
    assert.deepEqual(Object.keys(candlesPair.companions).sort(), Object.keys(tradeCandles.companions).sort());
  });
});
