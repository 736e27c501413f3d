'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, parityKindOf, smokeRunOn, verdictsOf, untestableOn, assertDeclaredUntestable } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { leftAfter } = require('../../../test/helpers/processes');

// The smoke size: 100 comments per cell (TOTAL), 1, 10 and 100 per blog, in the fixture run's
// paired rounds; the 100-per-blog cells (one blog) write one blog a round.
const PER_BLOG = [1, 10, 100];
const MODES = ['unsafe', 'safe'];
const LAYOUTS = ['embedded', 'separate'];
const cellOf = (m) => `${m.mode} ${m.layout} ${m.perBlog}`;

const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`embedded-comments at smoke size on ${server}`, function () {
    this.timeout(300000);
    let out;
    let run;
    let cells;
    let blocks;
    // the fixture run's own rounds and size (test/helpers/fixture-runs.js), never constants of this suite's
    let ROUNDS;
    let TOTAL;
    /** The blogs a cell writes in all: the article's TOTAL / n, one a round at least. */
    const blogsOf = (perBlog) => Math.max(TOTAL / perBlog, ROUNDS);
    let warmUps;

    const state = smokeRunOn(scenario, server);
    before(() => {
      ({ out, run } = state);
      ({ rounds: ROUNDS, sizes: { TOTAL } } = state.params);
      cells = run.measurements.filter((m) => m.scenario === 'embedded-comments');
      // the counted blocks (rounds 1 to ROUNDS); the warm-up round's apart (round 0, warmup true)
      blocks = run.blocks.filter((b) => b.scenario === 'embedded-comments' && !b.warmup);
      warmUps = run.blocks.filter((b) => b.scenario === 'embedded-comments' && b.warmup);
    });

    it('ran in an even number of rounds of 2 or more, so that each round has its mirror', () => assert.ok(ROUNDS >= 2 && ROUNDS % 2 === 0, `${ROUNDS} rounds`));

    it('records every cell of both tables once, measured or refused with a reason', () => {
      const seen = cells.map((m) => `${m.mode} ${m.layout} ${m.perBlog}`).sort();
      const meant = MODES.flatMap((mode) => LAYOUTS.flatMap((layout) => PER_BLOG.map((n) => `${mode} ${layout} ${n}`))).sort();
      assert.deepEqual(seen, meant);
      for (const m of cells) {
        const where = `${m.mode} ${m.layout} ${m.perBlog} per blog`;
        assert.equal(m.blogs, blogsOf(m.perBlog), where);
        assert.equal(m.comments, blogsOf(m.perBlog) * m.perBlog, where);
        assert.equal(m.column, `${m.perBlog}(x${blogsOf(m.perBlog)})`, where);
        if (m.refused) {
          assert.ok(typeof m.reason === 'string' && m.reason.length > 10, `${where}: a refusal says why`);
          assert.equal(m.seconds, null, `${where}: a refused cell has no time`);
        } else {
          assert.ok(m.seconds > 0 && m.hrMs > 0, `${where}: seconds ${m.seconds}, hrMs ${m.hrMs}`);
          assert.ok(Math.abs(m.seconds * 1000 - m.hrMs) < 50, `${where}: the Date clock and performance.now() agree`);
          assert.ok(m.appliedSeconds >= m.seconds && m.appliedHrMs >= m.hrMs, `${where}: applied no earlier than sent`);
        }
      }
    });

    it('writes exactly the blogs and comments each measured cell meant to', () => {
      for (const m of cells.filter((c) => !c.refused)) {
        const where = `${m.mode} ${m.layout} ${m.perBlog} per blog`;
        assert.equal(m.writtenComments, m.comments, `${where}: comments written`);
        assert.equal(m.writtenBlogs, m.layout === 'embedded' ? m.blogs : 0, `${where}: blogs written`);
        assert.equal(m.complete, true, where);
      }
      for (const b of [...warmUps, ...blocks]) {
        const where = `${cellOf(b)} per blog, round ${b.round}`;
        assert.equal(b.writtenComments, b.comments, `${where}: comments written`);
        assert.equal(b.writtenBlogs, b.layout === 'embedded' ? b.blogs : 0, `${where}: blogs written`);
        assert.equal(b.complete, true, where);
      }
    });

    it('runs each round as one block of every cell, in the seed\'s drawn order, each drawn round mirrored in the next', () => {
      const meant = MODES.flatMap((mode) => LAYOUTS.flatMap((layout) => PER_BLOG.map((n) => `${mode} ${layout} ${n}`))).sort();
      assert.equal(blocks.length, meant.length * ROUNDS);
      const rounds = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const order = blocks.filter((b) => b.round === round).sort((p, q) => p.position - q.position);
        assert.deepEqual(order.map((b) => b.position), meant.map((_, i) => i + 1), `round ${round}: positions 1 … ${meant.length}`);
        assert.deepEqual(order.map(cellOf).sort(), meant, `round ${round}: every cell once`);
        assert.ok(order.every((b) => b.rounds === ROUNDS && b.type === 'block' && b.step === 'bench'), `round ${round}`);
        rounds.push(order.map(cellOf));
      }
      for (let r = 0; r < ROUNDS; r += 2) assert.deepEqual(rounds[r + 1], [...rounds[r]].reverse(), `round ${r + 2} runs round ${r + 1} backwards`);
      // printed in the order they ran: round by round, position by position
      assert.deepEqual(blocks.map((b) => [b.round, b.position]), blocks.map((b) => [b.round, b.position]).sort((p, q) => p[0] - q[0] || p[1] - q[1]));
    });

    it('warms up first: a block of every cell in round 1\'s order, round 0, writing round 1\'s share, counted in no cell', () => {
      const first = blocks.filter((b) => b.round === 1).sort((p, q) => p.position - q.position);
      assert.deepEqual(warmUps.map((b) => [b.round, b.position, cellOf(b)]), first.map((b) => [0, b.position, cellOf(b)]));
      for (const b of warmUps) {
        const one = first.find((f) => cellOf(f) === cellOf(b));
        assert.deepEqual([b.blogs, b.comments, b.rounds], [one.blogs, one.comments, one.rounds], `${cellOf(b)}: round 1's share`);
      }
      // printed first: the warm-up ran before round 1
      assert.deepEqual(run.blocks.filter((b) => b.scenario === 'embedded-comments').slice(0, warmUps.length), warmUps);
    });

    // @serial: two clocks read a few microseconds apart agree within 5 ms only where the shell is not
    // descheduled between them: run alone, after the pool (test/run.js)
    it('times every block on its own: one blog at least, its clocks, what it spent outside them @serial', () => {
      for (const b of [...warmUps, ...blocks]) {
        const where = `${cellOf(b)} per blog, round ${b.round}`;
        assert.ok(b.blogs >= 1, where);
        assert.equal(b.comments, b.blogs * b.perBlog, where);
        assert.equal(b.refused, false, where);
        assert.ok(b.seconds >= 0 && b.hrMs > 0, `${where}: seconds ${b.seconds}, hrMs ${b.hrMs}`);
        assert.ok(Math.abs(b.seconds * 1000 - b.hrMs) < 5, `${where}: the Date clock and performance.now() agree`);
        assert.ok(b.appliedSeconds >= b.seconds && b.appliedHrMs >= b.hrMs, `${where}: applied no earlier than sent`);
        assert.ok(b.overheadMs > 0, `${where}: overheadMs ${b.overheadMs}`);
        assert.equal(b.writeConcern, cells.find((m) => cellOf(m) === cellOf(b)).writeConcern, where);
      }
    });

    it('makes each cell\'s line the sum of its ROUNDS blocks\' lines', () => {
      const sum = (list, field) => list.reduce((n, b) => n + b[field], 0);
      for (const m of cells) {
        const where = `${cellOf(m)} per blog`;
        const own = blocks.filter((b) => cellOf(b) === cellOf(m));
        assert.deepEqual(own.map((b) => b.round).sort((p, q) => p - q), Array.from({ length: ROUNDS }, (_, r) => r + 1), `${where}: one block a round`);
        assert.equal(m.blocks, ROUNDS, where);
        for (const field of ['blogs', 'comments', 'writtenBlogs', 'writtenComments']) assert.equal(m[field], sum(own, field), `${where}: ${field}`);
        for (const field of ['seconds', 'hrMs', 'appliedSeconds', 'appliedHrMs']) {
          assert.ok(Math.abs(m[field] - sum(own, field)) < 1e-6, `${where}: ${field} ${m[field]}, its blocks' ${sum(own, field)}`);
        }
        if (m.layout === 'embedded') assert.equal(m.documentBytes, Math.max(...own.map((b) => b.documentBytes)), where);
      }
    });

    // the mongosh run is made on the scenario's parity kind only (test/helpers/scenario-suite.js)
    if (server === parityKindOf(scenario)) it('draws the same order of blocks in mongosh (same seed)', () => {
      const order = (r) => r.blocks.filter((b) => b.scenario === 'embedded-comments').map((b) => `${b.round}.${b.position} ${cellOf(b)}`);
      assert.deepEqual(order(state.mongoshRun), order(run));
      assert.deepEqual(order(state.driverPathRun), order(run));
    });

    it('sends the unsafe table unacknowledged where the server takes w:0, and says why not where it does not', () => {
      assert.ok(cells.every((m) => !m.refused), 'no cell is refused at the smoke size');
      const probe = cells[0].unacknowledged;
      assert.ok(['honoured', 'refused'].includes(probe.outcome), JSON.stringify(probe));
      assert.ok(cells.every((m) => m.unacknowledged.outcome === probe.outcome), 'one probe for the run');
      // FerretDB 1.24 answers fire-and-forget writes: the probe must notice it
      assert.equal(probe.outcome, server.startsWith('ferretdb') ? 'refused' : 'honoured', probe.reason);
      for (const m of cells) {
        const where = `${m.mode} ${m.layout} ${m.perBlog} per blog`;
        assert.equal(m.writeConcern, m.mode === 'safe' || probe.outcome === 'refused' ? 'w:1' : 'w:0', where);
      }
      const blogInsert = cells.find((m) => m.mode === 'safe' && m.layout === 'embedded').blogInsert;
      assert.match(blogInsert, probe.outcome === 'honoured' ? /^w:0/ : /^w:1/);
    });

    // a kind that declares none (mongod, which honours w:0) has no such test
    if (Object.keys(untestableOn(scenario, server)).length) {
      it('reports the unsafe table\'s findings as cannot be tested here where w:0 is refused', () => {
        assertDeclaredUntestable(scenario, verdictsOf(out, scenario.name), server);
      });
    }

    it('sizes each measured blog document: one comment of 1,000 characters is over 1,000 bytes', () => {
      for (const m of cells.filter((c) => c.layout === 'embedded' && !c.refused)) {
        assert.ok(m.documentBytes > m.perBlog * 1000 && m.documentBytes < m.perBlog * 1100 + 100,
          `${m.mode} ${m.perBlog} per blog: ${m.documentBytes} bytes`);
      }
    });

    it('writes summary.md with both of the article\'s tables beside its numbers, and its charts', async () => {
      const summary = fs.readFileSync(path.join(out, 'summary.md'), 'utf8');
      const cell = '(–|\\d+\\.\\d\\d)';
      assert.match(summary, /\| layout \| 1 per blog, s \(article\) \| 1 per blog, s \| 1 per blog, applied s \|/);
      assert.match(summary, new RegExp(`\\| embedded \\| 2\\.31 \\| ${cell} \\| ${cell} \\| 1\\.42 \\|`));
      assert.match(summary, new RegExp(`\\| separate \\| 1\\.30 \\| ${cell} \\| ${cell} \\| 1\\.30 \\|`));
      assert.match(summary, /\| layout \| 1 per blog, s \(article\) \| 1 per blog, s \| 10 per blog, s \(article\) \|/);
      assert.match(summary, /\| embedded \| 5\.46 \| \d+\.\d\d \| 4\.30 \| \d+\.\d\d \| 4\.96 \| \d+\.\d\d \| 13\.77 \| – \| 107\.09 \| – \|/);
      assert.match(summary, /\| separate \| 3\.69 \| \d+\.\d\d \| 3\.66 \| \d+\.\d\d \| 3\.78 \| \d+\.\d\d \| 3\.67 \| – \| 3\.71 \| – \|/);
      assert.match(summary, /Written vs intended[^\n]*: every cell wrote what it meant to\n/);
      for (const chart of ['unsafe', 'safe', 'unsafe-applied']) {
        const png = await inspectPng(fs.readFileSync(path.join(out, `embedded-comments-${chart}.png`)));
        assert.deepEqual([png.width, png.height], [1000, 560]);
        assert.ok(png.distinctColours > 10, `${chart} is not blank`);
      }
    });

    it('leaves no process it started running', async () => {
      assert.deepEqual(await leftAfter(state.tag), []);
    });
  });
}
