'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { scenarioOf, smokeRunOn, verdictRows, assertDeclaredUntestable } = require('../../../test/helpers/scenario-suite');
const { inspectPng } = require('../../../test/helpers/png');
const { execFileSync } = require('node:child_process');

// The smoke size: 100 comments per cell, 1, 10 and 100 per blog.
const TOTAL = 100;
const PER_BLOG = [1, 10, 100];
const MODES = ['unsafe', 'safe'];
const LAYOUTS = ['embedded', 'separate'];

/** The kit's FerretDB and PostgreSQL servers now running, whoever started them: [{ pid, ppid }]. */
function kitServers() {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n')
    .filter((l) => /classics-ferretdb2?-|classics-pg-|postgres -D \/mnt\/data/.test(l)) // ferretdb2's PostgreSQL names its folder as bound in its root file system
    .map((l) => { const [pid, ppid] = l.trim().split(/\s+/); return { pid, ppid }; });
}

const scenario = scenarioOf(__dirname);
const FINDINGS = scenario.findings;

// the server kinds the scenario declares it runs on; a kind this machine cannot start is skipped
for (const server of scenario.kinds) {
  describe(`embedded-comments at smoke size on ${server}`, function () {
    this.timeout(300000);
    let out;
    let result;
    let run;
    let cells;

    let serversBefore;

    before(() => { serversBefore = kitServers().map((p) => p.pid); });
    const state = smokeRunOn(scenario, server, { args: ['--no-calibrate'] });
    before(() => {
      ({ out, result, run } = state);
      cells = run.measurements.filter((m) => m.scenario === 'embedded-comments');
    });


    it('exits 0 and records no failure', () => {
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(run.failures, []);
      assert.equal(run.end.status, 'ok');
    });

    it('records every cell of both tables once, measured or refused with a reason', () => {
      const seen = cells.map((m) => `${m.mode} ${m.layout} ${m.perBlog}`).sort();
      const meant = MODES.flatMap((mode) => LAYOUTS.flatMap((layout) => PER_BLOG.map((n) => `${mode} ${layout} ${n}`))).sort();
      assert.deepEqual(seen, meant);
      for (const m of cells) {
        const where = `${m.mode} ${m.layout} ${m.perBlog} per blog`;
        assert.equal(m.comments, TOTAL, where);
        assert.equal(m.blogs, TOTAL / m.perBlog, where);
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
        assert.equal(m.writtenComments, TOTAL, `${where}: comments written`);
        assert.equal(m.writtenBlogs, m.layout === 'embedded' ? TOTAL / m.perBlog : 0, `${where}: blogs written`);
        assert.equal(m.complete, true, where);
      }
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

    it('reports the unsafe table\'s findings as cannot be tested here where w:0 is refused', () => {
      assertDeclaredUntestable(scenario, fs.readFileSync(path.join(out, 'summary.md'), 'utf8'), server);
    });

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

    it('leaves no process it started running', () => {
      const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      assert.ok(!ps.split('\n').some((l) => l.includes(out)), 'a process still names the run folder');
      // Others may run the kit's servers on this machine meanwhile: a server this run left behind is
      // one that is new since it began and is still the orchestrator's child, or an orphan of it.
      const left = kitServers().filter((p) => !serversBefore.includes(p.pid) && [String(result.child.pid), '1'].includes(p.ppid));
      assert.deepEqual(left, [], 'a FerretDB or PostgreSQL started by the run is still running');
    });
  });
}
