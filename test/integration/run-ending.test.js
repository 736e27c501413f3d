'use strict';
// The run's last lines, what a person reads first (hyperfine ends on its result): the folder in
// one line (each file only with --verbose), then the tally of the verdicts as the report counted
// them, then report.html to open. Read from the fixture run on FerretDB (test/helpers/fixture-runs.js),
// which npm test makes once for every suite.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { fixtureRun } = require('../helpers/fixture-runs');
const { skipUnless } = require('../helpers/servers');

const KIND = 'ferretdb';

describe('the run ends with the tally of its verdicts and report.html to open', function () {
  this.timeout(600000);
  let fixture;
  before(async function () {
    skipUnless(this, KIND);
    fixture = await fixtureRun(KIND);
  });

  it('prints the tally the report shows, then the path of report.html a user can copy, last', () => {
    const lines = fixture.stdout.trim().split('\n');
    const rel = path.relative(process.cwd(), fixture.out);
    const shown = rel.startsWith('..') ? fixture.out : rel;
    assert.equal(lines.at(-1), `open: ${path.join(shown, 'report.html')}`, fixture.stdout.slice(-600));
    assert.ok(fs.existsSync(path.join(fixture.out, 'report.html')));

    // the page's tally chips, read from the page itself
    const html = fs.readFileSync(path.join(fixture.out, 'report.html'), 'utf8');
    const tallyDiv = /<div class="tally">([\s\S]*?)<\/div>/.exec(html)[1];
    const chips = [...tallyDiv.matchAll(/<span class="chip [^"]*">(\d+) ([^<]+)<\/span>/g)].map(([, n, status]) => ({ n: Number(n), status }));
    assert.ok(chips.length > 0, 'the page has a tally');
    // a status of several findings in the plural, as a person says it ("3 do not hold")
    const plural = { holds: 'hold', 'holds, weaker': 'hold, weaker', 'does not hold': 'do not hold', 'needs a larger size': 'need a larger size' };
    const said = (c) => `${c.n} ${c.n === 1 ? c.status : plural[c.status] || c.status}`;
    const decided = chips.filter((c) => ['holds', 'holds, weaker', 'does not hold'].includes(c.status));
    const others = chips.filter((c) => !decided.includes(c));
    const expected = [
      `${decided.reduce((n, c) => n + c.n, 0)} decided${decided.length ? `: ${decided.map(said).join(' · ')}` : ''}`,
      ...others.map(said),
    ].join('; ');
    assert.equal(lines.at(-2), expected);
  });

  it('names the folder in one line and lists no file path without --verbose', () => {
    const lines = fixture.stdout.trim().split('\n');
    const folderLines = lines.filter((l) => l.includes(fixture.out) && !l.startsWith('results: ') && !l.startsWith('open: '));
    assert.equal(folderLines.length, 1, folderLines.join('\n'));
    assert.match(folderLines[0], /: summary\.md, results\.csv, verdicts\.json and \d+ more files \(--verbose names each\)$/);
    assert.ok(!lines.some((l) => l.startsWith('wrote ')), 'the list of files is behind --verbose');
    assert.doesNotMatch(fixture.stdout, /\.png\b/);
  });
});
