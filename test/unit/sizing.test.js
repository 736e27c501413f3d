'use strict';
// --size auto as the pure function it is: the probes' sizes, the model fitted to them and the
// size chosen, from a scenario's descriptor, a calibration and probe timings. The servers here
// are crafted: each is a formula for how long a step takes at given sizes, and the probes are
// what that formula gives at the sizes the planner asks for, so a test can say what the right
// choice is.
const assert = require('node:assert/strict');
const { discoverScenarios } = require('../../orchestrator/scenarios');
const { resolveConfig } = require('../../orchestrator/config');
const {
  planScenario, nextProbeSizes, sizesAt, fitSteps, predictMs, nonNegativeFit, findingsAt, MAX_PROBES,
} = require('../../orchestrator/sizing/planner');
const { parseDuration, formatDuration, roundUpBudget } = require('../../orchestrator/sizing/duration');
const { parseExpression } = require('../../orchestrator/sizing/expression');
const { planLines } = require('../../orchestrator/sizing/describe');

const scenarios = discoverScenarios(resolveConfig().shellDir);
const scenario = (name) => scenarios.find((s) => s.name === name);
const findings = (name) => scenario(name).loadPublished().findings;

/** A calibration record whose every operation takes opMs in every shell. */
function calibration(opMs) {
  const op = { driverMs: opMs, shellMs: { kit: opMs, mongosh: opMs * 2 } };
  return { perOp: { insert: op, find: op, update: op, remove: op } };
}

/**
 * A crafted server: per step, ms for one run of it at given sizes. Probing it is asking the
 * planner for sizes until it has enough and answering with these times (spans: the shortest
 * timed figure of a step, where the test gives one).
 */
function probeCrafted(descriptor, server, { budgetSeconds, pinned = {}, coldMs = 0 }) {
  const probes = [];
  for (;;) {
    const sizes = nextProbeSizes(descriptor, { done: probes, budgetSeconds, pinned });
    if (!sizes) break;
    // coldMs: what each step of the first probe pays for the server's and the shell's first run of its paths
    const cold = probes.length === 0 ? coldMs : 0;
    probes.push({
      sizes,
      ...(coldMs && probes.length === 0 ? { warmup: true } : {}),
      steps: Object.fromEntries(descriptor.steps.map((st) => [st.name, {
        ms: server.steps[st.name](sizes) + cold, ...(server.spans?.[st.name] ? { spanMs: server.spans[st.name](sizes) } : {}),
        // each side's median block, where the server gives them (as run/probe.js reads them)
        ...(server.sides?.[st.name] ? { sides: Object.fromEntries(Object.entries(server.sides[st.name]).map(([side, f]) => [side, f(sizes)])) } : {}),
      }])),
    });
  }
  return { fixedMs: {}, probes };
}

/** What a crafted server truly takes for a scenario at these sizes. */
function truthMs(descriptor, server, sizes, passes) {
  return descriptor.steps.reduce((n, st) => n + (st.repeat === 'passes' ? passes : 1) * server.steps[st.name](sizes), 0);
}

/**
 * log-inserts' four steps on a crafted server, each a fixed ms and a cost per record of its
 * count: { test1: [fixedMs, msPerRecord], test2, test3, 'test3-parallel' }.
 */
function logInsertsSteps(linear) {
  const count = { test1: 'TEST1_ITERATIONS', test2: 'TEST2_ITERATIONS', test3: 'TEST3_ITERATIONS', 'test3-parallel': 'TEST3_ITERATIONS' };
  return Object.fromEntries(Object.entries(linear).map(([step, [fixed, per]]) => [step, (sizes) => fixed + sizes[count[step]] * per]));
}

/** A scenario's fixed minutes of a trading day (trade-candles' MINUTES). */
const MINUTES_OF = (d) => d.sizes.article.MINUTES;

/** Per-blog cells of embedded-comments at TOTAL, as its script runs them. */
const cells = (total) => [1, 10, 100, 1000, 10000].filter((p) => p <= total);
/** Its paired rounds (scenario.json's rounds): every cell is cut into this many blocks of one blog at least. */
const EC_ROUNDS = 8;
/** The comments a cell writes: TOTAL, or one blog of p a round where TOTAL / p blogs are fewer than the rounds. */
const cellComments = (total, p) => Math.max(total, EC_ROUNDS * p);
/** Blocks of embedded-comments at TOTAL: each empties its collections, opens a connection and counts what it wrote. */
const blocks = (total) => 4 * cells(total).length * EC_ROUNDS;

// A mongod-like server: 0.1 ms an operation, a shell starting in 0.3 s, a $push dearer as its
// document grows (as WiredTiger rewrites it) and many-keys' updates walking 20,000 keys.
const MONGOD_LIKE = {
  opMs: 0.1,
  'embedded-comments': {
    steps: { bench: ({ TOTAL }) => 300 + 5 * blocks(TOTAL) + cells(TOTAL).reduce((n, p) => n + 2 * cellComments(TOTAL, p) * (0.1 /* separate */ + 0.1 + 0.00002 * p * 50 /* embedded */), 0) },
    spans: { bench: ({ TOTAL }) => Math.floor(TOTAL / EC_ROUNDS) * 0.1 },
  },
  'many-keys': {
    steps: {
      insert: ({ DOCS, BUCKET_DOCS }) => 300 + (DOCS + BUCKET_DOCS) * 3, // building and sending a 20,000-key document
      update: ({ UPDATES }) => 300 + UPDATES * (1.8 + 0.3), // the article's 1.8 ms per original update, 0.3 per bucketed one
    },
    // the shortest block: a bucketed one, an eighth of the updates (8 paired rounds)
    spans: { update: ({ UPDATES }) => (UPDATES / 8) * 0.3 },
  },
};

// A FerretDB-like server: 2.5 ms an operation, a shell starting in 0.5 s, scans that make each
// update, remove or push dearer as the collection or the document grows.
const FERRETDB_LIKE = {
  opMs: 2.5,
  'embedded-comments': {
    steps: { bench: ({ TOTAL }) => 500 + 45 * blocks(TOTAL) + cells(TOTAL).reduce((n, p) => n + 2 * cellComments(TOTAL, p) * (2.5 + 2.5 + 0.12 * p), 0) },
    spans: { bench: ({ TOTAL }) => Math.floor(TOTAL / EC_ROUNDS) * 2.5 },
  },
  'many-keys': {
    steps: {
      insert: ({ DOCS, BUCKET_DOCS }) => 500 + (DOCS + BUCKET_DOCS) * 1400,
      update: ({ UPDATES, DOCS }) => 500 + UPDATES * (300 + 120 * DOCS) * 2,
    },
    spans: { update: ({ UPDATES, DOCS }) => (UPDATES / 8) * (300 + 120 * DOCS) },
  },
};

function plan(name, servers, { budgetSeconds, perServer = false, pinned = {}, passes } = {}) {
  const d = scenario(name);
  return planScenario({
    descriptor: d, findings: findings(name), budgetSeconds, passes: passes ?? d.sizes.article.passes, pinned, perServer,
    servers: servers.map(([label, server, kind = 'mongod']) => ({
      server: label, kind, calibration: calibration(server.opMs), probe: probeCrafted(d, server[name], { budgetSeconds, pinned }),
    })),
  });
}

