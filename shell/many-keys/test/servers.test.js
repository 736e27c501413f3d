'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, parityKindOf, smokeRunOn, verdictsOf } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { withoutTimings } = require('../../../orchestrator/results/records');
const { leftAfter } = require('../../../test/helpers/processes');

const SCHEMAS = ['original', 'bucket'];
const KEY_PROBLEMS = ['keysMissing', 'keysDuplicated', 'keysExtra', 'keysMisplaced'];

const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`many-keys at smoke size on ${server}`, function () {
    this.timeout(300000);
    let out;
    let run;
    // the fixture run's own rounds and sizes (test/helpers/fixture-runs.js), never constants of this suite's
    let ROUNDS;
    let SMOKE;
    const of = (kind, schema) => run.measurements.filter((m) => m.kind === kind && (!schema || m.schema === schema));
    // the counted blocks (rounds 1 to ROUNDS); the warm-up round's apart (round 0, warmup true)
    const blocksOf = (r, schema) => r.blocks.filter((b) => b.step === 'update' && b.server === server && !b.warmup && (!schema || b.schema === schema));
    const warmUpOf = (r) => r.blocks.filter((b) => b.step === 'update' && b.server === server && b.warmup);

    const state = smokeRunOn(scenario, server);
    before(() => {
      ({ out, run } = state);
      ({ rounds: ROUNDS, sizes: SMOKE } = state.params);
    });

    it('measures every cell: inserts, send and applied times, rates and the speed-up', () => {
      for (const schema of SCHEMAS) {
        const [insert] = of('insert', schema);
        assert.ok(insert.hrMs > 0 && insert.insertHrMs > 0 && insert.insertHrMs <= insert.hrMs, `${schema} insert times`);
        assert.ok(insert.bsonSize > SMOKE.KEYS * 30, `${schema}: a document holds ${SMOKE.KEYS} counters`);
        const [update] = of('update', schema);
        assert.equal(update.updates, SMOKE.UPDATES);
        for (const field of ['seconds', 'appliedSeconds', 'rate', 'sendRate']) {
          assert.ok(Number.isFinite(update[field]) && update[field] > 0, `${schema} ${field} = ${update[field]}`);
        }
        assert.ok(update.appliedHrMs >= update.hrMs, `${schema}: applied no sooner than sent`);
        const times = of('time', schema);
        assert.deepEqual(times.map((t) => t.measure), ['send', 'applied']);
        assert.ok(times.every((t) => t.seconds > 0));
      }
      const [original] = of('update', 'original');
      const [bucket] = of('update', 'bucket');
      assert.ok(Math.abs(bucket.speedup - original.hrMs / bucket.hrMs) <= 0.01, `speed-up ${bucket.speedup}`);
      assert.ok(bucket.speedupApplied > 0);
    });

    it('cuts the updates into paired rounds: one block of each schema per round, on the same share', () => {
      const blocks = blocksOf(run);
      assert.equal(blocks.length, 2 * ROUNDS);
      assert.ok(run.measurements.every((m) => m.round === undefined), 'no block line is recorded as a measurement');
      for (let round = 1; round <= ROUNDS; round++) {
        const pair = blocks.filter((b) => b.round === round);
        assert.deepEqual(pair.map((b) => b.schema).sort(), ['bucket', 'original'], `round ${round}`);
        assert.deepEqual(pair.map((b) => b.position).sort(), [1, 2], `round ${round}: positions`);
        assert.equal(pair[0].updates, pair[1].updates, `round ${round}: the same share on both`);
        assert.ok(pair.every((b) => b.rounds === ROUNDS && b.kind === 'update' && b.collection === b.schema && b.pass === 1));
      }
      for (const schema of SCHEMAS) {
        const own = blocksOf(run, schema);
        assert.equal(own.reduce((n, b) => n + b.updates, 0), SMOKE.UPDATES, `${schema}: every update in one block`);
        const [update] = of('update', schema);
        for (const b of own) {
          for (const field of ['seconds', 'hrMs', 'appliedSeconds', 'appliedHrMs']) assert.ok(Number.isFinite(b[field]) && b[field] > 0, `${schema} round ${b.round}: ${field} = ${b[field]}`);
          assert.ok(b.appliedHrMs >= b.hrMs, `${schema} round ${b.round}: applied no sooner than sent`);
          assert.equal(b.writeConcern, update.writeConcern);
          assert.equal(b.docs, SMOKE.DOCS);
        }
      }
    });

    it('warms up first: a block of each schema in round 1\'s order, round 0, round 1\'s share of updates of their own, in no sum', () => {
      const warm = warmUpOf(run);
      assert.deepEqual(warm.map((b) => b.round), [0, 0]);
      const first = blocksOf(run).filter((b) => b.round === 1);
      assert.deepEqual(warm.map((b) => b.schema), first.sort((a, b) => a.position - b.position).map((b) => b.schema), 'in round 1\'s order');
      assert.deepEqual(warm.map((b) => b.position), [1, 2]);
      const [update] = of('update', SCHEMAS[0]);
      assert.ok(warm.every((b) => b.updates === first[0].updates && b.updates === update.warmupUpdates), `${JSON.stringify(warm.map((b) => b.updates))} against round 1's ${first[0].updates}`);
      // printed before round 1's: the warm-up ran first
      const all = run.blocks.filter((b) => b.step === 'update' && b.server === server);
      assert.deepEqual(all.slice(0, 2), warm);
    });

    it('gives each schema\'s line, the article\'s, the sums of its blocks\' times', () => {
      const sum = (list, field) => list.reduce((n, b) => n + b[field], 0);
      for (const schema of SCHEMAS) {
        const own = blocksOf(run, schema);
        const [update] = of('update', schema);
        assert.equal(update.rounds, ROUNDS);
        assert.equal(update.ms, sum(own, 'ms'), `${schema}: ms`);
        assert.equal(update.appliedMs, sum(own, 'appliedMs'), `${schema}: appliedMs`);
        for (const field of ['hrMs', 'appliedHrMs', 'lateByAtMostMs', 'samplingMs']) {
          assert.ok(Math.abs(update[field] - sum(own, field)) <= 0.001 * own.length, `${schema}: ${field} ${update[field]} against the blocks' ${sum(own, field)}`);
        }
        for (const field of ['seconds', 'appliedSeconds']) {
          assert.ok(Math.abs(update[field] - sum(own, field)) <= 1e-6 * own.length, `${schema}: ${field} ${update[field]} against the blocks' ${sum(own, field)}`);
        }
        const times = of('time', schema);
        assert.deepEqual(times.map((t) => t.seconds), [update.seconds, update.appliedSeconds]);
      }
      const [original] = of('update', 'original');
      const [bucket] = of('update', 'bucket');
      assert.ok(Math.abs(bucket.speedupApplied - original.appliedHrMs / bucket.appliedHrMs) <= 0.01, `applied speed-up ${bucket.speedupApplied}`);
    });

    // the mongosh run is made on the scenario's parity kind only (test/helpers/scenario-suite.js)
    if (server === parityKindOf(scenario)) it('draws the same rounds in mongosh (same seed): every block\'s round, position, schema and share', () => {
      const identity = (r) => [...warmUpOf(r), ...blocksOf(r)].map(withoutTimings);
      assert.ok(identity(run).length > 0);
      assert.deepEqual(identity(state.mongoshRun), identity(run));
    });

    it('writes the documents it meant to: counts, identities, every key once in its md5 bucket', () => {
      for (const schema of SCHEMAS) {
        for (const kind of ['insert', 'update']) {
          const [m] = of(kind, schema);
          assert.equal(m.count, SMOKE.DOCS, `${schema} after ${kind}: count`);
          assert.ok(m.countOk, `${schema} after ${kind}: the orchestrator's count check`);
          assert.equal(m.verification.problems.documents, SMOKE.DOCS, `${schema} after ${kind}: documents read back`);
          for (const p of KEY_PROBLEMS) assert.equal(m.verification.problems[p], 0, `${schema} after ${kind}: ${p}`);
          assert.ok(m.verification.ok, `${schema} after ${kind}: ${JSON.stringify(m.verification.problems)}`);
        }
      }
    });

    it('applies every $inc: stats.events grows by 5 per update and every counter holds its planned count', () => {
      for (const schema of SCHEMAS) {
        const [update] = of('update', schema);
        assert.equal(update.eventsBefore, 0, `${schema}: counters start at 0`);
        // the warm-up's updates are applied too, before round 1's
        assert.equal(update.eventsAfter, update.eventsBefore + 5 * (SMOKE.UPDATES + update.warmupUpdates), `${schema}: sum of stats.events`);
        assert.ok(update.eventsOk);
        assert.ok(update.verification.countersChecked, `${schema}: counters compared one by one`);
        assert.equal(update.verification.problems.counters, 0);
        assert.equal(update.verification.problems.documentSums, 0);
        assert.equal(update.verification.problems.random, 0);
      }
    });

    it('samples the update rate once a second, naming the source, and the samples add up to the updates', () => {
      for (const schema of SCHEMAS) {
        const samples = of('sample', schema);
        assert.ok(samples.length >= 2, `${schema}: ${samples.length} samples`);
        assert.equal(samples[0].second, 0);
        assert.ok(samples.every((s, i) => i === 0 || s.second >= samples[i - 1].second), `${schema}: seconds never go back`);
        assert.ok(samples.slice(1, -1).every((s, i) => s.second - samples[i].second >= 0.99), `${schema}: one sample a second`);
        assert.equal(samples.reduce((n, s) => n + s.updates, 0), SMOKE.UPDATES);
        assert.equal(samples.at(-1).total, SMOKE.UPDATES);
        assert.ok(samples.slice(0, -1).every((s) => !s.partial), `${schema}: only the last sample may be partial`);
        const [update] = of('update', schema);
        assert.ok(samples.every((s) => s.source === update.samplesFrom));
        // the series' seconds are the schema's own: its blocks' applied times, end to end
        assert.ok(samples.at(-1).second <= update.appliedSeconds + 0.001, `${schema}: last sample at ${samples.at(-1).second} s of ${update.appliedSeconds} s`);
      }
    });

    it('uses w:0 where the server takes fire-and-forget writes and says why not elsewhere', () => {
      for (const update of of('update')) {
        if (server.startsWith('mongod')) {
          assert.equal(update.writeConcern, 'w:0');
          assert.equal(update.unacknowledged.outcome, 'honoured');
          assert.equal(update.appliedBy, 'after each block, a command sent after its last update on its connection returned (the tail sampled from $collStats latencyStats writes.ops)');
          // the barrier alone stops each block's applied clock, never a poll's sleep: sent while
          // updates were still to apply it returned at the last one; sent after, the record bounds how late
          assert.match(update.barrierText, new RegExp(`^in \\d+ of ${ROUNDS} blocks the barrier went out while the counter still showed updates to apply, so it returned at the block's last one(; in \\d+ all were applied already, so the applied time may be late by up to [\\d.]+ ms in all)?$`));
          assert.equal(update.lateByAtMostMs > 0, update.barrierText.includes('all were applied already'), `late by at most ${update.lateByAtMostMs} ms`);
          assert.match(update.samplesFrom, /^\$collStats latencyStats writes\.ops/);
        } else {
          // FerretDB 1.24 replies to OP_MSG moreToCome writes; the probe must notice it.
          assert.equal(update.writeConcern, 'w:1');
          assert.equal(update.unacknowledged.outcome, 'refused');
          assert.match(update.unacknowledged.reason, /fire-and-forget/);
          assert.equal(update.appliedBy, 'each update acknowledged (w:1)');
          assert.equal(update.barrierText, null);
          assert.equal(update.lateByAtMostMs, 0);
          assert.match(update.samplesFrom, /acknowledged updates/);
        }
      }
    });

    it('records how the server finds each update\'s document, through the index insert.js built', () => {
      for (const schema of SCHEMAS) {
        const [insert] = of('insert', schema);
        assert.match(insert.identityIndex, /appver.*deploytype.*g.*guid.*timeslice/);
        const [update] = of('update', schema);
        assert.ok(typeof update.plan === 'string' && update.plan.length > 10, `${schema}: ${update.plan}`);
        if (server.startsWith('mongod')) {
          assert.match(update.plan, /IXSCAN appver_1_deploytype_1_g_1_guid_1_timeslice_1/);
          assert.equal(update.keysExamined, 1);
          assert.equal(update.planScans, false);
        } else if (server === 'ferretdb2') {
          // FerretDB 2 does not explain updates: the plan is the equivalent find's, and says so
          assert.match(update.plan, /^the equivalent find's plan \(this server does not explain an update: [^)]+\): FerretDB: PostgreSQL .*Index Scan on appver_1_deploytype_1_g_1_guid_1_timeslice_1$/);
          assert.equal(update.planScans, false);
        } else {
          assert.match(update.plan, /^FerretDB: (PostgreSQL|SQLite) \w+/);
          assert.doesNotMatch(update.plan, /undefined/);
          assert.equal(typeof update.planScans, 'boolean');
        }
      }
    });

    it('reports the bucket finding with the write concern and the plan beside it', () => {
      const verdicts = verdictsOf(out, scenario.name);
      const v = verdicts.find((x) => x.finding === FINDINGS[0].id && x.server === server);
      assert.ok(v, 'a verdict for the finding');
      // the write concern and the plan beside it, as data
      assert.deepEqual(v.context.map((c) => c.label), ['writes', 'the update\'s plan']);
      assert.match(v.context[0].values.join(), /^w:[01]$/);
    });

    it('writes summary.md beside the article\'s 18.35 s, 1.47 s and 12.49x, and both charts as real PNGs', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      assert.match(summary, /\| pass \| original send s \(article\) \| original send s \| original applied s \|/);
      assert.match(summary, /\| 1 \| 18\.35 \| \d[\d,]*\.\d\d \| \d[\d,]*\.\d\d \| \d[\d,]*\.\d \| 1\.47 \| \d/);
      assert.match(summary, /\| 1 \| 12\.49 \| \d+\.\d\d \| \d+\.\d\d \|/);
      assert.ok(summary.includes(`documents read back: original after insert: all ${SMOKE.DOCS} documents as written`));
      for (const chart of ['update-time', 'updates-per-second']) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `many-keys-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('records the server and the test bed in the results', () => {
      assert.deepEqual(run.servers.map((s) => s.server), [server]);
      assert.ok(run.servers[0].version);
      assert.equal(run.run.params.size, 'smoke');
      // the smoke size, with what the fixture run pinned (--set, recorded in its params' overrides)
      const { overrides = {} } = run.run.params;
      const smoke = scenario.descriptor.sizes.smoke;
      const pinned = Object.fromEntries(Object.entries(overrides).filter(([k]) => k in smoke));
      assert.deepEqual(SMOKE, { ...smoke, ...pinned, passes: 1 });
    });

    it('leaves no process it started running', async () => {
      assert.deepEqual(await leftAfter(state.tag), []);
    });
  });
}
