'use strict';
// What a user takes elsewhere, through the real CLI: `list --json` and `config --json` as JSON,
// `orchestrate report` on a run folder with a broken record (one warning line on stderr naming
// its line and field, the rest rendered) and results.csv beside the report.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parse } = require('csv-parse/sync');
const { invokeOrchestrate } = require('../helpers/cli');

const EXAMPLE = path.join(__dirname, '..', '..', 'reports', 'examples', 'article-ferretdb2-trade-candles', 'results.jsonl');

describe('outputs a user takes elsewhere', function () {
  this.timeout(120000);

  it('list --json prints the scenarios as JSON and nothing else', async () => {
    const { code, stdout, stderr } = await invokeOrchestrate(['list', '--json']);
    assert.equal(code, 0, stderr);
    const { scenarios, broken } = JSON.parse(stdout);
    assert.deepEqual(broken, []);
    assert.ok(scenarios.some((s) => s.name === 'trade-candles' && s.sizes.article.TICKERS > 0 && s.auto.vary.length > 0), stdout.slice(0, 300));
  });

  it('config --json prints the settings and what this machine has as JSON and nothing else', async () => {
    const { code, stdout, stderr } = await invokeOrchestrate(['config', '--json'], { env: { CLASSICS_TEST_URI: 'mongodb://u:secret@127.0.0.1:1/' } });
    assert.equal(code, 0, stderr);
    const config = JSON.parse(stdout);
    assert.ok(config.variables.some((v) => v.name === 'CLASSICS_STATE_DIR'), stdout.slice(0, 300));
    assert.ok(config.capabilities.some((c) => c.kind === 'server' && 'missing' in c));
    assert.doesNotMatch(stdout, /secret/);
  });

  describe('report on a run folder with a broken record', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-outputs-'));
    let result;
    before(async () => {
      const lines = fs.readFileSync(EXAMPLE, 'utf8').split('\n').filter(Boolean);
      const at = lines.findIndex((l) => JSON.parse(l).type === 'measurement' && JSON.parse(l).meanUs);
      lines[at] = JSON.stringify({ ...JSON.parse(lines[at]), meanUs: 'slow' });
      fs.writeFileSync(path.join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
      result = { ...(await invokeOrchestrate(['report', dir])), line: at + 1 };
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('says in one line on stderr which line and which field, and renders the rest', () => {
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stderr, `warning: line ${result.line} (a measurement record): meanUs must be number or null, not "slow"; the record was skipped\n`);
      assert.match(result.stdout, /^wrote .*summary\.md, .*report\.html, .*verdicts\.png, .*results\.csv/);
      assert.ok(fs.existsSync(path.join(dir, 'report.html')));
    });

    it('writes results.csv beside the report, without the broken record', () => {
      const rows = parse(fs.readFileSync(path.join(dir, 'results.csv')), { columns: true });
      assert.ok(rows.length > 50);
      assert.ok(rows.every((r) => r.scenario === 'trade-candles' && r.server === 'ferretdb2'));
      assert.ok(!rows.some((r) => r.value === 'slow'));
    });
  });
});