describe('sizing: --size auto', () => {
  describe('the budget on the command line', () => {
    it('reads 90s, 5m, 1m30s, 1h and bare seconds, and refuses the rest', () => {
      assert.deepEqual(['90s', '5m', '1m30s', '1h', '1.5m', '45'].map(parseDuration), [90, 300, 90, 3600, 90, 45]);
      assert.deepEqual(['', 'm', '5x', '30s1m', '1m1m', '-5s'].map(parseDuration), [null, null, null, null, null, null]);
      assert.deepEqual([45, 90, 120, 150, 3600, 3900].map(formatDuration), ['45s', '90s', '2m', '2m30s', '1h', '1h05m']);
      assert.deepEqual([41, 121, 601].map(roundUpBudget), [50, 150, 660]);
    });
  });

  describe('the arithmetic of a scaling declaration', () => {
    it('evaluates sizes and functions, and names what it cannot read', () => {
      assert.equal(parseExpression('4 * TOTAL * (floor(log10(TOTAL)) + 1)').evaluate({ TOTAL: 1000 }), 16000);
      assert.equal(parseExpression('TOTAL * pow(10, floor(log10(TOTAL)))').evaluate({ TOTAL: 3000 }), 3000000);
      assert.deepEqual([...parseExpression('(UPDATES + REMOVES) * DOCS').names], ['UPDATES', 'REMOVES', 'DOCS']);
      assert.throws(() => parseExpression('DOCS +'), /ends too soon/);
      assert.throws(() => parseExpression('eval(1)'), /no function eval/);
      assert.throws(() => parseExpression('DOCS; 1'), /cannot read/);
    });
  });

  describe('sizes at a fraction of the article', () => {
    it('scales what varies, keeps what is fixed, honours least values, allowed values and --set', () => {
      const mk = scenario('many-keys');
      assert.deepEqual(sizesAt(mk, 0.01), { DOCS: 20, BUCKET_DOCS: 20, KEYS: 20000, UPDATES: 100 });
      assert.deepEqual(sizesAt(mk, 0), { DOCS: 1, BUCKET_DOCS: 1, KEYS: 20000, UPDATES: 5 });
      assert.deepEqual(sizesAt(mk, 0.01, { KEYS: 2000 }), { DOCS: 20, BUCKET_DOCS: 20, KEYS: 2000, UPDATES: 100 });
      const ec = scenario('embedded-comments');
      assert.equal(sizesAt(ec, 0.045).TOTAL, 300, 'TOTAL takes a value its script accepts');
      assert.equal(sizesAt(ec, 0).TOTAL, 10);
      assert.equal(sizesAt(ec, 1).TOTAL, 10000);
    });
  });

  describe('the probes', () => {
    it('start at the smallest sizes, then the declared ones, then grow until the work nears its share of the budget', () => {
      const d = scenario('power-of-2-sizes');
      const done = [];
      const timeOf = (sizes) => ({ setup: { ms: 300 + sizes.DOCS * 0.2 }, pass: { ms: 300 + (sizes.UPDATES + sizes.REMOVES + sizes.INSERTS) * 0.2 } });
      for (;;) {
        const sizes = nextProbeSizes(d, { done, budgetSeconds: 300 });
        if (!sizes) break;
        done.push({ sizes, steps: timeOf(sizes) });
      }
      assert.deepEqual(done[0].sizes, sizesAt(d, 0));
      assert.deepEqual(done[1].sizes, { ...sizesAt(d, 0), ...d.scaling.probe });
      assert.ok(done.length <= MAX_PROBES);
      assert.ok(done.at(-1).sizes.DOCS > done[1].sizes.DOCS, 'a fast server is probed at larger sizes');
      assert.equal(new Set(done.map((p) => JSON.stringify(p.sizes))).size, done.length, 'no size probed twice');
    });

    it('probes a scenario with growing steps at four sizes at least, with smaller ones where the largest is long already', () => {
      const d = scenario('power-of-2-sizes');
      const slow = (sizes) => ({ setup: { ms: 500 + sizes.DOCS * 3 }, pass: { ms: 500 + sizes.UPDATES * sizes.DOCS * 0.1 } });
      const done = [];
      for (;;) {
        const sizes = nextProbeSizes(d, { done, budgetSeconds: 90 });
        if (!sizes) break;
        done.push({ sizes, steps: slow(sizes) });
      }
      assert.equal(done.length, 4, 'the fixed cost, a cost per operation, a growth, and one size to spare');
      for (const p of done.slice(2)) {
        for (const name of Object.keys(d.scaling.vary)) assert.ok(p.sizes[name] < done[1].sizes[name] && p.sizes[name] >= done[0].sizes[name], `${name}: ${JSON.stringify(p.sizes)}`);
      }
    });

    it('reads a step\'s figures from its whole lines, not from the paired rounds\' blocks they are the sums of', () => {
      const { figuresOf } = require('../../orchestrator/run/probe');
      const decl = scenario('many-keys').scaling.steps.update.figures;
      const line = { kind: 'update', schema: 'original', updates: 10, docs: 2, appliedMs: 80 };
      const blocks = [1, 2].map((round) => ({ ...line, round, rounds: 2, position: 1, updates: 5, appliedMs: 40 }));
      assert.deepEqual(figuresOf(decl, [...blocks, line]), [{ ms: 80, ops: 10, grows: 20 }]);
    });

    it('records each side\'s median counted block, the SQL baseline\'s among them, warm-ups left out', () => {
      const { sideSpans } = require('../../orchestrator/run/probe');
      const step = scenario('log-inserts').steps.find((s) => s.name === 'test1');
      const span = scenario('log-inserts').scaling.spans.test1;
      const line = (method, round, appliedMs, extra = {}) => ({ method, round, rounds: 8, appliedMs, ...extra });
      const lines = [
        line('save', 0, 900, { warmup: true }), line('save', 1, 30), line('save', 2, 10), line('save', 3, 20),
        line('insert', 1, 8), line('insert', 2, 12),
        // the SQL side's lines name no applied time: its own clock (it waits for every insert)
        { method: 'sql', round: 1, ms: 5 }, { method: 'sql', round: 2, ms: 7 }, { method: 'sql', round: 0, ms: 400, warmup: true },
        // the step's totals name no round
        { method: 'save', appliedMs: 60 },
      ];
      assert.deepEqual(sideSpans(step, span, lines), { save: 20, insert: 10, sql: 6 });
    });

    it('asks no probe of its own for a term of ROUNDS alone, which is the same at every size', () => {
      // a slow server: the smallest probes reach the probes' share of the budget, so the count is what the terms need
      const probesOf = (d) => {
        const done = [];
        for (;;) {
          const sizes = nextProbeSizes(d, { done, budgetSeconds: 90 });
          if (!sizes) return done;
          done.push({ sizes, steps: { insert: { ms: 3000 + sizes.DOCS * 300 }, update: { ms: 3000 + sizes.UPDATES * 300 } } });
        }
      };
      const mk = scenario('many-keys');
      const withSteps = (update) => ({ ...mk, scaling: { ...mk.scaling, steps: { ...mk.scaling.steps, update } } });
      const update = { ...mk.scaling.steps.update };
      delete update.parts;
      const plain = probesOf(withSteps(update)).length;
      assert.equal(probesOf(withSteps({ ...update, parts: '2 * ROUNDS' })).length, plain, 'blocks priced by ROUNDS alone');
      assert.equal(probesOf(withSteps({ ...update, parts: 'UPDATES' })).length, plain + 1, 'a term that grows with a size needs a size of its own');
    });
  });

  describe('the model', () => {
    it('fits no negative coefficient', () => {
      assert.deepEqual(nonNegativeFit([{ c: 1, a: 1, y: 5 }, { c: 1, a: 2, y: 7 }], ['c', 'a']), { c: 3, a: 2 });
      // falling times would need a negative cost per operation: the fit keeps the constant instead
      const fit = nonNegativeFit([{ c: 1, a: 1, y: 7 }, { c: 1, a: 2, y: 5 }], ['c', 'a']);
      assert.equal(fit.a, 0);
      assert.equal(fit.c, 6);
    });

    it('says when a growth it was told of could not be told apart with the probes it had', () => {
      const d = scenario('many-keys');
      const probe = (DOCS, UPDATES, ms) => ({ sizes: { ...sizesAt(d, 0), DOCS, BUCKET_DOCS: DOCS, UPDATES }, steps: { insert: { ms: 100 + DOCS }, update: { ms } } });
      const two = fitSteps(d, { probes: [probe(1, 5, 1000), probe(2, 10, 4000)] });
      assert.match(two.update.kind, /^linear \(growth declared, but 2 distinct probe size\(s\) cannot tell it apart\)/);
      const three = fitSteps(d, { probes: [probe(1, 5, 1000), probe(2, 10, 4000), probe(4, 20, 16000)] });
      assert.equal(three.update.kind, 'growing');
      assert.ok(Math.abs(predictMs(d, three, { ...sizesAt(d, 0), DOCS: 8, BUCKET_DOCS: 8, UPDATES: 40 }, 1) - (108 * 2 + 64000)) < 2000);
    });

    it('fits no step to the first probe, which runs the scenario\'s paths cold, and probes enough sizes besides it', () => {
      // trade-candles' load on ferretdb2 in the kept main job: 2.1 s at 10 tickers in the first
      // probe, 1.0 s at the same size in the third; fitted, the load was priced at 1.5 s and took 30 s
      const d = scenario('trade-candles');
      const readOps = parseExpression(d.scaling.steps.read.ops);
      const server = { steps: { load: ({ TICKERS }) => 700 + TICKERS * MINUTES_OF(d) * 0.115, read: (sizes) => 2000 + readOps.evaluate({ ROUNDS: 8, ...sizes }) * 20 } };
      const budgetSeconds = 120;
      const probe = probeCrafted(d, server, { budgetSeconds, coldMs: 1200 });
      assert.equal(probe.probes[0].warmup, true);
      const models = fitSteps(d, probe, { calibration: calibration(0.5), kind: 'ferretdb2' });
      const sizes = { ...sizesAt(d, 0.19), TICKERS: 669 };
      const ratio = predictMs(d, models, sizes, 1) / truthMs(d, server, sizes, 1);
      assert.ok(ratio > 0.8 && ratio < 1.25, `predicted / taken ${ratio.toFixed(2)}`);
      const counted = new Set(probe.probes.filter((p) => !p.warmup).map((p) => JSON.stringify(p.sizes))).size;
      assert.ok(counted >= 2, `${counted} sizes fitted`);
      // the same probes, the first fitted too: the cold cost reads as a fixed cost that shrinks with the size
      const cold = fitSteps(d, { ...probe, probes: probe.probes.map(({ warmup, ...p }) => p) }, { calibration: calibration(0.5), kind: 'ferretdb2' });
      assert.ok(predictMs(d, cold, sizes, 1) / truthMs(d, server, sizes, 1) < ratio, 'fitted, the warm-up prices the run lower');
    });

    it('puts the calibration\'s floor under every operation', () => {
      const d = scenario('power-of-2-sizes');
      const flat = [0, 0.001, 0.002].map((f) => ({ sizes: sizesAt(d, f), steps: { setup: { ms: 400 }, pass: { ms: 400 } } }));
      const models = fitSteps(d, { probes: flat }, { calibration: calibration(0.2) });
      assert.ok(Math.abs(models.setup.a - 0.05) < 1e-9, 'a quarter of the fastest calibrated operation');
    });
  });

  describe('the choice', () => {
    it('fits no growth a kind of server does not have (growsOn), so a little noise in small probes cannot price the raise out', () => {
      // FerretDB 2: an upsert finds its _id through the index; the probes' noise looks like a slight growth
      const noisy = {
        opMs: 0.5,
        'log-inserts': {
          steps: {
            test1: ({ TEST1_ITERATIONS: n }) => 1400 + n * 1 + n * n * 0.007,
            test2: ({ TEST2_ITERATIONS: n }) => 6000 + n * 0.5 + n * n * 0.005,
            test3: ({ TEST3_ITERATIONS: n }) => 800 + n * 1.2,
            'test3-parallel': ({ TEST3_ITERATIONS: n }) => 4000 + n * 1.5,
          },
          spans: { test1: ({ TEST1_ITERATIONS: n }) => n * 0.083, test2: ({ TEST2_ITERATIONS: n }) => n * 0.057 },
        },
      };
      const [onFerretdb2] = plan('log-inserts', [['ferretdb2', noisy, 'ferretdb2']], { budgetSeconds: 240 });
      assert.match(onFerretdb2.model.steps.test2.kind, /^linear \(it grows only on ferretdb, ferretdb-pg\)/);
      assert.ok(onFerretdb2.spans.every((s) => s.met), JSON.stringify(onFerretdb2.spans));
      assert.deepEqual(onFerretdb2.findings.tooShort, []);
      const [onFerretdb] = plan('log-inserts', [['ferretdb', noisy, 'ferretdb']], { budgetSeconds: 240 });
      assert.equal(onFerretdb.model.steps.test2.kind, 'growing');
    });

    it('gives a scenario that can decide nothing on a server a quarter of the budget, and says so', () => {
      // many-keys on FerretDB decides buckets-faster; power-of-2-sizes decides nothing anywhere (MMAPv1)
      const server = { opMs: 1, 'power-of-2-sizes': { steps: { setup: ({ DOCS }) => 500 + DOCS * 0.5, pass: ({ UPDATES, REMOVES, INSERTS }) => 200 + (UPDATES + REMOVES + INSERTS) * 2 } } };
      const [p] = plan('power-of-2-sizes', [['ferretdb2', server, 'ferretdb2']], { budgetSeconds: 240 });
      assert.equal(p.budgetSeconds, 60);
      assert.equal(p.budgetShare, 0.25);
      assert.ok(p.predictedSeconds <= 60);
      assert.match(planLines(scenario('power-of-2-sizes'), [{ ...p, scenario: 'power-of-2-sizes', size: 'auto' }], { passes: 21 })[0], /60s budget \(25% of --budget: it can decide none of its findings here\)/);
      const [mk] = plan('many-keys', [['ferretdb2', FERRETDB_LIKE, 'ferretdb2']], { budgetSeconds: 240 });
      assert.equal(mk.budgetSeconds, 240);
      assert.equal(mk.budgetShare, undefined);
    });

    // embedded-comments' 10,000-per-blog cells write one blog of 10,000 comments a round: 8 of them
    it('gives a mongod-like server (0.1 ms an operation) the article\'s size of many-keys within 5 minutes, and of embedded-comments within 30', () => {
      for (const [name, budgetSeconds] of [['embedded-comments', 1800], ['many-keys', 300]]) {
        const [p] = plan(name, [['mongod', MONGOD_LIKE]], { budgetSeconds });
        const article = Object.fromEntries(Object.entries(scenario(name).sizes.article).filter(([k]) => k !== 'passes'));
        assert.deepEqual(p.sizes, article, name);
        assert.equal(p.fraction, 1);
        assert.ok(p.fits && p.predictedSeconds <= budgetSeconds, `${name}: ${p.predictedSeconds}`);
        assert.deepEqual(p.findings.tooSmall, [], `${name}: every finding decidable`);
        const truth = truthMs(scenario(name), MONGOD_LIKE[name], p.sizes, 1) / 1000;
        assert.ok(p.predictedSeconds / truth > 0.5 && p.predictedSeconds / truth < 2, `${name}: predicted ${p.predictedSeconds} s, takes ${truth} s`);
      }
    });

    it('gives a FerretDB-like server less, says which findings that leaves undecided and the budget that would decide them', () => {
      const [p] = plan('embedded-comments', [['ferretdb-pg', FERRETDB_LIKE, 'ferretdb-pg']], { budgetSeconds: 90 });
      const d = scenario('embedded-comments');
      assert.ok(p.sizes.TOTAL < 1000, `TOTAL ${p.sizes.TOTAL}`);
      assert.ok(p.predictedSeconds <= 90);
      const truth = truthMs(d, FERRETDB_LIKE['embedded-comments'], p.sizes, 1) / 1000;
      assert.ok(truth <= 1.5 * 90 && p.predictedSeconds / truth > 0.5 && p.predictedSeconds / truth < 2, `predicted ${p.predictedSeconds} s, takes ${truth} s`);
      const slows = p.findings.tooSmall.find((t) => t.id === 'embedded-slows');
      assert.deepEqual(slows.atLeast, { TOTAL: 1000 });
      const needed = truthMs(d, FERRETDB_LIKE['embedded-comments'], { ...p.sizes, TOTAL: 1000 }, 1) / 1000;
      assert.ok(slows.budgetSeconds > 90 && slows.budgetSeconds / needed > 0.5 && slows.budgetSeconds / needed < 2, `budget ${slows.budgetSeconds} s for ${needed} s`);
      // the unacknowledged findings are FerretDB's to skip (it answers w:0): not listed either way
      assert.deepEqual(p.findings.decidable, ['safe-3x-slower'].filter((id) => !(id in d.servers['ferretdb-pg'].cannotTest)));
      const lines = planLines(d, [{ ...p, scenario: d.name, size: 'auto', perServer: false }]);
      assert.match(lines.join('\n'), new RegExp(`embedded-slows needs TOTAL ≥ 1,000 .*--budget ${formatDuration(slows.budgetSeconds)} would fit it`));
    });

    it('keeps many-keys\' 20,000 keys on the slowest server and shrinks the documents and updates instead', () => {
      const [p] = plan('many-keys', [['ferretdb-pg', FERRETDB_LIKE, 'ferretdb-pg']], { budgetSeconds: 300 });
      assert.equal(p.sizes.KEYS, 20000);
      assert.ok(p.sizes.DOCS < 20 && p.sizes.UPDATES < 100, JSON.stringify(p.sizes));
      assert.deepEqual(p.findings.decidable, ['buckets-faster']);
      const truth = truthMs(scenario('many-keys'), FERRETDB_LIKE['many-keys'], p.sizes, 1) / 1000;
      assert.ok(p.predictedSeconds / truth > 0.5 && p.predictedSeconds / truth < 2, `predicted ${p.predictedSeconds} s, takes ${truth} s`);
    });

    it('runs one size on every server by default, the largest that fits on each; --size-per-server lets each have its own', () => {
      const servers = [['fast', MONGOD_LIKE], ['slow', FERRETDB_LIKE, 'ferretdb-pg']];
      const shared = plan('many-keys', servers, { budgetSeconds: 300 });
      assert.deepEqual(shared[0].sizes, shared[1].sizes);
      const own = plan('many-keys', servers, { budgetSeconds: 300, perServer: true });
      assert.deepEqual(shared[1].sizes, own[1].sizes, 'the slow server decides the shared size');
      assert.equal(own[0].fraction, 1);
    });

    it('keeps what --set pins, and says no budget decides a finding it pins too small', () => {
      const [p] = plan('many-keys', [['mongod', MONGOD_LIKE]], { budgetSeconds: 300, pinned: { KEYS: 2000 } });
      assert.equal(p.sizes.KEYS, 2000);
      assert.deepEqual(p.findings.tooSmall.map((t) => [t.id, t.budgetSeconds]), [['buckets-faster', null]]);
    });

    it('raises a step\'s count where its timed figure would be too short for a verdict', () => {
      const d = scenario('log-inserts');
      const fast = {
        opMs: 0.1,
        'log-inserts': {
          steps: logInsertsSteps({ test1: [300, 0.2], test2: [4000, 0.2], test3: [300, 0.1], 'test3-parallel': [4000, 0.1] }),
          spans: { test1: ({ TEST1_ITERATIONS: n }) => n * 0.1, test2: ({ TEST2_ITERATIONS: n }) => n * 0.025 },
        },
      };
      const [p] = plan('log-inserts', [['mongod', fast]], { budgetSeconds: 30 });
      const test2 = p.spans.find((s) => s.step === 'test2');
      assert.ok(test2.met && test2.predictedMs >= d.scaling.spans.test2.minMs, JSON.stringify(test2));
      assert.ok(p.sizes.TEST2_ITERATIONS > sizesAt(d, p.fraction).TEST2_ITERATIONS, 'test 2 raised beyond the fraction');
      assert.ok(p.predictedSeconds <= 30);
    });

    describe('the floors: each side\'s median block at twice its step\'s floor', () => {
      const { fitSpans, neededForSpan, sideSpansAt, minSpanMs, SPAN_MARGIN } = require('../../orchestrator/sizing/planner');
      const ROUNDS = 8;
      /**
       * log-inserts on a FerretDB-2-like server with the SQL baseline beside it: each side's
       * median block a fixed part (a barrier, a turn, a meeting) and a part per record of its
       * round's share. The SQL side is the quickest per record, and its fixed part is most of a
       * probe's small block: the kept runs' SQL blocks fell under their floor (97 ms against 100
       * in test 1, 338 to 466 ms against 500 in test 2) when a line through the origin read that
       * fixed part as a cost per record. slow: how much longer than the run's a probe's blocks
       * took (a loaded machine during the probes, a quiet one during the run).
       */
      const withSql = (slow = 1) => ({
        opMs: 0.5,
        'log-inserts': {
          steps: logInsertsSteps({ test1: [1400, 3], test2: [6000, 1.2], test3: [800, 1], 'test3-parallel': [4000, 0.7] }),
          sides: {
            test1: { save: ({ TEST1_ITERATIONS: n }) => slow * (2 + (n / ROUNDS) * 1.4), insert: ({ TEST1_ITERATIONS: n }) => slow * (2 + (n / ROUNDS) * 1.2), sql: ({ TEST1_ITERATIONS: n }) => slow * (12 + (n / ROUNDS) * 0.2) },
            test2: { save: ({ TEST2_ITERATIONS: n }) => slow * (60 + (n / ROUNDS) * 0.5), insert: ({ TEST2_ITERATIONS: n }) => slow * (60 + (n / ROUNDS) * 0.45), sql: ({ TEST2_ITERATIONS: n }) => slow * (40 + (n / ROUNDS) * 0.11) },
          },
        },
      });
      const truth = withSql(1)['log-inserts'].sides;

      it('sizes every side, the SQL baseline\'s too, so its median block is predicted at twice the floor and truly clears it', () => {
        const d = scenario('log-inserts');
        const [p] = plan('log-inserts', [['ferretdb2', withSql(), 'ferretdb2']], { budgetSeconds: 240 });
        for (const step of ['test1', 'test2']) {
          const floor = minSpanMs(d, step);
          const span = p.spans.find((x) => x.step === step);
          assert.ok(span.met, JSON.stringify(span));
          assert.deepEqual(Object.keys(span.sides).sort(), ['insert', 'save', 'sql']);
          for (const [side, f] of Object.entries(truth[step])) {
            assert.ok(f(p.sizes) >= SPAN_MARGIN * floor * 0.99, `${step} ${side}: ${f(p.sizes).toFixed(0)} ms at ${JSON.stringify(p.sizes)}, floor ${floor}`);
          }
        }
        assert.deepEqual(p.findings.tooShort, []);
        assert.ok(p.findings.decidable.includes('mongo-beats-sql-test1') && p.findings.decidable.includes('mongo-beats-sql-test2'), JSON.stringify(p.findings));
        assert.ok(p.predictedSeconds <= 240);
      });

      it('keeps the promise where the probes ran on a machine half again as slow as the run\'s', () => {
        const d = scenario('log-inserts');
        const [p] = plan('log-inserts', [['ferretdb2', withSql(1.5), 'ferretdb2']], { budgetSeconds: 240 });
        for (const step of ['test1', 'test2']) {
          for (const [side, f] of Object.entries(truth[step])) assert.ok(f(p.sizes) >= minSpanMs(d, step), `${step} ${side}: ${f(p.sizes).toFixed(0)} ms in the quiet run`);
        }
      });

      it('fits a side\'s fixed part apart from its cost per unit: a line through the origin would have sized the SQL side short', () => {
        const d = scenario('log-inserts');
        const sizes = [10, 100, 200, 50].map((n) => ({ ...sizesAt(d, 0), TEST1_ITERATIONS: n }));
        const probes = sizes.map((sz) => ({ sizes: sz, steps: { test1: { sides: Object.fromEntries(Object.entries(truth.test1).map(([side, f]) => [side, f(sz)])) } } }));
        const span = fitSpans(d, { probes }).test1;
        assert.ok(Math.abs(span.sides.sql.fixedMs - 12) < 1e-6 && Math.abs(span.sides.sql.perUnitMs - 0.2 / ROUNDS) < 1e-9, JSON.stringify(span.sides.sql));
        const needed = neededForSpan(span, 10000);
        assert.equal(needed, Math.ceil((200 - 12) / (0.2 / ROUNDS)), 'the SQL side, the slowest to reach 200 ms, decides');
        assert.ok(Math.min(...Object.values(sideSpansAt(span, needed))) >= 200 - 1e-6);
        // the old rule, the shortest probe block through the origin at 1.5x the floor
        const shortest = probes.map((p) => ({ v: p.sizes.TEST1_ITERATIONS, y: Math.min(...Object.values(p.steps.test1.sides)) }));
        const perUnit = shortest.reduce((n, x) => n + x.v * x.y, 0) / shortest.reduce((n, x) => n + x.v * x.v, 0);
        const old = Math.ceil((1.5 * 100) / perUnit);
        assert.ok(truth.test1.sql({ TEST1_ITERATIONS: old }) < 100, `the old rule: TEST1_ITERATIONS=${old}, SQL blocks of ${truth.test1.sql({ TEST1_ITERATIONS: old }).toFixed(0)} ms`);
      });

      it('promises a step it cannot raise to twice the floor where its sides clear 1.5 times it, and not below', () => {
        // embedded-comments' TOTAL goes from 5,000 to 10,000 in one step, which the budget does not fit
        const { PROMISE_MARGIN } = require('../../orchestrator/sizing/planner');
        const server = (perComment) => ({
          opMs: 0.5,
          'embedded-comments': {
            steps: { bench: ({ TOTAL }) => 500 + TOTAL * 40 },
            sides: { bench: { 'safe separate 1': ({ TOTAL }) => 5 + (TOTAL / ROUNDS) * perComment, 'safe embedded 1': ({ TOTAL }) => 8 + (TOTAL / ROUNDS) * perComment * 1.2 } },
          },
        });
        const [near] = plan('embedded-comments', [['ferretdb2', server(0.265), 'ferretdb2']], { budgetSeconds: 240 });
        assert.equal(near.sizes.TOTAL, 5000);
        const bench = near.spans.find((x) => x.step === 'bench');
        assert.ok(bench.predictedMs < SPAN_MARGIN * 100 && bench.predictedMs >= PROMISE_MARGIN * 100 && bench.met, JSON.stringify(bench));
        assert.ok(near.findings.decidable.includes('embedded-slows'), JSON.stringify(near.findings));
        const [short] = plan('embedded-comments', [['ferretdb2', server(0.2), 'ferretdb2']], { budgetSeconds: 240 });
        assert.equal(short.spans.find((x) => x.step === 'bench').met, false);
        assert.deepEqual(short.findings.tooShort, ['embedded-slows']);
        assert.match(planLines(scenario('embedded-comments'), [{ ...short, scenario: 'embedded-comments', size: 'auto' }]).join('\n'), /bench: its shortest side's median block is predicted at 1\d\d ms with TOTAL=5,000, under 1\.5× the 100 ms floor/);
      });

      describe('a short step\'s findings, promised where the floor could not change them', () => {
        const { decidedDespiteShort, promisedFindings } = require('../../orchestrator/sizing/planner');
        // FerretDB 1.24 on PostgreSQL at the pinned sizes: the SQL side's blocks and
        // insert's under their floors, save's long (it reads the whole table for each _id)
        const ferretdbPg = (savePerRecord) => ({
          opMs: 2,
          'log-inserts': {
            steps: logInsertsSteps({ test1: [1400, 25], test2: [6000, 12], test3: [800, 1], 'test3-parallel': [4000, 0.7] }),
            sides: {
              // the SQL side's two variants alike here (synchronous_commit=off beside the default)
              test1: { save: ({ TEST1_ITERATIONS: n }) => 20 + (n / ROUNDS) * savePerRecord, insert: ({ TEST1_ITERATIONS: n }) => 2 + (n / ROUNDS) * 1.2, sql: ({ TEST1_ITERATIONS: n }) => 3 + (n / ROUNDS) * 0.5, 'sql-async': ({ TEST1_ITERATIONS: n }) => 3 + (n / ROUNDS) * 0.5 },
              test2: { save: ({ TEST2_ITERATIONS: n }) => 60 + (n / ROUNDS) * 10, insert: ({ TEST2_ITERATIONS: n }) => 60 + (n / ROUNDS) * 0.5, sql: ({ TEST2_ITERATIONS: n }) => 40 + (n / ROUNDS) * 0.05, 'sql-async': ({ TEST2_ITERATIONS: n }) => 40 + (n / ROUNDS) * 0.05 },
            },
          },
        });
        const pinned = { TEST1_ITERATIONS: 306, TEST2_ITERATIONS: 3064, TEST3_ITERATIONS: 122572 };

        it('promises findings far past a threshold on steps predicted short, and not those the floor could move across one', () => {
          const [far] = plan('log-inserts', [['ferretdb-pg', ferretdbPg(20), 'ferretdb-pg']], { budgetSeconds: 600, pinned });
          assert.deepEqual(far.spans.map((x) => [x.step, x.met]), [['test1', false], ['test2', false]]);
          assert.deepEqual(far.findings.tooShort, [], JSON.stringify(far.spans));
          assert.deepEqual(far.findings.decidable.sort(), ['durability-matched-test1', 'durability-matched-test2', 'insert-beats-save', 'mongo-beats-sql-test1', 'mongo-beats-sql-test2']);
          // saves of 43 ms a block against the SQL side's 22: 0.5×, which 100 ms of a block could make 22 / 0
          const [close] = plan('log-inserts', [['ferretdb-pg', ferretdbPg(0.6), 'ferretdb-pg']], { budgetSeconds: 600, pinned });
          assert.deepEqual(close.findings.tooShort, ['mongo-beats-sql-test1', 'durability-matched-test1']);
          assert.match(planLines(scenario('log-inserts'), [{ ...close, scenario: 'log-inserts', size: 'auto' }]).join('\n'), /mongo-beats-sql-test1, durability-matched-test1 are not promised/);
        });

        it('weighs a side\'s block by twice the fixed cost the probes fitted, else by the floor, and promises nothing it cannot predict a ratio for', () => {
          const d = scenario('log-inserts');
          const finding = findings('log-inserts').find((f) => f.id === 'mongo-beats-sql-test1');
          // the SQL side's 40 ms blocks against saves of 130 ms: 0.31×; 100 ms out of a save could make it 1.3×
          const span = { step: 'test1', minMs: 100, sides: { sql: 40, save: 130, insert: 60 }, met: false };
          assert.equal(decidedDespiteShort(d, finding, [span]), false);
          assert.equal(decidedDespiteShort(d, finding, [{ ...span, fixedMs: { sql: 5, save: 8 } }]), true, 'at most 16 ms: 40 / 114 = 0.35×');
          // one span for the whole step names no side: nothing to predict a ratio from
          assert.equal(decidedDespiteShort(d, finding, [{ ...span, sides: { all: 40 } }]), false);
          const { tooShort } = promisedFindings(d, findings('log-inserts'), 'ferretdb-pg', d.sizes.article, [
            { ...span, sides: { ...span.sides, 'sql-async': 40 } }, { step: 'test2', minMs: 500, sides: { sql: 400, 'sql-async': 400, save: 9000, insert: 600 }, met: false },
          ]);
          assert.deepEqual(tooShort, ['mongo-beats-sql-test1', 'durability-matched-test1']);
        });
      });

      it('needs no raise for a side whose fixed part clears the floor already, and says no side was measured where none was', () => {
        assert.equal(neededForSpan({ minMs: 100, sides: { a: { fixedMs: 250, perUnitMs: 1 } } }, 5000), 1);
        assert.equal(neededForSpan({ minMs: 100, sides: { a: { fixedMs: 0, perUnitMs: 0 } } }, 5000), 5000, 'a side that does not grow: as far as the article goes');
        assert.equal(neededForSpan({ minMs: 100, sides: {} }, 5000), null);
      });
    });

    it('does not promise a finding whose blocks it predicts too short, where no raise fits the budget', () => {
      // a slow server: test 1's blocks would need more iterations than the budget allows
      const slow = {
        opMs: 2,
        'log-inserts': {
          steps: logInsertsSteps({ test1: [300, 20], test2: [4000, 20], test3: [300, 2], 'test3-parallel': [4000, 2] }),
          spans: { test1: ({ TEST1_ITERATIONS: n }) => n * 0.05, test2: ({ TEST2_ITERATIONS: n }) => n * 0.001 },
        },
      };
      const [p] = plan('log-inserts', [['ferretdb2', slow, 'ferretdb2']], { budgetSeconds: 60 });
      const short = p.spans.filter((s) => !s.met).map((s) => s.step);
      assert.ok(short.length, JSON.stringify(p.spans));
      // every finding decided on a short step's blocks moves out of the promise, and the plan says so
      for (const id of p.findings.tooShort) assert.ok(!p.findings.decidable.includes(id));
      assert.ok(p.findings.tooShort.includes(short.includes('test1') ? 'mongo-beats-sql-test1' : 'insert-beats-save'), JSON.stringify(p.findings));
      assert.match(planLines(scenario('log-inserts'), [{ ...p, scenario: 'log-inserts', size: 'auto' }]).join('\n'), /not promised/);
    });

    // The choice held to a brute-force search, not to the planner's own prediction: crafted servers
    // whose every step is a formula of the model's own family (so that a fit can be exact), drawn
    // from a seeded generator; every size the planner may choose (sizesAt on a fine grid) timed by
    // the formula itself. The plan must fit the budget in truth, be no smaller than the largest size
    // the search finds to fit, and one more of its leading variable must not fit on some server.
    describe('against a brute-force search over crafted servers', () => {
      const random = (() => { let x = 20260529; return () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; }; })();
      const between = (lo, hi) => lo * (hi / lo) ** random(); // log-uniform
      const CRAFTED = {
        'power-of-2-sizes': (kind) => {
          const [f1, a1, f2, a2, g2] = [between(100, 2000), between(0.01, 1), between(100, 2000), between(0.05, 3), kind === 'ferretdb' ? between(1e-6, 1e-4) : 0];
          return { steps: { setup: ({ DOCS }) => f1 + a1 * 2 * DOCS, pass: ({ DOCS, UPDATES, REMOVES, INSERTS }) => f2 + a2 * 2 * (UPDATES + REMOVES + INSERTS) + g2 * 2 * (UPDATES + REMOVES) * DOCS } };
        },
        'many-keys': () => {
          const [f1, a1, f2, a2, g2] = [between(100, 2000), between(1, 2000), between(100, 2000), between(0.1, 50), between(0.01, 20)];
          const update = ({ UPDATES, DOCS }) => f2 + a2 * 2 * UPDATES + g2 * 2 * UPDATES * DOCS;
          // its updates' blocks long enough that no raise of UPDATES is needed: the choice alone is tested
          return { steps: { insert: ({ DOCS, BUCKET_DOCS }) => f1 + a1 * (DOCS + BUCKET_DOCS), update }, spans: { update: (sizes) => 1000 + update(sizes) } };
        },
      };

      /** Every distinct size the planner may pick, by a grid of 20,000 fractions. */
      const candidates = (d) => {
        const seen = new Map();
        for (let i = 0; i <= 20000; i += 1) { const sz = sizesAt(d, i / 20000); seen.set(JSON.stringify(sz), sz); }
        return [...seen.values()];
      };

      for (const [name, kinds] of [['power-of-2-sizes', ['ferretdb', 'ferretdb2']], ['many-keys', ['ferretdb-pg', 'ferretdb-pg']]]) {
        it(`${name}: the largest size that truly fits, on ${kinds.length} servers sharing one size, at budgets from 20 s to 20 min`, () => {
          const d = scenario(name);
          const lead = Object.keys(d.scaling.vary)[0];
          const passes = d.sizes.article.passes;
          const all = candidates(d);
          let tried = 0;
          for (const budgetSeconds of [20, 60, 180, 600, 1200]) {
            for (let draw = 0; draw < 3; draw += 1) {
              const servers = kinds.map((kind, i) => [`s${i}`, { opMs: 1e-4, [name]: CRAFTED[name](kind) }, kind]);
              const plans = plan(name, servers, { budgetSeconds, passes });
              const budgetMs = plans[0].budgetSeconds * 1000; // a scenario that decides nothing here gets its share
              const truth = (sizes) => Math.max(...servers.map(([, srv]) => truthMs(d, srv[name], sizes, passes)));
              const fitting = all.filter((sz) => truth(sz) <= budgetMs);
              const where = `${name} at ${budgetSeconds} s, draw ${draw}`;
              if (!fitting.length) {
                assert.ok(plans.every((p) => !p.fits), `${where}: nothing fits, the plan says it does`);
                continue;
              }
              const best = fitting.reduce((a, b) => (b[lead] > a[lead] ? b : a));
              tried += 1;
              for (const p of plans) {
                assert.deepEqual(plans[0].sizes, p.sizes, `${where}: one size`);
                assert.ok(truth(p.sizes) <= budgetMs * (1 + 1e-6), `${where}: ${JSON.stringify(p.sizes)} takes ${truth(p.sizes)} ms of ${budgetMs}`);
                assert.ok(p.sizes[lead] >= best[lead], `${where}: ${lead}=${p.sizes[lead]}, where ${lead}=${best[lead]} fits (${truth(best)} ms of ${budgetMs})`);
                const more = sizesAt(d, Math.min(1, (p.sizes[lead] + 1) / d.sizes.article[lead]));
                if (more[lead] > p.sizes[lead]) assert.ok(truth(more) > budgetMs, `${where}: ${lead}=${more[lead]} fits too (${truth(more)} ms of ${budgetMs})`);
              }
            }
          }
          assert.ok(tried >= 6, `${tried} budgets where something fits`);
        });
      }
    });

    it('takes the smallest size and says so where nothing fits the budget', () => {
      const [p] = plan('many-keys', [['ferretdb-pg', FERRETDB_LIKE, 'ferretdb-pg']], { budgetSeconds: 2 });
      assert.equal(p.fits, false);
      assert.deepEqual(p.sizes, sizesAt(scenario('many-keys'), 0));
      assert.match(planLines(scenario('many-keys'), [{ ...p, scenario: 'many-keys', size: 'auto' }]).join('\n'), /over budget: the smallest size/);
    });

    // Two costs only a fast mongod shows, which the probes cannot see where the planner reads the
    // wrong clock or stops short of the cache: each crafted server's probes are what its formula
    // gives at the sizes the planner asks for, and the plan's real time must stay within 1.5× of
    // the budget, where without the fix it would not.
    describe('costs only a fast mongod shows', () => {
      const { figuresOf } = require('../../orchestrator/run/probe');

      /**
       * A fast standalone mongod's embedded-comments blocks at TOTAL, each cell cut into
       * EC_ROUNDS blocks of one blog at least, as its script runs them: the shell sends a write in
       * 0.03 ms, the server applies an insert in 0.02 ms and a $push in 0.02 ms plus 0.004 ms per
       * comment the blog already holds (it rewrites, and journals, the whole document), a round
       * trip is 0.1 ms, and the socket buffers hold 4,000 of the 1 KB writes: an unacknowledged
       * block's send time is the shell's own loop until its traffic outgrows the buffers, while its
       * applied time, and the step (the barrier after each block), pay the server's work in full.
       * Each block's line, then each cell's (its blocks summed), as the script prints them.
       */
      function fastCells(TOTAL) {
        const records = [];
        const sums = [];
        for (const mode of ['unsafe', 'safe']) {
          for (const layout of ['embedded', 'separate']) {
            for (const perBlog of cells(TOTAL)) {
              const all = Math.max(TOTAL / perBlog, EC_ROUNDS);
              const cell = { mode, layout, perBlog, blogs: all, comments: all * perBlog, seconds: 0, appliedSeconds: 0 };
              for (let round = 1; round <= EC_ROUNDS; round++) {
                const blogs = Math.floor(all / EC_ROUNDS) + (round <= all % EC_ROUNDS ? 1 : 0);
                const comments = blogs * perBlog;
                const writes = layout === 'separate' ? comments : comments + blogs;
                const serverMs = layout === 'separate' ? comments * 0.02 : writes * 0.02 + 0.004 * blogs * perBlog * (perBlog - 1) / 2;
                let sentMs;
                let appliedMs;
                if (mode === 'safe') {
                  sentMs = writes * 0.1 + serverMs;
                  appliedMs = sentMs + 0.1;
                } else {
                  const loopMs = writes * 0.03;
                  appliedMs = Math.max(loopMs, serverMs) + 0.1;
                  sentMs = writes <= 4000 ? loopMs : Math.max(loopMs, appliedMs - 4000 * (serverMs / writes));
                }
                records.push({ round, mode, layout, perBlog, blogs, comments, seconds: sentMs / 1000, appliedSeconds: appliedMs / 1000 });
                cell.seconds += sentMs / 1000;
                cell.appliedSeconds += appliedMs / 1000;
              }
              sums.push(cell);
            }
          }
        }
        return [...records, ...sums];
      }
      const benchMs = (records) => 300 + records.filter((r) => r.round).reduce((n, r) => n + r.appliedSeconds * 1000 + 20, 0);

      /** The probes the planner asks for, each step timed and, where it declares them, its figures read from the crafted records. */
      function probeWithFigures(descriptor, recordsAt, { budgetSeconds }) {
        const probes = [];
        for (;;) {
          const sizes = nextProbeSizes(descriptor, { done: probes, budgetSeconds });
          if (!sizes) break;
          const records = recordsAt(sizes);
          const decl = descriptor.scaling.steps.bench;
          probes.push({ sizes, steps: { bench: { ms: benchMs(records), figures: figuresOf(decl.figures, records), spanMs: Math.min(...records.map((r) => r.appliedSeconds * 1000)) } } });
        }
        return { fixedMs: {}, probes };
      }

      const planOn = (descriptor, probe, budgetSeconds) => planScenario({
        descriptor, findings: findings(descriptor.name), budgetSeconds, passes: 1,
        servers: [{ server: 'mongod', kind: 'mongod', calibration: calibration(0.1), probe }],
      })[0];

      it('fits embedded-comments\' growth to the applied time, which the unacknowledged cells\' send time hides', () => {
        // a budget the applied-time model keeps to TOTAL 5,000 (the 10,000 cells' pushes into 8 blogs
        // growing to 10 MB cost some 3,000 s), and that the send-time model, seeing half the growth, thinks fits 10,000
        const d = scenario('embedded-comments');
        const budgetSeconds = 2000;
        const truthOf = (p) => benchMs(fastCells(p.sizes.TOTAL)) / 1000;
        const p = planOn(d, probeWithFigures(d, (sizes) => fastCells(sizes.TOTAL), { budgetSeconds }), budgetSeconds);
        assert.equal(d.scaling.steps.bench.figures.field, 'appliedSeconds');
        assert.ok(p.fits && p.predictedSeconds <= budgetSeconds, JSON.stringify(p.sizes));
        assert.ok(truthOf(p) <= 1.5 * budgetSeconds, `TOTAL ${p.sizes.TOTAL}: predicted ${p.predictedSeconds.toFixed(1)} s, takes ${truthOf(p).toFixed(1)} s`);
        // the same probes read on the send time: the growth half hidden, a size that blows the budget
        const onSend = { ...d, scaling: { ...d.scaling, steps: { bench: { ...d.scaling.steps.bench, figures: { ...d.scaling.steps.bench.figures, field: 'seconds' } } } } };
        const blown = planOn(onSend, probeWithFigures(onSend, (sizes) => fastCells(sizes.TOTAL), { budgetSeconds }), budgetSeconds);
        assert.ok(truthOf(blown) > 1.5 * budgetSeconds, `on the send time: TOTAL ${blown.sizes.TOTAL}, predicted ${blown.predictedSeconds.toFixed(1)} s, takes ${truthOf(blown).toFixed(1)} s`);
      });

      /**
       * A fast mongod's trade-candles: the load 0.005 ms a candle; each read run 0.1 ms a query and
       * 0.002 ms a candle returned; the little-memory run, once the day outgrows the cut cache,
       * thrashes a little worse than the descriptor declares: the cache holds 0.8 × 256 MB of
       * 420-byte candles, and each of a read by ticker's MINUTES pages missed costs 0.06 ms.
       */
      const thrashMs = ({ TICKERS, MINUTES, TICKER_QUERIES, TICKER_SAMPLE, DAY_QUERIES }) => {
        const cached = 0.8 * 256 * 1048576 / 420;
        const day = TICKERS * MINUTES;
        const missed = (set) => Math.max(0, 1 - cached / set);
        return 0.06 * (TICKER_QUERIES * MINUTES * missed(Math.min(day, TICKER_SAMPLE * MINUTES * 120)) + DAY_QUERIES * (day / 120) * missed(day));
      };
      const oneRunMs = (z) => 0.1 * (z.TICKER_QUERIES + z.INTERVALS * z.INTERVAL_REPEATS + z.DAY_QUERIES)
        + 0.002 * (z.TICKER_QUERIES * z.MINUTES + z.INTERVALS * z.INTERVAL_REPEATS * z.TICKERS * 15 + z.DAY_QUERIES * z.TICKERS * z.MINUTES);
      const FAST_CANDLES = {
        opMs: 0.1,
        'trade-candles': { steps: { load: (z) => 300 + z.TICKERS * z.MINUTES * 0.005, read: (z) => 300 + 2 * oneRunMs(z) + thrashMs(z) } },
      };

      it('predicts trade-candles\' little-memory run with a term for the data beyond the cache the probes never reach', () => {
        const d = scenario('trade-candles');
        const budgetSeconds = 100;
        const server = FAST_CANDLES['trade-candles'];
        const truthOf = (p) => truthMs(d, server, p.sizes, 1) / 1000;
        const probe = probeCrafted(d, server, { budgetSeconds });
        assert.ok(probe.probes.every((pr) => thrashMs(pr.sizes) === 0), 'the probes stay where the day fits the cut cache');
        const p = planOn(d, probe, budgetSeconds);
        assert.ok(p.fits && p.predictedSeconds <= budgetSeconds, JSON.stringify(p.sizes));
        assert.ok(p.model.steps.read.beyondCache && /little-memory beyond the cache: 0\.05\d* ms × \(/.test(p.model.text), p.model.text);
        assert.ok(thrashMs(p.sizes) > 0, `a size where the little-memory run thrashes: TICKERS ${p.sizes.TICKERS}`);
        assert.ok(truthOf(p) <= 1.5 * budgetSeconds, `TICKERS ${p.sizes.TICKERS}: predicted ${p.predictedSeconds.toFixed(1)} s, takes ${truthOf(p).toFixed(1)} s`);
        // without the term the model sees no thrash: the article's size, and a run past 1.5× the budget
        const { beyondCache, ...read } = d.scaling.steps.read;
        const blind = { ...d, scaling: { ...d.scaling, steps: { ...d.scaling.steps, read } } };
        const blown = planOn(blind, probeCrafted(blind, server, { budgetSeconds }), budgetSeconds);
        assert.ok(beyondCache && truthOf(blown) > 1.5 * budgetSeconds, `without the term: TICKERS ${blown.sizes.TICKERS}, predicted ${blown.predictedSeconds.toFixed(1)} s, takes ${truthOf(blown).toFixed(1)} s`);
      });

      it('adds nothing beyond the cache where the day fits it, or where there is no little-memory run', () => {
        const d = scenario('trade-candles');
        const { beyondCacheMs } = require('../../orchestrator/sizing/planner');
        const decl = d.scaling.steps.read.beyondCache;
        assert.equal(beyondCacheMs(decl, d.sizes.quick), 0);
        assert.equal(beyondCacheMs(decl, { ...d.sizes.article, CACHE_MB: 0 }), 0);
        assert.ok(beyondCacheMs(decl, d.sizes.article) > beyondCacheMs(decl, sizesAt(d, 2500 / 3600)));
        assert.equal(parseExpression('max(0, 1 - min(A, 2) / 4)').evaluate({ A: 8 }), 0.5);
      });

      it('adds nothing beyond the cache on a server whose cache the kit cannot cut', () => {
        const d = scenario('trade-candles');
        const probe = probeCrafted(d, FAST_CANDLES['trade-candles'], { budgetSeconds: 100 });
        assert.ok(fitSteps(d, probe, { kind: 'mongod:zstd' }).read.beyondCache);
        assert.equal(fitSteps(d, probe, { kind: 'ferretdb2' }).read.beyondCache, undefined);
      });
    });

    it('says for a named size which findings it can decide, and which need more, without a prediction', () => {
      const d = scenario('trade-candles');
      const sizes = d.sizes.quick;
      const record = { scenario: d.name, server: 'mongod', size: 'quick', sizes, findings: findingsAt(d, findings(d.name), 'mongod', sizes) };
      assert.ok(record.findings.tooSmall.some((t) => t.id === 'little-memory-slower'), JSON.stringify(record.findings));
      assert.ok(!record.findings.decidable.includes('little-memory-slower'));
      const text = planLines(d, [record]).join('\n');
      assert.match(text, /the quick size/);
      assert.match(text, /little-memory-slower needs TICKERS ≥ 2,500 \(.*\): the quick size is below it/);
      const article = { ...record, size: 'article', sizes: d.sizes.article, findings: findingsAt(d, findings(d.name), 'mongod', d.sizes.article) };
      assert.ok(article.findings.decidable.includes('little-memory-slower'));
      assert.doesNotMatch(planLines(d, [article]).join('\n'), /needs/);
    });
  });
});
