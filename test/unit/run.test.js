'use strict';
const assert = require('node:assert/strict');
const { defineVariables } = require('../../orchestrator/run/shells');
const { parsePasses, parseSeed } = require('../../orchestrator/commands/parse');

describe('script variables', () => {
  it('defines each variable before the file runs, JSON-encoded', () => {
    assert.equal(defineVariables({ DOCS: 1001, DB_NAME: "classics_x'y", PASS: null, SKIP: undefined }),
      'var DOCS = 1001; var DB_NAME = "classics_x\'y"; var PASS = null;');
  });
  it('refuses a name that is not an identifier', () => {
    assert.throws(() => defineVariables({ 'a;b': 1 }), /not a variable name/);
  });
});

describe('option parsers', () => {
  it('takes whole passes of at least 1', () => {
    assert.equal(parsePasses('21'), 21);
    for (const bad of ['0', '-1', 'x', '1.5', '']) assert.throws(() => parsePasses(bad), /Not a whole number/);
  });
  it('takes a 32-bit seed', () => {
    assert.equal(parseSeed('0'), 0);
    assert.throws(() => parseSeed('4294967296'), /Not a whole number/);
  });
});

describe('parallel workers', () => {
  const { combineWorkerLines } = require('../../orchestrator/run/workers');
  it('spans the first start to the last end, sums counts and tells whether the workers overlapped', () => {
    const lines = [
      { collection: 'log', mode: 'insert', worker: 0, startedAt: 1000, endedAt: 3000, inserted: 5, removed: 0, hrMs: 1999 },
      { collection: 'log', mode: 'insert', worker: 1, startedAt: 1100, endedAt: 3500, inserted: 6, removed: 0, hrMs: 2400 },
      { collection: 'log', mode: 'save', worker: 0, startedAt: 5000, endedAt: 6000, inserted: 1, removed: 0 },
      { collection: 'log', mode: 'save', worker: 1, startedAt: 6000, endedAt: 7000, inserted: 1, removed: 0 },
    ];
    const [insert, save] = combineWorkerLines(lines, ['collection', 'mode']);
    assert.equal(insert.ms, 2500);
    assert.equal(insert.inserted, 11);
    assert.equal(insert.workers, 2);
    assert.equal(insert.workersOverlapped, true);
    assert.equal(insert.worker, undefined);
    assert.equal(save.workersOverlapped, false, 'one after the other is not parallel');
    assert.equal(insert.appliedMs, undefined, 'no applied time where the shells printed no applied instant');
  });

  it('spans the first start to the last shell\'s applied instant where every shell printed one', () => {
    const lines = [
      { collection: 'log', worker: 0, startedAt: 1000, endedAt: 3000, appliedAt: 3900, appliedMs: 9, inserted: 5, removed: 0 },
      { collection: 'log', worker: 1, startedAt: 1010, endedAt: 3200, appliedAt: 4200, appliedMs: 9, inserted: 5, removed: 0 },
    ];
    const [log] = combineWorkerLines(lines, ['collection']);
    assert.equal(log.ms, 2200, 'the send span');
    assert.equal(log.appliedMs, 3200, 'the first start to the last applied instant, the same clock as ms');
    assert.equal(log.appliedAt, undefined, 'a shell\'s own instant is not the combined record\'s');
  });
});

describe('the run\'s last lines', () => {
  const { endingLines, tallyLine } = require('../../orchestrator/commands/run');
  const files = ['summary.md', 'report.html', 'verdicts.png', 'results.csv', 'verdicts.json', 'many-keys-blocks.png'];
  const report = { files, model: { tally: { holds: 1, 'holds, weaker': 1, 'does not hold': 3, inconclusive: 0, 'cannot be tested here': 9, 'published only': 5 } } };
  const out = require('node:path').join(process.cwd(), 'reports', 'runs', 'x');

  it('tallies the decided verdicts first, then the others, leaving out what counts none', () => {
    assert.equal(tallyLine(report.model.tally), '5 decided: 1 holds · 1 holds, weaker · 3 do not hold; 9 cannot be tested here; 5 published only');
    assert.equal(tallyLine({ inconclusive: 2 }), '0 decided; 2 inconclusive');
    assert.equal(tallyLine({}), 'no finding was judged');
  });

  it('ends on the tally and report.html, the folder in one line before them; --verbose names each file', () => {
    assert.deepEqual(endingLines(report, out), [
      'in reports/runs/x/: summary.md, results.csv, verdicts.json and 2 more files (--verbose names each)',
      '5 decided: 1 holds · 1 holds, weaker · 3 do not hold; 9 cannot be tested here; 5 published only',
      'open: reports/runs/x/report.html',
    ]);
    const verbose = endingLines(report, out, { verbose: true, failures: 2 });
    assert.equal(verbose[0], `wrote ${files.map((f) => `reports/runs/x/${f}`).join(', ')}`);
    assert.equal(verbose[1], '2 step(s) failed: see the Failures section of summary.md');
    assert.equal(verbose.at(-1), 'open: reports/runs/x/report.html');
  });

  it('shows a folder outside the working folder by its absolute path', () => {
    assert.equal(endingLines(report, '/elsewhere/run').at(-1), 'open: /elsewhere/run/report.html');
  });
});
