'use strict';
// docs/outputs.md's history in a notebook: every run's results.csv loaded at once, in pandas
// (a glob of reports/runs/*/results.csv) and in DuckDB (one query over all of them). The snippets
// are run as the docs give them, in a folder laid out as reports/runs/ is, on two kept examples'
// results.csv; each skips, saying why, where python3 with pandas (or duckdb) is not installed.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { skip } = require('../helpers/skips');

const ROOT = path.resolve(__dirname, '../..');
const EXAMPLES = ['auto-embedded', 'main-job-intel'];

/** A python block of docs/outputs.md's history section, by the word on its first line. */
function snippet(word) {
  const text = fs.readFileSync(path.join(ROOT, 'docs/outputs.md'), 'utf8');
  const section = text.slice(text.indexOf('## History'));
  const block = [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes(word));
  assert.ok(block, `docs/outputs.md's history section has a python block with ${word}`);
  return block;
}

/** Whether python3 can import a module: null, or why not. */
function missing(module) {
  const r = spawnSync('python3', ['-c', `import ${module}`], { encoding: 'utf8' });
  if (r.error) return 'python3 is not installed';
  return r.status === 0 ? null : `python3 has no ${module} (pip install ${module})`;
}

describe('history: every run\'s results.csv in pandas and in DuckDB, as docs/outputs.md shows', function () {
  this.timeout(120000);
  let dir;
  let rows;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'classics-notebooks-'));
    rows = 0;
    for (const name of EXAMPLES) {
      fs.mkdirSync(path.join(dir, 'reports/runs', name), { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'reports/examples', name, 'results.csv'), path.join(dir, 'reports/runs', name, 'results.csv'));
      rows += fs.readFileSync(path.join(ROOT, 'reports/examples', name, 'results.csv'), 'utf8').trim().split('\n').length - 1;
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (code) => spawnSync('python3', ['-c', code], { cwd: dir, encoding: 'utf8' });

  it('pandas: one frame of every run, its run column naming each', function () {
    const why = missing('pandas');
    if (why) skip(this, 'no pandas', why);
    const r = run(`${snippet('pandas')}\nprint(len(df), sorted(df.run.unique()))`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').at(-1), `${rows} ${JSON.stringify(EXAMPLES).replace(/"/g, '\'').replace(/,/g, ', ')}`);
  });

  it('DuckDB: one query over every run\'s results.csv', function () {
    const why = missing('duckdb');
    if (why) skip(this, 'no duckdb', why);
    const r = run(`${snippet('duckdb')}\nprint(sorted(set(r[0] for r in rows)))`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').at(-1), JSON.stringify(EXAMPLES).replace(/"/g, '\'').replace(/,/g, ', '));
  });
});
